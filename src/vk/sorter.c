/* Vulkan sorter: creation, device limits, algorithm choice, memory requirements, errors. */
#include "sorter_internal.h"
#include "radix_interface.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tiles never exceed this many elements (1024 invocations x 8 elements). */
#define MAX_TILE 8192u
#define MIN_TILE 256u
#define MAX_COUNT_LIMIT 0x80000000u

static const char *const required_extensions[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};

const char *const *vksort_vk_required_device_extensions(uint32_t *out_count)
{
    if (out_count)
        *out_count = (uint32_t)(sizeof required_extensions / sizeof required_extensions[0]);
    return required_extensions;
}

const char *vksort_vk_algorithm_name(vksort_vk_algorithm algorithm)
{
    switch (algorithm) {
    case VKSORT_VK_ALGORITHM_AUTO: return "auto";
    case VKSORT_VK_ALGORITHM_BITONIC: return "bitonic";
    case VKSORT_VK_ALGORITHM_ONESWEEP: return "onesweep";
    case VKSORT_VK_ALGORITHM_PORTABLE: return "portable";
    default: return NULL;
    }
}

uint32_t vksort_vk_ceil_log2(uint32_t n)
{
    uint32_t l = 0;
    while (l < 32 && (1ull << l) < n)
        ++l;
    return l;
}

vksort_result vksort_vk_fail(vksort_vk_sorter *s, vksort_result result, VkResult vk_result,
                             const char *fmt, ...)
{
    if (s) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->message, sizeof s->message, fmt, ap);
        va_end(ap);
        s->last_vk_result = vk_result;
    }
    return result;
}

void vksort_vk_clear_error(vksort_vk_sorter *s)
{
    s->message[0] = '\0';
    s->last_vk_result = VK_SUCCESS;
}

vksort_result vksort_vk_check_range(vksort_vk_sorter *s_msg, const vksort_vk_buffer_range *range,
                                    VkDeviceSize align, VkDeviceSize needed, const char *name,
                                    vksort_result too_small)
{
    if (!range->buffer) {
        if (s_msg)
            vksort_vk_fail(s_msg, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                           "%s buffer is VK_NULL_HANDLE", name);
        return VKSORT_ERROR_INVALID_ARGUMENT;
    }
    if (range->offset % align) {
        if (s_msg)
            vksort_vk_fail(s_msg, VKSORT_ERROR_MISALIGNED, VK_SUCCESS,
                           "%s offset %llu is not a multiple of %llu", name,
                           (unsigned long long)range->offset, (unsigned long long)align);
        return VKSORT_ERROR_MISALIGNED;
    }
    if (range->size != VK_WHOLE_SIZE && range->size < needed) {
        if (s_msg)
            vksort_vk_fail(s_msg, too_small, VK_SUCCESS,
                           "%s range of %llu bytes is smaller than the %llu bytes the sort accesses",
                           name, (unsigned long long)range->size, (unsigned long long)needed);
        return too_small;
    }
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_check_sort_info(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                        vksort_vk_sorter *s_msg, uint32_t *bit_begin,
                                        uint32_t *bit_end, int *indirect, uint32_t *count)
{
    if (!info)
        return s_msg ? vksort_vk_fail(s_msg, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                      "sort info is NULL")
                     : VKSORT_ERROR_INVALID_ARGUMENT;
    if (info->flags & ~(vksort_flags)VKSORT_FLAGS_ALL)
        return s_msg ? vksort_vk_fail(s_msg, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                                      "unknown sort flags")
                     : VKSORT_ERROR_INVALID_ARGUMENT;
    vksort_result r = vksort_resolve_bit_range(s->key_type, info->bit_begin, info->bit_end,
                                               bit_begin, bit_end);
    if (r != VKSORT_SUCCESS) {
        if (s_msg)
            vksort_vk_fail(s_msg, r, VK_SUCCESS, "bit range [%u, %u) invalid for %u-bit keys",
                           info->bit_begin, info->bit_end, s->key_size * 8u);
        return r;
    }
    *indirect = info->count_buffer.buffer != VK_NULL_HANDLE;
    if (!*indirect && info->count > s->max_count) {
        if (s_msg)
            vksort_vk_fail(s_msg, VKSORT_ERROR_COUNT_TOO_LARGE, VK_SUCCESS,
                           "count %u exceeds the sorter's max_count %u", info->count, s->max_count);
        return VKSORT_ERROR_COUNT_TOO_LARGE;
    }
    /* Buffers: what the sort accesses (the whole max_count range when the count is indirect). */
    *count = *indirect ? s->max_count : info->count;
    const VkDeviceSize n = *count;
    VkDeviceSize key_align = s->min_storage_align > s->key_size ? s->min_storage_align : s->key_size;
    r = vksort_vk_check_range(s_msg, &info->keys, key_align, n * s->key_size, "keys",
                              VKSORT_ERROR_BUFFER_TOO_SMALL);
    if (r != VKSORT_SUCCESS || !s->has_payload)
        return r;
    VkDeviceSize va = s->min_storage_align > 4 ? s->min_storage_align : 4;
    return vksort_vk_check_range(s_msg, &info->values, va, n * 4u, "values",
                                 VKSORT_ERROR_BUFFER_TOO_SMALL);
}

const char *vksort_vk_sorter_last_message(const vksort_vk_sorter *sorter)
{
    return sorter ? sorter->message : "";
}

VkResult vksort_vk_sorter_last_vk_result(const vksort_vk_sorter *sorter)
{
    return sorter ? sorter->last_vk_result : VK_SUCCESS;
}

/* The one place that decides which algorithms a sorter carries: BITONIC alone; ONESWEEP or
 * PORTABLE alone (the device must support them); AUTO: bitonic for counts that fit a tile plus
 * the device's radix sort when it has the subgroup operations (else bitonic for everything).
 * Sets s->algorithm (never AUTO afterwards: AUTO reports the radix sort it will use for large
 * counts, or BITONIC) and s->radix. */
static vksort_result choose_algorithm(vksort_vk_sorter *s, const vksort_vk_sorter_create_info *info)
{
    switch (info->algorithm) {
    case VKSORT_VK_ALGORITHM_BITONIC:
        s->algorithm = VKSORT_VK_ALGORITHM_BITONIC;
        return VKSORT_SUCCESS;
    case VKSORT_VK_ALGORITHM_ONESWEEP:
    case VKSORT_VK_ALGORITHM_PORTABLE: {
        vksort_result r = vksort_vk_radix_setup(s, info, info->algorithm);
        if (r != VKSORT_SUCCESS)
            return r;
        s->algorithm = info->algorithm;
        return VKSORT_SUCCESS;
    }
    case VKSORT_VK_ALGORITHM_AUTO:
        s->auto_algorithm = 1;
        if (vksort_vk_radix_setup(s, info, VKSORT_VK_ALGORITHM_AUTO) == VKSORT_SUCCESS) {
            s->algorithm = s->radix.reported_algorithm;
        } else {
            memset(&s->radix, 0, sizeof s->radix); /* bitonic for every count */
            s->algorithm = VKSORT_VK_ALGORITHM_BITONIC;
        }
        vksort_vk_clear_error(s);
        return VKSORT_SUCCESS;
    default:
        return vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "unknown algorithm");
    }
}

