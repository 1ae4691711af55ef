/* Vulkan backend of the CLI (see backend.h for the contract): sorts host arrays with the vksort
 * Vulkan sorter on physical device req->device. The Vulkan loader is opened at run time
 * (libvulkan.so.1), so the CLI has no link-time Vulkan dependency and runs without it; the
 * device, sorter and buffers are kept between calls. A CPU-emulated device (lavapipe) is
 * reported as CLI_BACKEND_AVAILABLE_SLOW: used when asked for by name, skipped by "auto". */
#include "backend.h"

#include "err.h"

#include <stdio.h>
#include <string.h>

#if !defined(VKSORT_WITH_VULKAN)

static const char vulkan_why[] = "not built in this binary (configure with -DVKSORT_VULKAN=ON: "
                                 "needs the Vulkan headers, glslc and spirv-val)";

int cli_backend_vulkan_available(char *why, size_t n)
{
    snprintf(why, n, "%s", vulkan_why);
    return CLI_BACKEND_UNAVAILABLE;
}

int cli_backend_vulkan_device_count(void)
{
    return 0;
}

int cli_backend_vulkan_sort(const cli_sort_request *req, char *err, size_t n)
{
    (void)req;
    cli_fail(err, n, "backend 'vulkan' not available: %s", vulkan_why);
    return VKSORT_ERROR_BACKEND_UNAVAILABLE;
}

void cli_backend_vulkan_release(void)
{
}

#else /* VKSORT_WITH_VULKAN */

#define VK_NO_PROTOTYPES
#include "vksort/vulkan.h"

#include <dlfcn.h>
#include <stdlib.h>

/* Entry points the CLI itself needs (the sorter loads its own). */
#define CLI_VK_GLOBAL(X)                       \
    X(vkCreateInstance)                        \
    X(vkEnumerateInstanceVersion)
#define CLI_VK_INSTANCE(X)                     \
    X(vkDestroyInstance)                       \
    X(vkEnumeratePhysicalDevices)              \
    X(vkGetPhysicalDeviceProperties)           \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties)     \
    X(vkEnumerateDeviceExtensionProperties)    \
    X(vkGetPhysicalDeviceFeatures2)            \
    X(vkCreateDevice)                          \
    X(vkGetDeviceProcAddr)
#define CLI_VK_DEVICE(X)                       \
    X(vkDestroyDevice)                         \
    X(vkGetDeviceQueue)                        \
    X(vkDeviceWaitIdle)                        \
    X(vkCreateCommandPool)                     \
    X(vkDestroyCommandPool)                    \
    X(vkAllocateCommandBuffers)                \
    X(vkFreeCommandBuffers)                    \
    X(vkBeginCommandBuffer)                    \
    X(vkEndCommandBuffer)                      \
    X(vkQueueSubmit)                           \
    X(vkCreateFence)                           \
    X(vkDestroyFence)                          \
    X(vkWaitForFences)                         \
    X(vkCreateBuffer)                          \
    X(vkDestroyBuffer)                         \
    X(vkGetBufferMemoryRequirements)           \
    X(vkAllocateMemory)                        \
    X(vkFreeMemory)                            \
    X(vkBindBufferMemory)                      \
    X(vkMapMemory)                             \
    X(vkCmdCopyBuffer)                         \
    X(vkCmdPipelineBarrier)                    \
    X(vkCreateQueryPool)                       \
    X(vkDestroyQueryPool)                      \
    X(vkGetQueryPoolResults)

typedef struct cli_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
} cli_buffer;

static struct {
    int probed;             /* 0: not yet; 1: done (see probe_result) */
    int probe_result;       /* CLI_BACKEND_* of device 0 */
    char probe_why[256];

    void *lib;
    PFN_vkGetInstanceProcAddr gipa;
#define CLI_VK_DECLARE(name) PFN_##name name;
    CLI_VK_GLOBAL(CLI_VK_DECLARE)
    CLI_VK_INSTANCE(CLI_VK_DECLARE)
    CLI_VK_DEVICE(CLI_VK_DECLARE)
#undef CLI_VK_DECLARE
    VkInstance instance;

    int device_index;       /* -1: no device yet */
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t timestamp_bits;
    VkCommandPool pool;
    VkQueryPool query_pool;
    /* pipelineRobustness enabled: the sorter drops its storage-buffer bounds checks */
    int pipeline_robustness;
    const char *device_extensions[5];
    uint32_t device_extension_count;

