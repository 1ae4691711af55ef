/* Per-sorter table of Vulkan entry points, loaded through the caller's proc-addr functions. */
#ifndef VKSORT_VK_DEVICE_TABLE_H
#define VKSORT_VK_DEVICE_TABLE_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

/* Instance-level functions the sorter needs (loaded with vkGetInstanceProcAddr(instance)). */
#define VKSORT_VK_INSTANCE_FUNCTIONS(X) \
    X(vkGetPhysicalDeviceProperties)    \
    X(vkGetDeviceProcAddr)

/* Device-level functions, all required (VK_KHR_push_descriptor must be enabled). */
#define VKSORT_VK_DEVICE_FUNCTIONS(X)  \
    X(vkCreateShaderModule)            \
    X(vkDestroyShaderModule)           \
    X(vkCreateDescriptorSetLayout)     \
    X(vkDestroyDescriptorSetLayout)    \
    X(vkCreatePipelineLayout)          \
    X(vkDestroyPipelineLayout)         \
    X(vkCreateComputePipelines)        \
    X(vkDestroyPipeline)               \
    X(vkCmdBindPipeline)               \
    X(vkCmdPushConstants)              \
    X(vkCmdDispatch)                   \
    X(vkCmdDispatchIndirect)           \
    X(vkCmdFillBuffer)                 \
    X(vkCmdPipelineBarrier)            \
    X(vkCmdWriteTimestamp)             \
    X(vkCmdResetQueryPool)

/* VK_EXT_debug_utils (instance extension; only loaded with VKSORT_VK_CREATE_DEBUG_LABELS). */
#define VKSORT_VK_DEBUG_FUNCTIONS(X)   \
    X(vkCmdBeginDebugUtilsLabelEXT)    \
    X(vkCmdEndDebugUtilsLabelEXT)      \
    X(vkSetDebugUtilsObjectNameEXT)

typedef struct vksort_vk_device_table {
#define VKSORT_VK_DECLARE(name) PFN_##name name;
    VKSORT_VK_INSTANCE_FUNCTIONS(VKSORT_VK_DECLARE)
    VKSORT_VK_DEVICE_FUNCTIONS(VKSORT_VK_DECLARE)
    VKSORT_VK_DEBUG_FUNCTIONS(VKSORT_VK_DECLARE)
    PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR;
    /* Optional (Vulkan 1.1): subgroup properties for the radix sorts. */
    PFN_vkGetPhysicalDeviceProperties2 vkGetPhysicalDeviceProperties2;
    /* Optional: which device extensions' properties may be queried (the SM count). */
    PFN_vkEnumerateDeviceExtensionProperties vkEnumerateDeviceExtensionProperties;
#undef VKSORT_VK_DECLARE
} vksort_vk_device_table;

/* Loads the table. Returns NULL on success, else the name of the first missing required entry
 * point. Debug-utils functions are loaded only when want_debug is set; a missing one leaves all
 * three NULL (labels off). */
const char *vksort_vk_load_table(vksort_vk_device_table *table, VkInstance instance,
                                 VkDevice device, PFN_vkGetInstanceProcAddr gipa,
                                 PFN_vkGetDeviceProcAddr gdpa, int want_debug);

#endif
