/*
 * vksort CUDA backend: CUB DeviceRadixSort behind the vksort semantics, on device pointers or on
 * Vulkan buffers imported into CUDA (external memory + a timeline semaphore), with no CPU round
 * trip between the Vulkan work that produces the keys and the Vulkan work that consumes them.
 *
 * Semantics are those of vksort.h, byte for byte the same as vksort_cpu_sort(): six key types,
 * optional uint32 payload, stable, descending keeps ties in input order, bit range on the
 * encoding. How: a kernel encodes each key to its order-preserving unsigned encoding (inverted
 * for descending), CUB sorts those 32- or 64-bit unsigned keys ascending on [bit_begin, bit_end)
 * (stable, DoubleBuffer form), a kernel decodes them back into the caller's buffer. CUB's own
 * float order (which ties -0.0 with +0.0 and does not order NaNs) is never used.
 *
 * Streams: every sort is enqueued on the sorter's stream (the one given at creation, or a
 * non-blocking stream the sorter creates). No function below waits on the host for device work,
 * except vksort_cuda_sorter_synchronize(), vksort_cuda_sorter_last_sort_ms() and the destroy
 * functions, which say so. The sorter's scratch memory (CUB's double buffers and temporary
 * storage) is allocated once at creation, so one sorter runs one sort at a time in its stream
 * order; use one sorter per concurrent stream.
 *
 * Indirect counts: CUB takes its item count from the host. A count read from device memory is
 * handled without a host wait by sorting max_count items in scratch: the encode kernel fills the
 * slots from the live count up to max_count with the largest order key (sentinels, which sort
 * after every real key because the sort is stable and they come last), and the decode kernel
 * writes back only the live prefix. The caller's buffers past the live count are never touched.
 * Cost: the sort of max_count items (see docs/cuda.md).
 *
 * This header has no dependency on the CUDA or Vulkan headers: streams are `void *`
 * (cudaStream_t), Vulkan objects are exchanged as file descriptors. When <vulkan/vulkan_core.h>
 * is included before this header, inline helpers that fill the Vulkan create-info chains the
 * interop needs are declared too (bottom of this file).
 *
 * Thread safety: a sorter and the objects imported through it are used from one thread at a
 * time. There is no global state: everything lives in the sorter.
 */
#ifndef VKSORT_CUDA_H
#define VKSORT_CUDA_H

#include "vksort/vksort.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Availability ------------------------------------------------------------------------- */

/* Why something failed: the CUDA error code of the failing call (0 when the failure did not come
 * from CUDA) and an English sentence. */
typedef struct vksort_cuda_diagnostics {
    int cuda_error;
    char message[256];
} vksort_cuda_diagnostics;

/* The number of CUDA devices this process can use. Returns VKSORT_SUCCESS with *out_count > 0,
 * or VKSORT_ERROR_BACKEND_UNAVAILABLE with *out_count = 0 and the reason in diagnostics
 * (optional), e.g. "no CUDA device (cudaGetDeviceCount: CUDA driver version is insufficient for
 * CUDA runtime version)". VKSORT_ERROR_INVALID_ARGUMENT when out_count is NULL. */
vksort_result vksort_cuda_get_device_count(int *out_count, vksort_cuda_diagnostics *diagnostics);

/* ---- Sorter ------------------------------------------------------------------------------- */

typedef struct vksort_cuda_sorter vksort_cuda_sorter;