/* Whether the sorter needs the bitonic pipelines (explicit radix sorters do not). */
static int has_bitonic(const vksort_vk_sorter *s)
{
    return s->auto_algorithm || s->algorithm == VKSORT_VK_ALGORITHM_BITONIC;
}

/* Smallest count AUTO hands to the RANK sort on a discrete GPU: below it the single-workgroup
 * network is as fast. H200, u32 pairs: RANK with its fill 9.5 us from 32 to 256 elements, the
 * network 7.7 us at 32 and 10.4 at 256; on a persistent scratch RANK takes 6.5-6.8 us from 2
 * elements, the network 5.6 at 2 and 7.7 at 32 (docs/PERFORMANCE.md). */
#define RANK_AUTO_MIN_COUNT 256u
#define RANK_AUTO_MIN_COUNT_PERSISTENT 32u
/* Largest count the RANK sort takes whatever the shared memory: its work grows with count^2. */
#define RANK_MAX_CAPACITY 8192u
/* Invocations of a RANK workgroup unless rank_workgroup_size says otherwise. */
#define RANK_DEFAULT_WORKGROUP 512u

/* Small sorts: NETWORK or RANK (vksort_vk_small_sort), the RANK geometry and its staging bytes. */
static vksort_result choose_small_sort(vksort_vk_sorter *s, const VkPhysicalDeviceProperties *props,
                                       const vksort_vk_sorter_create_info *info)
{
    vksort_vk_small_sort mode = info->small_sort;
    if (mode == VKSORT_VK_SMALL_SORT_AUTO)
        mode = props->deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
                   ? VKSORT_VK_SMALL_SORT_RANK
                   : VKSORT_VK_SMALL_SORT_NETWORK;
    s->small_sort = mode;
    if (mode != VKSORT_VK_SMALL_SORT_RANK)
        return VKSORT_SUCCESS;
    const VkPhysicalDeviceLimits *lim = &props->limits;
    /* Invocations: 16 slices of the 32 owned elements (measured fastest on the H200), or what
     * rank_workgroup_size asks for; fewer where the device caps it. */
    uint32_t wg = info->rank_workgroup_size ? info->rank_workgroup_size : RANK_DEFAULT_WORKGROUP;
    while (wg > VKSORT_RANK_GROUP_ELEMENTS &&
           (wg > lim->maxComputeWorkGroupInvocations || wg > lim->maxComputeWorkGroupSize[0]))
        wg /= 2u;
    /* Shared memory: every key of the count, one partial rank per invocation, the owned
     * elements, three flags and a copy of the STAGED bits (with room to spare). */
    uint64_t fixed = (uint64_t)wg * 4u + 16u * 4u +
                     4u * (VKSORT_RANK_CONTROL_WORDS - VKSORT_RANK_STAGED_MASK_WORD) +
                     (uint64_t)VKSORT_RANK_MAX_GROUP_ELEMENTS * (s->key_size + 4u);
    uint64_t fit = lim->maxComputeSharedMemorySize > fixed
                       ? (lim->maxComputeSharedMemorySize - fixed) / s->key_size
                       : 0;
    uint64_t cap = ((uint64_t)s->max_count + 3u) / 4u * 4u;
    if (cap > RANK_MAX_CAPACITY)
        cap = RANK_MAX_CAPACITY;
    if (cap > fit)
        cap = fit / 4u * 4u;
    if (cap < 4u) {
        if (info->small_sort != VKSORT_VK_SMALL_SORT_RANK) {
            s->small_sort = VKSORT_VK_SMALL_SORT_NETWORK;
            return VKSORT_SUCCESS;
        }
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "maxComputeSharedMemorySize %u too small for the RANK small sort",
                              lim->maxComputeSharedMemorySize);
    }
    s->rank_workgroup = wg;
    s->rank_capacity = (uint32_t)cap;
    s->rank_min_count = info->small_sort == VKSORT_VK_SMALL_SORT_RANK ? 2u
                        : (info->flags & VKSORT_VK_CREATE_PERSISTENT_SCRATCH)
                            ? RANK_AUTO_MIN_COUNT_PERSISTENT
                            : RANK_AUTO_MIN_COUNT;
    /* Staged key, payload and rank per element. */
    s->rank_staging_bytes = (VkDeviceSize)cap * (s->key_size + (s->has_payload ? 4u : 0u) + 4u);
    return VKSORT_SUCCESS;
}

