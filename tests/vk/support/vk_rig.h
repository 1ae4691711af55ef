/*
 * Vulkan test rig: instance + device with VK_LAYER_KHRONOS_validation and synchronization
 * validation on, a debug-utils messenger that counts (and prints) every warning and error,
 * host-visible buffers and one-shot submits.
 *
 * Environment:
 *   VKSORT_TEST_DEVICE=N                  physical device index (default 0)
 *   VKSORT_TEST_DEVICE_NAME=S             the first device whose name contains S (wins)
 *   VKSORT_TEST_ALLOW_NO_VALIDATION=1     run without the validation layer instead of failing
 *   VKSORT_TEST_EXPECT_SUBGROUP=N         fail unless the device's subgroup size is N
 */
#ifndef VKSORT_TEST_VK_RIG_H
#define VKSORT_TEST_VK_RIG_H

#include "vkutil.h"

#include <vulkan/vulkan.h>

#include <stddef.h>
#include <stdint.h>

typedef struct vk_rig {
    /* instance, physical_device, device, queue, queue_family, pool, messenger, props, memory */
    VKUTIL_CONTEXT_FIELDS
    uint32_t subgroup_size;
    uint32_t timestamp_valid_bits;
    int validation;         /* the validation layer is on */
    int debug_utils;        /* VK_EXT_debug_utils is enabled */
    int messages;           /* warnings + errors seen by the messenger */
    vkutil_message_sink message_sink; /* the messenger's user data: counts into this struct */
    uint32_t instance_api;  /* apiVersion the instance was created with */
    /* subgroupSizeControl + computeFullSubgroups enabled (Vulkan 1.3 devices that have them) */
    int subgroup_size_control;
    int pipeline_robustness; /* the pipelineRobustness feature is enabled (its extension listed) */
    /* Device extensions enabled (for vksort_vk_sorter_create_info::enabled_extensions). */
    const char *enabled_extensions[4];
    uint32_t enabled_extension_count;
} vk_rig;

typedef struct vk_rig_options {
    int validation;         /* 1: require the validation layer (see VKSORT_TEST_ALLOW_NO_VALIDATION) */
    int device_index;       /* -1: VKSORT_TEST_DEVICE or 0 */
    int quiet;              /* do not print the device line */
} vk_rig_options;

/* Returns 0 on success, else prints why and returns -1. */
int vk_rig_create(vk_rig *rig, const vk_rig_options *options);
void vk_rig_destroy(vk_rig *rig);

/* Prints the physical devices ("index: name (type)") to stdout. Returns the count, -1 on error. */
int vk_rig_list_devices(void);

/* Checks VKSORT_TEST_EXPECT_SUBGROUP against the device; returns 0 when it matches or is unset. */
int vk_rig_check_subgroup(const vk_rig *rig);

/* buffer, memory, mapped (host-visible buffers only), size (and allocation_size). */
typedef vkutil_buffer vk_rig_buffer;

/* host_visible: HOST_VISIBLE|HOST_COHERENT memory, mapped; else DEVICE_LOCAL. */
int vk_rig_buffer_create(vk_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                         int host_visible, vk_rig_buffer *out);
void vk_rig_buffer_destroy(vk_rig *rig, vk_rig_buffer *buffer);

/* A primary command buffer in the recording state (one-time submit). */
VkCommandBuffer vk_rig_begin(vk_rig *rig);
/* Ends, submits, waits for completion and frees the command buffer. Returns 0 or -1. */
int vk_rig_submit_wait(vk_rig *rig, VkCommandBuffer cmd);

/* Barrier helpers (sync1, global memory barriers). */
void vk_rig_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

/* Milliseconds since an arbitrary start (CLOCK_MONOTONIC). */
double vk_rig_now_ms(void);

#endif
