#include "support/sort_check.h"

#include "vksort/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64u /* elements around the sorted range that must stay untouched */
#define MAX_SLOTS 24

static vk_rig *rig;
static vk_rig_buffer keys_buf, vals_buf, scratch_buf, count_buf;
static sort_slot slots[MAX_SLOTS];
static int slot_count;
static vksort_vk_create_flags suite_flags; /* sort_check_add_create_flags */
static sort_radix_override suite_shape;   /* sort_check_override_radix */
/* The persistent-scratch sorter whose prepared scratch scratch_buf holds (NULL: none). */
static const vksort_vk_sorter *scratch_owner;

static const VkBufferUsageFlags storage_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                VK_BUFFER_USAGE_TRANSFER_DST_BIT;

void sort_check_init(vk_rig *r)
{
    rig = r;
}

void sort_check_shutdown(void)
{
    for (int i = 0; i < slot_count; ++i)
        vksort_vk_sorter_destroy(slots[i].sorter);
    slot_count = 0;
    vk_rig_buffer_destroy(rig, &keys_buf);
    vk_rig_buffer_destroy(rig, &vals_buf);
    vk_rig_buffer_destroy(rig, &scratch_buf);
    vk_rig_buffer_destroy(rig, &count_buf);
    scratch_owner = NULL;
}

static int ensure_buffer(vk_rig_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage)
{
    if (b->buffer && b->size >= size)
        return 0;
    vk_rig_buffer_destroy(rig, b);
    return vk_rig_buffer_create(rig, size + size / 4 + 4096, usage, 1, b);
}

void sort_check_create_info(const vk_rig *r, vksort_vk_sorter_create_info *ci)
{
    memset(ci, 0, sizeof *ci);
    ci->instance = r->instance;
    ci->physical_device = r->physical_device;
    ci->device = r->device;
    ci->get_instance_proc_addr = vkGetInstanceProcAddr;
}

void sort_check_add_create_flags(vksort_vk_create_flags flags)
{
    suite_flags |= flags;
}

void sort_check_override_radix(const sort_radix_override *shape)
{
    suite_shape = *shape;
}

/* Whether the suite's radix shape replaces this configuration's: a radix sort that leaves its
 * workgroup, items and persistent workgroups to the sorter. */
static int takes_suite_shape(const sort_config *cfg)
{
    return suite_shape.workgroup && cfg->algorithm != VKSORT_VK_ALGORITHM_BITONIC &&
           !cfg->radix_wg && !cfg->radix_items && !cfg->onesweep_groups;
}

sort_slot *sort_check_sorter(const sort_config *cfg)
{
    for (int i = 0; i < slot_count; ++i)
        if (memcmp(&slots[i].cfg, cfg, sizeof *cfg) == 0)
            return &slots[i];
    if (slot_count == MAX_SLOTS) {
        if (scratch_owner == slots[0].sorter)
            scratch_owner = NULL;
        vksort_vk_sorter_destroy(slots[0].sorter);
        memmove(slots, slots + 1, sizeof slots[0] * (MAX_SLOTS - 1));
        slot_count--;
    }
    sort_slot *s = &slots[slot_count];
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    vksort_vk_diagnostics diag;
    vksort_vk_sorter_create_info ci;
    sort_check_create_info(rig, &ci);
    ci.key_type = cfg->type;
    ci.has_payload = cfg->payload ? VK_TRUE : VK_FALSE;
    ci.max_count = cfg->max_count;
    ci.max_tile_size = cfg->tile_cap;
    ci.algorithm = cfg->algorithm;
    ci.radix_workgroup_size = cfg->radix_wg;
    ci.bitonic_elements_per_invocation = cfg->elements;
    ci.small_sort = cfg->small_sort;
    ci.rank_workgroup_size = cfg->rank_wg;
    ci.radix_items_per_invocation = cfg->radix_items;
    ci.radix_onesweep_workgroups = cfg->onesweep_groups;
    ci.radix_buckets = cfg->buckets;
    ci.radix_hybrid = cfg->hybrid;
    const int shaped = takes_suite_shape(cfg);
    if (shaped) {
        ci.radix_workgroup_size = suite_shape.workgroup;
        ci.radix_items_per_invocation = suite_shape.items;
        ci.radix_onesweep_workgroups = suite_shape.onesweep_groups;
    }
    ci.flags = cfg->flags | suite_flags | (shaped ? suite_shape.flags : 0) | (rig->debug_utils ? VKSORT_VK_CREATE_DEBUG_LABELS : 0) |
               (rig->pipeline_robustness ? VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS : 0);
    ci.diagnostics = &diag;
    ci.enabled_extension_count = rig->enabled_extension_count;
    ci.enabled_extensions = rig->enabled_extensions;
    vksort_result r = vksort_vk_sorter_create(&ci, &s->sorter);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "sorter create failed: %s: %s\n", vksort_result_string(r), diag.message);
        return NULL;
    }
    vksort_vk_get_sorter_properties(s->sorter, &s->props);
    vksort_vk_get_memory_requirements(s->sorter, &s->reqs);
    if (shaped) {
        /* A shape the device cannot run falls back to another workgroup size: then the suite
         * would test the wrong thing. The items may shrink for wide keys (the tile's shared
         * memory), which the line shows. */
        printf("suite shape: %s%s, max %u: workgroup %u, tile %u (%u items), %u scatter round(s)\n",
               vksort_key_type_name(cfg->type), cfg->payload ? " pairs" : "", cfg->max_count,
               s->props.radix_workgroup_size, s->props.radix_tile_size,
               s->props.radix_tile_size / s->props.radix_workgroup_size, s->props.radix_scatter_rounds);
        if (s->props.radix_workgroup_size != suite_shape.workgroup) {
            fprintf(stderr, "FAIL: asked radix workgroup %u, the sorter took %u\n",
                    suite_shape.workgroup, s->props.radix_workgroup_size);
            vksort_vk_sorter_destroy(s->sorter);
            return NULL;
        }
    }
    slot_count++;
    return s;
}

