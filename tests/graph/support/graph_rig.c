/* Vulkan device for the render-graph tests (see graph_rig.h). */
#include "graph_rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char validation_layer[] = VKUTIL_VALIDATION_LAYER;

int graph_rig_create(graph_rig *rig)
{
    memset(rig, 0, sizeof *rig);
    rig->validation = vkutil_has_layer(validation_layer);
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

    rig->message_sink.messages = &rig->messages;
    rig->message_sink.hazards = &rig->hazards;
    rig->message_sink.quiet = &rig->quiet_messages;
    VkDebugUtilsMessengerCreateInfoEXT mci =
        vkutil_messenger_info(vkutil_on_message, &rig->message_sink);
    VkValidationFeaturesEXT vf = vkutil_sync_validation_features(&mci);
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
    if (vkutil_messenger_create(rig->instance, &mci, &rig->messenger) != VK_SUCCESS) {
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
    if (!vkutil_has_device_extension(rig->physical_device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
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

    rig->queue_family = vkutil_find_queue_family(
        rig->physical_device, VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, 0, NULL);
    if (rig->queue_family == UINT32_MAX) {
        fprintf(stderr, "graph_rig: no graphics+compute queue\n");
        graph_rig_destroy(rig);
        return -1;
    }
    rig->extensions[0] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    rig->extension_count = 1;
    vr = vkutil_device_create(rig->physical_device, rig->queue_family, &en2, rig->extension_count,
                              rig->extensions, &rig->device, &rig->queue);
    if (vr != VK_SUCCESS) {
        fprintf(stderr, "graph_rig: vkCreateDevice failed (%d)\n", (int)vr);
        graph_rig_destroy(rig);
        return -1;
    }
    rig->push_descriptor = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
        rig->device, "vkCmdPushDescriptorSetKHR");
    if (!rig->push_descriptor ||
        vkutil_command_pool_create(rig->device, rig->queue_family,
                                   VK_COMMAND_POOL_CREATE_TRANSIENT_BIT |
                                       VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   &rig->pool) != VK_SUCCESS) {
        graph_rig_destroy(rig);
        return -1;
    }
    printf("device: %s, validation %s\n", rig->props.deviceName,
           rig->validation ? "on (synchronization validation on)" : "OFF");
    return 0;
}

void graph_rig_destroy(graph_rig *rig)
{
    vkutil_teardown(&rig->instance, &rig->device, &rig->pool, &rig->messenger);
    /* The counts outlive the rig: tests check them after tearing down. */
    int messages = rig->messages, hazards = rig->hazards;
    memset(rig, 0, sizeof *rig);
    rig->messages = messages;
    rig->hazards = hazards;
}

int graph_rig_buffer_create(graph_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                            graph_rig_buffer *out)
{
    vkutil_buffer_info info = {0};
    info.size = size;
    info.usage = usage;
    info.memory = VKUTIL_MEMORY_HOST;
    if (vkutil_buffer_create(rig->device, &rig->memory, &info, out, NULL) != VKUTIL_BUFFER_OK)
        return -1;
    memset(out->mapped, 0, (size_t)size); /* tests rely on zeroed inputs */
    return 0;
}

void graph_rig_buffer_destroy(graph_rig *rig, graph_rig_buffer *b)
{
    vkutil_buffer_destroy(rig->device, b);
}

int graph_rig_image_create(graph_rig *rig, VkFormat format, uint32_t width, uint32_t height,
                           VkImageUsageFlags usage, graph_rig_image *out)
{
    return vkutil_image_create(rig->device, &rig->memory, format, width, height, usage, out);
}

void graph_rig_image_destroy(graph_rig *rig, graph_rig_image *img)
{
    vkutil_image_destroy(rig->device, img);
}

VkCommandBuffer graph_rig_begin(graph_rig *rig)
{
    return vkutil_one_shot_begin(rig->device, rig->pool, &rig->spare_cmd);
}

int graph_rig_submit_wait(graph_rig *rig, VkCommandBuffer cmd)
{
    return vkutil_one_shot_submit_wait(rig->device, rig->queue, rig->pool, cmd, &rig->spare_cmd);
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
