/*
 * Vulkan device for the render-graph tests: a Vulkan 1.3 instance with VK_LAYER_KHRONOS_validation
 * and synchronization validation (VkValidationFeaturesEXT), a debug-utils messenger that counts
 * every warning and error (and remembers whether a synchronization hazard was among them), and a
 * device with the features the graph needs: synchronization2 and dynamicRendering (Vulkan 1.3),
 * VK_KHR_push_descriptor (the sorter and the tests' compute passes).
 *
 * Environment: VKSORT_TEST_DEVICE_NAME=S picks the first device whose name contains S;
 * VKSORT_TEST_ALLOW_NO_VALIDATION=1 runs without the layer instead of failing.
 */
#ifndef VKSORT_TEST_GRAPH_RIG_H
#define VKSORT_TEST_GRAPH_RIG_H

#include "vkutil.h"

#include <vulkan/vulkan.h>

#include <stddef.h>
#include <stdint.h>

typedef struct graph_rig {
    /* instance, physical_device, device, queue, queue_family, pool, messenger, props, memory */
    VKUTIL_CONTEXT_FIELDS
    int validation;
    int messages;           /* warnings + errors */
    int hazards;            /* of which synchronization hazards (SYNC-HAZARD-*) */
    int quiet_messages;     /* 1: count but do not print (tests that expect messages) */
    vkutil_message_sink message_sink; /* the messenger's user data: counts into this struct */
    PFN_vkCmdPushDescriptorSetKHR push_descriptor;
    const char *extensions[2];
    uint32_t extension_count;
} graph_rig;

int graph_rig_create(graph_rig *rig);
void graph_rig_destroy(graph_rig *rig);

/* buffer, memory, mapped, size (and allocation_size). */
typedef vkutil_buffer graph_rig_buffer;

/* Host-visible, coherent, mapped, zero-filled. */
int graph_rig_buffer_create(graph_rig *rig, VkDeviceSize size, VkBufferUsageFlags usage,
                            graph_rig_buffer *out);
void graph_rig_buffer_destroy(graph_rig *rig, graph_rig_buffer *b);

/* image, view, memory: a 2D colour image in device-local memory. */
typedef vkutil_image graph_rig_image;
int graph_rig_image_create(graph_rig *rig, VkFormat format, uint32_t width, uint32_t height,
                           VkImageUsageFlags usage, graph_rig_image *out);
void graph_rig_image_destroy(graph_rig *rig, graph_rig_image *img);

VkCommandBuffer graph_rig_begin(graph_rig *rig);
int graph_rig_submit_wait(graph_rig *rig, VkCommandBuffer cmd);

/* Loads SPIR-V from `dir`/`name`. */
VkShaderModule graph_rig_shader(graph_rig *rig, const char *dir, const char *name);

#endif