/* Zero-initialise, then fill what you need. Zero means default everywhere. */
typedef struct vksort_cuda_sorter_create_info {
    vksort_key_type key_type;   /* default u32 */
    uint32_t has_payload;       /* nonzero: sort (key, uint32 payload) pairs */
    /* Required (1 .. 2^31 - 1): the largest count one sort handles. Sizes the scratch memory;
     * an indirect-count sort always costs a sort of max_count items. */
    uint32_t max_count;
    /* Optional cudaStream_t every sort is enqueued on. NULL: the sorter creates a non-blocking
     * stream of its own (destroyed with it). Pass cudaStreamLegacy or cudaStreamPerThread
     * explicitly to use a default stream. */
    void *stream;
    /* The device: the CUDA ordinal device_index (default 0), or, when use_device_uuid is
     * nonzero, the device whose UUID equals device_uuid (for Vulkan interop:
     * VkPhysicalDeviceIDProperties::deviceUUID of the Vulkan physical device). A given stream
     * must belong to that device. */
    int device_index;
    uint32_t use_device_uuid;
    uint8_t device_uuid[16];
    /* Optional: record CUDA events around every sort, for vksort_cuda_sorter_last_sort_ms(). */
    uint32_t enable_timing;
    /* Optional: host memory of the sorter and of the objects imported through it. */
    const vksort_allocation_callbacks *allocator;
    /* Optional: receives the reason when creation fails. */
    vksort_cuda_diagnostics *diagnostics;
} vksort_cuda_sorter_create_info;

/* Chooses the device, creates the stream (unless given), queries CUB's temporary storage for
 * max_count and allocates all scratch memory once (cudaMalloc). Errors:
 * VKSORT_ERROR_INVALID_ARGUMENT (NULL pointer, bad key type, max_count 0 or too large, bad
 * device index), VKSORT_ERROR_BACKEND_UNAVAILABLE (no CUDA device, or no device with the given
 * UUID), VKSORT_ERROR_CUDA (a CUDA call failed, e.g. out of device memory),
 * VKSORT_ERROR_OUT_OF_HOST_MEMORY. */
vksort_result vksort_cuda_sorter_create(const vksort_cuda_sorter_create_info *info,
                                        vksort_cuda_sorter **out_sorter);

/* Waits for the sorter's pending work (host wait), frees its scratch memory, its stream (when it
 * created it) and the sorter. Imported buffers and semaphores are separate objects: destroy them
 * too (in any order). NULL is ignored. */
void vksort_cuda_sorter_destroy(vksort_cuda_sorter *sorter);

typedef struct vksort_cuda_sorter_properties {
    vksort_key_type key_type;
    uint32_t has_payload;
    uint32_t max_count;
    int device_index;           /* the CUDA ordinal chosen */
    uint8_t device_uuid[16];
    char device_name[256];
    void *stream;               /* cudaStream_t the sorts are enqueued on */
    uint64_t scratch_bytes;     /* device memory held by the sorter */
    uint64_t cub_temp_bytes;    /* of which CUB's temporary storage */
} vksort_cuda_sorter_properties;

void vksort_cuda_get_sorter_properties(const vksort_cuda_sorter *sorter,
                                       vksort_cuda_sorter_properties *out_properties);

/* The last error of a vksort_cuda_* call on this sorter: its message ("" after success) and the
 * CUDA error code of the failing call (0 when the error did not come from CUDA). */
const char *vksort_cuda_sorter_last_message(const vksort_cuda_sorter *sorter);
int vksort_cuda_sorter_last_cuda_error(const vksort_cuda_sorter *sorter);

/* Host wait until every sort enqueued so far has finished. VKSORT_ERROR_CUDA when the stream
 * reports an error (an asynchronous failure of an earlier sort shows up here). */
vksort_result vksort_cuda_sorter_synchronize(vksort_cuda_sorter *sorter);

/* Device time of the last sort in milliseconds, from the CUDA events recorded around it (the
 * sorter needs enable_timing). Waits on the host for that sort to finish. Covers everything the
 * sort enqueued (encode, CUB, decode); for vksort_cuda_sort_vk() it starts after the semaphore
 * wait and ends before the signal.
 * VKSORT_ERROR_UNSUPPORTED without enable_timing or before the first sort. */
vksort_result vksort_cuda_sorter_last_sort_ms(vksort_cuda_sorter *sorter, double *out_ms);