    vksort_vk_sorter *sorter;
    vksort_key_type sorter_key;
    int sorter_payload;
    uint32_t sorter_max;
    vksort_vk_memory_requirements reqs;

    cli_buffer keys, values, scratch, staging;
} vk = {.device_index = -1};

static int load_loader(char *why, size_t n)
{
    if (vk.gipa)
        return 0;
    vk.lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!vk.lib)
        vk.lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (!vk.lib) {
        snprintf(why, n, "no Vulkan loader (libvulkan.so.1)");
        return -1;
    }
    /* POSIX guarantees the conversion of dlsym's result to a function pointer. */
    void *sym = dlsym(vk.lib, "vkGetInstanceProcAddr");
    memcpy(&vk.gipa, &sym, sizeof vk.gipa);
    if (!vk.gipa) {
        snprintf(why, n, "the Vulkan loader lacks vkGetInstanceProcAddr");
        return -1;
    }
#define CLI_VK_LOAD_GLOBAL(name) vk.name = (PFN_##name)vk.gipa(VK_NULL_HANDLE, #name);
    CLI_VK_GLOBAL(CLI_VK_LOAD_GLOBAL)
#undef CLI_VK_LOAD_GLOBAL
    if (!vk.vkCreateInstance) {
        snprintf(why, n, "the Vulkan loader lacks vkCreateInstance");
        return -1;
    }
    return 0;
}

static int create_instance(char *why, size_t n)
{
    if (vk.instance)
        return 0;
    if (load_loader(why, n) != 0)
        return -1;
    uint32_t api = VK_API_VERSION_1_0;
    if (vk.vkEnumerateInstanceVersion)
        vk.vkEnumerateInstanceVersion(&api);
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksort";
    app.apiVersion = api >= VK_API_VERSION_1_1 ? VK_API_VERSION_1_1 : VK_API_VERSION_1_0;
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkResult vr = vk.vkCreateInstance(&ici, NULL, &vk.instance);
    if (vr != VK_SUCCESS) {
        vk.instance = VK_NULL_HANDLE;
        snprintf(why, n, "vkCreateInstance failed (%d)", (int)vr);
        return -1;
    }
#define CLI_VK_LOAD_INSTANCE(name) vk.name = (PFN_##name)vk.gipa(vk.instance, #name);
    CLI_VK_INSTANCE(CLI_VK_LOAD_INSTANCE)
#undef CLI_VK_LOAD_INSTANCE
    return 0;
}

static int has_device_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t count = 0;
    if (vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &count, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *props = calloc(count ? count : 1, sizeof *props);
    int found = 0;
    if (props && vk.vkEnumerateDeviceExtensionProperties(pd, NULL, &count, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < count; ++i)
            if (strcmp(props[i].extensionName, name) == 0)
                found = 1;
    free(props);
    return found;
}

/* 1 when the device offers VK_EXT_pipeline_robustness with its pipelineRobustness feature (the
 * CLI then enables it and the sorter turns its bounds checks off, as the benchmarks do). */
static int offers_pipeline_robustness(VkPhysicalDevice pd)
{
    if (!vk.vkGetPhysicalDeviceFeatures2 ||
        !has_device_extension(pd, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME))
        return 0;
    VkPhysicalDevicePipelineRobustnessFeaturesEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    query.pNext = &robustness;
    vk.vkGetPhysicalDeviceFeatures2(pd, &query);
    return robustness.pipelineRobustness == VK_TRUE;
}

int cli_backend_vulkan_device_count(void)
{
    uint32_t count = 0;
    if (vk.instance)
        vk.vkEnumeratePhysicalDevices(vk.instance, &count, NULL);
    return (int)count;
}

/* Physical device `index`, checked for what the sorter needs. */
static int find_physical_device(int index, VkPhysicalDevice *out, VkPhysicalDeviceProperties *props,
                                uint32_t *queue_family, uint32_t *ts_bits, char *why, size_t n)
{
    uint32_t count = 0;
    vk.vkEnumeratePhysicalDevices(vk.instance, &count, NULL);
    if (count == 0) {
        snprintf(why, n, "no Vulkan device");
        return -1;
    }
    if (index < 0 || (uint32_t)index >= count) {
        snprintf(why, n, "no Vulkan device %d (%u found)", index, count);
        return -1;
    }
    VkPhysicalDevice *pds = calloc(count, sizeof *pds);
    if (!pds) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    vk.vkEnumeratePhysicalDevices(vk.instance, &count, pds);
    VkPhysicalDevice pd = pds[index];
    free(pds);
    vk.vkGetPhysicalDeviceProperties(pd, props);
    if (!has_device_extension(pd, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
        snprintf(why, n, "%.200s lacks " VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, props->deviceName);
        return -1;
    }
    uint32_t qn = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    if (!qf) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &qn, qf);
    *queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && *queue_family == UINT32_MAX; ++i) {
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            *queue_family = i;
            *ts_bits = qf[i].timestampValidBits;
        }
    }
    free(qf);
    if (*queue_family == UINT32_MAX) {
        snprintf(why, n, "%.200s has no compute queue", props->deviceName);
        return -1;
    }
    *out = pd;
    return 0;
}

