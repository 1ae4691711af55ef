/* Small Vulkan helpers shared by the test rigs, the CUDA interop kit and the demo (vkutil.h). */
#include "vkutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Instance and device set-up ------------------------------------------------------------ */

int vkutil_has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
        return 0;
    VkLayerProperties *props = calloc(n ? n : 1, sizeof *props);
    int found = 0;
    if (props && vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(props[i].layerName, name) == 0;
    free(props);
    return found;
}

/* Whether `name` is among the n extensions of `props`. */
static int extension_listed(const VkExtensionProperties *props, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; ++i)
        if (strcmp(props[i].extensionName, name) == 0)
            return 1;
    return 0;
}

int vkutil_has_instance_extension(const char *layer, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    VkResult vr = props ? vkEnumerateInstanceExtensionProperties(layer, &n, props)
                        : VK_ERROR_OUT_OF_HOST_MEMORY;
    int found = vr == VK_SUCCESS && extension_listed(props, n, name);
    free(props);
    return found;
}

int vkutil_has_device_extension(VkPhysicalDevice physical_device, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(physical_device, NULL, &n, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    VkResult vr = props ? vkEnumerateDeviceExtensionProperties(physical_device, NULL, &n, props)
                        : VK_ERROR_OUT_OF_HOST_MEMORY;
    int found = vr == VK_SUCCESS && extension_listed(props, n, name);
    free(props);
    return found;
}

int vkutil_has_pipeline_robustness(VkPhysicalDevice physical_device)
{
    if (!vkutil_has_device_extension(physical_device, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME))
        return 0;
    VkPhysicalDevicePipelineRobustnessFeaturesEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 query = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    query.pNext = &robustness;
    vkGetPhysicalDeviceFeatures2(physical_device, &query);
    return robustness.pipelineRobustness == VK_TRUE;
}

VkDebugUtilsMessengerCreateInfoEXT vkutil_messenger_info(
    PFN_vkDebugUtilsMessengerCallbackEXT callback, void *user)
{
    VkDebugUtilsMessengerCreateInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = callback;
    info.pUserData = user;
    return info;
}

/* Static: the returned struct points at it and must stay valid until vkCreateInstance. */
static const VkValidationFeatureEnableEXT sync_validation_enables[] = {
    VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};

VkValidationFeaturesEXT vkutil_sync_validation_features(const void *next)
{
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.pNext = next;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = sync_validation_enables;
    return features;
}

VkResult vkutil_messenger_create(VkInstance instance,
                                 const VkDebugUtilsMessengerCreateInfoEXT *info,
                                 VkDebugUtilsMessengerEXT *out)
{
    /* An extension entry point: only reachable through the instance. */
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    return create(instance, info, NULL, out);
}

/* Destroys a messenger through the instance's entry point (VK_NULL_HANDLE is ignored). */
static void messenger_destroy(VkInstance instance, VkDebugUtilsMessengerEXT messenger)
{
    if (!messenger)
        return;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
    if (destroy)
        destroy(instance, messenger, NULL);
}

static void print_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char *id,
                          const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    fprintf(stderr, "VALIDATION %s: [%s] %s\n",
            (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "ERROR" : "WARNING", id,
            data->pMessage ? data->pMessage : "");
    /* Messages interleave with the tests' own output; make sure they are out before a crash. */
    fflush(stderr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL vkutil_on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)types;
    vkutil_message_sink *sink = user;
    if (!(severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)))
        return VK_FALSE;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "-";
    ++*sink->messages;
    if (sink->hazards && strstr(id, "SYNC-HAZARD"))
        ++*sink->hazards;
    if (sink->quiet && *sink->quiet && !getenv("VKSORT_TEST_VERBOSE"))
        fprintf(stderr, "(expected) validation message [%s]\n", id);
    else
        print_message(severity, id, data);
    return VK_FALSE; /* never abort the call that triggered it */
}

