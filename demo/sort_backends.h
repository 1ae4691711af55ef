/* The sort backends of the demo: the library's Vulkan sorters (onesweep, portable, bitonic,
 * recorded as graph sort nodes), the CPU sort (host-visible key/index buffers, read back, sorted
 * by vksort_cpu_sort, written back: the frame is split in two submits with a host wait between),
 * and CUDA (sort_cuda.c). Every backend sorts (u32 key, u32 index) pairs, ascending, stable, so
 * that they all give the same draw order. */
#ifndef VKSORT_DEMO_SORT_BACKENDS_H
#define VKSORT_DEMO_SORT_BACKENDS_H

#include "app_args.h"
#include "sort_cuda.h"
#include "vk_context.h"

#include "vksort/vulkan.h"

#include <stddef.h>

typedef struct demo_sorts {
    vk_context *ctx;
    uint32_t max_count;
    vksort_vk_sorter *vk[3];       /* onesweep, portable, bitonic (created when first used) */
    vk_buffer cpu_keys, cpu_indices; /* host-visible, max_count u32 each (cpu backend) */
    uint32_t *cpu_tmp_keys, *cpu_tmp_indices;
    double last_cpu_ms;             /* host time of the last CPU sort (copy out, sort, copy in) */
    demo_cuda cuda;
} demo_sorts;

void demo_sorts_init(demo_sorts *s, vk_context *ctx);
/* Drops every backend's objects sized for another count (the device must be idle). */
void demo_sorts_resize(demo_sorts *s, uint32_t max_count);
void demo_sorts_destroy(demo_sorts *s);

/* Makes `sort` ready for max_count keys. 0, or -1 with the reason in why (e.g. no CUDA). */
int demo_sorts_prepare(demo_sorts *s, demo_sort sort, char *why, size_t n);
/* The Vulkan sorter of onesweep/portable/bitonic (after prepare). */
vksort_vk_sorter *demo_sorts_vk(const demo_sorts *s, demo_sort sort);
/* CPU backend, after the GPU wrote cpu_keys/cpu_indices and the host waited for it.
 * reference: libc qsort on (key, index) pairs instead of vksort_cpu_sort (test reference). */
int demo_sorts_cpu_run(demo_sorts *s, uint32_t count, uint32_t key_bits, int reference);

#endif