uint32_t sort_check_planned_count(const sort_case *c)
{
    return c->indirect ? c->cfg.max_count : c->n;
}

void sort_check_radix_geometry(const vksort_vk_sorter_properties *pr, uint32_t n,
                               uint32_t *tile, uint32_t *workgroup)
{
    const int small = pr->radix_small_tile_size && n <= pr->radix_small_max_count;
    const int wave = !small && n > pr->radix_wave_min_count && n <= pr->radix_wave_max_count;
    const int mid = !small && !wave && pr->radix_mid_tile_size && n <= pr->radix_mid_max_count;
    *tile = small  ? pr->radix_small_tile_size
            : wave ? pr->radix_wave_tile_size
            : mid  ? pr->radix_mid_tile_size
                   : pr->radix_tile_size;
    *workgroup = small  ? pr->radix_small_workgroup_size
                 : wave ? pr->radix_wave_workgroup_size
                 : mid  ? pr->radix_mid_workgroup_size
                        : pr->radix_workgroup_size;
}

void sort_check_describe(const sort_case *c, char *buf, size_t n)
{
    snprintf(buf, n,
             "algo=%s type=%s dist=%s n=%u desc=%d stable=%d payload=%d bits=[%u,%u) "
             "indirect=%d max=%u flags=%u tile_cap=%u elements=%u small_sort=%d radix_wg=%u "
             "rank_wg=%u radix_items=%u onesweep_groups=%u buckets=%d hybrid=%d",
             vksort_vk_algorithm_name(c->cfg.algorithm), vksort_key_type_name(c->cfg.type),
             test_dist_name(c->dist), c->n, c->desc, c->stable, c->cfg.payload, c->bit_begin,
             c->bit_end, c->indirect, c->cfg.max_count, c->cfg.flags, c->cfg.tile_cap,
             c->cfg.elements, (int)c->cfg.small_sort, c->cfg.radix_wg, c->cfg.rank_wg, c->cfg.radix_items,
             c->cfg.onesweep_groups, (int)c->cfg.buckets, (int)c->cfg.hybrid);
}

/* Order key of element i: the encoding (complemented when descending) within the bit range. */
static uint64_t order_key(vksort_key_type type, const void *keys, size_t i, int desc,
                          uint64_t mask)
{
    uint64_t e;
    if (vksort_key_size(type) == 8) {
        uint64_t b;
        memcpy(&b, (const unsigned char *)keys + i * 8, 8);
        e = vksort_encode_u64_bits(type, b);
        if (desc)
            e = ~e;
    } else {
        uint32_t b;
        memcpy(&b, (const unsigned char *)keys + i * 4, 4);
        e = vksort_encode_u32_bits(type, b);
        if (desc)
            e = ~e & 0xffffffffull;
    }
    return e & mask;
}

typedef struct kv { uint64_t k; uint32_t v; } kv;
static int kv_cmp(const void *a, const void *b)
{
    const kv *x = a, *y = b;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return x->v < y->v ? -1 : (x->v > y->v);
}

