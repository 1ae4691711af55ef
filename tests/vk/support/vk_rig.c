/* Vulkan test rig (see vk_rig.h). */
#include "vk_rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char validation_layer[] = "VK_LAYER_KHRONOS_validation";

double vk_rig_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    return atoi(v);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL messenger_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    vk_rig *rig = user;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        if (rig)
            rig->messages++;
        fprintf(stderr, "VALIDATION %s: [%s] %s\n",
                (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "ERROR" : "WARNING",
                data->pMessageIdName ? data->pMessageIdName : "-",
                data->pMessage ? data->pMessage : "");
        fflush(stderr);
    }
    return VK_FALSE;
}

static int has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
        return 0;
    VkLayerProperties *props = calloc(n ? n : 1, sizeof *props);
    int found = 0;
    if (props && vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            if (strcmp(props[i].layerName, name) == 0)
                found = 1;
    free(props);
    return found;
}

static int has_instance_extension(const char *layer, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    int found = 0;
    if (props && vkEnumerateInstanceExtensionProperties(layer, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            if (strcmp(props[i].extensionName, name) == 0)
                found = 1;
    free(props);
    return found;
}

static int has_device_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    int found = 0;
    if (props && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            if (strcmp(props[i].extensionName, name) == 0)
                found = 1;
    free(props);
    return found;
}

static const char *device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

int vk_rig_list_devices(void)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance inst;
    if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
        return -1;
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(inst, &n, NULL);
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof *pds);
    vkEnumeratePhysicalDevices(inst, &n, pds);
    for (uint32_t i = 0; i < n; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        printf("%u: %s (%s)\n", i, p.deviceName, device_type_name(p.deviceType));
    }
    free(pds);
    vkDestroyInstance(inst, NULL);
    return (int)n;
}

