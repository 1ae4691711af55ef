/*
 * Bitonic sort: tile geometry, argument checks, the pass plan, and recording.
 *
 * Network ("flip" form, see shaders/include/bitonic_common.glsl): merge level lk sorts blocks of
 * 2^lk elements; it starts with the flip stage (i with i ^ (2^lk - 1)) and continues with the
 * half-cleaners i ^ 2^b, b = lk-2 .. 0. All comparators put the smaller element first, so the
 * padding up to the next power of two is virtual +infinity that is never touched.
 *
 * Passes for n elements, tile size T = 2^t:
 *   local_sort                   levels 1..t inside each tile (the only pass when n <= T)
 *   for each level lk = t+1 .. ceil(log2 n):
 *     global_merge x ceil((lk-t)/G) stages with index bits >= t, G = VKSORT_BITONIC_GLOBAL_LOG
 *                                   per pass over the array (the first includes the flip)
 *     local_merge                  stages with index bits < t, inside each tile
 * A tile pass on a partial tile of m elements works only on its first 2^ceil(log2 m) positions
 * (the shaders decide; the plan is the same). Tile geometry: T elements per workgroup, E per
 * invocation (bitonic_elements_per_invocation), T / E invocations; the tile-pass shaders derive E
 * from the two specialization constants.
 * An indirect count plans for max_count, starts with a prepare pass that clamps the count and
 * writes the dispatch table, and dispatches every pass indirectly: passes of levels the actual
 * count does not reach get zero workgroups.
 */
#include "sorter_internal.h"

#include <string.h>

/* Largest power-of-two tile (elements) whose shared arrays (`words` uint32 per element) fit the
 * device, with one invocation per `elements` elements, at most `cap` (0: no cap). 0 if none of
 * at least VKSORT_BITONIC_MIN_TILE fits. */
static uint32_t pick_tile(const VkPhysicalDeviceLimits *lim, uint32_t words, uint32_t elements,
                          uint32_t cap)
{
    uint32_t max_wg = lim->maxComputeWorkGroupInvocations;
    if (lim->maxComputeWorkGroupSize[0] < max_wg)
        max_wg = lim->maxComputeWorkGroupSize[0];
    for (uint32_t t = VKSORT_BITONIC_MAX_TILE; t >= VKSORT_BITONIC_MIN_TILE; t >>= 1) {
        if (cap && t > cap)
            continue;
        if ((uint64_t)t * words * 4u > lim->maxComputeSharedMemorySize)
            continue;
        if (t / elements > max_wg)
            continue;
        return t;
    }
    return 0;
}

#define VKSORT_BITONIC_DEFAULT_TILE_CAP 4096u
/* The RANK sort grows the elements each workgroup owns (32, 64, ...) until it needs at most this
 * many workgroups: on the H200 (132 SMs) 8192 pairs took 30 us with 256 workgroups of 32 and
 * 19 us with 128 of 64, while 4096 pairs are fastest with 128 of 32 (docs/perf-notes.md). */
#define RANK_TARGET_GROUPS 128u