/* ---- Sorting device memory ---------------------------------------------------------------- */

/* Zero-initialise, then fill what you need. */
typedef struct vksort_cuda_sort_info {
    /* Required: device pointer to the keys (aligned to the key size), sorted in place. Holds
     * `count` keys, or max_count keys' worth of address range when the count is indirect (only
     * the live prefix is read or written). */
    void *keys;
    /* Device pointer to the payload (4-byte aligned), sorted with the keys. Required when the
     * sorter was created with has_payload, ignored otherwise. */
    uint32_t *values;
    /* Number of keys, when count_device is NULL. Above max_count: VKSORT_ERROR_COUNT_TOO_LARGE. */
    uint32_t count;
    /* Indirect count: device pointer to a uint32 (4-byte aligned) read by the GPU when the sort
     * runs, clamped to max_count. Elements from that count on are never touched. */
    const uint32_t *count_device;
    vksort_flags flags;         /* VKSORT_FLAG_DESCENDING; VKSORT_FLAG_STABLE is implied */
    uint32_t bit_begin;         /* bit range of the encoding; [0, 0) = every bit */
    uint32_t bit_end;
} vksort_cuda_sort_info;

/* Enqueues the sort on the sorter's stream and returns without waiting. The keys, values and
 * count must be ready in the stream's order (written by earlier work on that stream, or by work
 * the caller made the stream wait for). Nothing is enqueued when the arguments are wrong:
 * VKSORT_ERROR_INVALID_ARGUMENT, VKSORT_ERROR_BIT_RANGE, VKSORT_ERROR_COUNT_TOO_LARGE,
 * VKSORT_ERROR_MISALIGNED; VKSORT_ERROR_CUDA when a launch fails. A host count below 2 enqueues
 * nothing at all. */
vksort_result vksort_cuda_sort_device(vksort_cuda_sorter *sorter,
                                      const vksort_cuda_sort_info *info);

/* ---- Vulkan interop ----------------------------------------------------------------------- */
/*
 * Sequence for one frame (see docs/cuda.md):
 *   Vulkan: keygen writes keys/values(/count), then the submit signals timeline value W.
 *   CUDA (vksort_cuda_sort_vk, enqueued by the host right after that vkQueueSubmit, no wait):
 *           waits for W on the GPU, encodes, CUB sorts, decodes, signals S (> W).
 *   Vulkan: the consumer's submit waits for S (e.g. at VERTEX_SHADER or DRAW_INDIRECT) and draws.
 *
 * Vulkan requirements: Vulkan 1.2 (or 1.1 with VK_KHR_timeline_semaphore) with the
 * timelineSemaphore feature enabled, and the device extensions of
 * vksort_cuda_vk_required_device_extensions(). Buffers: created with
 * VkExternalMemoryBufferCreateInfo (OPAQUE_FD), memory allocated with VkExportMemoryAllocateInfo
 * (OPAQUE_FD) and VkMemoryDedicatedAllocateInfo, file descriptor from vkGetMemoryFdKHR. The
 * timeline semaphore: VkSemaphoreTypeCreateInfo (TIMELINE) + VkExportSemaphoreCreateInfo
 * (OPAQUE_FD), fd from vkGetSemaphoreFdKHR. The helpers at the end of this header fill those
 * chains. Create the sorter with use_device_uuid and the Vulkan device's deviceUUID.
 *
 * Vulkan-side barriers: the semaphore signal of the keygen submit makes its writes available,
 * the consumer submit's semaphore wait (at the consuming stage) orders CUDA's writes before it.
 * For the spec's ownership rules, end the keygen submit with a buffer memory barrier releasing
 * the keys/values to VK_QUEUE_FAMILY_EXTERNAL, and begin the consumer submit with the matching
 * acquire from VK_QUEUE_FAMILY_EXTERNAL (tests/cuda/test_cuda_vk_interop.c does both).
 */