int vk_rig_create(vk_rig *rig, const vk_rig_options *options)
{
    memset(rig, 0, sizeof *rig);
    vk_rig_options opt = {1, -1, 0};
    if (options)
        opt = *options;

    int want_validation = opt.validation;
    if (want_validation && !has_layer(validation_layer)) {
        if (env_int("VKSORT_TEST_ALLOW_NO_VALIDATION", 0)) {
            fprintf(stderr, "vk_rig: %s not found; running WITHOUT validation "
                            "(VKSORT_TEST_ALLOW_NO_VALIDATION=1)\n", validation_layer);
            want_validation = 0;
        } else {
            fprintf(stderr, "vk_rig: %s not found (install vulkan-validationlayers, or set "
                            "VKSORT_TEST_ALLOW_NO_VALIDATION=1 to run without it)\n",
                    validation_layer);
            return -1;
        }
    }
    rig->validation = want_validation;
    rig->debug_utils = has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (want_validation && !rig->debug_utils) {
        fprintf(stderr, "vk_rig: %s is missing; validation messages could not be seen\n",
                VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        return -1;
    }

    const char *exts[4];
    uint32_t next = 0;
    if (rig->debug_utils)
        exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    int validation_features =
        want_validation &&
        has_instance_extension(validation_layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    if (validation_features)
        exts[next++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    if (want_validation && !validation_features) {
        fprintf(stderr, "vk_rig: the validation layer lacks %s (no synchronization validation)\n",
                VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        return -1;
    }

    uint32_t api = VK_API_VERSION_1_1;
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_1) {
        fprintf(stderr, "vk_rig: Vulkan 1.1 instance required\n");
        return -1;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort tests";
    app.apiVersion = api >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : api;
    rig->instance_api = app.apiVersion;

    VkDebugUtilsMessengerCreateInfoEXT mci = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = messenger_callback;
    mci.pUserData = rig;

    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    vf.enabledValidationFeatureCount = 1;
    vf.pEnabledValidationFeatures = enables;
    vf.pNext = rig->debug_utils ? &mci : NULL;

    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = next;
    ici.ppEnabledExtensionNames = exts;
    const char *layers[] = {validation_layer};
    if (want_validation) {
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = layers;
        ici.pNext = &vf;
    } else if (rig->debug_utils) {
        ici.pNext = &mci;
    }
    VkResult vr = vkCreateInstance(&ici, NULL, &rig->instance);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "vk_rig: vkCreateInstance failed (%d)\n", (int)vr);
        return -1;
    }
    if (rig->debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(rig->instance, "vkCreateDebugUtilsMessengerEXT");
        if (!create || create(rig->instance, &mci, NULL, &rig->messenger) != VK_SUCCESS) {
            fprintf(stderr, "vk_rig: could not create the debug messenger\n");
            vk_rig_destroy(rig);
            return -1;
        }
    }

    uint32_t n = 0;
    vkEnumeratePhysicalDevices(rig->instance, &n, NULL);
    int index = opt.device_index >= 0 ? opt.device_index : env_int("VKSORT_TEST_DEVICE", 0);
    if (n == 0 || index < 0 || (uint32_t)index >= n) {
        fprintf(stderr, "vk_rig: physical device %d not found (%u devices)\n", index, n);
        vk_rig_destroy(rig);
        return -1;
    }
    VkPhysicalDevice *pds = calloc(n, sizeof *pds);
    vkEnumeratePhysicalDevices(rig->instance, &n, pds);
    const char *want_name = getenv("VKSORT_TEST_DEVICE_NAME");
    if (want_name && *want_name && opt.device_index < 0) {
        index = -1;
        for (uint32_t i = 0; i < n && index < 0; ++i) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(pds[i], &p);
            if (strstr(p.deviceName, want_name))
                index = (int)i;
        }
        if (index < 0) {
            fprintf(stderr, "vk_rig: no physical device named like '%s' (VKSORT_TEST_DEVICE_NAME)\n",
                    want_name);
            free(pds);
            vk_rig_destroy(rig);
            return -1;
        }
    }
    rig->physical_device = pds[index];
    free(pds);
    vkGetPhysicalDeviceProperties(rig->physical_device, &rig->props);
    vkGetPhysicalDeviceMemoryProperties(rig->physical_device, &rig->memory);

    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    vkGetPhysicalDeviceProperties2(rig->physical_device, &p2);
    rig->subgroup_size = sg.subgroupSize;

    if (!has_device_extension(rig->physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
        fprintf(stderr, "vk_rig: %s lacks %s\n", rig->props.deviceName,
                VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
        vk_rig_destroy(rig);
        return -1;
    }

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(rig->physical_device, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(rig->physical_device, &qn, qf);
    rig->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn; ++i) {
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            rig->queue_family = i;
            rig->timestamp_valid_bits = qf[i].timestampValidBits;
            break;
        }
    }
    free(qf);
    if (rig->queue_family == UINT32_MAX) {
        fprintf(stderr, "vk_rig: no compute queue\n");
        vk_rig_destroy(rig);
        return -1;
    }

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = rig->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    /* Push descriptors (required by vksort); subgroupPartitionNV where the device has it
     * (VKSORT_TEST_NO_PARTITIONED=1 leaves it off to test the ballot path there too). */
    rig->enabled_extensions[0] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    rig->enabled_extension_count = 1;
    const char *no_part = getenv("VKSORT_TEST_NO_PARTITIONED");
    if (has_device_extension(rig->physical_device, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) &&
        !(no_part && no_part[0] == '1'))
        rig->enabled_extensions[rig->enabled_extension_count++] =
            VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME;
    /* Subgroup size control (Vulkan 1.3) where the device has it, so that the sorter can pin
     * its radix pipelines' subgroup size (VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL). */
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    if (rig->props.apiVersion >= VK_API_VERSION_1_3 && rig->instance_api >= VK_API_VERSION_1_3) {
        f2.pNext = &f13;
        vkGetPhysicalDeviceFeatures2(rig->physical_device, &f2);
        int both = f13.subgroupSizeControl && f13.computeFullSubgroups;
        memset(&f13, 0, sizeof f13);
        f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
        f13.subgroupSizeControl = f13.computeFullSubgroups = both ? VK_TRUE : VK_FALSE;
        rig->subgroup_size_control = both;
    }
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = rig->subgroup_size_control ? &f13 : NULL;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = rig->enabled_extension_count;
    dci.ppEnabledExtensionNames = rig->enabled_extensions;
    vr = vkCreateDevice(rig->physical_device, &dci, NULL, &rig->device);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "vk_rig: vkCreateDevice failed (%d)\n", (int)vr);
        vk_rig_destroy(rig);
        return -1;
    }
    vkGetDeviceQueue(rig->device, rig->queue_family, 0, &rig->queue);

    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = rig->queue_family;
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    if (vkCreateCommandPool(rig->device, &pci, NULL, &rig->pool) != VK_SUCCESS) {
        vk_rig_destroy(rig);
        return -1;
    }
    if (!opt.quiet)
        printf("device %d: %s (%s), subgroup size %u, validation %s\n", index,
               rig->props.deviceName, device_type_name(rig->props.deviceType), rig->subgroup_size,
               rig->validation ? "on (synchronization validation on)" : "OFF");
    return 0;
}

