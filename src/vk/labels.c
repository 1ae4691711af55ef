/* Debug labels (VK_EXT_debug_utils, only when the sorter was created with
 * VKSORT_VK_CREATE_DEBUG_LABELS and the entry points resolved) and pass names for labels and
 * timestamps. */
#include "sorter_internal.h"

#include <stdio.h>

const char *vksort_vk_pass_kind_name(uint32_t kind)
{
    switch (kind) {
    case PASS_PREPARE: return "prepare";
    case PASS_LOCAL_SORT: return "local_sort";
    case PASS_GLOBAL_MERGE: return "global_merge";
    case PASS_LOCAL_MERGE: return "local_merge";
    case PASS_RANK_SORT: return "rank_sort";
    default: return "?";
    }
}

void vksort_vk_pass_name(const vksort_vk_pass *pass, char *buf, size_t n)
{
    switch (pass->kind) {
    case PASS_GLOBAL_MERGE: {
        unsigned lo = pass->bit_hi + 1u >= VKSORT_BITONIC_GLOBAL_LOG
                          ? pass->bit_hi + 1u - VKSORT_BITONIC_GLOBAL_LOG
                          : 0u;
        snprintf(buf, n, "global_merge 2^%u strides 2^%u..2^%u%s", (unsigned)pass->level,
                 (unsigned)pass->bit_hi, lo, pass->flip ? " (flip)" : "");
        break;
    }
    case PASS_LOCAL_MERGE:
        snprintf(buf, n, "local_merge 2^%u", (unsigned)pass->level);
        break;
    case PASS_LOCAL_SORT:
        snprintf(buf, n, "local_sort 2^%u", (unsigned)pass->level);
        break;
    default:
        snprintf(buf, n, "%s", vksort_vk_pass_kind_name(pass->kind));
        break;
    }
}

void vksort_vk_label_begin(const vksort_vk_sorter *s, VkCommandBuffer cmd, const char *name)
{
    if (!s->debug_labels)
        return;
    VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = name;
    label.color[0] = 0.2f;
    label.color[1] = 0.6f;
    label.color[2] = 0.9f;
    label.color[3] = 1.0f;
    s->vk.vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
}

void vksort_vk_label_end(const vksort_vk_sorter *s, VkCommandBuffer cmd)
{
    if (s->debug_labels)
        s->vk.vkCmdEndDebugUtilsLabelEXT(cmd);
}

void vksort_vk_name_object(const vksort_vk_sorter *s, VkObjectType type, uint64_t handle,
                           const char *name)
{
    if (!s->debug_labels || !s->vk.vkSetDebugUtilsObjectNameEXT)
        return;
    VkDebugUtilsObjectNameInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name;
    s->vk.vkSetDebugUtilsObjectNameEXT(s->device, &info);
}