void *vksort_vk_host_alloc(const vksort_vk_sorter_create_info *info, size_t size)
{
    if (info->allocator)
        return info->allocator->allocate(info->allocator->user_data, size, 16);
    return malloc(size);
}

void vksort_vk_host_free(const vksort_vk_sorter *s, void *p)
{
    if (s->has_allocator)
        s->allocator.free(s->allocator.user_data, p);
    else
        free(p);
}

static vksort_result create_fail(const vksort_vk_sorter_create_info *info, vksort_vk_sorter *s,
                                 vksort_result r)
{
    if (info->diagnostics) {
        info->diagnostics->vk_result = s ? s->last_vk_result : VK_SUCCESS;
        snprintf(info->diagnostics->message, sizeof info->diagnostics->message, "%s",
                 s ? s->message : vksort_result_string(r));
    }
    if (s)
        vksort_vk_sorter_destroy(s);
    return r;
}

static vksort_result diag(const vksort_vk_sorter_create_info *info, vksort_result r,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static vksort_result diag(const vksort_vk_sorter_create_info *info, vksort_result r,
                          const char *fmt, ...)
{
    if (info && info->diagnostics) {
        info->diagnostics->vk_result = VK_SUCCESS;
        va_list args;
        va_start(args, fmt);
        vsnprintf(info->diagnostics->message, sizeof info->diagnostics->message, fmt, args);
        va_end(args);
    }
    return r;
}

int vksort_vk_extension_listed(const vksort_vk_sorter_create_info *info, const char *name)
{
    for (uint32_t i = 0; i < info->enabled_extension_count; ++i)
        if (info->enabled_extensions && info->enabled_extensions[i] &&
            strcmp(info->enabled_extensions[i], name) == 0)
            return 1;
    return 0;
}

vksort_result vksort_vk_sorter_create(const vksort_vk_sorter_create_info *info,
                                      vksort_vk_sorter **out_sorter)
{
    if (out_sorter)
        *out_sorter = NULL;
    if (!info || !out_sorter)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "create info or out pointer is NULL");
    if (info->diagnostics) {
        info->diagnostics->vk_result = VK_SUCCESS;
        info->diagnostics->message[0] = '\0';
    }
    if (!info->instance || !info->physical_device || !info->device ||
        !info->get_instance_proc_addr)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT,
                    "instance, physical_device, device and get_instance_proc_addr are required");
    if (vksort_key_size(info->key_type) == 0)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "unknown key type");
    if (info->max_count == 0 || info->max_count > MAX_COUNT_LIMIT)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "max_count must be in 1 .. 2^31");
    if (info->max_tile_size &&
        (info->max_tile_size < MIN_TILE || info->max_tile_size > MAX_TILE ||
         (info->max_tile_size & (info->max_tile_size - 1u))))
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT,
                    "max_tile_size must be 0 or a power of two in 256 .. 8192 (got %u)",
                    info->max_tile_size);
    /* The radix tuning knobs, whatever the algorithm: AUTO would otherwise fall back to the
     * bitonic sort for every count on a value it cannot use, silently. */
    if (info->radix_items_per_invocation > VKSORT_VK_RADIX_MAX_ITEMS)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT,
                    "radix_items_per_invocation must be 0..%u (got %u)", VKSORT_VK_RADIX_MAX_ITEMS,
                    info->radix_items_per_invocation);
    const uint32_t want_wg = info->radix_workgroup_size;
    if (want_wg != 0u && want_wg != 64u && want_wg != 128u &&
        (want_wg < 256u || want_wg > 1024u || want_wg % 32u != 0u))
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT,
                    "radix_workgroup_size must be 0, 64, 128 or a multiple of 32 in 256..1024 "
                    "(got %u)", want_wg);
    if (info->flags & ~(vksort_vk_create_flags)(VKSORT_VK_CREATE_DEBUG_LABELS |
                                                 VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL |
                                                 VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS |
                                                 VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING |
                                                 VKSORT_VK_CREATE_PERSISTENT_SCRATCH |
                                                 VKSORT_VK_CREATE_RADIX_COMPACT_TILES |
                                                 VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS |
                                                 VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK |
                                                 VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN |
                                                 VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING))
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "unknown create flags");
    if (info->rank_workgroup_size &&
        (info->rank_workgroup_size < VKSORT_RANK_GROUP_ELEMENTS ||
         info->rank_workgroup_size > 1024u ||
         (info->rank_workgroup_size & (info->rank_workgroup_size - 1u))))
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT,
                    "rank_workgroup_size must be 0 or a power of two in 32 .. 1024");
    if ((uint32_t)info->small_sort > (uint32_t)VKSORT_VK_SMALL_SORT_RANK)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "unknown small_sort");
    if ((uint32_t)info->radix_buckets > (uint32_t)VKSORT_VK_RADIX_BUCKETS_OFF)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "unknown radix_buckets");
    if ((uint32_t)info->radix_hybrid > (uint32_t)VKSORT_VK_RADIX_HYBRID_OFF)
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "unknown radix_hybrid");
    if (info->allocator && (!info->allocator->allocate || !info->allocator->free))
        return diag(info, VKSORT_ERROR_INVALID_ARGUMENT, "allocator needs allocate and free");

    vksort_vk_sorter *s = vksort_vk_host_alloc(info, sizeof *s);
    if (!s)
        return diag(info, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    memset(s, 0, sizeof *s);
    if (info->allocator) {
        s->allocator = *info->allocator;
        s->has_allocator = 1;
    }
    if (info->vk_allocator) {
        s->vk_allocator_copy = *info->vk_allocator;
        s->vk_allocator = &s->vk_allocator_copy;
    }
    s->instance = info->instance;
    s->physical_device = info->physical_device;
    s->device = info->device;
    s->pipeline_cache = info->pipeline_cache;
    s->key_type = info->key_type;
    s->key_size = vksort_key_size(info->key_type);
    s->has_payload = info->has_payload != VK_FALSE;
    s->max_count = info->max_count;
    s->flags = info->flags;
    s->emulate_no_forward_progress = (info->flags & VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS) != 0;
    s->persistent_scratch = (info->flags & VKSORT_VK_CREATE_PERSISTENT_SCRATCH) != 0;
    if (vksort_vk_algorithm_name(info->algorithm) == NULL) {
        vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "unknown algorithm %d",
                       (int)info->algorithm);
        return create_fail(info, s, VKSORT_ERROR_INVALID_ARGUMENT);
    }
    vksort_result r;

    const char *missing =
        vksort_vk_load_table(&s->vk, info->instance, info->device, info->get_instance_proc_addr,
                             info->get_device_proc_addr,
                             (info->flags & VKSORT_VK_CREATE_DEBUG_LABELS) != 0);
    if (missing) {
        if (strcmp(missing, "vkCmdPushDescriptorSetKHR") == 0)
            vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                           "the device extension " VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME
                           " is not enabled on the VkDevice (the sorter pushes its descriptors)");
        else
            vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                           "could not load the Vulkan entry point %s", missing);
        return create_fail(info, s, strcmp(missing, "vkCmdPushDescriptorSetKHR") == 0
                                        ? VKSORT_ERROR_DEVICE_LIMITS
                                        : VKSORT_ERROR_INVALID_ARGUMENT);
    }
    s->debug_labels = s->vk.vkCmdBeginDebugUtilsLabelEXT != NULL;

    VkPhysicalDeviceProperties props;
    s->vk.vkGetPhysicalDeviceProperties(info->physical_device, &props);
    const VkPhysicalDeviceLimits *lim = &props.limits;
    s->min_storage_align = lim->minStorageBufferOffsetAlignment > 4 ? lim->minStorageBufferOffsetAlignment : 4;
    s->max_storage_range = lim->maxStorageBufferRange;
    s->max_storage_buffers = lim->maxPerStageDescriptorStorageBuffers;
    s->timestamp_period = lim->timestampPeriod;
    if (info->flags & VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS) {
        /* The feature cannot be asked for; the extension (or Vulkan 1.4) is its precondition. */
        if (props.apiVersion < VK_MAKE_API_VERSION(0, 1, 4, 0) &&
            !vksort_vk_extension_listed(info, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME)) {
            vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                           "VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS needs the pipelineRobustness "
                           "feature: " VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME
                           " in enabled_extensions, or a Vulkan 1.4 device");
            return create_fail(info, s, VKSORT_ERROR_INVALID_ARGUMENT);
        }
        s->buffer_robustness_off = 1;
    }

    r = choose_algorithm(s, info);
    if (r != VKSORT_SUCCESS)
        return create_fail(info, s, r);

    /* Tiles (bitonic.c): geometry without and with the stable flag. */
    r = vksort_vk_bitonic_choose_tiles(s, lim, info);
    if (r != VKSORT_SUCCESS)
        return create_fail(info, s, r);

    /* Every buffer binding must fit maxStorageBufferRange. */
    uint64_t key_bytes = (uint64_t)s->max_count * s->key_size;
    if (key_bytes > lim->maxStorageBufferRange) {
        vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                       "max_count %u keys of %u bytes exceed maxStorageBufferRange (%u bytes)",
                       s->max_count, s->key_size, lim->maxStorageBufferRange);
        return create_fail(info, s, VKSORT_ERROR_DEVICE_LIMITS);
    }
    /* Dispatch sizes: tiles and global-merge workgroups, split in 2D above VKSORT_DISPATCH_SPLIT. */
    uint64_t max_groups = ((uint64_t)1 << vksort_vk_ceil_log2(s->max_count > 1 ? s->max_count : 2))
                          >> VKSORT_BITONIC_GLOBAL_LOG;
    max_groups = (max_groups + VKSORT_BITONIC_GLOBAL_WORKGROUP - 1) / VKSORT_BITONIC_GLOBAL_WORKGROUP;
    uint64_t max_tiles = ((uint64_t)s->max_count + s->tile[1].size - 1) / s->tile[1].size;
    if (max_tiles > max_groups)
        max_groups = max_tiles;
    if (lim->maxComputeWorkGroupCount[0] < VKSORT_DISPATCH_SPLIT ||
        (max_groups + VKSORT_DISPATCH_SPLIT - 1) / VKSORT_DISPATCH_SPLIT >
            lim->maxComputeWorkGroupCount[1]) {
        vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                       "maxComputeWorkGroupCount (%u, %u) too small for max_count %u",
                       lim->maxComputeWorkGroupCount[0], lim->maxComputeWorkGroupCount[1],
                       s->max_count);
        return create_fail(info, s, VKSORT_ERROR_DEVICE_LIMITS);
    }

    if (has_bitonic(s)) {
        r = choose_small_sort(s, &props, info);
        if (r != VKSORT_SUCCESS)
            return create_fail(info, s, r);
    }

    /* Scratch: state, then (aligned) one position per element when a stable sort can span
     * several tiles, or the RANK sort's staging area, whichever is larger. */
    s->state_bytes = vksort_vk_bitonic_state_bytes(s);
    VkDeviceSize a = s->min_storage_align;
    s->indices_offset = (s->state_bytes + a - 1) / a * a;
    s->indices_bytes = s->max_count > s->tile[1].size ? (VkDeviceSize)s->max_count * 4u : 0;
    if (s->rank_staging_bytes > s->indices_bytes)
        s->indices_bytes = s->rank_staging_bytes;
    s->scratch_size = s->indices_bytes ? s->indices_offset + s->indices_bytes : s->state_bytes;
    if (!has_bitonic(s))
        s->scratch_size = 0;
    /* One scratch range serves whichever algorithm a sort runs. */
    if (s->radix.scratch_size > s->scratch_size)
        s->scratch_size = s->radix.scratch_size;
    /* The RANK sort's control words last, out of every other pass's reach. */
    if (s->rank_capacity) {
        s->rank_control_offset = (s->scratch_size + a - 1) / a * a;
        s->scratch_size = s->rank_control_offset + VKSORT_RANK_CONTROL_WORDS * 4u;
    }
    /* And the radix histograms (counts kept zero between radix sorts). */
    if (s->radix.algorithm != VKSORT_VK_ALGORITHM_AUTO) {
        vksort_vk_radix_place_hist(s, (s->scratch_size + a - 1) / a * a);
        s->scratch_size = s->radix.scratch_size;
    }

    if (has_bitonic(s)) {
        r = vksort_vk_create_pipelines(s);
        if (r != VKSORT_SUCCESS)
            return create_fail(info, s, r);
    }
    if (s->radix.algorithm != VKSORT_VK_ALGORITHM_AUTO) {
        r = vksort_vk_radix_create_pipelines(s);
        if (r != VKSORT_SUCCESS)
            return create_fail(info, s, r);
    }

    vksort_vk_clear_error(s);
    *out_sorter = s;
    return VKSORT_SUCCESS;
}

