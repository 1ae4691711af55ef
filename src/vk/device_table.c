/* Loads the per-sorter entry points (no global state, no link-time Vulkan dependency). */
#include "device_table.h"

#include <string.h>

const char *vksort_vk_load_table(vksort_vk_device_table *t, VkInstance instance, VkDevice device,
                                 PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa,
                                 int want_debug)
{
    memset(t, 0, sizeof *t);
#define VKSORT_VK_LOAD_INSTANCE(name)                                    \
    t->name = (PFN_##name)gipa(instance, #name);                         \
    if (!t->name)                                                        \
        return #name;
    VKSORT_VK_INSTANCE_FUNCTIONS(VKSORT_VK_LOAD_INSTANCE)
#undef VKSORT_VK_LOAD_INSTANCE
    if (gdpa)
        t->vkGetDeviceProcAddr = gdpa;
    t->vkGetPhysicalDeviceProperties2 =
        (PFN_vkGetPhysicalDeviceProperties2)gipa(instance, "vkGetPhysicalDeviceProperties2");
    t->vkEnumerateDeviceExtensionProperties = (PFN_vkEnumerateDeviceExtensionProperties)gipa(
        instance, "vkEnumerateDeviceExtensionProperties");

#define VKSORT_VK_LOAD_DEVICE(name)                                      \
    t->name = (PFN_##name)t->vkGetDeviceProcAddr(device, #name);         \
    if (!t->name)                                                        \
        return #name;
    VKSORT_VK_DEVICE_FUNCTIONS(VKSORT_VK_LOAD_DEVICE)
#undef VKSORT_VK_LOAD_DEVICE
    t->vkCmdPushDescriptorSetKHR =
        (PFN_vkCmdPushDescriptorSetKHR)t->vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR");
    if (!t->vkCmdPushDescriptorSetKHR)
        return "vkCmdPushDescriptorSetKHR";

    if (want_debug) {
        int complete = 1;
#define VKSORT_VK_LOAD_DEBUG(name)                                       \
    t->name = (PFN_##name)gipa(instance, #name);                         \
    if (!t->name)                                                        \
        complete = 0;
        VKSORT_VK_DEBUG_FUNCTIONS(VKSORT_VK_LOAD_DEBUG)
#undef VKSORT_VK_LOAD_DEBUG
        if (!complete) {
            t->vkCmdBeginDebugUtilsLabelEXT = NULL;
            t->vkCmdEndDebugUtilsLabelEXT = NULL;
            t->vkSetDebugUtilsObjectNameEXT = NULL;
        }
    }
    return NULL;
}