vksort_result vksort_vk_bitonic_choose_tiles(vksort_vk_sorter *s, const VkPhysicalDeviceLimits *lim,
                                             const vksort_vk_sorter_create_info *info)
{
    /* 0: measured defaults on the H200 (docs/PERFORMANCE.md, 2026-11-30): 16 elements per
     * invocation for keys alone, 8 when a payload or position travels with each key (4096
     * pairs: 22.8 us with 8, 115 us with 16); tiles capped at 4096 (4096 keys: 18.9 us against
     * 20.5 us with 8192-element tiles; 2^24 keys 1.93 ms against 2.28 ms). */
    const uint32_t requested = info->bitonic_elements_per_invocation;
    uint32_t elements = requested ? requested : 1u << VKSORT_BITONIC_LOCAL_LOG;
    if (elements != 4 && elements != 8 && elements != 16 && elements != 32)
        return vksort_vk_fail(s, VKSORT_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              "bitonic_elements_per_invocation must be 0, 4, 8, 16 or 32 (got %u)",
                              elements);
    /* A tile never needs to be larger than the largest count (rounded up to a power of two):
     * smaller workgroups meet at cheaper barriers and leave the compiler more registers. */
    uint32_t cap = info->max_tile_size ? info->max_tile_size : VKSORT_BITONIC_DEFAULT_TILE_CAP;
    uint32_t count_cap = 1u << vksort_vk_ceil_log2(s->max_count);
    if (count_cap < VKSORT_BITONIC_MIN_TILE)
        count_cap = VKSORT_BITONIC_MIN_TILE;
    if (!cap || count_cap < cap)
        cap = count_cap;

    /* Shared memory words per element = key words + payload + position (stable). */
    const uint32_t key_words = s->key_size / 4u;
    for (int stable = 0; stable < 2; ++stable) {
        uint32_t words = key_words + (s->has_payload ? 1u : 0u) + (stable ? 1u : 0u);
        /* The shaders carry 32 elements per invocation only for 32-bit keys without the stable
         * flag (bitonic_tile.glsl): the others use 16 then. */
        uint32_t e = elements == 32 && (stable || key_words != 1) ? 16u : elements;
        if (!requested && words >= 2 && e > 8u)
            e = 8u;
        uint32_t t = pick_tile(lim, words, e, cap);
        if (!t)
            return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                                  "device limits too small for a %u-element tile of %u bytes per "
                                  "element (maxComputeSharedMemorySize %u, "
                                  "maxComputeWorkGroupInvocations %u)",
                                  VKSORT_BITONIC_MIN_TILE, words * 4u,
                                  lim->maxComputeSharedMemorySize,
                                  lim->maxComputeWorkGroupInvocations);
        s->tile[stable].size = t;
        s->tile[stable].log_size = vksort_vk_ceil_log2(t);
        s->tile[stable].elements = e;
        s->tile[stable].workgroup = t / e;
    }
    return VKSORT_SUCCESS;
}

/* Indirect dispatch table entries for a plan whose largest level is max_level. */
static uint32_t table_entries(uint32_t log_tile, uint32_t max_level)
{
    return 1u + 2u * (max_level > log_tile ? max_level - log_tile : 0u);
}

VkDeviceSize vksort_vk_bitonic_state_bytes(const vksort_vk_sorter *s)
{
    uint32_t max_level = vksort_vk_ceil_log2(s->max_count);
    uint32_t e0 = table_entries(s->tile[0].log_size, max_level);
    uint32_t e1 = table_entries(s->tile[1].log_size, max_level);
    uint32_t e = e0 > e1 ? e0 : e1;
    return (VkDeviceSize)(VKSORT_STATE_HEADER_WORDS + 3u * e) * 4u; /* e >= 1 */
}

static void add_pass(vksort_vk_plan *p, vksort_vk_pass_kind kind, uint32_t level, uint32_t bit_hi,
                     int flip)
{
    vksort_vk_pass *ps = &p->passes[p->pass_count++];
    ps->kind = (uint8_t)kind;
    ps->level = (uint8_t)level;
    ps->bit_hi = (uint8_t)bit_hi;
    ps->flip = (uint8_t)(flip != 0);
}