void vksort_vk_sorter_destroy(vksort_vk_sorter *sorter)
{
    if (!sorter)
        return;
    if (sorter->vk.vkDestroyPipeline) {
        vksort_vk_destroy_pipelines(sorter);
        vksort_vk_radix_destroy_pipelines(sorter);
    }
    vksort_vk_host_free(sorter, sorter);
}

void vksort_vk_get_sorter_properties(const vksort_vk_sorter *s, vksort_vk_sorter_properties *out)
{
    if (!s || !out)
        return;
    memset(out, 0, sizeof *out);
    out->algorithm = s->algorithm;
    out->key_type = s->key_type;
    out->has_payload = s->has_payload ? VK_TRUE : VK_FALSE;
    out->max_count = s->max_count;
    out->tile_size = s->tile[0].size;
    out->stable_tile_size = s->tile[1].size;
    out->workgroup_size = s->tile[0].workgroup;
    out->radix_algorithm = s->radix.algorithm;
    out->radix_tile_size = s->radix.geometry.tile;
    out->radix_workgroup_size = s->radix.geometry.workgroup;
    out->subgroup_size = s->radix.subgroup_size;
    out->radix_partitioned = s->radix.partitioned ? VK_TRUE : VK_FALSE;
    out->radix_skew_ranking = s->radix.skew_ranking ? VK_TRUE : VK_FALSE;
    out->radix_skew_partitioned = s->radix.skew_partitioned ? VK_TRUE : VK_FALSE;
    out->radix_onesweep_workgroups = s->radix.onesweep_groups;
    out->radix_small_tile_size = s->radix.small.tile;
    out->radix_small_workgroup_size = s->radix.small.workgroup;
    out->radix_small_max_count = s->radix.small.max_count;
    out->radix_small_fused = s->radix.small.fused_max_count ? VK_TRUE : VK_FALSE;
    out->radix_fused_histogram_max_count = s->radix.fold_max_count;
    out->radix_small_buckets = s->radix.small_buckets ? VK_TRUE : VK_FALSE;
    out->radix_mid_tile_size = s->radix.mid.tile;
    out->radix_mid_workgroup_size = s->radix.mid.workgroup;
    out->radix_mid_max_count = s->radix.mid.max_count;
    out->radix_mid_fused = s->radix.mid.fused_max_count ? VK_TRUE : VK_FALSE;
    out->radix_fused_max_count = s->radix.small.fused_max_count;
    if (s->radix.mid.fused_max_count > out->radix_fused_max_count)
        out->radix_fused_max_count = s->radix.mid.fused_max_count;
    if (s->radix.geometry.fused_max_count > out->radix_fused_max_count)
        out->radix_fused_max_count = s->radix.geometry.fused_max_count;
    if (s->radix.wave.fused_max_count > out->radix_fused_max_count)
        out->radix_fused_max_count = s->radix.wave.fused_max_count;
    out->radix_wave_min_count = s->radix.wave_min_count;
    out->radix_wave_max_count = s->radix.wave_max_count;
    out->radix_wave_tile_size = s->radix.wave.tile;
    out->radix_wave_workgroup_size = s->radix.wave.workgroup;
    out->radix_long_blocks_min_count = s->radix.long_blocks_min_count;
    out->radix_atomic_or = s->radix.geometry.atomic_or ? VK_TRUE : VK_FALSE;
    out->radix_small_atomic_or = s->radix.small.atomic_or ? VK_TRUE : VK_FALSE;
    out->radix_scatter_rounds = s->radix.geometry.scatter_rounds;
    out->subgroup_size_pinned = s->radix.pinned_subgroup_size ? VK_TRUE : VK_FALSE;
    out->small_sort = s->small_sort;
    /* The staging holds a multiple of 4 elements; no count above max_count is sorted. */
    out->rank_capacity = s->rank_capacity < s->max_count ? s->rank_capacity : s->max_count;
    out->rank_min_count = s->rank_capacity ? s->rank_min_count : 0u;
    out->rank_workgroup_size = s->rank_capacity ? s->rank_workgroup : 0u;
    out->persistent_scratch = s->persistent_scratch ? VK_TRUE : VK_FALSE;
    out->buffer_robustness_off = s->buffer_robustness_off ? VK_TRUE : VK_FALSE;
    out->radix_lookback_fallback_polls = s->radix.fallback_polls;
    out->radix_hybrid_min_count = s->radix.hybrid_max_count ? s->radix.hybrid_min_count : 0u;
    out->radix_hybrid_max_count = s->radix.hybrid_max_count;
    out->radix_hybrid_workgroup_size = s->radix.hybrid_max_count ? RADIX_HYBRID_WORKGROUP : 0u;
    out->radix_hybrid_tile_size = s->radix.hybrid_max_count ? RADIX_HYBRID_WORKGROUP * s->radix.hybrid_items : 0u;
    out->radix_hybrid_large_tile_size =
        s->radix.hybrid_large_items ? RADIX_HYBRID_WORKGROUP * s->radix.hybrid_large_items : 0u;
}