/* The (key bits, value) pairs of n elements, sorted: equal for two permutations of each other. */
static kv *to_kv(vksort_key_type type, const void *keys, const uint32_t *vals, size_t n)
{
    kv *a = calloc(n ? n : 1, sizeof *a); /* zeroed: memcmp sees the padding */
    for (size_t i = 0; i < n; ++i) {
        if (vksort_key_size(type) == 8)
            memcpy(&a[i].k, (const unsigned char *)keys + i * 8, 8);
        else {
            uint32_t b;
            memcpy(&b, (const unsigned char *)keys + i * 4, 4);
            a[i].k = b;
        }
        a[i].v = vals ? vals[i] : 0;
    }
    qsort(a, n, sizeof *a, kv_cmp);
    return a;
}

/* Not stable, so any order of equal keys: same order keys as the reference, and a permutation
 * of the input pairs. */
static int check_unstable(const sort_case *c, const unsigned char *got_keys,
                          const uint32_t *got_vals, const unsigned char *expect_keys,
                          const unsigned char *init_keys, const uint32_t *init_vals, size_t eff,
                          const char *what)
{
    const size_t ks = vksort_key_size(c->cfg.type);
    uint32_t width = (uint32_t)ks * 8u;
    uint32_t be = c->bit_end ? c->bit_end : width;
    uint64_t mask = ((be - c->bit_begin) == 64 ? ~0ull : ((1ull << (be - c->bit_begin)) - 1u))
                    << c->bit_begin;
    for (size_t i = 0; i < eff; ++i) {
        if (order_key(c->cfg.type, got_keys, i, c->desc, mask) !=
            order_key(c->cfg.type, expect_keys, i, c->desc, mask)) {
            fprintf(stderr, "MISMATCH (%s): order key at %zu\n", what, i);
            return 0;
        }
    }
    kv *a = to_kv(c->cfg.type, got_keys, got_vals, eff);
    kv *b = to_kv(c->cfg.type, init_keys, init_vals, eff);
    int same = eff == 0 || memcmp(a, b, eff * sizeof *a) == 0;
    free(a);
    free(b);
    if (!same)
        fprintf(stderr, "MISMATCH (%s): output is not a permutation of the input\n", what);
    return same;
}

uint32_t sort_check_bit_range(vksort_key_type type, unsigned k, uint32_t *begin)
{
    uint32_t width = vksort_key_size(type) * 8u;
    switch (k % 5u) {
    case 1: *begin = 0; return 16;
    case 2: *begin = 8; return 21; /* a 5-bit last pass */
    case 3: *begin = 3; return width - 5;
    case 4: *begin = width - 1; return width;
    default: *begin = 0; return 0;
    }
}

