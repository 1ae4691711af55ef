/* Vulkan device for the render-graph tests (see graph_rig.h). */
#include "graph_rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validation_layer[] = "VK_LAYER_KHRONOS_validation";

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)types;
    graph_rig *rig = user;
    if (!(severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)))
        return VK_FALSE;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "-";
    rig->messages++;
    if (strstr(id, "SYNC-HAZARD"))
        rig->hazards++;
    if (!rig->quiet_messages || getenv("VKSORT_TEST_VERBOSE"))
        fprintf(stderr, "VALIDATION %s: [%s] %s\n",
                (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "ERROR" : "WARNING", id,
                data->pMessage ? data->pMessage : "");
    else
        fprintf(stderr, "(expected) validation message [%s]\n", id);
    return VK_FALSE;
}

static int has_layer(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *p = calloc(n ? n : 1, sizeof *p);
    int found = 0;
    if (p && vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            found |= strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

static int has_device_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
    int found = 0;
    if (p && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            found |= strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

int graph_rig_create(graph_rig *rig)
{
    memset(rig, 0, sizeof *rig);
    rig->validation = has_layer(validation_layer);
    if (!rig->validation) {
        const char *allow = getenv("VKSORT_TEST_ALLOW_NO_VALIDATION");
        if (!allow || allow[0] != '1') {
            fprintf(stderr, "graph_rig: %s not found (VKSORT_TEST_ALLOW_NO_VALIDATION=1 to run without)\n",
                    validation_layer);
            return -1;
        }
    }
    uint32_t api = 0;
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_3) {
        fprintf(stderr, "graph_rig: a Vulkan 1.3 instance is required\n");
        return -1;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort graph tests";
    app.apiVersion = VK_API_VERSION_1_3;

    VkDebugUtilsMessengerCreateInfoEXT mci = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = on_message;
    mci.pUserData = rig;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    vf.enabledValidationFeatureCount = 1;
    vf.pEnabledValidationFeatures = enables;
    vf.pNext = &mci;
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    const char *layers[] = {validation_layer};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = rig->validation ? 2 : 1;
    ici.ppEnabledExtensionNames = exts;
    ici.enabledLayerCount = rig->validation ? 1 : 0;
    ici.ppEnabledLayerNames = layers;
    ici.pNext = rig->validation ? (const void *)&vf : (const void *)&mci;
    VkResult vr = vkCreateInstance(&ici, NULL, &rig->instance);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "graph_rig: vkCreateInstance failed (%d)\n", (int)vr);
        return -1;
    }
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(rig->instance,
                                                                  "vkCreateDebugUtilsMessengerEXT");
    if (!create_messenger || create_messenger(rig->instance, &mci, NULL, &rig->messenger) != VK_SUCCESS) {
        fprintf(stderr, "graph_rig: no debug messenger\n");
        graph_rig_destroy(rig);
        return -1;
    }

    uint32_t n = 0;
    vkEnumeratePhysicalDevices(rig->instance, &n, NULL);
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof *pds);
    vkEnumeratePhysicalDevices(rig->instance, &n, pds);
    const char *want = getenv("VKSORT_TEST_DEVICE_NAME");
    for (uint32_t i = 0; i < n && !rig->physical_device; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if ((!want || !*want || strstr(p.deviceName, want)) && p.apiVersion >= VK_API_VERSION_1_3)
            rig->physical_device = pds[i];
    }
    free(pds);
    if (!rig->physical_device) {
        fprintf(stderr, "graph_rig: no Vulkan 1.3 device%s%s\n", want ? " named like " : "",
                want ? want : "");
        graph_rig_destroy(rig);
        return -1;
    }
    vkGetPhysicalDeviceProperties(rig->physical_device, &rig->props);
    vkGetPhysicalDeviceMemoryProperties(rig->physical_device, &rig->memory);
    if (!has_device_extension(rig->physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
        fprintf(stderr, "graph_rig: %s lacks VK_KHR_push_descriptor\n", rig->props.deviceName);
        graph_rig_destroy(rig);
        return -1;
    }
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f13;
    vkGetPhysicalDeviceFeatures2(rig->physical_device, &f2);
    if (!f13.synchronization2 || !f13.dynamicRendering) {
        fprintf(stderr, "graph_rig: synchronization2 and dynamicRendering are required\n");
        graph_rig_destroy(rig);
        return -1;
    }
    VkPhysicalDeviceVulkan13Features en13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    en13.synchronization2 = VK_TRUE;
    en13.dynamicRendering = VK_TRUE;
    VkPhysicalDeviceFeatures2 en2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    en2.pNext = &en13;

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(rig->physical_device, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(rig->physical_device, &qn, qf);
    rig->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && rig->queue_family == UINT32_MAX; ++i)
        if ((qf[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
            rig->queue_family = i;
    free(qf);
    if (rig->queue_family == UINT32_MAX) {
        fprintf(stderr, "graph_rig: no graphics+compute queue\n");
        graph_rig_destroy(rig);
        return -1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = rig->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    rig->extensions[0] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    rig->extension_count = 1;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &en2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = rig->extension_count;
    dci.ppEnabledExtensionNames = rig->extensions;
    vr = vkCreateDevice(rig->physical_device, &dci, NULL, &rig->device);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "graph_rig: vkCreateDevice failed (%d)\n", (int)vr);
        graph_rig_destroy(rig);
        return -1;
    }
    vkGetDeviceQueue(rig->device, rig->queue_family, 0, &rig->queue);
    rig->push_descriptor = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
        rig->device, "vkCmdPushDescriptorSetKHR");
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = rig->queue_family;
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    if (!rig->push_descriptor ||
        vkCreateCommandPool(rig->device, &pci, NULL, &rig->pool) != VK_SUCCESS) {
        graph_rig_destroy(rig);
        return -1;
    }
    printf("device: %s, validation %s\n", rig->props.deviceName,
           rig->validation ? "on (synchronization validation on)" : "OFF");
    return 0;
}

void graph_rig_destroy(graph_rig *rig)
{
    if (rig->device) {
        vkDeviceWaitIdle(rig->device);
        if (rig->pool)
            vkDestroyCommandPool(rig->device, rig->pool, NULL);
        vkDestroyDevice(rig->device, NULL);
    }
    if (rig->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(rig->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(rig->instance, rig->messenger, NULL);
    }
    if (rig->instance)
        vkDestroyInstance(rig->instance, NULL);
    int messages = rig->messages, hazards = rig->hazards;
    memset(rig, 0, sizeof *rig);
    rig->messages = messages;
    rig->hazards = hazards;
}

static int memory_type(const graph_rig *rig, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < rig->memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (rig->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

int graph_rig_buffer_create(graph_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                            graph_rig_buffer *out)
{
    memset(out, 0, sizeof *out);
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    if (vkCreateBuffer(rig->device, &bci, NULL, &out->buffer) != VK_SUCCESS)
        return -1;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(rig->device, out->buffer, &req);
    int type = memory_type(rig, req.memoryTypeBits,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (type < 0 || vkAllocateMemory(rig->device, &mai, NULL, &out->memory) != VK_SUCCESS ||
        vkBindBufferMemory(rig->device, out->buffer, out->memory, 0) != VK_SUCCESS ||
        vkMapMemory(rig->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped) != VK_SUCCESS) {
        graph_rig_buffer_destroy(rig, out);
        return -1;
    }
    out->size = size;
    memset(out->mapped, 0, (size_t)size);
    return 0;
}

void graph_rig_buffer_destroy(graph_rig *rig, graph_rig_buffer *b)
{
    if (b->buffer)
        vkDestroyBuffer(rig->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(rig->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

int graph_rig_image_create(graph_rig *rig, VkFormat format, uint32_t width, uint32_t height,
                           VkImageUsageFlags usage, graph_rig_image *out)
{
    memset(out, 0, sizeof *out);
    VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = (VkExtent3D){width, height, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    if (vkCreateImage(rig->device, &ici, NULL, &out->image) != VK_SUCCESS)
        return -1;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(rig->device, out->image, &req);
    int type = memory_type(rig, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = memory_type(rig, req.memoryTypeBits, 0);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (type < 0 || vkAllocateMemory(rig->device, &mai, NULL, &out->memory) != VK_SUCCESS ||
        vkBindImageMemory(rig->device, out->image, out->memory, 0) != VK_SUCCESS) {
        graph_rig_image_destroy(rig, out);
        return -1;
    }
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = out->image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (vkCreateImageView(rig->device, &vci, NULL, &out->view) != VK_SUCCESS) {
        graph_rig_image_destroy(rig, out);
        return -1;
    }
    return 0;
}

void graph_rig_image_destroy(graph_rig *rig, graph_rig_image *img)
{
    if (img->view)
        vkDestroyImageView(rig->device, img->view, NULL);
    if (img->image)
        vkDestroyImage(rig->device, img->image, NULL);
    if (img->memory)
        vkFreeMemory(rig->device, img->memory, NULL);
    memset(img, 0, sizeof *img);
}

VkCommandBuffer graph_rig_begin(graph_rig *rig)
{
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = rig->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (vkAllocateCommandBuffers(rig->device, &cai, &cmd) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &bi);
    return cmd;
}

int graph_rig_submit_wait(graph_rig *rig, VkCommandBuffer cmd)
{
    int rc = vkEndCommandBuffer(cmd) == VK_SUCCESS ? 0 : -1;
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (rc == 0 && vkCreateFence(rig->device, &fci, NULL, &fence) != VK_SUCCESS)
        rc = -1;
    if (rc == 0) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        if (vkQueueSubmit(rig->queue, 1, &si, fence) != VK_SUCCESS ||
            vkWaitForFences(rig->device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
            rc = -1;
    }
    if (fence)
        vkDestroyFence(rig->device, fence, NULL);
    vkFreeCommandBuffers(rig->device, rig->pool, 1, &cmd);
    return rc;
}

VkShaderModule graph_rig_shader(graph_rig *rig, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "graph_rig: cannot open %s\n", path);
        return VK_NULL_HANDLE;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = malloc((size_t)len);
    size_t got = code ? fread(code, 1, (size_t)len, f) : 0;
    fclose(f);
    VkShaderModule m = VK_NULL_HANDLE;
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = (size_t)len;
    ci.pCode = code;
    if (got != (size_t)len || vkCreateShaderModule(rig->device, &ci, NULL, &m) != VK_SUCCESS)
        m = VK_NULL_HANDLE;
    free(code);
    return m;
}