uint32_t vkutil_find_queue_family(VkPhysicalDevice physical_device, VkQueueFlags required,
                                  int need_timestamps, uint32_t *timestamp_bits)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &n, NULL);
    VkQueueFamilyProperties *families = calloc(n ? n : 1, sizeof *families);
    if (!families)
        return UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &n, families);
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < n && found == UINT32_MAX; ++i)
        if ((families[i].queueFlags & required) == required &&
            (!need_timestamps || families[i].timestampValidBits > 0))
            found = i;
    if (found != UINT32_MAX && timestamp_bits)
        *timestamp_bits = families[found].timestampValidBits;
    free(families);
    return found;
}

VkResult vkutil_device_create(VkPhysicalDevice physical_device, uint32_t queue_family,
                              const void *features, uint32_t extension_count,
                              const char *const *extensions, VkDevice *device, VkQueue *queue)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = features;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = extension_count;
    dci.ppEnabledExtensionNames = extensions;
    VkResult vr = vkCreateDevice(physical_device, &dci, NULL, device);
    if (vr != VK_SUCCESS) {
        *device = VK_NULL_HANDLE; /* so that the caller's teardown skips it */
        return vr;
    }
    vkGetDeviceQueue(*device, queue_family, 0, queue);
    return VK_SUCCESS;
}

VkResult vkutil_command_pool_create(VkDevice device, uint32_t queue_family,
                                    VkCommandPoolCreateFlags flags, VkCommandPool *out)
{
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = queue_family;
    pci.flags = flags;
    VkResult vr = vkCreateCommandPool(device, &pci, NULL, out);
    if (vr != VK_SUCCESS)
        *out = VK_NULL_HANDLE;
    return vr;
}

void vkutil_teardown(VkInstance *instance, VkDevice *device, VkCommandPool *pool,
                     VkDebugUtilsMessengerEXT *messenger)
{
    if (*device) {
        /* Nothing may still run on the objects destroyed below. */
        vkDeviceWaitIdle(*device);
        if (*pool)
            vkDestroyCommandPool(*device, *pool, NULL);
        vkDestroyDevice(*device, NULL);
    }
    if (*instance) {
        messenger_destroy(*instance, *messenger);
        vkDestroyInstance(*instance, NULL);
    }
    *pool = VK_NULL_HANDLE;
    *device = VK_NULL_HANDLE;
    *messenger = VK_NULL_HANDLE;
    *instance = VK_NULL_HANDLE;
}

/* ---- Memory, buffers, images --------------------------------------------------------------- */