/* VkExternalMemoryHandleTypeFlagBits / VkExternalSemaphoreHandleTypeFlagBits value the interop
 * uses: VK_EXTERNAL_{MEMORY,SEMAPHORE}_HANDLE_TYPE_OPAQUE_FD_BIT. */
#define VKSORT_CUDA_VK_HANDLE_TYPE_OPAQUE_FD 0x00000001u

/* The device extensions the Vulkan device needs enabled: VK_KHR_external_memory_fd and
 * VK_KHR_external_semaphore_fd (and their dependencies, core in Vulkan 1.1). Returns a static
 * array and stores its length in *out_count. */
const char *const *vksort_cuda_vk_required_device_extensions(uint32_t *out_count);

typedef struct vksort_cuda_vk_buffer vksort_cuda_vk_buffer;
typedef struct vksort_cuda_vk_semaphore vksort_cuda_vk_semaphore;

/* Zero-initialise, then fill what you need. */
typedef struct vksort_cuda_vk_buffer_import_info {
    /* Required: from vkGetMemoryFdKHR with VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT. On
     * success it is consumed (closed: CUDA holds a duplicate); on failure it is still the
     * caller's. */
    int fd;
    /* Required: VkMemoryAllocateInfo::allocationSize of the exported memory. */
    uint64_t allocation_size;
    /* Nonzero when the memory was allocated with VkMemoryDedicatedAllocateInfo (recommended;
     * CUDA must be told). */
    uint32_t dedicated;
    /* The range mapped into CUDA: the buffer's vkBindBufferMemory offset (plus any offset into
     * the buffer) and its size in bytes; offset + size <= allocation_size. */
    uint64_t offset;
    uint64_t size;
} vksort_cuda_vk_buffer_import_info;

/* Imports the memory (cudaImportExternalMemory) and maps the range (cudaExternalMemoryGetMapped-
 * Buffer) on the sorter's device. The buffer stays valid until destroyed, independent of the
 * sorter. Errors: VKSORT_ERROR_INVALID_ARGUMENT, VKSORT_ERROR_BUFFER_TOO_SMALL (range outside the
 * allocation), VKSORT_ERROR_CUDA, VKSORT_ERROR_OUT_OF_HOST_MEMORY. */
vksort_result vksort_cuda_import_vk_buffer(vksort_cuda_sorter *sorter,
                                           const vksort_cuda_vk_buffer_import_info *info,
                                           vksort_cuda_vk_buffer **out_buffer);
/* The CUDA device pointer of the mapped range, and its size in bytes. */
void *vksort_cuda_vk_buffer_device_pointer(const vksort_cuda_vk_buffer *buffer);
uint64_t vksort_cuda_vk_buffer_size(const vksort_cuda_vk_buffer *buffer);
/* Unmaps and releases the imported memory. The caller makes sure no enqueued sort still uses it
 * (e.g. after its signal value was reached). Waits on the host for all work on the sorter's
 * device (cudaFree of the mapping does): do not call it while a stream waits on a semaphore
 * value that only a later host submission signals. NULL is ignored. */
void vksort_cuda_vk_buffer_destroy(vksort_cuda_vk_buffer *buffer);

/* Imports a timeline semaphore from its OPAQUE_FD (vkGetSemaphoreFdKHR). On success CUDA owns
 * fd; on failure it is still the caller's. */
vksort_result vksort_cuda_import_vk_semaphore(vksort_cuda_sorter *sorter, int fd,
                                              vksort_cuda_vk_semaphore **out_semaphore);
void vksort_cuda_vk_semaphore_destroy(vksort_cuda_vk_semaphore *semaphore);