static void destroy_buffer(cli_buffer *b)
{
    if (b->buffer)
        vk.vkDestroyBuffer(vk.device, b->buffer, NULL);
    if (b->memory)
        vk.vkFreeMemory(vk.device, b->memory, NULL);
    memset(b, 0, sizeof *b);
}

static void destroy_device(void)
{
    if (!vk.device)
        return;
    vk.vkDeviceWaitIdle(vk.device);
    vksort_vk_sorter_destroy(vk.sorter);
    vk.sorter = NULL;
    destroy_buffer(&vk.keys);
    destroy_buffer(&vk.values);
    destroy_buffer(&vk.scratch);
    destroy_buffer(&vk.staging);
    if (vk.query_pool)
        vk.vkDestroyQueryPool(vk.device, vk.query_pool, NULL);
    if (vk.pool)
        vk.vkDestroyCommandPool(vk.device, vk.pool, NULL);
    vk.vkDestroyDevice(vk.device, NULL);
    vk.device = VK_NULL_HANDLE;
    vk.query_pool = VK_NULL_HANDLE;
    vk.pool = VK_NULL_HANDLE;
    vk.device_index = -1;
}

static int open_device(int index, char *err, size_t n)
{
    if (vk.device && vk.device_index == index)
        return 0;
    destroy_device();
    char why[256];
    if (create_instance(why, sizeof why) != 0 ||
        find_physical_device(index, &vk.physical_device, &vk.props, &vk.queue_family,
                             &vk.timestamp_bits, why, sizeof why) != 0)
        return cli_fail(err, n, "backend 'vulkan' not available: %s", why);
    vk.vkGetPhysicalDeviceMemoryProperties(vk.physical_device, &vk.memory);

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = vk.queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    uint32_t n_ext = 0;
    const char *const *exts = vksort_vk_required_device_extensions(&n_ext);
    vk.device_extension_count = 0;
    for (uint32_t i = 0; i < n_ext && i < 3; ++i)
        vk.device_extensions[vk.device_extension_count++] = exts[i];
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDevicePipelineRobustnessFeaturesEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    vk.pipeline_robustness = offers_pipeline_robustness(vk.physical_device);
    if (vk.pipeline_robustness) {
        robustness.pipelineRobustness = VK_TRUE;
        dci.pNext = &robustness;
        vk.device_extensions[vk.device_extension_count++] =
            VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME;
    }
    /* subgroupPartitionNV where offered: the Onesweep digit passes' skew-proof ranking (skewed
     * digit positions, e.g. depths in a narrow range) takes its peers from it. */
    if (has_device_extension(vk.physical_device, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME))
        vk.device_extensions[vk.device_extension_count++] =
            VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = vk.device_extension_count;
    dci.ppEnabledExtensionNames = vk.device_extensions;
    VkResult vr = vk.vkCreateDevice(vk.physical_device, &dci, NULL, &vk.device);
    if (vr != VK_SUCCESS) {
        vk.device = VK_NULL_HANDLE;
        return cli_fail(err, n, "vulkan: vkCreateDevice failed (%d) on %s", (int)vr,
                        vk.props.deviceName);
    }
#define CLI_VK_LOAD_DEVICE(name) vk.name = (PFN_##name)vk.vkGetDeviceProcAddr(vk.device, #name);
    CLI_VK_DEVICE(CLI_VK_LOAD_DEVICE)
#undef CLI_VK_LOAD_DEVICE
    vk.vkGetDeviceQueue(vk.device, vk.queue_family, 0, &vk.queue);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = vk.queue_family;
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    if (vk.vkCreateCommandPool(vk.device, &pci, NULL, &vk.pool) != VK_SUCCESS) {
        destroy_device();
        return cli_fail(err, n, "vulkan: vkCreateCommandPool failed");
    }
    if (vk.timestamp_bits) {
        VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qp.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qp.queryCount = 256;
        if (vk.vkCreateQueryPool(vk.device, &qp, NULL, &vk.query_pool) != VK_SUCCESS)
            vk.query_pool = VK_NULL_HANDLE;
    }
    vk.device_index = index;
    return 0;
}