void vksort_vk_compute_barrier(const vksort_vk_sorter *s, VkCommandBuffer cmd, int to_indirect)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       (to_indirect ? VK_ACCESS_INDIRECT_COMMAND_READ_BIT : 0);
    VkPipelineStageFlags dst = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                               (to_indirect ? VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT : 0);
    s->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, dst, 0, 1, &mb, 0, NULL,
                               0, NULL);
}

int vksort_vk_timestamps_begin(const vksort_vk_sorter *s, VkCommandBuffer cmd,
                               const vksort_vk_sort_info *info, uint32_t pass_count)
{
    if (info->query_pool == VK_NULL_HANDLE)
        return 0;
    s->vk.vkCmdResetQueryPool(cmd, info->query_pool, info->first_query, pass_count + 1u);
    s->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, info->query_pool,
                              info->first_query);
    return 1;
}

VkDeviceSize vksort_vk_debug_stall_counter_offset(const vksort_vk_sorter *s)
{
    (void)s; /* the radix state words start the scratch range */
    return (VkDeviceSize)RADIX_S_STALL_TIMEOUTS * 4u;
}

VkDeviceSize vksort_vk_debug_fallback_counter_offset(const vksort_vk_sorter *s)
{
    (void)s;
    return (VkDeviceSize)RADIX_S_FALLBACKS * 4u;
}