int vk_rig_check_subgroup(const vk_rig *rig)
{
    int expect = env_int("VKSORT_TEST_EXPECT_SUBGROUP", 0);
    if (expect <= 0)
        return 0;
    if ((uint32_t)expect != rig->subgroup_size) {
        fprintf(stderr, "vk_rig: subgroup size %u, expected %d (VKSORT_TEST_EXPECT_SUBGROUP; on "
                        "lavapipe LP_NATIVE_VECTOR_WIDTH 128/256/512 gives 4/8/16)\n",
                rig->subgroup_size, expect);
        return -1;
    }
    return 0;
}

void vk_rig_destroy(vk_rig *rig)
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
    int messages = rig->messages;
    memset(rig, 0, sizeof *rig);
    rig->messages = messages;
}

static int find_memory_type(const vk_rig *rig, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < rig->memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (rig->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

int vk_rig_buffer_create(vk_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                         int host_visible, vk_rig_buffer *out)
{
    memset(out, 0, sizeof *out);
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size ? size : 4;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (vkCreateBuffer(rig->device, &bci, NULL, &out->buffer) != VK_SUCCESS)
        return -1;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(rig->device, out->buffer, &req);
    VkMemoryPropertyFlags want = host_visible
                                     ? (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
                                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int type = find_memory_type(rig, req.memoryTypeBits, want);
    if (type < 0 && !host_visible)
        type = find_memory_type(rig, req.memoryTypeBits, 0);
    if (type < 0) {
        vk_rig_buffer_destroy(rig, out);
        return -1;
    }
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (vkAllocateMemory(rig->device, &mai, NULL, &out->memory) != VK_SUCCESS) {
        vk_rig_buffer_destroy(rig, out);
        return -1;
    }
    vkBindBufferMemory(rig->device, out->buffer, out->memory, 0);
    if (host_visible && vkMapMemory(rig->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped) !=
                            VK_SUCCESS) {
        vk_rig_buffer_destroy(rig, out);
        return -1;
    }
    out->size = bci.size;
    return 0;
}

void vk_rig_buffer_destroy(vk_rig *rig, vk_rig_buffer *b)
{
    if (b->buffer)
        vkDestroyBuffer(rig->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(rig->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

VkCommandBuffer vk_rig_begin(vk_rig *rig)
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

int vk_rig_submit_wait(vk_rig *rig, VkCommandBuffer cmd)
{
    int rc = 0;
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS)
        rc = -1;
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

void vk_rig_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = src_access;
    mb.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}
