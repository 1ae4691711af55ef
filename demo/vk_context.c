/* Vulkan instance, device and memory helpers of the demo (see vk_context.h). */
#include "vk_context.h"

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
    vk_context *ctx = user;
    if (!(severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)))
        return VK_FALSE;
    ctx->messages++;
    fprintf(stderr, "VALIDATION %s: [%s] %s\n",
            (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "ERROR" : "WARNING",
            data->pMessageIdName ? data->pMessageIdName : "-", data->pMessage ? data->pMessage : "");
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

static int has_instance_extension(const char *name)
{
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
    int found = 0;
    if (p && vkEnumerateInstanceExtensionProperties(NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; ++i)
            found |= strcmp(p[i].extensionName, name) == 0;
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

static int create_instance(const vk_context_options *opt, vk_context *ctx,
                           VkDebugUtilsMessengerCreateInfoEXT *mci)
{
    if (opt->validation && !has_layer(validation_layer)) {
        fprintf(stderr, "vksort-demo: --validation: %s is not installed (vulkan-validationlayers)\n",
                validation_layer);
        return -1;
    }
    ctx->validation = opt->validation;
    ctx->debug_utils = has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    uint32_t api = 0;
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_3) {
        fprintf(stderr, "vksort-demo: a Vulkan 1.3 loader is required\n");
        return -1;
    }
    const char *exts[16];
    uint32_t n = 0;
    for (uint32_t i = 0; i < opt->instance_extension_count && n < 12; ++i)
        exts[n++] = opt->instance_extensions[i];
    if (ctx->debug_utils)
        exts[n++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (opt->validation)
        exts[n++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort particle demo";
    app.apiVersion = VK_API_VERSION_1_3;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    vf.enabledValidationFeatureCount = 1;
    vf.pEnabledValidationFeatures = enables;
    vf.pNext = ctx->debug_utils ? mci : NULL;
    const char *layers[] = {validation_layer};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = n;
    ici.ppEnabledExtensionNames = exts;
    ici.enabledLayerCount = opt->validation ? 1 : 0;
    ici.ppEnabledLayerNames = layers;
    ici.pNext = opt->validation ? (const void *)&vf : (ctx->debug_utils ? (const void *)mci : NULL);
    VkResult vr = vkCreateInstance(&ici, NULL, &ctx->instance);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: vkCreateInstance failed (VkResult %d)\n", (int)vr);
        return -1;
    }
    return 0;
}

static int pick_device(vk_context *ctx)
{
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(ctx->instance, &n, NULL);
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof *pds);
    if (!pds)
        return -1;
    vkEnumeratePhysicalDevices(ctx->instance, &n, pds);
    const char *want = getenv("VKSORT_DEMO_DEVICE");
    int best = -1, best_score = -1;
    for (uint32_t i = 0; i < n; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        /* Vulkan 1.3, or 1.2 with the two extensions the graph needs (RenderDoc 1.24 reports
         * apiVersion 1.2.0 for lavapipe while exposing both: docs/demo.md). */
        const int ok13 = p.apiVersion >= VK_API_VERSION_1_3;
        const int ok12 = p.apiVersion >= VK_API_VERSION_1_2 &&
                         has_device_extension(pds[i], VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME) &&
                         has_device_extension(pds[i], VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
        const int push = has_device_extension(pds[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
        if (!(ok13 || ok12) || !push) {
            fprintf(stderr, "vksort-demo: skipping %s: Vulkan %u.%u.%u%s%s\n", p.deviceName,
                    VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
                    VK_API_VERSION_PATCH(p.apiVersion),
                    ok13 || ok12 ? "" : " without VK_KHR_synchronization2 + VK_KHR_dynamic_rendering",
                    push ? "" : ", no VK_KHR_push_descriptor");
            continue;
        }
        if (want && *want && !strstr(p.deviceName, want))
            continue;
        int score = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 3
                  : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 2
                  : 1;
        if (score > best_score) {
            best_score = score;
            best = (int)i;
        }
    }
    if (best >= 0)
        ctx->physical_device = pds[best];
    free(pds);
    if (!ctx->physical_device) {
        fprintf(stderr, "vksort-demo: no Vulkan 1.3 (or 1.2 + VK_KHR_synchronization2 + "
                        "VK_KHR_dynamic_rendering) device with VK_KHR_push_descriptor%s%s\n",
                want ? " named like " : "", want ? want : "");
        return -1;
    }
    vkGetPhysicalDeviceProperties(ctx->physical_device, &ctx->props);
    vkGetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory);
    ctx->is_cpu = ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    ctx->api13 = ctx->props.apiVersion >= VK_API_VERSION_1_3;
    VkPhysicalDeviceIDProperties idp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &idp;
    vkGetPhysicalDeviceProperties2(ctx->physical_device, &p2);
    memcpy(ctx->device_uuid, idp.deviceUUID, 16);
    return 0;
}

int vk_context_create(const vk_context_options *opt, vk_context *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    VkDebugUtilsMessengerCreateInfoEXT mci = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = on_message;
    mci.pUserData = ctx;
    if (create_instance(opt, ctx, &mci))
        return -1;
    if (ctx->debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT");
        if (create_messenger)
            create_messenger(ctx->instance, &mci, NULL, &ctx->messenger);
        ctx->begin_label = (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(
            ctx->instance, "vkCmdBeginDebugUtilsLabelEXT");
        ctx->end_label = (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(
            ctx->instance, "vkCmdEndDebugUtilsLabelEXT");
        ctx->set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(
            ctx->instance, "vkSetDebugUtilsObjectNameEXT");
        if (!ctx->begin_label || !ctx->end_label || !ctx->set_name)
            ctx->debug_utils = 0;
    }
    if (pick_device(ctx)) {
        vk_context_destroy(ctx);
        return -1;
    }
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceSynchronization2Features fs2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    VkPhysicalDeviceDynamicRenderingFeatures fdr = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &fs2;
    fs2.pNext = &fdr;
    fdr.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(ctx->physical_device, &f2);
    if (!fs2.synchronization2 || !fdr.dynamicRendering) {
        fprintf(stderr, "vksort-demo: %s lacks synchronization2 or dynamicRendering\n",
                ctx->props.deviceName);
        vk_context_destroy(ctx);
        return -1;
    }
    ctx->extensions[ctx->extension_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    if (!ctx->api13) {
        ctx->extensions[ctx->extension_count++] = VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME;
        ctx->extensions[ctx->extension_count++] = VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
    }
    if (opt->swapchain)
        ctx->extensions[ctx->extension_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (opt->want_external && f12.timelineSemaphore &&
        has_device_extension(ctx->physical_device, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) &&
        has_device_extension(ctx->physical_device, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
        ctx->extensions[ctx->extension_count++] = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
        ctx->extensions[ctx->extension_count++] = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
        ctx->external = 1;
    }
    if (has_device_extension(ctx->physical_device, "VK_NV_shader_subgroup_partitioned"))
        ctx->extensions[ctx->extension_count++] = "VK_NV_shader_subgroup_partitioned";

    VkPhysicalDeviceVulkan12Features en12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    en12.timelineSemaphore = ctx->external ? VK_TRUE : VK_FALSE;
    /* The two features through their extension structs: valid on 1.3 and on 1.2 + extensions. */
    VkPhysicalDeviceSynchronization2Features en_s2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    en_s2.synchronization2 = VK_TRUE;
    VkPhysicalDeviceDynamicRenderingFeatures en_dr = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    en_dr.dynamicRendering = VK_TRUE;
    en_s2.pNext = &en_dr;
    en_dr.pNext = &en12;
    VkPhysicalDeviceFeatures2 en2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    en2.pNext = &en_s2;

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    if (!qf) {
        vk_context_destroy(ctx);
        return -1;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical_device, &qn, qf);
    ctx->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && ctx->queue_family == UINT32_MAX; ++i)
        if ((qf[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
                (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT) &&
            qf[i].timestampValidBits > 0)
            ctx->queue_family = i;
    free(qf);
    if (ctx->queue_family == UINT32_MAX) {
        fprintf(stderr, "vksort-demo: no graphics+compute queue with timestamps\n");
        vk_context_destroy(ctx);
        return -1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = ctx->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &en2;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = ctx->extension_count;
    dci.ppEnabledExtensionNames = ctx->extensions;
    VkResult vr = vkCreateDevice(ctx->physical_device, &dci, NULL, &ctx->device);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: vkCreateDevice failed (VkResult %d)\n", (int)vr);
        vk_context_destroy(ctx);
        return -1;
    }
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    ctx->push_descriptor = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
        ctx->device, "vkCmdPushDescriptorSetKHR");
    ctx->queue_submit2 = (PFN_vkQueueSubmit2)vkGetDeviceProcAddr(
        ctx->device, ctx->api13 ? "vkQueueSubmit2" : "vkQueueSubmit2KHR");
    if (ctx->external) {
        ctx->get_memory_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(ctx->device, "vkGetMemoryFdKHR");
        ctx->get_semaphore_fd =
            (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(ctx->device, "vkGetSemaphoreFdKHR");
        if (!ctx->get_memory_fd || !ctx->get_semaphore_fd)
            ctx->external = 0;
    }
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = ctx->queue_family;
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    if (!ctx->push_descriptor || !ctx->queue_submit2 || vkCreateCommandPool(ctx->device, &pci, NULL, &ctx->pool) != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: device set-up failed\n");
        vk_context_destroy(ctx);
        return -1;
    }
    return 0;
}

void vk_context_destroy(vk_context *ctx)
{
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device);
        if (ctx->pool)
            vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
        vkDestroyDevice(ctx->device, NULL);
        ctx->device = VK_NULL_HANDLE;
    }
    if (ctx->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(ctx->instance, ctx->messenger, NULL);
        ctx->messenger = VK_NULL_HANDLE;
    }
    if (ctx->instance)
        vkDestroyInstance(ctx->instance, NULL);
    ctx->instance = VK_NULL_HANDLE;
}

void vk_name(const vk_context *ctx, VkObjectType type, uint64_t handle, const char *name)
{
    if (!ctx->debug_utils || !name)
        return;
    VkDebugUtilsObjectNameInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    ctx->set_name(ctx->device, &info);
}

void vk_label_begin(const vk_context *ctx, VkCommandBuffer cmd, const char *name)
{
    if (!ctx->debug_utils)
        return;
    VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    label.color[0] = 0.9f;
    label.color[1] = 0.6f;
    label.color[2] = 0.2f;
    label.color[3] = 1.0f;
    ctx->begin_label(cmd, &label);
}

void vk_label_end(const vk_context *ctx, VkCommandBuffer cmd)
{
    if (ctx->debug_utils)
        ctx->end_label(cmd);
}

static int memory_type(const vk_context *ctx, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (ctx->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

int vk_buffer_create(vk_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage, int kind,
                     const char *name, vk_buffer *out)
{
    memset(out, 0, sizeof *out);
    VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    bci.pNext = kind == VK_BUFFER_EXPORT ? &ext : NULL;
    VkResult cr = vkCreateBuffer(ctx->device, &bci, NULL, &out->buffer);
    if (cr != VK_SUCCESS) {
        out->buffer = VK_NULL_HANDLE;
        fprintf(stderr, "vksort-demo: cannot create %s (%llu bytes, VkResult %d)\n",
                name ? name : "a buffer", (unsigned long long)size, (int)cr);
        return -1;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx->device, out->buffer, &req);
    int type = -1;
    if (kind == VK_BUFFER_HOST) {
        type = memory_type(ctx, req.memoryTypeBits,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                               VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        if (type < 0)
            type = memory_type(ctx, req.memoryTypeBits,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    } else {
        type = memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (type < 0)
            type = memory_type(ctx, req.memoryTypeBits, 0);
    }
    VkExportMemoryAllocateInfo exp = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exp.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryDedicatedAllocateInfo ded = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    ded.buffer = out->buffer;
    ded.pNext = &exp;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    mai.pNext = kind == VK_BUFFER_EXPORT ? &ded : NULL;
    if (type < 0 || vkAllocateMemory(ctx->device, &mai, NULL, &out->memory) != VK_SUCCESS ||
        vkBindBufferMemory(ctx->device, out->buffer, out->memory, 0) != VK_SUCCESS ||
        (kind == VK_BUFFER_HOST &&
         vkMapMemory(ctx->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped) != VK_SUCCESS)) {
        vk_buffer_destroy(ctx, out);
        fprintf(stderr, "vksort-demo: cannot allocate %s (%llu bytes)\n", name ? name : "a buffer",
                (unsigned long long)size);
        return -1;
    }
    out->size = size;
    out->allocation_size = req.size;
    vk_name(ctx, VK_OBJECT_TYPE_BUFFER, (uint64_t)out->buffer, name);
    return 0;
}

void vk_buffer_destroy(vk_context *ctx, vk_buffer *b)
{
    if (b->buffer)
        vkDestroyBuffer(ctx->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(ctx->device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

int vk_image_create(vk_context *ctx, VkFormat format, uint32_t width, uint32_t height,
                    VkImageUsageFlags usage, const char *name, vk_image *out)
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
    if (vkCreateImage(ctx->device, &ici, NULL, &out->image) != VK_SUCCESS)
        return -1;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx->device, out->image, &req);
    int type = memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = memory_type(ctx, req.memoryTypeBits, 0);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (type < 0 || vkAllocateMemory(ctx->device, &mai, NULL, &out->memory) != VK_SUCCESS ||
        vkBindImageMemory(ctx->device, out->image, out->memory, 0) != VK_SUCCESS) {
        vk_image_destroy(ctx, out);
        return -1;
    }
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = out->image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (vkCreateImageView(ctx->device, &vci, NULL, &out->view) != VK_SUCCESS) {
        vk_image_destroy(ctx, out);
        return -1;
    }
    vk_name(ctx, VK_OBJECT_TYPE_IMAGE, (uint64_t)out->image, name);
    return 0;
}

void vk_image_destroy(vk_context *ctx, vk_image *img)
{
    if (img->view)
        vkDestroyImageView(ctx->device, img->view, NULL);
    if (img->image)
        vkDestroyImage(ctx->device, img->image, NULL);
    if (img->memory)
        vkFreeMemory(ctx->device, img->memory, NULL);
    memset(img, 0, sizeof *img);
}
