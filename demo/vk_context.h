/* The demo's Vulkan instance, device and memory helpers. One graphics+compute queue; Vulkan 1.3
 * (or 1.2 + the KHR extensions) with synchronization2 and dynamicRendering (the render graph), VK_KHR_push_descriptor (the
 * sorter and the demo's own passes), debug utils when available (labels and names for RenderDoc
 * and Nsight), and optionally the validation layer with synchronization validation. */
#ifndef VKSORT_DEMO_VK_CONTEXT_H
#define VKSORT_DEMO_VK_CONTEXT_H

#include "vkutil.h"

#include <vulkan/vulkan.h>

#include <stdint.h>

typedef struct vk_context_options {
    int validation;
    uint32_t instance_extension_count;     /* e.g. GLFW's surface extensions */
    const char *const *instance_extensions;
    int swapchain;                         /* enable VK_KHR_swapchain */
    int want_external;                     /* enable the CUDA interop extensions when present */
} vk_context_options;

typedef struct vk_context {
    /* instance, physical_device, device, queue, queue_family, pool, messenger, props, memory */
    VKUTIL_CONTEXT_FIELDS
    int debug_utils;        /* VK_EXT_debug_utils enabled: labels and object names */
    int validation;
    int external;           /* external memory/semaphore fd + timeline semaphores enabled */
    int is_cpu;             /* a CPU implementation (lavapipe): small defaults */
    volatile int messages;  /* validation warnings + errors seen */
    vkutil_message_sink message_sink; /* the messenger's user data: counts into this struct */
    uint8_t device_uuid[16];
    int api13;              /* Vulkan 1.3 device (else 1.2 + sync2/dynamic rendering extensions) */
    const char *extensions[10];
    uint32_t extension_count;
    int pipeline_robustness; /* the pipelineRobustness feature is enabled (its extension listed) */
    PFN_vkCmdPushDescriptorSetKHR push_descriptor;
    PFN_vkQueueSubmit2 queue_submit2;       /* core or KHR */
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label;
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkGetMemoryFdKHR get_memory_fd;
    PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
} vk_context;

int vk_context_create(const vk_context_options *opt, vk_context *ctx);
void vk_context_destroy(vk_context *ctx);

/* Names an object when debug utils are on. */
void vk_name(const vk_context *ctx, VkObjectType type, uint64_t handle, const char *name);
void vk_label_begin(const vk_context *ctx, VkCommandBuffer cmd, const char *name);
void vk_label_end(const vk_context *ctx, VkCommandBuffer cmd);

/* buffer, memory, mapped (host-visible buffers), size, allocation_size. */
typedef vkutil_buffer vk_buffer;

enum {
    VK_BUFFER_DEVICE = 0,
    VK_BUFFER_HOST = 1,       /* host-visible, coherent (cached when available), mapped */
    VK_BUFFER_EXPORT = 2      /* device-local, dedicated, exportable as OPAQUE_FD (CUDA) */
};
int vk_buffer_create(vk_context *ctx, VkDeviceSize size, VkBufferUsageFlags usage, int kind,
                     const char *name, vk_buffer *out);
void vk_buffer_destroy(vk_context *ctx, vk_buffer *b);

/* image, view, memory: a 2D colour image in device-local memory. */
typedef vkutil_image vk_image;
int vk_image_create(vk_context *ctx, VkFormat format, uint32_t width, uint32_t height,
                    VkImageUsageFlags usage, const char *name, vk_image *out);
void vk_image_destroy(vk_context *ctx, vk_image *img);

#endif
