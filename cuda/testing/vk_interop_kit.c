/* Vulkan side of the CUDA interop tests and benchmark (see vk_interop_kit.h). */
#include "vk_interop_kit.h"

#include "vksort/cuda.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validation_layer[] = VKUTIL_VALIDATION_LAYER;

static int set_error(vkik *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->error, sizeof k->error, fmt, ap);
    va_end(ap);
    return VKIK_ERROR;
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static int skip_extension(const vkik_options *o, const char *name)
{
    return o->no_semaphore_export && strcmp(name, "VK_KHR_external_semaphore_fd") == 0;
}

/* Why a physical device cannot serve the interop, or NULL when it can. */
static const char *unsuitable(VkPhysicalDevice pd, const VkPhysicalDeviceProperties *p,
                              const vkik_options *o)
{
    if (p->apiVersion < VK_API_VERSION_1_2)
        return "Vulkan 1.2 not supported";
    if (!o->allow_cpu_devices && p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        return "a CPU implementation";
    uint32_t n = 0;
    const char *const *exts = vksort_cuda_vk_required_device_extensions(&n);
    for (uint32_t i = 0; i < n; ++i)
        if (!skip_extension(o, exts[i]) && !vkutil_has_device_extension(pd, exts[i]))
            return exts[i]; /* missing */
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f12.timelineSemaphore)
        return "timelineSemaphore feature missing";
    return NULL;
}

