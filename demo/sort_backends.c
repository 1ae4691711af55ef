/* Sort backends of the demo (see sort_backends.h). */
#include "sort_backends.h"

#include "vksort/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void demo_sorts_init(demo_sorts *s, vk_context *ctx)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    demo_cuda_init(&s->cuda);
}

static void release_cpu(demo_sorts *s)
{
    vk_buffer_destroy(s->ctx, &s->cpu_keys);
    vk_buffer_destroy(s->ctx, &s->cpu_indices);
    free(s->cpu_tmp_keys);
    free(s->cpu_tmp_indices);
    s->cpu_tmp_keys = s->cpu_tmp_indices = NULL;
}

void demo_sorts_resize(demo_sorts *s, uint32_t max_count)
{
    if (s->max_count == max_count)
        return;
    for (int i = 0; i < 3; ++i) {
        vksort_vk_sorter_destroy(s->vk[i]);
        s->vk[i] = NULL;
    }
    release_cpu(s);
    demo_cuda_release_buffers(&s->cuda, s->ctx);
    s->max_count = max_count;
}

void demo_sorts_destroy(demo_sorts *s)
{
    demo_sorts_resize(s, 0);
    demo_cuda_destroy(&s->cuda, s->ctx);
}

static const vksort_vk_algorithm vk_algorithms[3] = {
    VKSORT_VK_ALGORITHM_ONESWEEP, VKSORT_VK_ALGORITHM_PORTABLE, VKSORT_VK_ALGORITHM_BITONIC};

static int prepare_vk(demo_sorts *s, int which, char *why, size_t n)
{
    if (s->vk[which])
        return 0;
    vksort_vk_diagnostics d;
    memset(&d, 0, sizeof d);
    vksort_vk_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    ci.instance = s->ctx->instance;
    ci.physical_device = s->ctx->physical_device;
    ci.device = s->ctx->device;
    ci.get_instance_proc_addr = vkGetInstanceProcAddr;
    ci.key_type = VKSORT_KEY_U32;
    ci.has_payload = VK_TRUE;
    ci.max_count = s->max_count ? s->max_count : 1;
    ci.algorithm = vk_algorithms[which];
    ci.flags = (s->ctx->debug_utils ? VKSORT_VK_CREATE_DEBUG_LABELS : 0) |
               (s->ctx->pipeline_robustness ? VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS : 0);
    ci.diagnostics = &d;
    ci.enabled_extension_count = s->ctx->extension_count;
    ci.enabled_extensions = s->ctx->extensions;
    vksort_result r = vksort_vk_sorter_create(&ci, &s->vk[which]);
    if (r != VKSORT_SUCCESS) {
        snprintf(why, n, "%s sorter: %s", vksort_vk_algorithm_name(vk_algorithms[which]),
                 d.message[0] ? d.message : vksort_result_string(r));
        s->vk[which] = NULL;
        return -1;
    }
    return 0;
}

static int prepare_cpu(demo_sorts *s, char *why, size_t n)
{
    if (s->cpu_keys.buffer && s->cpu_indices.buffer && s->cpu_tmp_keys && s->cpu_tmp_indices)
        return 0;
    release_cpu(s); /* a half-made set from an earlier failure */
    VkDeviceSize bytes = (VkDeviceSize)(s->max_count ? s->max_count : 1) * 4u;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT; /* --check-order */
    s->cpu_tmp_keys = malloc((size_t)bytes);
    s->cpu_tmp_indices = malloc((size_t)bytes);
    if (!s->cpu_tmp_keys || !s->cpu_tmp_indices ||
        vk_buffer_create(s->ctx, bytes, usage, VK_BUFFER_HOST, "cpu_sort_keys", &s->cpu_keys) ||
        vk_buffer_create(s->ctx, bytes, usage, VK_BUFFER_HOST, "cpu_sort_indices", &s->cpu_indices)) {
        snprintf(why, n, "cpu sort: cannot allocate host-visible buffers of %llu bytes",
                 (unsigned long long)bytes);
        release_cpu(s);
        return -1;
    }
    return 0;
}

int demo_sorts_prepare(demo_sorts *s, demo_sort sort, char *why, size_t n)
{
    switch (sort) {
    case DEMO_SORT_ONESWEEP: return prepare_vk(s, 0, why, n);
    case DEMO_SORT_PORTABLE: return prepare_vk(s, 1, why, n);
    case DEMO_SORT_BITONIC: return prepare_vk(s, 2, why, n);
    case DEMO_SORT_CPU:
    case DEMO_SORT_REFERENCE: return prepare_cpu(s, why, n);
    case DEMO_SORT_CUDA: return demo_cuda_prepare(&s->cuda, s->ctx, s->max_count, why, n);
    case DEMO_SORT_NONE: return 0;
    default: snprintf(why, n, "unknown sort"); return -1;
    }
}

vksort_vk_sorter *demo_sorts_vk(const demo_sorts *s, demo_sort sort)
{
    switch (sort) {
    case DEMO_SORT_ONESWEEP: return s->vk[0];
    case DEMO_SORT_PORTABLE: return s->vk[1];
    case DEMO_SORT_BITONIC: return s->vk[2];
    default: return NULL;
    }
}

/* (key, index) pairs in ascending order: the draw order every backend must produce. */
static int compare_pairs(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int reference_sort(demo_sorts *s, uint32_t count)
{
    uint32_t *pairs = malloc((size_t)count * 8u + 8u);
    if (!pairs)
        return -1;
    for (uint32_t i = 0; i < count; ++i) {
        pairs[2 * i] = s->cpu_tmp_keys[i];
        pairs[2 * i + 1] = s->cpu_tmp_indices[i];
    }
    qsort(pairs, count, 8u, compare_pairs);
    for (uint32_t i = 0; i < count; ++i) {
        s->cpu_tmp_keys[i] = pairs[2 * i];
        s->cpu_tmp_indices[i] = pairs[2 * i + 1];
    }
    free(pairs);
    return 0;
}

int demo_sorts_cpu_run(demo_sorts *s, uint32_t count, uint32_t key_bits, int reference)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Host-visible memory may be uncached on a discrete GPU: copy out, sort in cached memory,
     * copy back. */
    memcpy(s->cpu_tmp_keys, s->cpu_keys.mapped, (size_t)count * 4u);
    memcpy(s->cpu_tmp_indices, s->cpu_indices.mapped, (size_t)count * 4u);
    vksort_cpu_sort_info info;
    memset(&info, 0, sizeof info);
    info.key_type = VKSORT_KEY_U32;
    info.flags = VKSORT_FLAG_STABLE;
    info.bit_end = key_bits < 32u ? key_bits : 0u; /* keys below 2^key_bits: same order */
    info.count = count;
    info.keys = s->cpu_tmp_keys;
    info.values = s->cpu_tmp_indices;
    vksort_result r = reference ? (reference_sort(s, count) ? VKSORT_ERROR_OUT_OF_HOST_MEMORY
                                                             : VKSORT_SUCCESS)
                                : vksort_cpu_sort(&info);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "vksort-demo: cpu sort: %s\n", vksort_result_string(r));
        return -1;
    }
    memcpy(s->cpu_keys.mapped, s->cpu_tmp_keys, (size_t)count * 4u);
    memcpy(s->cpu_indices.mapped, s->cpu_tmp_indices, (size_t)count * 4u);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s->last_cpu_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    return 0;
}
