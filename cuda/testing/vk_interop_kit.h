/*
 * Vulkan side of the CUDA interop tests and benchmark (not part of the library): an instance and
 * a device with VK_KHR_external_memory_fd + VK_KHR_external_semaphore_fd and timeline semaphores,
 * the validation layer when present (every warning or error is counted and printed), exportable
 * device-local buffers (dedicated allocations), an exportable timeline semaphore, host-visible
 * buffers, and submits that wait/signal timeline values without waiting on the host.
 *
 * Environment:
 *   VKSORT_TEST_VK_NO_VALIDATION=1   do not enable the validation layer even when present
 *   VKSORT_TEST_VK_NO_SYNC_VALIDATION=1  the layer without synchronization validation
 *   VKSORT_TEST_DEVICE_NAME=S        only physical devices whose name contains S
 */
#ifndef VKSORT_CUDA_VK_INTEROP_KIT_H
#define VKSORT_CUDA_VK_INTEROP_KIT_H

#include "vkutil.h"

#include <vulkan/vulkan.h>

#include <stddef.h>
#include <stdint.h>

/* vkik_create() results besides 0. */
#define VKIK_ERROR (-1)
#define VKIK_NO_DEVICE (-2) /* no Vulkan device with what the interop needs (a skip, not a bug) */

typedef struct vkik_options {
    /* Optional filter: accept a physical device only when this returns nonzero for its
     * deviceUUID (e.g. "is a CUDA device of this process"). NULL accepts every device. */
    int (*accept_uuid)(void *user, const uint8_t uuid[16]);
    void *user;
    int allow_cpu_devices;  /* accept CPU implementations (lavapipe); default: GPUs only */
    /* Memory export only: do not require VK_KHR_external_semaphore_fd (a dry run without CUDA
     * on devices that lack it, such as lavapipe); get_semaphore_fd is then NULL. */
    int no_semaphore_export;
    int quiet;              /* do not print the device line */
} vkik_options;

typedef struct vkik {
    /* instance, physical_device, device, queue, queue_family, pool, messenger, props, memory */
    VKUTIL_CONTEXT_FIELDS
    uint8_t device_uuid[16];
    uint32_t timestamp_valid_bits;
    int validation;         /* the validation layer is on */
    int sync_validation;    /* with synchronization validation */
    int messages;           /* validation warnings + errors seen */
    vkutil_message_sink message_sink; /* the messenger's user data: counts into this struct */
    PFN_vkGetMemoryFdKHR get_memory_fd;
    PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
    char error[512];        /* why the last vkik_* call failed */
} vkik;

/* 0, VKIK_NO_DEVICE (reason in k->error) or VKIK_ERROR (reason in k->error). */
int vkik_create(vkik *k, const vkik_options *options);
void vkik_destroy(vkik *k);

typedef struct vkik_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;              /* the buffer's size */
    VkDeviceSize allocation_size;   /* VkMemoryAllocateInfo::allocationSize */
    void *mapped;                   /* host-visible buffers only */
    int exportable;
} vkik_buffer;

/* exportable: device-local, OPAQUE_FD export chains, dedicated allocation.
 * host_visible: HOST_VISIBLE | HOST_COHERENT, mapped (not exportable). Returns 0 or -1. */
int vkik_buffer_create(vkik *k, VkDeviceSize size, VkBufferUsageFlags usage, int exportable,
                       int host_visible, vkik_buffer *out);
void vkik_buffer_destroy(vkik *k, vkik_buffer *b);
/* A new OPAQUE_FD for an exportable buffer's memory (the caller owns it). 0 or -1. */
int vkik_buffer_export_fd(vkik *k, const vkik_buffer *b, int *out_fd);

/* A timeline semaphore starting at `initial`, exportable as OPAQUE_FD when asked. 0 or -1. */
int vkik_timeline_create(vkik *k, uint64_t initial, int exportable, VkSemaphore *out);
int vkik_semaphore_export_fd(vkik *k, VkSemaphore semaphore, int *out_fd);

/* A primary command buffer in the recording state (one-time submit). NULL on failure. */
VkCommandBuffer vkik_begin(vkik *k);
/* Ends and submits cmd: waits for timeline >= wait_value at wait_stage first (wait_value 0: no
 * wait), signals signal_value after (0: no signal), plus the optional fence. No host wait. The
 * command buffer is freed by vkik_reset_commands(). 0 or -1. */
int vkik_submit(vkik *k, VkCommandBuffer cmd, VkSemaphore timeline, uint64_t wait_value,
                VkPipelineStageFlags wait_stage, uint64_t signal_value, VkFence fence);
/* Host wait until the timeline reaches value (timeout in ns). 0 or -1. */
int vkik_wait(vkik *k, VkSemaphore timeline, uint64_t value, uint64_t timeout_ns);
/* Waits for the queue to go idle and frees every command buffer of the pool. */
void vkik_reset_commands(vkik *k);

/* Queue family ownership transfer of whole buffers to (release) or from (acquire)
 * VK_QUEUE_FAMILY_EXTERNAL. release: src = (stage, access) of the last Vulkan writer;
 * acquire: dst = (stage, access) of the first Vulkan reader/writer. */
void vkik_release_to_external(vkik *k, VkCommandBuffer cmd, const VkBuffer *buffers,
                              uint32_t count, VkPipelineStageFlags src_stage,
                              VkAccessFlags src_access);
void vkik_acquire_from_external(vkik *k, VkCommandBuffer cmd, const VkBuffer *buffers,
                                uint32_t count, VkPipelineStageFlags dst_stage,
                                VkAccessFlags dst_access);
/* A global memory barrier (sync1). */
void vkik_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                  VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

#endif
