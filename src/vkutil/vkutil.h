/*
 * vkutil: small Vulkan helpers shared by the project's own Vulkan hosts: the Vulkan test rig
 * (tests/vk/support), the render-graph test rig (tests/graph/support), the Vulkan side of the
 * CUDA interop tests and benchmark (cuda/testing) and the particle demo (demo/).
 *
 * NOT API: an internal static library, never installed; the library itself (src/vk) does not use
 * it, because vksort never allocates, submits or waits on the caller's behalf. The public headers
 * stay in include/vksort/. Every helper takes plain Vulkan handles so that each caller keeps its
 * own context struct, error reporting and policies (which device, which features, which messages).
 */
#ifndef VKSORT_VKUTIL_H
#define VKSORT_VKUTIL_H

#include <vulkan/vulkan.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VKUTIL_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

/* The handles and properties every context struct of the callers starts with, in this order.
 * A macro rather than a nested struct so that the callers' many users keep writing rig->device. */
#define VKUTIL_CONTEXT_FIELDS                                                                     \
    VkInstance instance;                                                                          \
    VkPhysicalDevice physical_device;                                                             \
    VkDevice device;                                                                              \
    VkQueue queue;                                                                                \
    uint32_t queue_family;                                                                        \
    VkCommandPool pool;                                                                           \
    VkCommandBuffer spare_cmd; /* the pool's recycled one-shot buffer (vkutil_one_shot_*) */      \
    VkDebugUtilsMessengerEXT messenger;                                                           \
    VkPhysicalDeviceProperties props;                                                             \
    VkPhysicalDeviceMemoryProperties memory;

/* ---- Instance and device set-up ------------------------------------------------------------ */

/* 1 when the instance layer `name` is installed. */
int vkutil_has_layer(const char *name);
/* 1 when the instance extension `name` is offered (by `layer`, or by the loader/ICDs if NULL). */
int vkutil_has_instance_extension(const char *layer, const char *name);
/* 1 when the physical device offers the device extension `name`. */
int vkutil_has_device_extension(VkPhysicalDevice physical_device, const char *name);
/* 1 when the physical device offers VK_EXT_pipeline_robustness and its pipelineRobustness
 * feature (what vksort's VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS needs enabled). Needs an instance
 * of Vulkan 1.1 or newer (vkGetPhysicalDeviceFeatures2). */
int vkutil_has_pipeline_robustness(VkPhysicalDevice physical_device);

/* The create info every caller uses for its messenger: warnings and errors of every type. */
VkDebugUtilsMessengerCreateInfoEXT vkutil_messenger_info(
    PFN_vkDebugUtilsMessengerCallbackEXT callback, void *user);
/* Synchronization validation on, for VkInstanceCreateInfo::pNext; `next` continues the chain. */
VkValidationFeaturesEXT vkutil_sync_validation_features(const void *next);
/* Creates a messenger through the instance's entry point (VK_ERROR_EXTENSION_NOT_PRESENT when
 * the instance has none). */
VkResult vkutil_messenger_create(VkInstance instance,
                                 const VkDebugUtilsMessengerCreateInfoEXT *info,
                                 VkDebugUtilsMessengerEXT *out);
/* Where vkutil_on_message counts; it is the messenger's user pointer, so it lives in the caller's
 * context struct (which must not move while the messenger exists) and points into it. */
typedef struct vkutil_message_sink {
    volatile int *messages;  /* warnings + errors (required) */
    volatile int *hazards;   /* of which synchronization hazards (SYNC-HAZARD-*), or NULL */
    /* NULL, or a flag: while it is nonzero, messages are counted but only noted in one short line
     * (unless VKSORT_TEST_VERBOSE is set): for tests that provoke messages on purpose. */
    const int *quiet;
} vkutil_message_sink;

/* The callers' messenger callback (user: a vkutil_message_sink): counts every warning and error
 * and prints "VALIDATION ERROR|WARNING: [id] message" to stderr. */
VKAPI_ATTR VkBool32 VKAPI_CALL vkutil_on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user);

/* The first queue family that has every bit of `required` (and timestamps when need_timestamps);
 * its timestampValidBits go to *timestamp_bits when not NULL. UINT32_MAX when there is none (or
 * the host is out of memory). */
uint32_t vkutil_find_queue_family(VkPhysicalDevice physical_device, VkQueueFlags required,
                                  int need_timestamps, uint32_t *timestamp_bits);
/* A device with one queue (priority 1) of queue_family; `features` goes to
 * VkDeviceCreateInfo::pNext. Fetches that queue into *queue on success. */
VkResult vkutil_device_create(VkPhysicalDevice physical_device, uint32_t queue_family,
                              const void *features, uint32_t extension_count,
                              const char *const *extensions, VkDevice *device, VkQueue *queue);
/* A command pool on queue_family with `flags`. */
VkResult vkutil_command_pool_create(VkDevice device, uint32_t queue_family,
                                    VkCommandPoolCreateFlags flags, VkCommandPool *out);
/* Tears down what VKUTIL_CONTEXT_FIELDS holds, in order: waits for the device to go idle, then
 * destroys the pool, the device, the messenger and the instance (VK_NULL_HANDLEs are skipped) and
 * sets the four handles to VK_NULL_HANDLE. */
void vkutil_teardown(VkInstance *instance, VkDevice *device, VkCommandPool *pool,
                     VkDebugUtilsMessengerEXT *messenger);

/* ---- Memory, buffers, images --------------------------------------------------------------- */

/* Index of the first memory type allowed by type_bits that has every flag of `want`, or -1. */
int vkutil_find_memory_type(const VkPhysicalDeviceMemoryProperties *memory, uint32_t type_bits,
                            VkMemoryPropertyFlags want);