int vkutil_find_memory_type(const VkPhysicalDeviceMemoryProperties *memory, uint32_t type_bits,
                            VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < memory->memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (memory->memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

/* The memory type for `kind`: the first choice, then the kind's fallback if it has one. */
static int memory_type_for(const VkPhysicalDeviceMemoryProperties *memory, uint32_t type_bits,
                           vkutil_memory kind)
{
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = -1;
    switch (kind) {
    case VKUTIL_MEMORY_DEVICE_LOCAL:
        return vkutil_find_memory_type(memory, type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    case VKUTIL_MEMORY_DEVICE_PREFERRED:
        type = vkutil_find_memory_type(memory, type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        return type >= 0 ? type : vkutil_find_memory_type(memory, type_bits, 0);
    case VKUTIL_MEMORY_HOST:
        return vkutil_find_memory_type(memory, type_bits, host);
    case VKUTIL_MEMORY_HOST_CACHED_PREFERRED:
        type = vkutil_find_memory_type(memory, type_bits,
                                       host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        return type >= 0 ? type : vkutil_find_memory_type(memory, type_bits, host);
    }
    return -1;
}

static int is_host_kind(vkutil_memory kind)
{
    return kind == VKUTIL_MEMORY_HOST || kind == VKUTIL_MEMORY_HOST_CACHED_PREFERRED;
}

/* Releases what a failed vkutil_buffer_create made and reports the step. */
static vkutil_buffer_failure buffer_failed(VkDevice device, vkutil_buffer *out,
                                           vkutil_buffer_failure step, VkResult vr,
                                           VkResult *result)
{
    VkDeviceSize allocation_size = out->allocation_size; /* kept for the caller's message */
    vkutil_buffer_destroy(device, out);
    out->allocation_size = allocation_size;
    if (result)
        *result = vr;
    return step;
}

vkutil_buffer_failure vkutil_buffer_create(VkDevice device,
                                           const VkPhysicalDeviceMemoryProperties *memory,
                                           const vkutil_buffer_info *info, vkutil_buffer *out,
                                           VkResult *result)
{
    memset(out, 0, sizeof *out);
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.pNext = info->buffer_next;
    bci.size = info->size;
    bci.usage = info->usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult vr = vkCreateBuffer(device, &bci, NULL, &out->buffer);
    if (vr != VK_SUCCESS) {
        out->buffer = VK_NULL_HANDLE; /* not left to the driver: destroy must skip it */
        return buffer_failed(device, out, VKUTIL_BUFFER_CREATE_FAILED, vr, result);
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, out->buffer, &req);
    out->allocation_size = req.size;
    int type = memory_type_for(memory, req.memoryTypeBits, info->memory);
    if (type < 0)
        return buffer_failed(device, out, VKUTIL_BUFFER_NO_MEMORY_TYPE,
                             VK_ERROR_FEATURE_NOT_PRESENT, result);
    if (info->dedicated)
        info->dedicated->buffer = out->buffer;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.pNext = info->memory_next;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    vr = vkAllocateMemory(device, &mai, NULL, &out->memory);
    if (vr != VK_SUCCESS) {
        out->memory = VK_NULL_HANDLE;
        return buffer_failed(device, out, VKUTIL_BUFFER_ALLOCATE_FAILED, vr, result);
    }
    vr = vkBindBufferMemory(device, out->buffer, out->memory, 0);
    if (vr != VK_SUCCESS)
        return buffer_failed(device, out, VKUTIL_BUFFER_BIND_FAILED, vr, result);
    if (is_host_kind(info->memory)) {
        vr = vkMapMemory(device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
        if (vr != VK_SUCCESS)
            return buffer_failed(device, out, VKUTIL_BUFFER_MAP_FAILED, vr, result);
    }
    out->size = info->size;
    if (result)
        *result = VK_SUCCESS;
    return VKUTIL_BUFFER_OK;
}

void vkutil_buffer_destroy(VkDevice device, vkutil_buffer *buffer)
{
    if (buffer->buffer)
        vkDestroyBuffer(device, buffer->buffer, NULL);
    if (buffer->memory)
        vkFreeMemory(device, buffer->memory, NULL); /* unmaps too */
    memset(buffer, 0, sizeof *buffer);
}

/* Allocates and binds device-local (else any) memory for an image. */
static int image_bind_memory(VkDevice device, const VkPhysicalDeviceMemoryProperties *memory,
                             vkutil_image *out)
{
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, out->image, &req);
    int type = memory_type_for(memory, req.memoryTypeBits, VKUTIL_MEMORY_DEVICE_PREFERRED);
    if (type < 0)
        return -1;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    if (vkAllocateMemory(device, &mai, NULL, &out->memory) != VK_SUCCESS) {
        out->memory = VK_NULL_HANDLE;
        return -1;
    }
    return vkBindImageMemory(device, out->image, out->memory, 0) == VK_SUCCESS ? 0 : -1;
}

int vkutil_image_create(VkDevice device, const VkPhysicalDeviceMemoryProperties *memory,
                        VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                        vkutil_image *out)
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
    if (vkCreateImage(device, &ici, NULL, &out->image) != VK_SUCCESS) {
        out->image = VK_NULL_HANDLE;
        return -1;
    }
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = out->image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (image_bind_memory(device, memory, out) != 0 ||
        vkCreateImageView(device, &vci, NULL, &out->view) != VK_SUCCESS) {
        out->view = VK_NULL_HANDLE;
        vkutil_image_destroy(device, out);
        return -1;
    }
    return 0;
}

void vkutil_image_destroy(VkDevice device, vkutil_image *image)
{
    if (image->view)
        vkDestroyImageView(device, image->view, NULL);
    if (image->image)
        vkDestroyImage(device, image->image, NULL);
    if (image->memory)
        vkFreeMemory(device, image->memory, NULL);
    memset(image, 0, sizeof *image);
}

/* ---- Commands ------------------------------------------------------------------------------ */

/* Why recycle: freeing a command buffer right after its fence lets the validation layer's queue
 * thread drop the last reference to its state, which erases the buffer's debug labels without
 * the layer's lock, racing the labels the next recording begins on this thread (heap corruption
 * seen in CI with Debian 12's layer 1.3.239; Vulkan-ValidationLayers issue 5172, fixed in later
 * layers). A recycled buffer's state lives until the pool is destroyed after vkDeviceWaitIdle. */
VkCommandBuffer vkutil_one_shot_begin(VkDevice device, VkCommandPool pool, VkCommandBuffer *spare)
{
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (spare && *spare) {
        cmd = *spare;
        *spare = VK_NULL_HANDLE;
    } else {
        VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cai.commandPool = pool;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        if (vkAllocateCommandBuffers(device, &cai, &cmd) != VK_SUCCESS)
            return VK_NULL_HANDLE;
    }
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (vkBeginCommandBuffer(cmd, &bi) != VK_SUCCESS) {
        vkFreeCommandBuffers(device, pool, 1, &cmd);
        return VK_NULL_HANDLE;
    }
    return cmd;
}

int vkutil_one_shot_submit_wait(VkDevice device, VkQueue queue, VkCommandPool pool,
                                VkCommandBuffer cmd, VkCommandBuffer *spare)
{
    int rc = vkEndCommandBuffer(cmd) == VK_SUCCESS ? 0 : -1;
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (rc == 0 && vkCreateFence(device, &fci, NULL, &fence) != VK_SUCCESS) {
        fence = VK_NULL_HANDLE;
        rc = -1;
    }
    if (rc == 0) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        if (vkQueueSubmit(queue, 1, &si, fence) != VK_SUCCESS ||
            vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
            rc = -1;
    }
    if (fence)
        vkDestroyFence(device, fence, NULL);
    if (rc == 0 && spare && !*spare)
        *spare = cmd; /* completed: vkBeginCommandBuffer may reset it */
    else
        vkFreeCommandBuffers(device, pool, 1, &cmd);
    return rc;
}

void vkutil_memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                           VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = src_access;
    mb.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* ---- Pipelines ----------------------------------------------------------------------------- */

VkResult vkutil_graphics_pipeline_create(VkDevice device, const vkutil_graphics_desc *desc,
                                         VkPipeline *out)
{
    VkPipelineShaderStageCreateInfo stages[2];
    memset(stages, 0, sizeof stages);
    for (int i = 0; i < 2; ++i) {
        stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        stages[i].pName = "main";
    }
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = desc->vertex;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = desc->fragment;
    VkPipelineVertexInputStateCreateInfo no_input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = desc->topology;
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = desc->depth_test ? VK_TRUE : VK_FALSE;
    ds.depthWriteEnable = desc->depth_write ? VK_TRUE : VK_FALSE;
    ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    VkPipelineColorBlendAttachmentState att = {0};
    att.colorWriteMask = desc->color_write_mask ? desc->color_write_mask
                                                : VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                                      VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (desc->premultiplied_blend) {
        att.blendEnable = VK_TRUE;
        att.srcColorBlendFactor = att.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        att.dstColorBlendFactor = att.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        att.colorBlendOp = att.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &att;
    const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = 2;
    dy.pDynamicStates = dynamic;
    VkPipelineRenderingCreateInfo ri = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    ri.colorAttachmentCount = 1;
    ri.pColorAttachmentFormats = &desc->color_format;
    ri.depthAttachmentFormat = desc->depth_format;
    VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.pNext = &ri;
    ci.stageCount = 2;
    ci.pStages = stages;
    ci.pVertexInputState = desc->vertex_input ? desc->vertex_input : &no_input;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = desc->depth_format != VK_FORMAT_UNDEFINED ? &ds : NULL;
    ci.pColorBlendState = &cb;
    ci.pDynamicState = &dy;
    ci.layout = desc->layout;
    return vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, NULL, out);
}