vksort_result vksort_vk_bitonic_plan(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                     vksort_vk_plan *p, vksort_vk_sorter *s_msg)
{
    memset(p, 0, offsetof(vksort_vk_plan, passes));
    vksort_result r = vksort_vk_check_sort_info(s, info, s_msg, &p->bit_begin, &p->bit_end,
                                                &p->indirect, &p->count);
    if (r != VKSORT_SUCCESS)
        return r;
    p->stable = (info->flags & VKSORT_FLAG_STABLE) != 0;
    p->tile = &s->tile[p->stable];
    p->use_indices = p->stable && p->count > p->tile->size;

    uint32_t max_level = p->count >= 2 ? vksort_vk_ceil_log2(p->count) : 0;
    p->table_entries = p->indirect ? table_entries(p->tile->log_size, max_level) : 0;
    p->state_bytes =
        (VkDeviceSize)(VKSORT_STATE_HEADER_WORDS + 3u * (p->table_entries ? p->table_entries : 1u)) * 4u;
    /* The size the sorter reported (vksort_vk_memory_requirements::scratch_size), as for the
     * radix sorts, though a small count touches less: one rule for every sort. */
    r = vksort_vk_check_range(s_msg, &info->scratch, s->min_storage_align, s->scratch_size, "scratch",
                    VKSORT_ERROR_SCRATCH_TOO_SMALL);
    if (r != VKSORT_SUCCESS)
        return r;
    if (p->indirect) {
        r = vksort_vk_check_range(s_msg, &info->count_buffer, 4, 4, "count", VKSORT_ERROR_BUFFER_TOO_SMALL);
        if (r != VKSORT_SUCCESS)
            return r;
    }

    /* RANK small sort: one dispatch, no prepare pass even for an indirect count (the shader
     * clamps it), staging in the indices range. An indirect count decides by max_count. */
    if (s->rank_capacity && p->count <= s->rank_capacity && p->count >= s->rank_min_count) {
        p->rank = 1;
        /* At most RANK_TARGET_GROUPS workgroups, so that they all run at once on a large GPU
         * (the ones that find others still reading must stage their elements). */
        p->rank_own_log2 = 5;
        while (((p->count - 1u) >> p->rank_own_log2) + 1u > RANK_TARGET_GROUPS &&
               (2u << p->rank_own_log2) <= s->rank_workgroup &&
               (2u << p->rank_own_log2) <= VKSORT_RANK_MAX_GROUP_ELEMENTS)
            ++p->rank_own_log2;
        p->use_indices = 0;
        p->table_entries = 0;
        p->state_bytes = (VkDeviceSize)VKSORT_STATE_HEADER_WORDS * 4u;
        add_pass(p, PASS_RANK_SORT, 0, 0, 0); /* count >= rank_min_count >= 2 */
        return VKSORT_SUCCESS;
    }

    /* Passes. */
    if (p->count < 2)
        return VKSORT_SUCCESS;
    const uint32_t t = p->tile->log_size;
    if (p->indirect)
        add_pass(p, PASS_PREPARE, 0, 0, 0);
    add_pass(p, PASS_LOCAL_SORT, t < max_level ? t : max_level, 0, 0);
    for (uint32_t lk = t + 1; lk <= max_level; ++lk) {
        for (int b_hi = (int)lk - 1; b_hi >= (int)t; b_hi -= VKSORT_BITONIC_GLOBAL_LOG)
            add_pass(p, PASS_GLOBAL_MERGE, lk, (uint32_t)b_hi, b_hi == (int)lk - 1);
        add_pass(p, PASS_LOCAL_MERGE, lk, 0, 0);
    }
    return VKSORT_SUCCESS;
}

/* Workgroups of a pass for a host count (the prepare shader computes the same on the GPU). */
static uint32_t pass_groups(const vksort_vk_plan *p, const vksort_vk_pass *pass)
{
    const uint32_t n = p->count;
    if (pass->kind == PASS_GLOBAL_MERGE) {
        uint64_t threads = ((uint64_t)1 << vksort_vk_ceil_log2(n)) >> VKSORT_BITONIC_GLOBAL_LOG;
        return (uint32_t)((threads + VKSORT_BITONIC_GLOBAL_WORKGROUP - 1) /
                          VKSORT_BITONIC_GLOBAL_WORKGROUP);
    }
    return (uint32_t)(((uint64_t)n + p->tile->size - 1) / p->tile->size);
}

/* Indirect dispatch table entry of a pass. */
static uint32_t pass_entry(const vksort_vk_plan *p, const vksort_vk_pass *pass)
{
    if (pass->kind == PASS_LOCAL_SORT)
        return 0;
    uint32_t e = 1u + 2u * (pass->level - p->tile->log_size - 1u);
    return pass->kind == PASS_GLOBAL_MERGE ? e : e + 1u;
}