int cli_backend_vulkan_available(char *why, size_t n)
{
    if (!vk.probed) {
        VkPhysicalDevice pd;
        VkPhysicalDeviceProperties props;
        uint32_t qf, ts;
        char w[256];
        if (create_instance(w, sizeof w) != 0 ||
            find_physical_device(0, &pd, &props, &qf, &ts, w, sizeof w) != 0) {
            vk.probe_result = CLI_BACKEND_UNAVAILABLE;
            snprintf(vk.probe_why, sizeof vk.probe_why, "%s", w);
        } else {
            vk.probe_result = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                                  ? CLI_BACKEND_AVAILABLE_SLOW
                                  : CLI_BACKEND_AVAILABLE;
            snprintf(vk.probe_why, sizeof vk.probe_why, "%.200s%s%s", props.deviceName,
                     props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? ", a CPU device" : "",
                     offers_pipeline_robustness(pd) ? ", no buffer bounds checks" : "");
        }
        vk.probed = 1;
    }
    if (n > 0)
        snprintf(why, n, "%s", vk.probe_why);
    return vk.probe_result;
}

static int find_memory_type(uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk.memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (vk.memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

static int ensure_buffer(cli_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage, int host,
                         char *err, size_t n)
{
    if (b->buffer && b->size >= size)
        return 0;
    destroy_buffer(b);
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size ? size : 16;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (vk.vkCreateBuffer(vk.device, &bci, NULL, &b->buffer) != VK_SUCCESS)
        return cli_fail(err, n, "vulkan: vkCreateBuffer(%llu bytes) failed",
                        (unsigned long long)bci.size);
    VkMemoryRequirements mr;
    vk.vkGetBufferMemoryRequirements(vk.device, b->buffer, &mr);
    VkMemoryPropertyFlags want = host ? (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
                                      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int type = find_memory_type(mr.memoryTypeBits, want);
    if (type < 0 && !host)
        type = find_memory_type(mr.memoryTypeBits, 0);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = mr.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (type < 0 || vk.vkAllocateMemory(vk.device, &mai, NULL, &b->memory) != VK_SUCCESS) {
        destroy_buffer(b);
        return cli_fail(err, n, "vulkan: out of device memory for %llu bytes",
                        (unsigned long long)bci.size);
    }
    vk.vkBindBufferMemory(vk.device, b->buffer, b->memory, 0);
    if (host && vk.vkMapMemory(vk.device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped) != VK_SUCCESS) {
        destroy_buffer(b);
        return cli_fail(err, n, "vulkan: vkMapMemory failed");
    }
    b->size = bci.size;
    return 0;
}

static vksort_vk_algorithm algorithm_for(cli_algo algo)
{
    switch (algo) {
    case CLI_ALGO_BITONIC: return VKSORT_VK_ALGORITHM_BITONIC;
    case CLI_ALGO_ONESWEEP: return VKSORT_VK_ALGORITHM_ONESWEEP;
    case CLI_ALGO_PORTABLE: return VKSORT_VK_ALGORITHM_PORTABLE;
    default: return VKSORT_VK_ALGORITHM_AUTO;
    }
}

static int ensure_sorter(const cli_sort_request *req, uint32_t count, char *err, size_t n)
{
    int payload = req->values != NULL;
    if (vk.sorter && vk.sorter_key == req->key_type && vk.sorter_payload == payload &&
        vk.sorter_max >= count)
        return 0;
    vksort_vk_sorter_destroy(vk.sorter);
    vk.sorter = NULL;
    /* Round the capacity up so that nearby sizes reuse the sorter and its buffers. */
    uint32_t max = 4096;
    while (max < count)
        max = max > 0x40000000u ? 0x80000000u : max * 2;
    uint64_t limit = vk.props.limits.maxStorageBufferRange / vksort_key_size(req->key_type);
    if (max > limit)
        max = count;
    vksort_vk_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    ci.instance = vk.instance;
    ci.physical_device = vk.physical_device;
    ci.device = vk.device;
    ci.get_instance_proc_addr = vk.gipa;
    ci.key_type = req->key_type;
    ci.has_payload = payload ? VK_TRUE : VK_FALSE;
    ci.max_count = max;
    ci.algorithm = algorithm_for(req->algo);
    ci.enabled_extension_count = vk.device_extension_count;
    ci.enabled_extensions = vk.device_extensions;
    if (vk.pipeline_robustness)
        ci.flags |= VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS;
    /* Onesweep's look-back waits on other workgroups, which a CPU device (lavapipe: each worker
     * thread runs its workgroups one after another, and a shader's loops share one iteration
     * budget) does not guarantee to make progress: asked for there, it gets the look-back
     * fallback, whose waits are bounded (docs/vulkan.md), so the output is still right. */
    if (ci.algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && vk.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        ci.flags |= VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK;
    vksort_vk_diagnostics diag;
    ci.diagnostics = &diag;
    vksort_result r = vksort_vk_sorter_create(&ci, &vk.sorter);
    if (r != VKSORT_SUCCESS) {
        vk.sorter = NULL;
        cli_fail(err, n, "vulkan: %s: %s", vksort_result_string(r), diag.message);
        return r;
    }
    vk.sorter_key = req->key_type;
    vk.sorter_payload = payload;
    vk.sorter_max = max;
    vksort_vk_get_memory_requirements(vk.sorter, &vk.reqs);
    return 0;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = src_access;
    mb.dstAccessMask = dst_access;
    vk.vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

static int submit_and_wait(VkCommandBuffer cmd, char *err, size_t n)
{
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    int rc = 0;
    if (vk.vkEndCommandBuffer(cmd) != VK_SUCCESS ||
        vk.vkCreateFence(vk.device, &fci, NULL, &fence) != VK_SUCCESS) {
        rc = cli_fail(err, n, "vulkan: could not finish the command buffer");
    } else {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        VkResult vr = vk.vkQueueSubmit(vk.queue, 1, &si, fence);
        if (vr == VK_SUCCESS)
            vr = vk.vkWaitForFences(vk.device, 1, &fence, VK_TRUE, UINT64_MAX);
        if (vr != VK_SUCCESS)
            rc = cli_fail(err, n, "vulkan: submit/wait failed (%d)", (int)vr);
    }
    if (fence)
        vk.vkDestroyFence(vk.device, fence, NULL);
    vk.vkFreeCommandBuffers(vk.device, vk.pool, 1, &cmd);
    return rc;
}

int cli_backend_vulkan_sort(const cli_sort_request *req, char *err, size_t n)
{
    if (req->out_device_ms)
        *req->out_device_ms = -1.0;
    if (vksort_key_size(req->key_type) == 0 || (req->flags & ~(vksort_flags)VKSORT_FLAGS_ALL)) {
        cli_fail(err, n, "vulkan: bad sort request");
        return VKSORT_ERROR_INVALID_ARGUMENT;
    }
    if (req->count > 0x80000000u) {
        cli_fail(err, n, "vulkan: %zu keys exceed the Vulkan sorter's limit of 2^31", req->count);
        return VKSORT_ERROR_COUNT_TOO_LARGE;
    }
    if (open_device(req->device, err, n) != 0)
        return VKSORT_ERROR_BACKEND_UNAVAILABLE;
    const uint32_t count = (uint32_t)req->count;
    const size_t ks = vksort_key_size(req->key_type);
    if ((uint64_t)count * ks > vk.props.limits.maxStorageBufferRange) {
        cli_fail(err, n, "vulkan: %u keys of %zu bytes exceed maxStorageBufferRange (%u bytes) of %s",
                 count, ks, vk.props.limits.maxStorageBufferRange, vk.props.deviceName);
        return VKSORT_ERROR_DEVICE_LIMITS;
    }
    if (count < 2) { /* nothing to order (keys may be NULL for 0) */
        if (req->out_device_ms)
            *req->out_device_ms = 0.0;
        return 0;
    }
    int r = ensure_sorter(req, count, err, n);
    if (r != 0)
        return r < 0 ? r : VKSORT_ERROR_VULKAN;

    const VkDeviceSize key_bytes = (VkDeviceSize)count * ks, val_bytes = (VkDeviceSize)count * 4u;
    const VkDeviceSize cap_keys = (VkDeviceSize)vk.sorter_max * ks, cap_vals = (VkDeviceSize)vk.sorter_max * 4u;
    const VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (ensure_buffer(&vk.keys, cap_keys, su, 0, err, n) != 0 ||
        (req->values && ensure_buffer(&vk.values, cap_vals, su, 0, err, n) != 0) ||
        ensure_buffer(&vk.scratch, vk.reqs.scratch_size, vk.reqs.scratch_usage, 0, err, n) != 0 ||
        ensure_buffer(&vk.staging, cap_keys + cap_vals, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, err, n) != 0)
        return VKSORT_ERROR_VULKAN;

    unsigned char *staging = vk.staging.mapped;
    memcpy(staging, req->keys, (size_t)key_bytes);
    if (req->values)
        memcpy(staging + key_bytes, req->values, (size_t)val_bytes);

    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = vk.pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    if (vk.vkAllocateCommandBuffers(vk.device, &cai, &cmd) != VK_SUCCESS) {
        cli_fail(err, n, "vulkan: vkAllocateCommandBuffers failed");
        return VKSORT_ERROR_VULKAN;
    }
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk.vkBeginCommandBuffer(cmd, &bi);

    {
        VkBufferCopy up_k = {0, 0, key_bytes}, up_v = {key_bytes, 0, val_bytes};
        vk.vkCmdCopyBuffer(cmd, vk.staging.buffer, vk.keys.buffer, 1, &up_k);
        if (req->values)
            vk.vkCmdCopyBuffer(cmd, vk.staging.buffer, vk.values.buffer, 1, &up_v);
    }
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);

    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){vk.keys.buffer, 0, cap_keys};
    if (req->values)
        si.values = (vksort_vk_buffer_range){vk.values.buffer, 0, cap_vals};
    si.scratch = (vksort_vk_buffer_range){vk.scratch.buffer, 0, vk.reqs.scratch_size};
    si.count = count;
    si.flags = req->flags;
    si.bit_begin = req->bit_begin;
    si.bit_end = req->bit_end;
    uint32_t queries = 0;
    if (req->out_device_ms && vk.query_pool) {
        queries = vksort_vk_timestamp_query_count(vk.sorter, &si);
        if (queries <= 256)
            si.query_pool = vk.query_pool;
    }
    vksort_result sr = vksort_vk_cmd_sort(vk.sorter, cmd, &si);
    if (sr != VKSORT_SUCCESS) {
        cli_fail(err, n, "vulkan: %s", vksort_vk_sorter_last_message(vk.sorter));
        vk.vkEndCommandBuffer(cmd);
        vk.vkFreeCommandBuffers(vk.device, vk.pool, 1, &cmd);
        return sr;
    }
    barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    {
        VkBufferCopy down_k = {0, 0, key_bytes}, down_v = {0, key_bytes, val_bytes};
        vk.vkCmdCopyBuffer(cmd, vk.keys.buffer, vk.staging.buffer, 1, &down_k);
        if (req->values)
            vk.vkCmdCopyBuffer(cmd, vk.values.buffer, vk.staging.buffer, 1, &down_v);
    }
    barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (submit_and_wait(cmd, err, n) != 0)
        return VKSORT_ERROR_VULKAN;

    memcpy(req->keys, staging, (size_t)key_bytes);
    if (req->values)
        memcpy(req->values, staging + key_bytes, (size_t)val_bytes);

    if (si.query_pool) {
        uint64_t ts[256];
        if (vk.vkGetQueryPoolResults(vk.device, vk.query_pool, 0, queries, sizeof ts, ts,
                                     sizeof ts[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) ==
            VK_SUCCESS) {
            uint32_t passes = 0;
            double total = -1.0;
            if (vksort_vk_timestamps_to_ms(vk.sorter, &si, ts, queries, NULL, &passes, &total) ==
                VKSORT_SUCCESS)
                *req->out_device_ms = total;
        }
    }
    return 0;
}

void cli_backend_vulkan_release(void)
{
    destroy_device();
    if (vk.instance)
        vk.vkDestroyInstance(vk.instance, NULL);
    vk.instance = VK_NULL_HANDLE;
    if (vk.lib)
        dlclose(vk.lib);
    vk.lib = NULL;
    vk.gipa = NULL;
    vk.probed = 0;
}

#endif /* VKSORT_WITH_VULKAN */