VkDeviceSize vksort_vk_debug_skew_tile_counter_offset(const vksort_vk_sorter *s)
{
    (void)s;
    return (VkDeviceSize)RADIX_S_SKEW_TILES * 4u;
}

VkDeviceSize vksort_vk_debug_hybrid_status_offset(const vksort_vk_sorter *s)
{
    (void)s;
    return (VkDeviceSize)RADIX_S_HYBRID * 4u;
}

vksort_result vksort_vk_get_memory_requirements(const vksort_vk_sorter *s,
                                                vksort_vk_memory_requirements *out)
{
    if (!s || !out)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->scratch_size = s->scratch_size;
    out->scratch_alignment = s->min_storage_align;
    out->scratch_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                         VK_BUFFER_USAGE_TRANSFER_DST_BIT; /* init_scratch and the RANK sort clear words */
    out->keys_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    out->values_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    out->count_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    out->keys_alignment = s->min_storage_align > s->key_size ? s->min_storage_align : s->key_size;
    out->values_alignment = s->min_storage_align > 4 ? s->min_storage_align : 4;
    out->count_alignment = 4;
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_cmd_init_scratch(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                        const vksort_vk_buffer_range *scratch)
{
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    vksort_vk_clear_error(s);
    if (!cmd || !scratch)
        return vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "command buffer is VK_NULL_HANDLE or scratch is NULL");
    vksort_result r = vksort_vk_check_range(s, scratch, s->min_storage_align, s->scratch_size,
                                            "scratch", VKSORT_ERROR_SCRATCH_TOO_SMALL);
    if (r != VKSORT_SUCCESS)
        return r;
    /* The only words a sort expects to find in a known state: the RANK sort's control words
     * and the radix histograms with their ticket (and the fused pass's chunk ticket, plan flag
     * and leave count, in the same range). */
    if (s->rank_capacity)
        s->vk.vkCmdFillBuffer(cmd, scratch->buffer, scratch->offset + s->rank_control_offset,
                              VKSORT_RANK_CONTROL_WORDS * 4u, 0u);
    if (s->radix.algorithm != VKSORT_VK_ALGORITHM_AUTO)
        s->vk.vkCmdFillBuffer(cmd, scratch->buffer, scratch->offset + s->radix.hist_offset,
                              s->radix.hist_bytes, 0u);
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_cmd_sort(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                 const vksort_vk_sort_info *info)
{
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    vksort_vk_clear_error(s);
    if (!cmd)
        return vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "command buffer is VK_NULL_HANDLE");
    if (!info)
        return vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "sort info is NULL");
    if (vksort_vk_radix_selected(s, info)) {
        vksort_vk_radix_plan rplan;
        vksort_result r = vksort_vk_radix_plan_sort(s, info, &rplan, s);
        if (r != VKSORT_SUCCESS)
            return r;
        return vksort_vk_radix_record(s, cmd, info, &rplan);
    }
    vksort_vk_plan plan;
    vksort_result r = vksort_vk_bitonic_plan(s, info, &plan, s);
    if (r != VKSORT_SUCCESS)
        return r;
    return vksort_vk_bitonic_record(s, cmd, info, &plan);
}