/* Zero-initialise, then fill what you need. Offsets are bytes into the imported range. */
typedef struct vksort_cuda_vk_sort_info {
    /* Required: the imported timeline semaphore; the sort waits until it reaches wait_value and
     * sets it to signal_value when done (signal_value > wait_value, and above every value the
     * semaphore has or will have been signalled to before). */
    vksort_cuda_vk_semaphore *semaphore;
    uint64_t wait_value;
    uint64_t signal_value;
    /* Required: keys (offset a multiple of the key size); holds count keys, max_count keys when
     * the count is indirect. */
    vksort_cuda_vk_buffer *keys;
    uint64_t keys_offset;
    /* Payload (offset a multiple of 4): required when the sorter has a payload. */
    vksort_cuda_vk_buffer *values;
    uint64_t values_offset;
    /* Indirect count: a uint32 at count_offset (a multiple of 4) of count_buffer, clamped to
     * max_count; when count_buffer is NULL, `count` from the host is used. */
    vksort_cuda_vk_buffer *count_buffer;
    uint64_t count_offset;
    uint32_t count;
    vksort_flags flags;
    uint32_t bit_begin;
    uint32_t bit_end;
} vksort_cuda_vk_sort_info;

/* Enqueues on the sorter's stream: wait for wait_value -> encode -> CUB -> decode -> signal
 * signal_value, and returns without any host wait. When the arguments are wrong nothing is
 * enqueued (not even the signal): the caller must then not submit Vulkan work that waits for
 * signal_value, or signal it itself. If a launch fails after the wait was enqueued, the signal
 * is still enqueued (so Vulkan does not hang) and VKSORT_ERROR_CUDA is returned. Errors as
 * vksort_cuda_sort_device(), plus VKSORT_ERROR_BUFFER_TOO_SMALL for a range that cannot hold
 * what the sort accesses. */
vksort_result vksort_cuda_sort_vk(vksort_cuda_sorter *sorter, const vksort_cuda_vk_sort_info *info);

#ifdef __cplusplus
}
#endif

/* ---- Vulkan create-info chains (only with the Vulkan headers included first) -------------- */
#if defined(VK_VERSION_1_2)
#include <string.h>

/* Chains for one exportable buffer. Usage:
 *   vksort_cuda_vk_buffer_chains c; vksort_cuda_vk_buffer_chains_init(&c);
 *   buffer_info.pNext = &c.external;            (VkBufferCreateInfo)
 *   vkCreateBuffer(...); c.dedicated.buffer = buffer;
 *   alloc_info.pNext = &c.dedicated;            (VkMemoryAllocateInfo; dedicated -> export)
 * The struct must not move between init and the calls that use it. */
typedef struct vksort_cuda_vk_buffer_chains {
    VkExternalMemoryBufferCreateInfo external;
    VkMemoryDedicatedAllocateInfo dedicated;
    VkExportMemoryAllocateInfo export_memory;
} vksort_cuda_vk_buffer_chains;

static inline void vksort_cuda_vk_buffer_chains_init(vksort_cuda_vk_buffer_chains *c)
{
    memset(c, 0, sizeof *c);
    c->external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
    c->external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    c->dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
    c->dedicated.pNext = &c->export_memory;
    c->export_memory.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
    c->export_memory.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
}

/* Chains for the exportable timeline semaphore: semaphore_info.pNext = &c.type. */
typedef struct vksort_cuda_vk_semaphore_chains {
    VkSemaphoreTypeCreateInfo type;
    VkExportSemaphoreCreateInfo export_semaphore;
} vksort_cuda_vk_semaphore_chains;

static inline void vksort_cuda_vk_semaphore_chains_init(vksort_cuda_vk_semaphore_chains *c,
                                                        uint64_t initial_value)
{
    memset(c, 0, sizeof *c);
    c->type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    c->type.pNext = &c->export_semaphore;
    c->type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    c->type.initialValue = initial_value;
    c->export_semaphore.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    c->export_semaphore.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
}
#endif /* VK_VERSION_1_2 */

#endif /* VKSORT_CUDA_H */