static VkPipeline pass_pipeline(const vksort_vk_sorter *s, const vksort_vk_plan *p,
                                const vksort_vk_pass *pass)
{
    switch (pass->kind) {
    case PASS_PREPARE: return s->pipelines[PIPE_PREPARE];
    case PASS_RANK_SORT: return s->pipelines[PIPE_RANK_SORT];
    case PASS_LOCAL_SORT:
        return s->pipelines[!p->stable ? PIPE_LOCAL_SORT_NS
                                       : (p->use_indices ? PIPE_LOCAL_SORT_SI : PIPE_LOCAL_SORT_S1)];
    case PASS_GLOBAL_MERGE:
        return s->pipelines[p->stable ? PIPE_GLOBAL_MERGE_SI : PIPE_GLOBAL_MERGE_NS];
    default: return s->pipelines[p->stable ? PIPE_LOCAL_MERGE_SI : PIPE_LOCAL_MERGE_NS];
    }
}

static void order_mask(const vksort_vk_sorter *s, const vksort_vk_plan *p, uint32_t *lo,
                       uint32_t *hi)
{
    uint32_t width = p->bit_end - p->bit_begin;
    uint64_t m = (width >= 64 ? ~0ull : ((1ull << width) - 1u)) << p->bit_begin;
    if (s->key_size == 4)
        m &= 0xffffffffull;
    *lo = (uint32_t)m;
    *hi = (uint32_t)(m >> 32);
}

/* The RANK sort's control words start at zero: clear them, ordered after earlier compute use of
 * the scratch (the caller's barrier covers everything before that) and before the dispatch. */
static void record_control_clear(const vksort_vk_sorter *s, VkCommandBuffer cmd,
                                 const vksort_vk_sort_info *info)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    s->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    s->vk.vkCmdFillBuffer(cmd, info->scratch.buffer, info->scratch.offset + s->rank_control_offset,
                          VKSORT_RANK_CONTROL_WORDS * 4u, 0u);
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    s->vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