uint32_t vksort_vk_timestamp_query_count(const vksort_vk_sorter *s, const vksort_vk_sort_info *info)
{
    if (!s || !info)
        return 0;
    if (vksort_vk_radix_selected(s, info)) {
        vksort_vk_radix_plan rplan;
        if (vksort_vk_radix_plan_sort(s, info, &rplan, NULL) != VKSORT_SUCCESS)
            return 0;
        return rplan.pass_count + 1u;
    }
    vksort_vk_plan plan;
    if (vksort_vk_bitonic_plan(s, info, &plan, NULL) != VKSORT_SUCCESS)
        return 0;
    return plan.pass_count + 1u;
}

static vksort_result radix_timestamps_to_ms(const vksort_vk_sorter *s,
                                           const vksort_vk_sort_info *info,
                                           const uint64_t *timestamps, uint32_t timestamp_count,
                                           vksort_vk_pass_time *out_passes,
                                           uint32_t *inout_pass_count, double *out_total_ms)
{
    vksort_vk_radix_plan plan;
    vksort_result r = vksort_vk_radix_plan_sort(s, info, &plan, NULL);
    if (r != VKSORT_SUCCESS)
        return r;
    if (timestamp_count != plan.pass_count + 1u)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    const double ns_per_tick = s->timestamp_period > 0.0f ? (double)s->timestamp_period : 1.0;
    for (uint32_t i = 0; i < plan.pass_count && i < *inout_pass_count; ++i) {
        vksort_vk_pass_time *pt = &out_passes[i];
        pt->kind = vksort_vk_radix_pass_kind(plan.kind[i]);
        pt->level = plan.slot[i];
        vksort_vk_radix_pass_name(plan.kind[i], plan.slot[i], pt->name, sizeof pt->name);
        uint64_t d = timestamps[i + 1] >= timestamps[i] ? timestamps[i + 1] - timestamps[i] : 0;
        pt->ms = (double)d * ns_per_tick * 1e-6;
    }
    *inout_pass_count = plan.pass_count;
    if (out_total_ms) {
        uint64_t d = timestamps[plan.pass_count] >= timestamps[0]
                         ? timestamps[plan.pass_count] - timestamps[0]
                         : 0;
        *out_total_ms = (double)d * ns_per_tick * 1e-6;
    }
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_timestamps_to_ms(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                         const uint64_t *timestamps, uint32_t timestamp_count,
                                         vksort_vk_pass_time *out_passes,
                                         uint32_t *inout_pass_count, double *out_total_ms)
{
    vksort_vk_plan plan;
    if (!s || !info || !timestamps || !inout_pass_count || (*inout_pass_count && !out_passes))
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (vksort_vk_radix_selected(s, info))
        return radix_timestamps_to_ms(s, info, timestamps, timestamp_count, out_passes,
                                      inout_pass_count, out_total_ms);
    vksort_result r = vksort_vk_bitonic_plan(s, info, &plan, NULL);
    if (r != VKSORT_SUCCESS)
        return r;
    if (timestamp_count != plan.pass_count + 1u)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    const double ns_per_tick = s->timestamp_period > 0.0f ? (double)s->timestamp_period : 1.0;
    uint32_t cap = *inout_pass_count;
    for (uint32_t i = 0; i < plan.pass_count && i < cap; ++i) {
        vksort_vk_pass_time *p = &out_passes[i];
        p->kind = vksort_vk_pass_kind_name(plan.passes[i].kind);
        p->level = plan.passes[i].level;
        vksort_vk_pass_name(&plan.passes[i], p->name, sizeof p->name);
        uint64_t d = timestamps[i + 1] >= timestamps[i] ? timestamps[i + 1] - timestamps[i] : 0;
        p->ms = (double)d * ns_per_tick * 1e-6;
    }
    *inout_pass_count = plan.pass_count;
    if (out_total_ms) {
        uint64_t d = timestamps[plan.pass_count] >= timestamps[0]
                         ? timestamps[plan.pass_count] - timestamps[0]
                         : 0;
        *out_total_ms = (double)d * ns_per_tick * 1e-6;
    }
    return VKSORT_SUCCESS;
}
