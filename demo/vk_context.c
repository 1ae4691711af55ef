/* Vulkan instance, device and memory helpers of the demo (see vk_context.h). */
#include "vk_context.h"

#include "vksort/cuda.h" /* the export chains of VK_BUFFER_EXPORT (after vulkan.h) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validation_layer[] = VKUTIL_VALIDATION_LAYER;

static int create_instance(const vk_context_options *opt, vk_context *ctx,
                           VkDebugUtilsMessengerCreateInfoEXT *mci)
{
    if (opt->validation && !vkutil_has_layer(validation_layer)) {
        fprintf(stderr, "vksort-demo: --validation: %s is not installed (vulkan-validationlayers)\n",
                validation_layer);
        return -1;
    }
    ctx->validation = opt->validation;
    ctx->debug_utils = vkutil_has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
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
    VkValidationFeaturesEXT vf = vkutil_sync_validation_features(ctx->debug_utils ? mci : NULL);
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
        const int ok12 =
            p.apiVersion >= VK_API_VERSION_1_2 &&
            vkutil_has_device_extension(pds[i], VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME) &&
            vkutil_has_device_extension(pds[i], VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
        const int push = vkutil_has_device_extension(pds[i], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
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
    ctx->message_sink.messages = &ctx->messages;
    VkDebugUtilsMessengerCreateInfoEXT mci =
        vkutil_messenger_info(vkutil_on_message, &ctx->message_sink);
    if (create_instance(opt, ctx, &mci))
        return -1;
    if (ctx->debug_utils) {
        /* No messenger is no reason to stop: it only prints what the layer finds. */
        if (vkutil_messenger_create(ctx->instance, &mci, &ctx->messenger) != VK_SUCCESS)
            ctx->messenger = VK_NULL_HANDLE;
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
        vkutil_has_device_extension(ctx->physical_device,
                                    VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) &&
        vkutil_has_device_extension(ctx->physical_device,
                                    VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
        ctx->extensions[ctx->extension_count++] = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
        ctx->extensions[ctx->extension_count++] = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
        ctx->external = 1;
    }
    if (vkutil_has_device_extension(ctx->physical_device, "VK_NV_shader_subgroup_partitioned"))
        ctx->extensions[ctx->extension_count++] = "VK_NV_shader_subgroup_partitioned";
    /* Pipeline robustness where offered: the sorters turn their bounds checks off with it. */
    ctx->pipeline_robustness = vkutil_has_pipeline_robustness(ctx->physical_device);
    if (ctx->pipeline_robustness)
        ctx->extensions[ctx->extension_count++] = VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME;

    VkPhysicalDeviceVulkan12Features en12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    en12.timelineSemaphore = ctx->external ? VK_TRUE : VK_FALSE;
    /* The two features through their extension structs: valid on 1.3 and on 1.2 + extensions. */
    VkPhysicalDeviceSynchronization2Features en_s2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    en_s2.synchronization2 = VK_TRUE;
    VkPhysicalDeviceDynamicRenderingFeatures en_dr = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    en_dr.dynamicRendering = VK_TRUE;
    VkPhysicalDevicePipelineRobustnessFeaturesEXT en_pr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    en_pr.pipelineRobustness = VK_TRUE;
    en_s2.pNext = &en_dr;
    en_dr.pNext = &en12;
    en12.pNext = ctx->pipeline_robustness ? &en_pr : NULL;
    VkPhysicalDeviceFeatures2 en2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    en2.pNext = &en_s2;

    ctx->queue_family = vkutil_find_queue_family(
        ctx->physical_device, VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, 1, NULL);
    if (ctx->queue_family == UINT32_MAX) {
        fprintf(stderr, "vksort-demo: no graphics+compute queue with timestamps\n");
        vk_context_destroy(ctx);
        return -1;
    }
    VkResult vr = vkutil_device_create(ctx->physical_device, ctx->queue_family, &en2,
                                       ctx->extension_count, ctx->extensions, &ctx->device,
                                       &ctx->queue);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: vkCreateDevice failed (VkResult %d)\n", (int)vr);
        vk_context_destroy(ctx);
        return -1;
    }
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
    if (!ctx->push_descriptor || !ctx->queue_submit2 ||
        vkutil_command_pool_create(ctx->device, ctx->queue_family,
                                   VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   &ctx->pool) != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: device set-up failed\n");
        vk_context_destroy(ctx);
        return -1;
    }
    return 0;
}

void vk_context_destroy(vk_context *ctx)
{
    vkutil_teardown(&ctx->instance, &ctx->device, &ctx->pool, &ctx->messenger);
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

int vk_buffer_create(vk_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage, int kind,
                     const char *name, vk_buffer *out)
{
    vksort_cuda_vk_buffer_chains chains; /* external memory; dedicated -> export (OPAQUE_FD) */
    vksort_cuda_vk_buffer_chains_init(&chains);
    vkutil_buffer_info info = {0};
    info.size = size;
    info.usage = usage;
    /* Read-back buffers prefer cached memory: the host reads them every frame. */
    info.memory = kind == VK_BUFFER_HOST ? VKUTIL_MEMORY_HOST_CACHED_PREFERRED
                                         : VKUTIL_MEMORY_DEVICE_PREFERRED;
    if (kind == VK_BUFFER_EXPORT) {
        info.buffer_next = &chains.external;
        info.memory_next = &chains.dedicated;
        info.dedicated = &chains.dedicated;
    }
    VkResult vr = VK_SUCCESS;
    vkutil_buffer_failure step = vkutil_buffer_create(ctx->device, &ctx->memory, &info, out, &vr);
    if (step == VKUTIL_BUFFER_CREATE_FAILED) {
        fprintf(stderr, "vksort-demo: cannot create %s (%llu bytes, VkResult %d)\n",
                name ? name : "a buffer", (unsigned long long)size, (int)vr);
        return -1;
    }
    if (step != VKUTIL_BUFFER_OK) {
        fprintf(stderr, "vksort-demo: cannot allocate %s (%llu bytes)\n", name ? name : "a buffer",
                (unsigned long long)size);
        return -1;
    }
    vk_name(ctx, VK_OBJECT_TYPE_BUFFER, (uint64_t)out->buffer, name);
    return 0;
}

void vk_buffer_destroy(vk_context *ctx, vk_buffer *b)
{
    vkutil_buffer_destroy(ctx->device, b);
}

int vk_image_create(vk_context *ctx, VkFormat format, uint32_t width, uint32_t height,
                    VkImageUsageFlags usage, const char *name, vk_image *out)
{
    if (vkutil_image_create(ctx->device, &ctx->memory, format, width, height, usage, out) != 0) {
        fprintf(stderr, "vksort-demo: cannot create the %ux%u image %s\n", width, height, name);
        return -1;
    }
    vk_name(ctx, VK_OBJECT_TYPE_IMAGE, (uint64_t)out->image, name);
    return 0;
}

void vk_image_destroy(vk_context *ctx, vk_image *img)
{
    vkutil_image_destroy(ctx->device, img);
}