vksort_result vksort_vk_bitonic_record(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                       const vksort_vk_sort_info *info, const vksort_vk_plan *p)
{
    const int timestamps = vksort_vk_timestamps_begin(s, cmd, info, p->pass_count);
    if (p->pass_count == 0)
        return VKSORT_SUCCESS;

    vksort_vk_label_begin(s, cmd, p->rank ? (p->indirect ? "vksort rank sort (indirect count)"
                                                         : "vksort rank sort")
                                          : (p->indirect ? "vksort bitonic sort (indirect count)"
                                                         : "vksort bitonic sort"));

    /* Bindings, pushed once for every pass of this sort. */
    const VkDeviceSize n = p->count;
    VkDescriptorBufferInfo bi[VKSORT_BINDING_TOTAL];
    VkWriteDescriptorSet w[VKSORT_BINDING_TOTAL];
    uint32_t nw = 0;
    memset(bi, 0, sizeof bi);
    memset(w, 0, sizeof w);
    bi[VKSORT_BINDING_KEYS] = (VkDescriptorBufferInfo){info->keys.buffer, info->keys.offset,
                                                       n * s->key_size};
    bi[VKSORT_BINDING_VALUES] = (VkDescriptorBufferInfo){info->values.buffer, info->values.offset,
                                                         n * 4u};
    bi[VKSORT_BINDING_STATE] =
        p->rank ? (VkDescriptorBufferInfo){info->scratch.buffer,
                                           info->scratch.offset + s->rank_control_offset,
                                           VKSORT_RANK_CONTROL_WORDS * 4u}
                : (VkDescriptorBufferInfo){info->scratch.buffer, info->scratch.offset, p->state_bytes};
    bi[VKSORT_BINDING_INDICES] = (VkDescriptorBufferInfo){
        info->scratch.buffer, info->scratch.offset + s->indices_offset,
        p->rank ? s->rank_staging_bytes : n * 4u};
    /* The count binding starts at the offset rounded down to the storage alignment. */
    VkDeviceSize count_base = 0, count_word = 0;
    if (p->indirect) {
        count_base = info->count_buffer.offset / s->min_storage_align * s->min_storage_align;
        count_word = (info->count_buffer.offset - count_base) / 4u;
        bi[VKSORT_BINDING_COUNT] = (VkDescriptorBufferInfo){info->count_buffer.buffer, count_base,
                                                            (count_word + 1u) * 4u};
    }
    if (p->rank && !p->indirect) /* the RANK shader declares the count binding; never read */
        bi[VKSORT_BINDING_COUNT] = bi[VKSORT_BINDING_STATE];
    int used[VKSORT_BINDING_TOTAL] = {1, s->has_payload, 1, p->use_indices || p->rank,
                                      p->indirect || p->rank};
    for (uint32_t b = 0; b < VKSORT_BINDING_TOTAL; ++b) {
        if (!used[b])
            continue;
        w[nw].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[nw].dstBinding = b;
        w[nw].descriptorCount = 1;
        w[nw].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[nw].pBufferInfo = &bi[b];
        ++nw;
    }
    s->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline_layout, 0, nw,
                                    w);

    vksort_vk_push push;
    memset(&push, 0, sizeof push);
    push.count = p->indirect ? 0u : p->count;
    push.flags = (p->indirect ? VKSORT_PUSH_INDIRECT : 0u) |
                 ((info->flags & VKSORT_FLAG_DESCENDING) ? VKSORT_PUSH_DESCENDING : 0u);
    order_mask(s, p, &push.mask_lo, &push.mask_hi);

    VkPipeline bound = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < p->pass_count; ++i) {
        const vksort_vk_pass *pass = &p->passes[i];
        char name[48];
        if (s->debug_labels) {
            vksort_vk_pass_name(pass, name, sizeof name);
            vksort_vk_label_begin(s, cmd, name);
        }
        VkPipeline pipe = pass_pipeline(s, p, pass);
        if (pipe != bound) {
            s->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
            bound = pipe;
        }
        vksort_vk_push pc = push;
        pc.level = pass->level;
        pc.bit_hi = pass->bit_hi;
        if (pass->flip)
            pc.flags |= VKSORT_PUSH_FLIP;
        if (pass->kind == PASS_PREPARE || pass->kind == PASS_RANK_SORT) {
            pc.aux0 = (uint32_t)count_word;
            pc.aux1 = s->max_count;
            pc.level = pass->kind == PASS_RANK_SORT ? p->rank_own_log2 : p->tile->log_size;
            pc.bit_hi = p->table_entries;
        }
        if (pass->kind == PASS_RANK_SORT && !s->persistent_scratch)
            record_control_clear(s, cmd, info);
        s->vk.vkCmdPushConstants(cmd, s->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc,
                                 &pc);
        if (pass->kind == PASS_PREPARE) {
            s->vk.vkCmdDispatch(cmd, 1, 1, 1);
        } else if (pass->kind == PASS_RANK_SORT) {
            /* A fixed grid for an indirect count: workgroups past the count only count in and out. */
            s->vk.vkCmdDispatch(cmd, ((p->count - 1u) >> p->rank_own_log2) + 1u, 1, 1);
        } else if (p->indirect) {
            VkDeviceSize off = info->scratch.offset +
                               (VkDeviceSize)(VKSORT_STATE_HEADER_WORDS + 3u * pass_entry(p, pass)) * 4u;
            s->vk.vkCmdDispatchIndirect(cmd, info->scratch.buffer, off);
        } else {
            uint32_t g = pass_groups(p, pass);
            s->vk.vkCmdDispatch(cmd, VKSORT_GRID_COLUMNS(g, VKSORT_DISPATCH_SPLIT),
                                VKSORT_GRID_ROWS(g, VKSORT_DISPATCH_SPLIT), 1);
        }
        if (timestamps)
            s->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, info->query_pool,
                                      info->first_query + i + 1u);
        if (s->debug_labels)
            vksort_vk_label_end(s, cmd);
        if (i + 1 < p->pass_count)
            vksort_vk_compute_barrier(s, cmd, pass->kind == PASS_PREPARE);
    }
    vksort_vk_label_end(s, cmd);
    return VKSORT_SUCCESS;
}
