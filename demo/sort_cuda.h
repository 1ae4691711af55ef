/* CUDA backend of the demo: the depth keys and indices live in exportable Vulkan buffers that
 * CUDA imports (include/vksort/cuda.h); a timeline semaphore joins the three parts of a frame:
 * Vulkan segment (simulate, depth_keys) signals W -> CUDA waits W, sorts with CUB, signals W+1 ->
 * Vulkan segment (draw) waits W+1. No host wait in between. Without the CUDA backend in the
 * build, or without a CUDA device, demo_cuda_prepare() fails with the reason. */
#ifndef VKSORT_DEMO_SORT_CUDA_H
#define VKSORT_DEMO_SORT_CUDA_H

#include "vk_context.h"

#include <stddef.h>
#include <stdint.h>

typedef struct demo_cuda {
    void *sorter;                   /* vksort_cuda_sorter */
    void *cu_keys, *cu_indices;     /* vksort_cuda_vk_buffer */
    void *cu_semaphore;             /* vksort_cuda_vk_semaphore */
    vk_buffer keys, indices;        /* exportable, max_count u32 each */
    VkSemaphore timeline;           /* exported timeline semaphore */
    uint64_t value;                 /* last value signalled or to be signalled */
    uint32_t max_count;
    int failed;
} demo_cuda;

void demo_cuda_init(demo_cuda *c);
int demo_cuda_prepare(demo_cuda *c, vk_context *ctx, uint32_t max_count, char *why, size_t n);
/* Enqueues the sort of `count` pairs: waits for wait_value, signals wait_value + 1. */
/* key_bits < 32: sort on bits [0, key_bits) only. */
int demo_cuda_enqueue(demo_cuda *c, uint32_t count, uint32_t key_bits, uint64_t wait_value);
/* Device ms of the last sort (host wait; call after the frame finished). <0 when unknown. */
double demo_cuda_last_ms(demo_cuda *c);
void demo_cuda_release_buffers(demo_cuda *c, vk_context *ctx);
void demo_cuda_destroy(demo_cuda *c, vk_context *ctx);

#endif