int vkik_create(vkik *k, const vkik_options *options)
{
    memset(k, 0, sizeof *k);
    vkik_options opt;
    memset(&opt, 0, sizeof opt);
    if (options)
        opt = *options;

    uint32_t api = 0;
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_2) {
        snprintf(k->error, sizeof k->error, "no Vulkan 1.2 instance (loader or driver missing)");
        return VKIK_NO_DEVICE;
    }
    k->validation = !env_flag("VKSORT_TEST_VK_NO_VALIDATION") && vkutil_has_layer(validation_layer);
    const int debug_utils =
        vkutil_has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
        (k->validation &&
         vkutil_has_instance_extension(validation_layer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
    if (k->validation && !debug_utils)
        return set_error(k, "%s present but %s missing: its messages could not be seen",
                         validation_layer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort cuda interop";
    app.apiVersion = VK_API_VERSION_1_2;
    k->message_sink.messages = &k->messages;
    VkDebugUtilsMessengerCreateInfoEXT mci =
        vkutil_messenger_info(vkutil_on_message, &k->message_sink);
    const char *exts[1];
    const char *layers[1] = {validation_layer};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (debug_utils) {
        exts[0] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        ici.enabledExtensionCount = 1;
        ici.ppEnabledExtensionNames = exts;
        ici.pNext = &mci;
    }
    /* Synchronization validation too, where the layer offers it. */
    VkValidationFeaturesEXT vf = vkutil_sync_validation_features(&mci);
    const char *exts2[2];
    if (k->validation) {
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = layers;
        k->sync_validation =
            !env_flag("VKSORT_TEST_VK_NO_SYNC_VALIDATION") &&
            vkutil_has_instance_extension(validation_layer,
                                          VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        if (k->sync_validation) {
            exts2[0] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
            exts2[1] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
            ici.enabledExtensionCount = 2;
            ici.ppEnabledExtensionNames = exts2;
            ici.pNext = &vf;
        }
    }
    VkResult vr = vkCreateInstance(&ici, NULL, &k->instance);
    if (vr != VK_SUCCESS) {
        k->instance = VK_NULL_HANDLE;
        return set_error(k, "vkCreateInstance failed (%d)", (int)vr);
    }
    if (debug_utils) {
        if (vkutil_messenger_create(k->instance, &mci, &k->messenger) != VK_SUCCESS) {
            vkik_destroy(k);
            return set_error(k, "could not create the debug messenger");
        }
    }

    uint32_t n = 0;
    vkEnumeratePhysicalDevices(k->instance, &n, NULL);
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof *pds);
    if (!pds) {
        vkik_destroy(k);
        return set_error(k, "out of host memory");
    }
    vkEnumeratePhysicalDevices(k->instance, &n, pds);
    const char *want_name = getenv("VKSORT_TEST_DEVICE_NAME");
    char reasons[384] = "";
    for (uint32_t i = 0; i < n && !k->physical_device; ++i) {
        VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &id;
        vkGetPhysicalDeviceProperties2(pds[i], &p2);
        const char *why = NULL;
        if (want_name && *want_name && !strstr(p2.properties.deviceName, want_name))
            why = "name does not match VKSORT_TEST_DEVICE_NAME";
        if (!why)
            why = unsuitable(pds[i], &p2.properties, &opt);
        if (!why && opt.accept_uuid && !opt.accept_uuid(opt.user, id.deviceUUID))
            why = "its deviceUUID is no CUDA device of this process";
        if (why) {
            size_t used = strlen(reasons);
            snprintf(reasons + used, sizeof reasons - used, "%s%s: %s", used ? "; " : "",
                     p2.properties.deviceName, why);
            continue;
        }
        k->physical_device = pds[i];
        k->props = p2.properties;
        memcpy(k->device_uuid, id.deviceUUID, 16);
    }
    free(pds);
    if (!k->physical_device) {
        vkik_destroy(k);
        snprintf(k->error, sizeof k->error, "no Vulkan device for the CUDA interop (%s)",
                 n ? reasons : "no physical devices");
        return VKIK_NO_DEVICE;
    }
    vkGetPhysicalDeviceMemoryProperties(k->physical_device, &k->memory);

    k->queue_family = vkutil_find_queue_family(k->physical_device, VK_QUEUE_COMPUTE_BIT, 0,
                                               &k->timestamp_valid_bits);
    if (k->queue_family == UINT32_MAX) {
        vkik_destroy(k);
        return set_error(k, "no compute queue family");
    }

    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.timelineSemaphore = VK_TRUE;
    uint32_t required = 0, next = 0;
    const char *const *required_exts = vksort_cuda_vk_required_device_extensions(&required);
    const char *dev_exts[8];
    for (uint32_t i = 0; i < required && next < 8; ++i)
        if (!skip_extension(&opt, required_exts[i]))
            dev_exts[next++] = required_exts[i];
    vr = vkutil_device_create(k->physical_device, k->queue_family, &f12, next, dev_exts, &k->device,
                              &k->queue);
    if (vr != VK_SUCCESS) {
        vkik_destroy(k);
        return set_error(k, "vkCreateDevice failed (%d)", (int)vr);
    }
    k->get_memory_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(k->device, "vkGetMemoryFdKHR");
    k->get_semaphore_fd =
        (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(k->device, "vkGetSemaphoreFdKHR");
    if (!k->get_memory_fd || (!opt.no_semaphore_export && !k->get_semaphore_fd)) {
        vkik_destroy(k);
        return set_error(k, "vkGetMemoryFdKHR / vkGetSemaphoreFdKHR not found");
    }
    if (vkutil_command_pool_create(k->device, k->queue_family, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                   &k->pool) != VK_SUCCESS) {
        vkik_destroy(k);
        return set_error(k, "vkCreateCommandPool failed");
    }
    if (!opt.quiet)
        printf("vulkan device: %s (driver API %u.%u.%u), validation %s\n", k->props.deviceName,
               VK_API_VERSION_MAJOR(k->props.apiVersion),
               VK_API_VERSION_MINOR(k->props.apiVersion),
               VK_API_VERSION_PATCH(k->props.apiVersion),
               !k->validation       ? "OFF (layer not found or disabled)"
               : k->sync_validation ? "on (synchronization validation on)"
                                    : "on");
    return 0;
}

void vkik_destroy(vkik *k)
{
    vkutil_teardown(&k->instance, &k->device, &k->pool, &k->messenger);
}

/* Turns a failed step of vkutil_buffer_create into this kit's error message. */
static int buffer_error(vkik *k, vkutil_buffer_failure step, VkDeviceSize size,
                        VkDeviceSize allocation_size, VkMemoryPropertyFlags want)
{
    switch (step) {
    case VKUTIL_BUFFER_CREATE_FAILED:
        return set_error(k, "vkCreateBuffer(%llu bytes) failed", (unsigned long long)size);
    case VKUTIL_BUFFER_NO_MEMORY_TYPE:
        return set_error(k, "no memory type with flags 0x%x", (unsigned)want);
    case VKUTIL_BUFFER_ALLOCATE_FAILED:
        return set_error(k, "vkAllocateMemory(%llu bytes) failed",
                         (unsigned long long)allocation_size);
    case VKUTIL_BUFFER_BIND_FAILED:
        return set_error(k, "vkBindBufferMemory failed");
    case VKUTIL_BUFFER_MAP_FAILED:
        return set_error(k, "vkMapMemory failed");
    case VKUTIL_BUFFER_OK:
        break;
    }
    return 0;
}

int vkik_buffer_create(vkik *k, VkDeviceSize size, VkBufferUsageFlags usage, int exportable,
                       int host_visible, vkik_buffer *out)
{
    memset(out, 0, sizeof *out);
    vksort_cuda_vk_buffer_chains chains;
    vksort_cuda_vk_buffer_chains_init(&chains);
    vkutil_buffer_info info = {0};
    info.size = size;
    info.usage = usage;
    /* No fallback to other memory: exported memory must be device memory for CUDA. */
    info.memory = host_visible ? VKUTIL_MEMORY_HOST : VKUTIL_MEMORY_DEVICE_LOCAL;
    if (exportable) {
        info.buffer_next = &chains.external;
        info.memory_next = &chains.dedicated; /* dedicated -> export */
        info.dedicated = &chains.dedicated;
    }
    vkutil_buffer made;
    vkutil_buffer_failure step = vkutil_buffer_create(k->device, &k->memory, &info, &made, NULL);
    if (step != VKUTIL_BUFFER_OK)
        return buffer_error(k, step, size, made.allocation_size,
                            host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                         : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    out->buffer = made.buffer;
    out->memory = made.memory;
    out->size = made.size;
    out->allocation_size = made.allocation_size;
    out->mapped = made.mapped;
    out->exportable = exportable;
    return 0;
}

void vkik_buffer_destroy(vkik *k, vkik_buffer *b)
{
    vkutil_buffer handles = {.buffer = b->buffer, .memory = b->memory};
    vkutil_buffer_destroy(k->device, &handles);
    memset(b, 0, sizeof *b);
}

int vkik_buffer_export_fd(vkik *k, const vkik_buffer *b, int *out_fd)
{
    *out_fd = -1;
    if (!b->exportable)
        return set_error(k, "buffer was not created exportable");
    VkMemoryGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    gi.memory = b->memory;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkResult vr = k->get_memory_fd(k->device, &gi, out_fd);
    if (vr != VK_SUCCESS)
        return set_error(k, "vkGetMemoryFdKHR failed (%d)", (int)vr);
    return 0;
}

int vkik_timeline_create(vkik *k, uint64_t initial, int exportable, VkSemaphore *out)
{
    vksort_cuda_vk_semaphore_chains chains;
    vksort_cuda_vk_semaphore_chains_init(&chains, initial);
    if (!exportable)
        chains.type.pNext = NULL;
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sci.pNext = &chains.type;
    VkResult vr = vkCreateSemaphore(k->device, &sci, NULL, out);
    if (vr != VK_SUCCESS)
        return set_error(k, "vkCreateSemaphore (timeline) failed (%d)", (int)vr);
    return 0;
}

int vkik_semaphore_export_fd(vkik *k, VkSemaphore semaphore, int *out_fd)
{
    *out_fd = -1;
    if (!k->get_semaphore_fd)
        return set_error(k, "semaphore export not enabled (no_semaphore_export)");
    VkSemaphoreGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    gi.semaphore = semaphore;
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkResult vr = k->get_semaphore_fd(k->device, &gi, out_fd);
    if (vr != VK_SUCCESS)
        return set_error(k, "vkGetSemaphoreFdKHR failed (%d)", (int)vr);
    return 0;
}

VkCommandBuffer vkik_begin(vkik *k)
{
    VkCommandBuffer cmd = vkutil_one_shot_begin(k->device, k->pool, NULL);
    if (!cmd)
        set_error(k, "vkAllocateCommandBuffers / vkBeginCommandBuffer failed");
    return cmd;
}

int vkik_submit(vkik *k, VkCommandBuffer cmd, VkSemaphore timeline, uint64_t wait_value,
                VkPipelineStageFlags wait_stage, uint64_t signal_value, VkFence fence)
{
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS)
        return set_error(k, "vkEndCommandBuffer failed");
    VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    ts.waitSemaphoreValueCount = wait_value ? 1u : 0u;
    ts.pWaitSemaphoreValues = &wait_value;
    ts.signalSemaphoreValueCount = signal_value ? 1u : 0u;
    ts.pSignalSemaphoreValues = &signal_value;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &ts;
    si.waitSemaphoreCount = wait_value ? 1u : 0u;
    si.pWaitSemaphores = &timeline;
    si.pWaitDstStageMask = &wait_stage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    si.signalSemaphoreCount = signal_value ? 1u : 0u;
    si.pSignalSemaphores = &timeline;
    VkResult vr = vkQueueSubmit(k->queue, 1, &si, fence);
    if (vr != VK_SUCCESS)
        return set_error(k, "vkQueueSubmit failed (%d)", (int)vr);
    return 0;
}

int vkik_wait(vkik *k, VkSemaphore timeline, uint64_t value, uint64_t timeout_ns)
{
    VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline;
    wi.pValues = &value;
    VkResult vr = vkWaitSemaphores(k->device, &wi, timeout_ns);
    if (vr != VK_SUCCESS)
        return set_error(k, "vkWaitSemaphores(value %llu) %s (%d)", (unsigned long long)value,
                         vr == VK_TIMEOUT ? "timed out" : "failed", (int)vr);
    return 0;
}

void vkik_reset_commands(vkik *k)
{
    vkQueueWaitIdle(k->queue);
    vkResetCommandPool(k->device, k->pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT);
}

static void ownership_barrier(vkik *k, VkCommandBuffer cmd, const VkBuffer *buffers,
                              uint32_t count, int release, VkPipelineStageFlags stage,
                              VkAccessFlags access)
{
    VkBufferMemoryBarrier b[8];
    if (count > 8)
        count = 8;
    for (uint32_t i = 0; i < count; ++i) {
        VkBufferMemoryBarrier *m = &b[i];
        memset(m, 0, sizeof *m);
        m->sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
        m->srcAccessMask = release ? access : 0;
        m->dstAccessMask = release ? 0 : access;
        m->srcQueueFamilyIndex = release ? k->queue_family : VK_QUEUE_FAMILY_EXTERNAL;
        m->dstQueueFamilyIndex = release ? VK_QUEUE_FAMILY_EXTERNAL : k->queue_family;
        m->buffer = buffers[i];
        m->offset = 0;
        m->size = VK_WHOLE_SIZE;
    }
    vkCmdPipelineBarrier(cmd, release ? stage : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         release ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT : stage, 0, 0, NULL,
                         count, b, 0, NULL);
}

void vkik_release_to_external(vkik *k, VkCommandBuffer cmd, const VkBuffer *buffers,
                              uint32_t count, VkPipelineStageFlags src_stage,
                              VkAccessFlags src_access)
{
    ownership_barrier(k, cmd, buffers, count, 1, src_stage, src_access);
}

void vkik_acquire_from_external(vkik *k, VkCommandBuffer cmd, const VkBuffer *buffers,
                                uint32_t count, VkPipelineStageFlags dst_stage,
                                VkAccessFlags dst_access)
{
    ownership_barrier(k, cmd, buffers, count, 0, dst_stage, dst_access);
}

void vkik_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                  VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    vkutil_memory_barrier(cmd, src_stage, src_access, dst_stage, dst_access);
}
