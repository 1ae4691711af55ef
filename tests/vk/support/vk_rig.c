/* Vulkan test rig (see vk_rig.h). */
#include "vk_rig.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char validation_layer[] = VKUTIL_VALIDATION_LAYER;

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

/* Prints "vk_rig: <why>", tears down what vk_rig_create made so far and returns -1. */
static int fail(vk_rig *rig, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("vk_rig: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    vk_rig_destroy(rig);
    return -1;
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
    if (want_validation && !vkutil_has_layer(validation_layer)) {
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
    rig->debug_utils = vkutil_has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
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
        vkutil_has_instance_extension(validation_layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
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

    rig->message_sink.messages = &rig->messages;
    VkDebugUtilsMessengerCreateInfoEXT mci =
        vkutil_messenger_info(vkutil_on_message, &rig->message_sink);
    VkValidationFeaturesEXT vf = vkutil_sync_validation_features(rig->debug_utils ? &mci : NULL);

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
        if (vkutil_messenger_create(rig->instance, &mci, &rig->messenger) != VK_SUCCESS)
            return fail(rig, "could not create the debug messenger");
    }

    uint32_t n = 0;
    vkEnumeratePhysicalDevices(rig->instance, &n, NULL);
    int index = opt.device_index >= 0 ? opt.device_index : env_int("VKSORT_TEST_DEVICE", 0);
    if (n == 0 || index < 0 || (uint32_t)index >= n)
        return fail(rig, "physical device %d not found (%u devices)", index, n);
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
            free(pds);
            return fail(rig, "no physical device named like '%s' (VKSORT_TEST_DEVICE_NAME)",
                        want_name);
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

    if (!vkutil_has_device_extension(rig->physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        return fail(rig, "%s lacks %s", rig->props.deviceName,
                    VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

    rig->queue_family = vkutil_find_queue_family(rig->physical_device, VK_QUEUE_COMPUTE_BIT, 0,
                                                 &rig->timestamp_valid_bits);
    if (rig->queue_family == UINT32_MAX) {
        return fail(rig, "no compute queue");
    }

    /* Push descriptors (required by vksort); subgroupPartitionNV where the device has it
     * (VKSORT_TEST_NO_PARTITIONED=1 leaves it off to test the ballot path there too). */
    rig->enabled_extensions[0] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    rig->enabled_extension_count = 1;
    const char *no_part = getenv("VKSORT_TEST_NO_PARTITIONED");
    if (vkutil_has_device_extension(rig->physical_device,
                                    VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) &&
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
    /* Pipeline robustness where the device has it (VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS:
     * the sorters then turn buffer bounds checks off); VKSORT_TEST_NO_PIPELINE_ROBUSTNESS=1
     * leaves it off. */
    VkPhysicalDevicePipelineRobustnessFeaturesEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    const void *device_next = rig->subgroup_size_control ? (const void *)&f13 : NULL;
    const char *no_robustness = getenv("VKSORT_TEST_NO_PIPELINE_ROBUSTNESS");
    if (!(no_robustness && no_robustness[0] == '1') &&
        vkutil_has_pipeline_robustness(rig->physical_device)) {
        robustness.pipelineRobustness = VK_TRUE;
        robustness.pNext = (void *)device_next;
        device_next = &robustness;
        rig->enabled_extensions[rig->enabled_extension_count++] =
            VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME;
        rig->pipeline_robustness = 1;
    }
    vr = vkutil_device_create(rig->physical_device, rig->queue_family, device_next,
                              rig->enabled_extension_count, rig->enabled_extensions, &rig->device,
                              &rig->queue);
    if (vr != VK_SUCCESS) {
        return fail(rig, "vkCreateDevice failed (%d)", (int)vr);
    }
    vr = vkutil_command_pool_create(rig->device, rig->queue_family,
                                    VK_COMMAND_POOL_CREATE_TRANSIENT_BIT |
                                        VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    &rig->pool);
    if (vr != VK_SUCCESS) {
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
    vkutil_teardown(&rig->instance, &rig->device, &rig->pool, &rig->messenger);
    /* The message count outlives the rig: tests check it after tearing down. */
    int messages = rig->messages;
    memset(rig, 0, sizeof *rig);
    rig->messages = messages;
}

int vk_rig_buffer_create(vk_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                         int host_visible, vk_rig_buffer *out)
{
    vkutil_buffer_info info = {0};
    info.size = size ? size : 4; /* zero-sized buffers are invalid; tests ask for empty ones */
    info.usage = usage;
    info.memory = host_visible ? VKUTIL_MEMORY_HOST : VKUTIL_MEMORY_DEVICE_PREFERRED;
    return vkutil_buffer_create(rig->device, &rig->memory, &info, out, NULL) == VKUTIL_BUFFER_OK
               ? 0
               : -1;
}

void vk_rig_buffer_destroy(vk_rig *rig, vk_rig_buffer *b)
{
    vkutil_buffer_destroy(rig->device, b);
}

VkCommandBuffer vk_rig_begin(vk_rig *rig)
{
    return vkutil_one_shot_begin(rig->device, rig->pool, &rig->spare_cmd);
}

int vk_rig_submit_wait(vk_rig *rig, VkCommandBuffer cmd)
{
    return vkutil_one_shot_submit_wait(rig->device, rig->queue, rig->pool, cmd, &rig->spare_cmd);
}

void vk_rig_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    vkutil_memory_barrier(cmd, src_stage, src_access, dst_stage, dst_access);
}