int sort_check_run(const sort_case *c, const void **out_scratch)
{
    sort_slot *slot = sort_check_sorter(&c->cfg);
    if (!slot)
        return 0;
    const size_t ks = vksort_key_size(c->cfg.type);
    const uint32_t max = c->cfg.max_count;
    const uint32_t eff = c->indirect ? (c->n < max ? c->n : max) : c->n;
    const size_t region = c->indirect ? max : c->n; /* elements the sort may access */
    const size_t total = GUARD + region + GUARD;
    const VkDeviceSize key_off = GUARD * ks, val_off = GUARD * 4u;
    const VkBuffer old_scratch = scratch_buf.buffer;
    if (ensure_buffer(&keys_buf, total * ks, storage_usage) ||
        (c->cfg.payload && ensure_buffer(&vals_buf, total * 4u, storage_usage)) ||
        ensure_buffer(&scratch_buf, slot->reqs.scratch_size + 256,
                      storage_usage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) ||
        ensure_buffer(&count_buf, 256, storage_usage)) {
        fprintf(stderr, "buffer allocation failed\n");
        return 0;
    }
    unsigned char *init_keys = malloc(total * ks);
    uint32_t *init_vals = malloc(total * 4u);
    unsigned char *expect_keys = malloc(total * ks);
    uint32_t *expect_vals = malloc(total * 4u);
    test_fill_keys(c->cfg.type, c->dist, init_keys, total, c->seed);
    for (size_t i = 0; i < total; ++i)
        init_vals[i] = (uint32_t)(i * 2654435761u) ^ 0x9e3779b9u;
    memcpy(keys_buf.mapped, init_keys, total * ks);
    if (c->cfg.payload)
        memcpy(vals_buf.mapped, init_vals, total * 4u);
    const int persistent = (c->cfg.flags & VKSORT_VK_CREATE_PERSISTENT_SCRATCH) != 0;
    const int prepare = persistent && (scratch_owner != slot->sorter ||
                                       scratch_buf.buffer != old_scratch);
    if (!persistent || prepare)
        memset(scratch_buf.mapped, 0xa5, (size_t)scratch_buf.size); /* must not matter */
    scratch_owner = persistent ? slot->sorter : NULL;
    ((uint32_t *)count_buf.mapped)[3] = c->n;                   /* count at byte offset 12 */

    memcpy(expect_keys, init_keys, total * ks);
    memcpy(expect_vals, init_vals, total * 4u);
    vksort_cpu_sort_info cpu;
    memset(&cpu, 0, sizeof cpu);
    cpu.key_type = c->cfg.type;
    cpu.flags = (c->desc ? VKSORT_FLAG_DESCENDING : 0) | VKSORT_FLAG_STABLE;
    cpu.bit_begin = c->bit_begin;
    cpu.bit_end = c->bit_end;
    cpu.count = eff;
    cpu.keys = expect_keys + key_off;
    cpu.values = c->cfg.payload ? expect_vals + GUARD : NULL;
    int ok = vksort_cpu_sort(&cpu) == VKSORT_SUCCESS;

    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){keys_buf.buffer, key_off, region * ks};
    if (c->cfg.payload)
        si.values = (vksort_vk_buffer_range){vals_buf.buffer, val_off, region * 4u};
    si.scratch = (vksort_vk_buffer_range){scratch_buf.buffer, 0, slot->reqs.scratch_size};
    if (c->indirect)
        si.count_buffer = (vksort_vk_buffer_range){count_buf.buffer, 12, 4};
    else
        si.count = c->n;
    si.flags = (c->desc ? VKSORT_FLAG_DESCENDING : 0) | (c->stable ? VKSORT_FLAG_STABLE : 0);
    si.bit_begin = c->bit_begin;
    si.bit_end = c->bit_end;

    VkCommandBuffer cmd = vk_rig_begin(rig);
    vksort_result r = VKSORT_SUCCESS;
    if (prepare) {
        r = vksort_vk_cmd_init_scratch(slot->sorter, cmd, &si.scratch);
        vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    if (r == VKSORT_SUCCESS)
        r = vksort_vk_cmd_sort(slot->sorter, cmd, &si);
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    ok = vk_rig_submit_wait(rig, cmd) == 0 && r == VKSORT_SUCCESS && ok;
    char what[320];
    sort_check_describe(c, what, sizeof what);
    if (r != VKSORT_SUCCESS)
        fprintf(stderr, "cmd_sort failed: %s: %s (%s)\n", vksort_result_string(r),
                vksort_vk_sorter_last_message(slot->sorter), what);
    const unsigned char *got_keys = keys_buf.mapped;
    const uint32_t *got_vals = c->cfg.payload ? vals_buf.mapped : NULL;
    if (ok) {
        size_t tail_from = GUARD + eff;
        if (memcmp(got_keys, init_keys, GUARD * ks) != 0 ||
            memcmp(got_keys + tail_from * ks, init_keys + tail_from * ks,
                   (total - tail_from) * ks) != 0 ||
            (c->cfg.payload && (memcmp(got_vals, init_vals, GUARD * 4u) != 0 ||
                                memcmp(got_vals + tail_from, init_vals + tail_from,
                                       (total - tail_from) * 4u) != 0))) {
            fprintf(stderr, "MISMATCH outside the sorted range (%s)\n", what);
            ok = 0;
        }
    }
    /* Identical bytes unless the bitonic network sorted without the stable flag (the radix
     * and RANK sorts are always stable). */
    const uint32_t planned = sort_check_planned_count(c);
    const int rank_path = slot->props.rank_capacity && planned <= slot->props.rank_capacity &&
                          planned >= slot->props.rank_min_count;
    const int exact = c->stable || c->cfg.algorithm != VKSORT_VK_ALGORITHM_BITONIC || rank_path;
    if (ok && !exact)
        ok = check_unstable(c, got_keys + key_off, got_vals ? got_vals + GUARD : NULL,
                            expect_keys + key_off, init_keys + key_off,
                            c->cfg.payload ? init_vals + GUARD : NULL, eff, what);
    if (ok && exact) {
        size_t dk = test_first_difference(got_keys + key_off, expect_keys + key_off, eff, ks);
        size_t dv = c->cfg.payload
                        ? test_first_difference(got_vals + GUARD, expect_vals + GUARD, eff, 4)
                        : (size_t)-1;
        if (dk != (size_t)-1 || dv != (size_t)-1) {
            fprintf(stderr, "MISMATCH (%s): first key diff %lld, first value diff %lld\n", what,
                    (long long)dk, (long long)dv);
            ok = 0;
        }
    }
    if (out_scratch)
        *out_scratch = scratch_buf.mapped;
    free(init_keys);
    free(init_vals);
    free(expect_keys);
    free(expect_vals);
    return ok;
}