/* Where a buffer's memory comes from (the callers' rules, kept as they were). */
typedef enum vkutil_memory {
    VKUTIL_MEMORY_DEVICE_LOCAL = 0,      /* DEVICE_LOCAL, else fail (exported memory) */
    VKUTIL_MEMORY_DEVICE_PREFERRED,      /* DEVICE_LOCAL, else any type (CPU drivers) */
    VKUTIL_MEMORY_HOST,                  /* HOST_VISIBLE | HOST_COHERENT, mapped */
    VKUTIL_MEMORY_HOST_CACHED_PREFERRED  /* as HOST, but HOST_CACHED first (fast read-back) */
} vkutil_memory;

typedef struct vkutil_buffer_info {
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    vkutil_memory memory;
    const void *buffer_next;  /* VkBufferCreateInfo::pNext (e.g. external memory), or NULL */
    const void *memory_next;  /* VkMemoryAllocateInfo::pNext (e.g. dedicated + export), or NULL */
    /* A VkMemoryDedicatedAllocateInfo inside memory_next whose buffer member is filled in once
     * the buffer exists (before that there is no handle to put there), or NULL. */
    VkMemoryDedicatedAllocateInfo *dedicated;
} vkutil_buffer_info;

typedef struct vkutil_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;                   /* host memory kinds only */
    VkDeviceSize size;              /* the buffer's size */
    VkDeviceSize allocation_size;   /* VkMemoryAllocateInfo::allocationSize */
} vkutil_buffer;

/* Which step of vkutil_buffer_create failed, so that callers can keep their own messages. */
typedef enum vkutil_buffer_failure {
    VKUTIL_BUFFER_OK = 0,
    VKUTIL_BUFFER_CREATE_FAILED,
    VKUTIL_BUFFER_NO_MEMORY_TYPE,
    VKUTIL_BUFFER_ALLOCATE_FAILED,
    VKUTIL_BUFFER_BIND_FAILED,
    VKUTIL_BUFFER_MAP_FAILED
} vkutil_buffer_failure;

/* Creates, allocates (own allocation), binds and for host kinds maps a buffer. On failure
 * everything is released and *out zeroed but for allocation_size (the size asked of
 * vkAllocateMemory, once known: for messages), and the failed call's VkResult goes to *result
 * (if given; VK_ERROR_FEATURE_NOT_PRESENT when no memory type fits). */
vkutil_buffer_failure vkutil_buffer_create(VkDevice device,
                                           const VkPhysicalDeviceMemoryProperties *memory,
                                           const vkutil_buffer_info *info, vkutil_buffer *out,
                                           VkResult *result);
/* Destroys the buffer and frees (thereby unmaps) its memory; zeroes *buffer. */
void vkutil_buffer_destroy(VkDevice device, vkutil_buffer *buffer);

typedef struct vkutil_image {
    VkImage image;
    VkImageView view;
    VkDeviceMemory memory;
} vkutil_image;

/* A 2D colour image (one mip, one layer, optimal tiling) in device-local memory (else any type)
 * with a view of it. 0, or -1 with *out zeroed. */
int vkutil_image_create(VkDevice device, const VkPhysicalDeviceMemoryProperties *memory,
                        VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                        vkutil_image *out);
/* Destroys the view, the image and its memory; zeroes *image. */
void vkutil_image_destroy(VkDevice device, vkutil_image *image);

/* ---- Commands ------------------------------------------------------------------------------ */

/* A primary command buffer begun for one submit; VK_NULL_HANDLE on failure. It is *spare when
 * `spare` holds one (taken; `pool` must then have VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT),
 * else a new one from `pool`. */
VkCommandBuffer vkutil_one_shot_begin(VkDevice device, VkCommandPool pool, VkCommandBuffer *spare);
/* Ends cmd, submits it to `queue` and waits on a fence. Then cmd becomes *spare when `spare` is
 * given and empty (recycled by the next vkutil_one_shot_begin, freed with the pool), else it is
 * freed back to `pool`. 0 or -1. Callers that record debug labels under the validation layer
 * should pass a spare (why: vkutil.c). */
int vkutil_one_shot_submit_wait(VkDevice device, VkQueue queue, VkCommandPool pool,
                                VkCommandBuffer cmd, VkCommandBuffer *spare);
/* A global memory barrier (sync1). */
void vkutil_memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                           VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access);

/* ---- Pipelines ----------------------------------------------------------------------------- */

/* A graphics pipeline for dynamic rendering (VK_KHR_dynamic_rendering / Vulkan 1.3) with what
 * every caller uses: one viewport and scissor (dynamic), filled polygons, no culling, one sample,
 * one color attachment. Zero means default: no vertex input, point list, RGBA writes, no
 * blending, no depth attachment. */
typedef struct vkutil_graphics_desc {
    VkShaderModule vertex, fragment; /* required; entry points "main" */
    VkPipelineLayout layout;         /* required */
    const VkPipelineVertexInputStateCreateInfo *vertex_input;
    VkPrimitiveTopology topology;
    VkFormat color_format;           /* required */
    VkColorComponentFlags color_write_mask;
    int premultiplied_blend;         /* ONE, ONE_MINUS_SRC_ALPHA for color and alpha */
    VkFormat depth_format;           /* VK_FORMAT_UNDEFINED: none */
    int depth_test, depth_write;     /* compare LESS_OR_EQUAL */
} vkutil_graphics_desc;
VkResult vkutil_graphics_pipeline_create(VkDevice device, const vkutil_graphics_desc *desc,
                                         VkPipeline *out);

#ifdef __cplusplus
}
#endif

#endif
