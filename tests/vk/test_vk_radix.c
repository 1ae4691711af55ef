/*
 * Vulkan radix sorts (Onesweep or portable) against the CPU backend, byte for byte (keys and
 * payloads: the radix sorts are stable), under the validation layer with synchronization
 * validation: key types x distributions x sizes (0 .. ~2M, tile boundaries, 2^k +- 1) x
 * ascending/descending x bit ranges x payload, indirect counts (0, tile boundaries, max, above
 * max), skipped constant digits, the automatic choice, timestamps and argument errors. Any
 * validation message fails the test.
 *
 *   test_vk_radix --algo onesweep|portable [--quick] [--large] [--lookback-fallback]
 *     --algo portable: reduce-then-scan on every device (VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN
 *       on every sorter); what PORTABLE runs on GPUs is --algo onesweep --lookback-fallback
 *     --large adds sizes up to 2^28 (for the GPU machine; needs about 6 GB of host-visible memory)
 *     --lookback-fallback: every sorter of make_case gets VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK
 *       (for the sorting tests - VKSORT_TEST_ONLY -, not those that check fused geometries)
 * Environment: see support/vk_rig.h.
 */
#include "radix_interface.h"
#include "vksort_shader_interface.h"
#include "support/sort_check.h"
#include "support/sort_errors.h"
#include "support/test_main.h"
#include "vksort/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vk_rig rig;
static int quick, large;
static vksort_vk_algorithm algo = VKSORT_VK_ALGORITHM_ONESWEEP;
static vksort_vk_create_flags base_flags; /* --lookback-fallback */
static sort_radix_override shape;         /* --radix-wg, --radix-items, --radix-groups, --radix-compact */

#define DEFAULT_MAX ((1u << 21) + 4096u)

static sort_case make_case(vksort_key_type type, int payload, uint32_t max)
{
    sort_case c;
    memset(&c, 0, sizeof c);
    c.cfg.type = type;
    c.cfg.payload = payload;
    c.cfg.max_count = max;
    c.cfg.algorithm = algo;
    c.cfg.flags = base_flags;
    /* The digit-pass tests look at the slots' state words, which the hybrid path (on GPUs from
     * 2^22 keys) maps otherwise: it is off for them, and on in test_sizes_huge and
     * test_hybrid_sorts. */
    c.cfg.hybrid = VKSORT_VK_RADIX_HYBRID_OFF;
    return c;
}

/* Every type x payload x distribution over sizes around the tile; direction and bit range
 * rotate so that each meets each. */
static void test_matrix_small(void)
{
    unsigned rot = 0;
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        for (int payload = 0; payload < 2; ++payload) {
            sort_case probe = make_case((vksort_key_type)t, payload, DEFAULT_MAX);
            sort_slot *slot = sort_check_sorter(&probe.cfg);
            CHECK(slot != NULL);
            if (!slot)
                continue;
            const uint32_t T = slot->props.radix_tile_size;
            const uint32_t sizes[] = {0, 1, 2, 3, 7, 100, 255, 257, T - 1, T, T + 1,
                                      2 * T + 1, 5 * T - 3, 4097, 65537};
            const size_t ns = quick ? 9 : sizeof sizes / sizeof sizes[0];
            for (int d = 0; d < DIST_COUNT; ++d) {
                for (size_t si = 0; si < ns; ++si, ++rot) {
                    sort_case c = probe;
                    c.dist = (test_dist)d;
                    c.n = sizes[si];
                    c.desc = (int)((rot >> 1) & 1u);
                    c.stable = (int)(rot & 1u); /* must not matter for a radix sort */
                    c.bit_end = sort_check_bit_range(c.cfg.type, rot / 2u + (unsigned)d,
                                                     &c.bit_begin);
                    c.seed = rot * 7919u + 1u;
                    CHECK(sort_check_run(&c, NULL));
                }
            }
        }
    }
}

/* Every direction x bit range x payload for two types at a multi-tile size. */
static void test_flags_cross(void)
{
    const vksort_key_type types[] = {VKSORT_KEY_F32, VKSORT_KEY_I64};
    unsigned rot = 0;
    for (size_t ti = 0; ti < 2; ++ti)
        for (int payload = 0; payload < 2; ++payload)
            for (int desc = 0; desc < 2; ++desc)
                for (unsigned b = 0; b < 5; ++b, ++rot) {
                    sort_case c = make_case(types[ti], payload, DEFAULT_MAX);
                    c.dist = rot % 3u == 0 ? DIST_FEW_UNIQUE
                                           : (rot % 3u == 1 ? DIST_SPECIALS : DIST_UNIFORM);
                    c.n = 20011;
                    c.desc = desc;
                    c.bit_end = sort_check_bit_range(c.cfg.type, b, &c.bit_begin);
                    c.seed = 1000 + rot;
                    CHECK(sort_check_run(&c, NULL));
                }
}

/* Powers of two +- 1 up to ~2M keys (many tiles, look-back chains, 2D-free dispatches). */
static void test_sizes_large(void)
{
    const uint32_t sizes[] = {(1u << 16) - 1, (1u << 17) + 1, 300007, (1u << 20) + 1,
                              (1u << 21) + 3};
    const test_dist dists[] = {DIST_UNIFORM, DIST_FEW_UNIQUE, DIST_SPECIALS, DIST_REVERSED,
                               DIST_LOW_BYTE, DIST_SORTED};
    unsigned rot = 0;
    const size_t ns = quick ? 3 : sizeof sizes / sizeof sizes[0];
    for (size_t si = 0; si < ns; ++si) {
        int per_size = sizes[si] > 400000 ? 2 : VKSORT_KEY_TYPE_COUNT;
        for (int t = 0; t < per_size; ++t, ++rot) {
            vksort_key_type type = per_size == 2 ? (t ? VKSORT_KEY_U64 : VKSORT_KEY_F32)
                                                 : (vksort_key_type)t;
            sort_case c = make_case(type, (int)(rot & 1u) | (per_size == 2), DEFAULT_MAX);
            c.dist = dists[rot % 6u];
            c.n = sizes[si];
            c.desc = (int)((rot >> 1) & 1u);
            c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
            c.seed = 5000 + rot;
            CHECK(sort_check_run(&c, NULL));
        }
    }
}

static sort_slot *checked_sorter(const sort_config *cfg);
/* PORTABLE, the radix sort that needs no forward progress: on a GPU it is Onesweep with the
 * look-back fallback - the sorter ONESWEEP + VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK gives,
 * every property equal but the algorithm reported (so the fallback suites' sorts are its sorts)
 * -, and reduce-then-scan with VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN; on a CPU device
 * (lavapipe) reduce-then-scan either way. This suite's own sorters all carry the flag (main),
 * so these are created here. */
static void test_portable_choice(void)
{
    const int cpu_device = rig.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const struct {
        vksort_vk_algorithm algorithm;
        vksort_vk_create_flags flags;
    } cfgs[3] = {
        {VKSORT_VK_ALGORITHM_PORTABLE, 0u},
        {VKSORT_VK_ALGORITHM_ONESWEEP, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK},
        {VKSORT_VK_ALGORITHM_PORTABLE, VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN},
    };
    vksort_vk_sorter_properties pr[3];
    for (int k = 0; k < 3; ++k) {
        vksort_vk_sorter_create_info ci;
        sort_check_create_info(&rig, &ci);
        ci.key_type = VKSORT_KEY_U32;
        ci.has_payload = VK_TRUE;
        ci.max_count = 1u << 22;
        ci.algorithm = cfgs[k].algorithm;
        ci.flags = cfgs[k].flags;
        vksort_vk_sorter *sorter = NULL;
        memset(&pr[k], 0, sizeof pr[k]);
        CHECK_EQ(vksort_vk_sorter_create(&ci, &sorter), VKSORT_SUCCESS);
        if (!sorter)
            return;
        vksort_vk_get_sorter_properties(sorter, &pr[k]);
        vksort_vk_sorter_destroy(sorter);
    }
    printf("     PORTABLE here: %s%s\n", cpu_device ? "reduce-then-scan" : "Onesweep",
           pr[0].radix_lookback_fallback_polls ? " with the look-back fallback" : "");
    CHECK_EQ(pr[0].algorithm, VKSORT_VK_ALGORITHM_PORTABLE);
    CHECK_EQ(pr[2].algorithm, VKSORT_VK_ALGORITHM_PORTABLE);
    CHECK_EQ(pr[2].radix_algorithm, VKSORT_VK_ALGORITHM_PORTABLE);
    CHECK_EQ(pr[2].radix_lookback_fallback_polls, 0);
    /* The one the device gets, equal to it in everything but the name. */
    vksort_vk_sorter_properties same = pr[cpu_device ? 2 : 1];
    same.algorithm = VKSORT_VK_ALGORITHM_PORTABLE;
    CHECK(memcmp(&same, &pr[0], sizeof same) == 0);
    CHECK_EQ(pr[0].radix_algorithm,
             cpu_device ? VKSORT_VK_ALGORITHM_PORTABLE : VKSORT_VK_ALGORITHM_ONESWEEP);
    CHECK(cpu_device ? pr[0].radix_lookback_fallback_polls == 0 : pr[0].radix_lookback_fallback_polls > 0);
}

/* The workgroups of an Onesweep digit pass over `tiles` tiles: one a tile, at most `most`
 * (radix_onesweep_workgroups; 0: no cap). */
static uint32_t onesweep_pass_groups(uint32_t tiles, uint32_t most)
{
    return most != 0u && most < tiles ? most : tiles;
}

static uint32_t stall_counter(const void *scratch, const sort_slot *slot);

/* The GPU machine: up to 2^28 keys, u32 pairs, u32 keys, f32 pairs, u64 keys. */
static void test_sizes_huge(void)
{
    const uint32_t sizes[] = {(1u << 24) + 7, 1u << 26, 1u << 28};
    const vksort_key_type types[] = {VKSORT_KEY_U32, VKSORT_KEY_F32, VKSORT_KEY_U64};
    for (size_t si = 0; si < 3; ++si)
        for (size_t ti = 0; ti < 3; ++ti) {
            if (types[ti] == VKSORT_KEY_U64 && sizes[si] > (1u << 26))
                continue; /* host memory of the reference */
            sort_case c = make_case(types[ti], ti != 2, sizes[si]);
            c.cfg.hybrid = VKSORT_VK_RADIX_HYBRID_AUTO; /* (the hybrid path on GPUs) */
            c.dist = ti == 1 ? DIST_SPECIALS : DIST_UNIFORM;
            c.n = sizes[si];
            c.desc = (int)(si & 1u);
            c.seed = 31 + si * 3 + ti;
            CHECK(sort_check_run(&c, NULL));
        }
    /* More tiles than RADIX_DISPATCH_SPLIT: 2^28 + 5 pairs in 640 x 12 tiles run as a 2D grid
     * of two rows (34953 tiles; the grid used to have 65536 workgroups). */
    sort_case c = make_case(VKSORT_KEY_U32, 1, (1u << 28) + 5u);
    c.cfg.radix_wg = 640;
    c.cfg.radix_items = 12;
    sort_slot *slot = checked_sorter(&c.cfg);
    if (!slot)
        return;
    c.n = (1u << 28) + 5u;
    c.dist = DIST_UNIFORM;
    c.seed = 41;
    const uint32_t tile = slot->props.radix_tile_size;
    const uint32_t tiles = (c.n + tile - 1u) / tile;
    CHECK(tiles > RADIX_DISPATCH_SPLIT);
    const void *scratch = NULL;
    CHECK(sort_check_run(&c, &scratch));
    if (!scratch)
        return;
    /* The plan's grid for the first scatter slot (Onesweep tiles, or at most
     * radix_onesweep_workgroups; portable blocks). */
    const uint32_t *state = scratch;
    const uint32_t x = state[RADIX_S_DISPATCH + 4u * RADIX_E_PASS];
    const uint32_t y = state[RADIX_S_DISPATCH + 4u * RADIX_E_PASS + 1u];
    const uint32_t most = slot->props.radix_onesweep_workgroups;
    const uint32_t groups = algo != VKSORT_VK_ALGORITHM_ONESWEEP ? state[RADIX_S_BLOCKS]
                                                                 : onesweep_pass_groups(tiles, most);
    printf("     %u pairs in tiles of %u: %u workgroups, grid %u x %u\n", c.n, tile, groups, x, y);
    CHECK(x <= RADIX_DISPATCH_SPLIT && (uint64_t)x * y >= groups && (uint64_t)x * y - groups < y);
}

/* The largest count a sorter sorts with its small or mid tiles or in the fused pass: counts
 * above it run the default tiles' scatter passes. */
static uint32_t largest_special_count(const vksort_vk_sorter_properties *pr)
{
    uint32_t above = pr->radix_fused_max_count;
    if (pr->radix_mid_max_count > above)
        above = pr->radix_mid_max_count;
    if (pr->radix_small_max_count > above)
        above = pr->radix_small_max_count;
    return above;
}

/* Digits the plan in a sort's scratch state found active. */
static uint32_t active_digits(const uint32_t *state, uint32_t digits)
{
    uint32_t active = 0;
    for (uint32_t p = 0; p < digits; ++p)
        active += state[RADIX_S_ACTIVE + p];
    return active;
}

/* radix_onesweep_workgroups: Onesweep digit passes with 1, 3 or 40 workgroups that loop over
 * up to 46 tiles (the plan's grid has exactly that many, or one per tile when there are fewer
 * tiles) sort the same bytes as the CPU backend: keys, pairs and u64 keys, stable, both
 * directions, bit ranges, partial tiles, indirect counts; so do 3 looping workgroups with the
 * no-forward-progress emulation (partition 0 stalls once per pass while the others wait on it).
 * Portable sorts report 0. */
static void test_onesweep_workgroups(void)
{
    const vksort_key_type types[] = {VKSORT_KEY_U32, VKSORT_KEY_F32, VKSORT_KEY_U64};
    const uint32_t wanted[] = {1, 3, 40};
    unsigned rot = 0;
    for (size_t ti = 0; ti < 3; ++ti) {
        /* The counts past the small, mid and fused ones (those take other tiles, or run every
         * digit in one dispatch). */
        sort_case probe = make_case(types[ti], ti == 1, 1u << 24);
        sort_slot *ps = checked_sorter(&probe.cfg);
        if (!ps)
            continue;
        const uint32_t tile = ps->props.radix_tile_size;
        const uint32_t above = largest_special_count(&ps->props);
        const uint32_t counts[] = {above + 2u * tile + 3u, above + 45u * tile + tile / 2u};
        printf("     %s%s: default tiles of %u from %u; counts %u, %u\n",
               vksort_key_type_name(types[ti]), ti == 1 ? " pairs" : "", tile, above + 1u,
               counts[0], counts[1]);
        for (size_t wi = 0; wi < 3; ++wi) {
            sort_case c = make_case(types[ti], ti == 1, above + 48u * tile);
            c.cfg.onesweep_groups = wanted[wi];
            sort_slot *slot = checked_sorter(&c.cfg);
            if (!slot)
                continue;
            const vksort_vk_sorter_properties *pr = &slot->props;
            CHECK_EQ(pr->radix_onesweep_workgroups,
                     algo == VKSORT_VK_ALGORITHM_ONESWEEP ? wanted[wi] : 0u);
            CHECK_EQ(pr->radix_tile_size, tile);
            CHECK(pr->radix_fused_max_count < counts[0] && pr->radix_mid_max_count < counts[0]);
            for (size_t k = 0; k < 2; ++k, ++rot) {
                c.n = counts[k];
                c.dist = (test_dist)(rot % DIST_COUNT);
                c.desc = (int)(rot & 1u);
                c.stable = 1;
                c.indirect = (int)((rot >> 1) & 1u);
                c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
                c.seed = 15000 + rot;
                const void *scratch = NULL;
                CHECK(sort_check_run(&c, &scratch));
                if (!scratch || algo != VKSORT_VK_ALGORITHM_ONESWEEP)
                    continue;
                /* Slot k sorts the k-th active digit, with min(tiles, wanted) workgroups
                 * (exactly: wanted stays below RADIX_DISPATCH_SPLIT, so the grid is one row);
                 * the slots past the active digits have none. */
                const uint32_t *state = scratch;
                const uint32_t tiles = (c.n + tile - 1u) / tile;
                uint32_t active = 0;
                for (uint32_t p = 0; p < RADIX_MAX_PASSES; ++p)
                    if (state[RADIX_S_ACTIVE + p])
                        CHECK_EQ(state[RADIX_S_SLOT_DIGIT + active++], p);
                for (uint32_t slot_k = 0; slot_k < RADIX_MAX_PASSES; ++slot_k) {
                    const uint32_t *grid = &state[RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + slot_k)];
                    CHECK_EQ(grid[0] * grid[1],
                             slot_k >= active ? 0u : onesweep_pass_groups(tiles, wanted[wi]));
                }
            }
        }
        /* Looping workgroups under the stall emulation: the stalled partition 0's wait runs out
         * in every pass (Onesweep), and the output is right. (With --lookback-fallback the
         * others finish without partition 0, and whether its wait runs out depends on how the
         * device runs the looping workgroups: only the output is checked.) */
        sort_case c = make_case(types[ti], ti == 1, above + 48u * tile);
        c.cfg.onesweep_groups = 3;
        c.cfg.flags = base_flags | VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        c.n = counts[1];
        c.dist = DIST_UNIFORM;
        c.seed = 15100 + ti;
        const void *scratch = NULL;
        CHECK(sort_check_run(&c, &scratch));
        if (scratch && algo == VKSORT_VK_ALGORITHM_ONESWEEP && !base_flags)
            CHECK_EQ(stall_counter(scratch, slot), (uint32_t)vksort_key_size(c.cfg.type));
    }
}

/* The split dispatch grid (VKSORT_GRID_ROWS x VKSORT_GRID_COLUMNS): covers every workgroup,
 * at most `split` columns, fewer surplus workgroups than rows, and no split up to `split`. */
static void test_dispatch_grid(void)
{
    const uint32_t splits[] = {VKSORT_DISPATCH_SPLIT, RADIX_DISPATCH_SPLIT};
    for (size_t k = 0; k < 2; ++k) {
        const uint32_t split = splits[k];
        int bad = 0;
        for (uint32_t g = 0; g <= 5u * split + 7u && !bad; ++g) {
            const uint64_t cols = VKSORT_GRID_COLUMNS(g, split), rows = VKSORT_GRID_ROWS(g, split);
            bad = rows < 1u || cols > split || cols * rows < g || cols * rows - g >= rows ||
                  (g <= split && (rows != 1u || cols != g));
            if (bad)
                printf("     split %u, %u workgroups: grid %llu x %llu\n", split, g,
                       (unsigned long long)cols, (unsigned long long)rows);
        }
        CHECK(!bad);
    }
    CHECK_EQ(VKSORT_GRID_COLUMNS(34953u, RADIX_DISPATCH_SPLIT), 17477u);
    CHECK_EQ(VKSORT_GRID_ROWS(34953u, RADIX_DISPATCH_SPLIT), 2u);
}

/* Indirect counts: clamped on the GPU; exactly the first min(count, max) elements sorted, the
 * rest of the buffers untouched. */
static void test_indirect(void)
{
    const struct { vksort_key_type type; int payload; uint32_t max; } cfg[] = {
        {VKSORT_KEY_U32, 1, 0}, {VKSORT_KEY_F64, 0, 0}, {VKSORT_KEY_I32, 1, 300007}};
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        sort_case probe = make_case(cfg[k].type, cfg[k].payload, DEFAULT_MAX);
        sort_slot *slot = sort_check_sorter(&probe.cfg);
        CHECK(slot != NULL);
        if (!slot)
            continue;
        const uint32_t T = slot->props.radix_tile_size;
        const uint32_t max = cfg[k].max ? cfg[k].max : 3 * T + 5;
        const uint32_t counts[] = {0, 1, 2, T - 1, T, T + 1, max - 1, max, max + 1,
                                   0xffffffffu, 2 * T + 7};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i, ++rot) {
            sort_case c = make_case(cfg[k].type, cfg[k].payload, max);
            c.dist = (test_dist)(rot % DIST_COUNT);
            c.n = counts[i];
            c.desc = (int)((rot >> 1) & 1u);
            c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
            c.indirect = 1;
            c.seed = 12000 + rot;
            CHECK(sort_check_run(&c, NULL));
        }
    }
}

/* A sort info with placeholder buffers (whole ranges), for the host-side queries
 * (vksort_vk_timestamp_query_count) that only plan; no values without a payload. */
static vksort_vk_sort_info stub_sort_info(int payload)
{
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys.buffer = si.values.buffer = si.scratch.buffer = (VkBuffer)(uintptr_t)1;
    si.keys.size = si.values.size = si.scratch.size = VK_WHOLE_SIZE;
    if (!payload)
        si.values.buffer = VK_NULL_HANDLE;
    return si;
}

/* VKSORT_VK_CREATE_PERSISTENT_SCRATCH: a host count needs no prepare pass (one timestamp fewer
 * than the same sort on a sorter without the flag; an indirect count keeps it), and each sort's
 * plan leaves the histogram counts and ticket zero for the next, so sorts one after another on
 * one scratch, prepared once, sort right: counts of every geometry, no digit active (constant
 * keys), partial bit ranges, and indirect sorts (with their prepare pass) in between. A count
 * left over from an earlier sort would shift digit starts, a ticket left over would skip the
 * plan: either fails the comparison. */
static void test_persistent_scratch(void)
{
    const struct { vksort_key_type type; int payload; } cfg[] = {
        {VKSORT_KEY_U32, 1}, {VKSORT_KEY_U32, 0}, {VKSORT_KEY_U64, 0}, {VKSORT_KEY_F32, 1}};
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        sort_case plain_probe = make_case(cfg[k].type, cfg[k].payload, DEFAULT_MAX);
        sort_case probe = plain_probe;
        probe.cfg.flags = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
        sort_slot *plain = sort_check_sorter(&plain_probe.cfg);
        sort_slot *slot = sort_check_sorter(&probe.cfg);
        CHECK(plain != NULL && slot != NULL);
        if (!plain || !slot)
            continue;
        CHECK(slot->props.persistent_scratch == VK_TRUE);
        vksort_vk_sort_info si = stub_sort_info(cfg[k].payload);
        si.count = 300007;
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si) + 1u,
                 vksort_vk_timestamp_query_count(plain->sorter, &si));
        si.count = 0;
        si.count_buffer = (vksort_vk_buffer_range){(VkBuffer)(uintptr_t)1, 0, 4};
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si),
                 vksort_vk_timestamp_query_count(plain->sorter, &si));

        const uint32_t T = slot->props.radix_tile_size;
        const uint32_t small = slot->props.radix_small_max_count;
        const uint32_t mid = slot->props.radix_mid_max_count;
        const uint32_t sizes[] = {300007, 2, 257, T + 1, 0, 65537, small ? small + 1 : 4097,
                                  mid ? mid + 1 : 70001, 1, 3 * T + 5, (1u << 20) + 1};
        const size_t ns = quick ? 8 : sizeof sizes / sizeof sizes[0];
        for (size_t i = 0; i < ns; ++i, ++rot) {
            sort_case c = probe;
            c.n = sizes[i] < DEFAULT_MAX ? sizes[i] : DEFAULT_MAX;
            /* constant keys (no active digit) every fourth sort, else rotating */
            c.dist = rot % 4u == 1u ? DIST_CONSTANT : (test_dist)(rot % DIST_COUNT);
            c.desc = (int)((rot >> 1) & 1u);
            c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
            c.indirect = rot % 3u == 2u;
            c.seed = 31000 + rot;
            CHECK(sort_check_run(&c, NULL));
        }
    }
}

/* A digit that is the same for every key costs no pass: after a sort of keys whose encoding
 * varies only in the low byte, the plan (scratch state) has one active pass, scatter slot 0
 * sorts digit 0, and the indirect dispatches of the other slots have zero workgroups. */
static void test_constant_digits_skipped(void)
{
    const vksort_key_type types[] = {VKSORT_KEY_U32, VKSORT_KEY_F64};
    for (size_t ti = 0; ti < 2; ++ti) {
        sort_case c = make_case(types[ti], 1, DEFAULT_MAX);
        c.dist = DIST_LOW_BYTE;
        c.n = 50000;
        c.seed = 4242;
        const void *scratch = NULL;
        CHECK(sort_check_run(&c, &scratch));
        if (!scratch)
            continue;
        const uint32_t *state = scratch; /* the radix state sits at the start of the scratch */
        uint32_t digits = vksort_key_size(c.cfg.type);
        uint32_t active = active_digits(state, digits);
        for (uint32_t k = 0; k < digits; ++k) {
            uint32_t groups = state[RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + k)];
            CHECK_EQ(groups == 0, k >= active);
        }
        CHECK_EQ(state[RADIX_S_ACTIVE + 0], 1);
        CHECK_EQ(active, 1);
        CHECK_EQ(state[RADIX_S_SLOT_DIGIT + 0], 0);
        /* One active pass: the result lands in the scratch half and is copied back. */
        CHECK(state[RADIX_S_DISPATCH + 4u * RADIX_E_COPY] > 0);

        /* Only bit 13 varies: digit 1 alone is active and scatter slot 0 sorts it. */
        c.dist = DIST_FLAG_BIT;
        CHECK(sort_check_run(&c, &scratch));
        state = scratch;
        CHECK_EQ(active_digits(state, digits), 1);
        CHECK_EQ(state[RADIX_S_ACTIVE + 1], 1);
        CHECK_EQ(state[RADIX_S_SLOT_DIGIT + 0], 1);
        for (uint32_t k = 0; k < digits; ++k)
            CHECK_EQ(state[RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + k)] == 0, k >= 1u);

        /* Constant keys: no pass at all, keys and payload unchanged. */
        c.dist = DIST_CONSTANT;
        CHECK(sort_check_run(&c, &scratch));
        state = scratch;
        CHECK_EQ(active_digits(state, digits), 0);
        CHECK_EQ(state[RADIX_S_DISPATCH + 4u * RADIX_E_COPY], 0);
    }

    /* Digits 0 and 2 active, digit 1 constant, past the small, mid and fused counts (so the
     * scatter passes are slots, not the fused pass): slot 1 - odd, its bindings swapped - sorts
     * digit 2, the slots past it map to no digit, and the sort matches the CPU's (pairs, both
     * directions). With a persistent scratch (a host count: the digit passes are recorded
     * direct, so slots 2 and 3 do get workgroups, which must leave at once) and without, and
     * with two persistent digit-pass workgroups (fewer than the tiles - three on lavapipe -, as
     * on a GPU). */
    sort_case probe = make_case(VKSORT_KEY_U32, 1, 1u << 24);
    sort_slot *ps = checked_sorter(&probe.cfg);
    if (!ps)
        return;
    sort_case c = make_case(VKSORT_KEY_U32, 1,
                            largest_special_count(&ps->props) + 2u * ps->props.radix_tile_size + 3u);
    c.n = c.cfg.max_count;
    c.dist = DIST_BYTES_0_2;
    for (int run = 0; run < 6; ++run) {
        const int desc = run & 1;
        c.cfg.flags = run >= 2 ? VKSORT_VK_CREATE_PERSISTENT_SCRATCH : 0u;
        c.cfg.onesweep_groups = run >= 4 ? 2u : 0u;
        c.desc = desc;
        c.seed = 4343 + (uint64_t)desc;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            return;
        const void *scratch = NULL;
        CHECK(sort_check_run(&c, &scratch));
        if (!scratch)
            return;
        const uint32_t *state = scratch;
        CHECK_EQ(state[RADIX_S_ACTIVE + 0], 1);
        CHECK_EQ(state[RADIX_S_ACTIVE + 1], 0);
        CHECK_EQ(state[RADIX_S_ACTIVE + 2], 1);
        CHECK_EQ(state[RADIX_S_ACTIVE + 3], 0);
        CHECK_EQ(state[RADIX_S_SLOT_DIGIT + 0], 0);
        CHECK_EQ(state[RADIX_S_SLOT_DIGIT + 1], 2);
        /* Slots 2 and 3 map to their dead tickets. Onesweep digit passes of a host count (a
         * persistent scratch) are recorded direct: each of their workgroups - one a tile, at
         * most the sorter's radix_onesweep_workgroups (264 on an H100) - took one there (and
         * left: the sort is right); indirect ones (and reduce-then-scan's) have none. */
        uint32_t tile, workgroup;
        sort_check_radix_geometry(&slot->props, sort_check_planned_count(&c), &tile, &workgroup);
        const uint32_t tiles = (c.n + tile - 1u) / tile;
        const uint32_t groups = onesweep_pass_groups(tiles, slot->props.radix_onesweep_workgroups);
        const int direct = run >= 2 && slot->props.radix_algorithm == VKSORT_VK_ALGORITHM_ONESWEEP;
        if (run >= 4 && direct) {
            CHECK_EQ(slot->props.radix_onesweep_workgroups, 2u);
            CHECK(groups < tiles); /* the cap in play: a count of tiles would fail the next check */
        }
        for (uint32_t k = 2; k < 4; ++k) {
            CHECK_EQ(state[RADIX_S_SLOT_DIGIT + k], RADIX_SLOT_NONE(k));
            CHECK_EQ(state[RADIX_S_TICKET + RADIX_SLOT_NONE(k)], RADIX_DEAD_TICKET + (direct ? groups : 0u));
        }
        for (uint32_t k = 0; k < 4; ++k)
            CHECK_EQ(state[RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + k)] == 0, k >= 2u);
        CHECK_EQ(state[RADIX_S_DISPATCH + 4u * RADIX_E_COPY], 0); /* two passes: back in A */
    }
}

/* The sorter of a configuration; a failed check (and NULL) when it cannot be created. */
static sort_slot *checked_sorter(const sort_config *cfg)
{
    sort_slot *slot = sort_check_sorter(cfg);
    CHECK(slot != NULL);
    return slot;
}

/* AUTO: bitonic for counts that fit a tile, the device's radix sort above; the choice is the
 * vendor's (NVIDIA: Onesweep, lavapipe: portable). Results identical either way. */
static void test_auto_choice(void)
{
    sort_case c = make_case(VKSORT_KEY_F32, 1, DEFAULT_MAX);
    c.cfg.algorithm = VKSORT_VK_ALGORITHM_AUTO;
    sort_slot *slot = checked_sorter(&c.cfg);
    if (!slot)
        return;
    /* NVIDIA: Onesweep; lavapipe (Mesa): portable. */
    vksort_vk_algorithm expect = rig.props.vendorID == 0x10DE ? VKSORT_VK_ALGORITHM_ONESWEEP
                                                              : VKSORT_VK_ALGORITHM_PORTABLE;
    CHECK_EQ(slot->props.radix_algorithm, expect);
    CHECK_EQ(slot->props.algorithm, expect);
    const uint32_t sizes[] = {100, slot->props.tile_size, slot->props.tile_size + 1, 200003};
    for (size_t i = 0; i < 4; ++i) {
        c.n = sizes[i];
        c.dist = DIST_SPECIALS;
        c.stable = 1; /* bitonic gives the CPU's bytes only with the stable flag */
        c.seed = 777 + i;
        CHECK(sort_check_run(&c, NULL));
    }
    /* Timestamp counts tell which sort was recorded: bitonic sorts a tile in one pass. */
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.count = 1000;
    si.keys.buffer = (VkBuffer)(uintptr_t)1; /* never recorded: counts only */
    si.values.buffer = (VkBuffer)(uintptr_t)1;
    si.scratch.buffer = (VkBuffer)(uintptr_t)1;
    si.keys.size = si.values.size = si.scratch.size = VK_WHOLE_SIZE;
    CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 2);
    si.count = 1000000;
    const int onesweep = expect == VKSORT_VK_ALGORITHM_ONESWEEP;
    /* Onesweep may run this count fused (prepare, histogram, one pass for the rest); portable
     * runs two passes a digit (an upsweep that scans, a downsweep), the first digit only its
     * downsweep (the histogram pass counted its blocks and planned their group starts). */
    const int fused = si.count <= slot->props.radix_fused_max_count;
    CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si),
             fused ? 4u : onesweep ? 2u + 4u + 1u + 1u : 2u + 4u * 2u - 1u + 1u + 1u);
}

/* The uint32 at a byte offset of a sort's scratch read-back (the debug counters). */
static uint32_t scratch_word(const void *scratch, VkDeviceSize offset)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)scratch + offset, sizeof v);
    return v;
}

static uint32_t stall_counter(const void *scratch, const sort_slot *slot)
{
    return scratch_word(scratch, vksort_vk_debug_stall_counter_offset(slot->sorter));
}

/* A sort of uniform keys under the no-forward-progress emulation. */
typedef struct emulation_case {
    vksort_key_type type;
    int payload;
    uint32_t n;
    uint32_t digits; /* digit passes that run: random keys over every bit */
} emulation_case;

/* Emulated GPU without forward progress (VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS): the
 * first workgroup of every digit pass waits until all others have finished. The portable sort
 * must finish with the CPU's bytes and no spin ever running out; Onesweep, whose later
 * partitions wait on the first one, only finishes because the emulation's spin is bounded:
 * once per digit pass (the deadlock a real GPU without forward progress would hit). */
static void test_no_forward_progress_emulation(void)
{
    /* On a GPU the portable sort's stalled block waits until the others finish (nothing waits
     * for it), so its wait never runs out. lavapipe gives each worker thread a fixed run of
     * workgroups, run one after another, so the blocks queued behind the stalled one on its
     * thread never start while it waits: there its wait runs out in every pass, as Onesweep's
     * does everywhere. The output must be right either way. (Before waits polled in bursts,
     * gallivm's loop limit cut these waits short on lavapipe - Onesweep's output was wrong and
     * the portable wait only seemed to succeed; docs/vulkan.md.) */
    const int lavapipe = strstr(rig.props.deviceName, "llvmpipe") != NULL;
    const emulation_case cases[] = {{VKSORT_KEY_U32, 1, 100003, 4}, {VKSORT_KEY_F64, 0, 40000, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sort_case c = make_case(cases[i].type, cases[i].payload, DEFAULT_MAX);
        c.cfg.flags = VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS;
        c.dist = DIST_UNIFORM;
        c.n = cases[i].n;
        c.desc = (int)i;
        c.seed = 4242 + i;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        CHECK(slot->props.radix_tile_size * 4u < c.n); /* several workgroups per pass */
        const void *scratch = NULL;
        CHECK(sort_check_run(&c, &scratch));
        uint32_t timeouts = scratch ? stall_counter(scratch, slot) : 0xffffffffu;
        printf("     %s n=%u: stalled workgroups gave up %u times\n",
               vksort_key_type_name(c.cfg.type), c.n, timeouts);
        if (algo == VKSORT_VK_ALGORITHM_PORTABLE && !lavapipe)
            CHECK_EQ(timeouts, 0);
        else
            CHECK_EQ(timeouts, cases[i].digits);

        /* The same sorter configuration without the flag: the counter stays 0. */
        c.cfg.flags = 0;
        sort_slot *plain = checked_sorter(&c.cfg);
        if (plain) {
            CHECK(sort_check_run(&c, &scratch));
            CHECK_EQ(stall_counter(scratch, plain), 0);
        }
    }
}

static uint32_t fallback_counter(const void *scratch, const sort_slot *slot)
{
    return scratch_word(scratch, vksort_vk_debug_fallback_counter_offset(slot->sorter));
}

/* VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK: Onesweep's sorters take it (portable ones ignore
 * it) and sort every count digit by digit, never fused; their sorts match the CPU's bytes. With
 * the no-forward-progress emulation too, partition 0 stalls until every other partition has
 * finished and the even partitions never publish their look-back words: the later partitions
 * finish only by counting those tiles themselves, and the output is still right. Every even
 * partition f below the last has its words read by partition f + 1, for every digit, and only
 * a fallback (a workgroup's count of one tile) can write them: at least digit passes x
 * (tiles / 2) fallbacks. On a GPU the stalled partition 0 then never gives up (the others
 * finish without it); on lavapipe, whose worker threads run
 * fixed runs of workgroups one after another, the workgroups queued behind it on its thread
 * cannot start, so there it gives up in each pass where some are queued (with one thread, in
 * every pass, as in test_no_forward_progress_emulation). */
static void test_lookback_fallback(void)
{
    const int lavapipe = strstr(rig.props.deviceName, "llvmpipe") != NULL;
    const emulation_case cases[] = {{VKSORT_KEY_U32, 1, 100003, 4}, {VKSORT_KEY_F32, 0, 300007, 4},
                 {VKSORT_KEY_U64, 1, 40000, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (quick && i == 1)
            continue;
        for (int emulate = 0; emulate < 2; ++emulate) {
            sort_case c = make_case(cases[i].type, cases[i].payload, DEFAULT_MAX);
            c.cfg.flags = VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK |
                          (emulate ? VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS : 0u);
            c.dist = DIST_UNIFORM;
            c.n = cases[i].n;
            c.desc = (int)(i & 1u);
            c.indirect = emulate && i == 0;
            c.seed = 4300 + 2u * (uint32_t)i + (uint32_t)emulate;
            sort_slot *slot = checked_sorter(&c.cfg);
            if (!slot)
                continue;
            const vksort_vk_sorter_properties *pr = &slot->props;
            if (algo != VKSORT_VK_ALGORITHM_ONESWEEP) {
                CHECK_EQ(pr->radix_lookback_fallback_polls, 0);
                CHECK(sort_check_run(&c, NULL));
                continue;
            }
            CHECK(pr->radix_lookback_fallback_polls > 0);
            CHECK_EQ(pr->radix_fused_max_count, 0);
            /* 32-lane devices: compact u32 pairs tiles of 17 items, not Onesweep's 19, at
             * which the fallback's pass takes more registers (radix.c). */
            if (pr->subgroup_size == 32u && pr->radix_workgroup_size == 384u &&
                cases[i].type == VKSORT_KEY_U32 && cases[i].payload)
                CHECK_EQ(pr->radix_tile_size, 384u * 17u);
            CHECK(!pr->radix_small_fused && !pr->radix_mid_fused);
            uint32_t tile, workgroup;
            sort_check_radix_geometry(pr, sort_check_planned_count(&c), &tile, &workgroup);
            const uint32_t tiles = (c.n + tile - 1u) / tile;
            CHECK(tiles >= 8u); /* several partitions per pass */
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (!scratch)
                continue;
            const uint32_t fallbacks = fallback_counter(scratch, slot);
            const uint32_t timeouts = stall_counter(scratch, slot);
            printf("     %s%s n=%u%s: %u tiles of %u, %u fallbacks, stalled workgroups gave up %u "
                   "times\n",
                   vksort_key_type_name(c.cfg.type), c.cfg.payload ? " pairs" : "", c.n,
                   emulate ? (c.indirect ? " (emulated stalls, indirect)" : " (emulated stalls)") : "",
                   tiles, tile, fallbacks, timeouts);
            if (!emulate)
                continue;
            CHECK(fallbacks >= cases[i].digits * (tiles / 2u));
            if (lavapipe)
                CHECK(timeouts <= cases[i].digits);
            else
                CHECK_EQ(timeouts, 0);
        }
    }
    /* The same case without the flag keeps the default pipelines: fused where they fuse, no
     * fallback steps. */
    sort_case plain = make_case(VKSORT_KEY_U32, 1, DEFAULT_MAX);
    plain.cfg.flags = 0;
    sort_slot *slot = checked_sorter(&plain.cfg);
    if (slot)
        CHECK_EQ(slot->props.radix_lookback_fallback_polls, 0);
}

static uint32_t skew_tile_counter(const void *scratch, const sort_slot *slot)
{
    return scratch_word(scratch, vksort_vk_debug_skew_tile_counter_offset(slot->sorter));
}

/* Onesweep's per-pass skew choice (radix_skew_ranking): on keys whose top two digit positions
 * each have one value in most keys (DIST_SKEWED_TOP: 15/16 and 5/8), the plan flags exactly
 * those positions (RADIX_S_SKEW), their digit passes rank every full tile skew-proof (the
 * counter: two passes x the full tiles) and the output matches the CPU's bytes - keys and pairs,
 * both directions, an indirect count, u32, f32 and u64 keys. Uniform keys flag no position; the
 * fused counts and sorters with VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING rank no tile skew-proof,
 * and sort the same keys right. Reduce-then-scan sorters and the look-back fallback's have no
 * such choice. */
static void test_skew_ranking(void)
{
    typedef struct {
        vksort_key_type type;
        int payload, desc, indirect;
    } skew_case;
    const skew_case cases[] = {{VKSORT_KEY_U32, 0, 0, 0},
                               {VKSORT_KEY_F32, 1, 1, 0},
                               {VKSORT_KEY_U32, 1, 0, 1},
                               {VKSORT_KEY_U64, 0, 1, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (quick && i == 3)
            continue;
        sort_case probe = make_case(cases[i].type, cases[i].payload, 1u << 24);
        sort_slot *ps = checked_sorter(&probe.cfg);
        if (!ps)
            continue;
        const vksort_vk_sorter_properties *pp = &ps->props;
        if (algo != VKSORT_VK_ALGORITHM_ONESWEEP || pp->radix_lookback_fallback_polls) {
            CHECK_EQ(pp->radix_skew_ranking, VK_FALSE);
            continue;
        }
        CHECK_EQ(pp->radix_skew_ranking, VK_TRUE);
        /* Past the small, mid and fused counts: digit passes, a short first tile. */
        const uint32_t n = largest_special_count(pp) + 5u * pp->radix_tile_size + 77u;
        sort_case c = make_case(cases[i].type, cases[i].payload, n);
        c.n = n;
        c.desc = cases[i].desc;
        c.indirect = cases[i].indirect;
        c.seed = 4400 + (uint64_t)i;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        uint32_t tile, workgroup;
        sort_check_radix_geometry(&slot->props, sort_check_planned_count(&c), &tile, &workgroup);
        const uint32_t tiles = (n + tile - 1u) / tile;
        const uint32_t digits = vksort_key_size(c.cfg.type);
        CHECK(n > slot->props.radix_fused_max_count);
        for (int d = 0; d < 2; ++d) {
            c.dist = d ? DIST_UNIFORM : DIST_SKEWED_TOP;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (!scratch)
                continue;
            const uint32_t *state = scratch;
            const uint32_t skewed_tiles = skew_tile_counter(scratch, slot);
            printf("     %s%s%s n=%u %s: %u tiles of %u, %u ranked skew-proof\n",
                   vksort_key_type_name(c.cfg.type), c.cfg.payload ? " pairs" : "",
                   c.desc ? " descending" : "", n, test_dist_name(c.dist), tiles, tile, skewed_tiles);
            CHECK_EQ(active_digits(state, digits), digits);
            CHECK_EQ(state[RADIX_S_SKEW], d ? 0u : 3u << (digits - 2u)); /* the top two */
            /* Every full tile of the two skewed passes (the short first one ranks as by
             * default). */
            CHECK_EQ(skewed_tiles, d ? 0u : 2u * (tiles - 1u));
        }
        /* Without the choice, and fused: the same keys, no tile ranked skew-proof. */
        sort_case off = c;
        off.dist = DIST_SKEWED_TOP;
        off.cfg.flags |= VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING;
        sort_slot *plain = checked_sorter(&off.cfg);
        if (plain) {
            CHECK_EQ(plain->props.radix_skew_ranking, VK_FALSE);
            const void *scratch = NULL;
            CHECK(sort_check_run(&off, &scratch));
            if (scratch)
                CHECK_EQ(skew_tile_counter(scratch, plain), 0);
        }
        if (pp->radix_fused_max_count >= 2u) {
            sort_case fused = make_case(cases[i].type, cases[i].payload, pp->radix_fused_max_count);
            fused.n = pp->radix_fused_max_count - 1u;
            fused.dist = DIST_SKEWED_TOP;
            fused.desc = c.desc;
            fused.seed = c.seed + 100u;
            sort_slot *fs = checked_sorter(&fused.cfg);
            const void *scratch = NULL;
            if (fs) {
                CHECK(sort_check_run(&fused, &scratch));
                if (scratch)
                    CHECK_EQ(skew_tile_counter(scratch, fs), 0);
            }
        }
    }
}

/* VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING: subgroupPartitionNV ranking where the device has
 * the extension (the rig enables it there), same bytes; ignored elsewhere. */
static void test_partitioned_ranking(void)
{
    sort_case c = make_case(VKSORT_KEY_U32, 1, DEFAULT_MAX);
    c.cfg.flags = VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING;
    sort_slot *slot = checked_sorter(&c.cfg);
    if (!slot)
        return;
    int has_ext = 0;
    for (uint32_t i = 0; i < rig.enabled_extension_count; ++i)
        has_ext |= strcmp(rig.enabled_extensions[i], VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME) == 0;
    CHECK_EQ(slot->props.radix_partitioned, has_ext ? VK_TRUE : VK_FALSE);
    printf("     partitioned ranking: %s\n", slot->props.radix_partitioned ? "yes" : "no (no extension)");
    const uint32_t sizes[] = {1000, 262147};
    for (size_t i = 0; i < 2; ++i) {
        c.n = sizes[i];
        c.dist = i ? DIST_UNIFORM : DIST_FEW_UNIQUE;
        c.desc = (int)i;
        c.seed = 31 + i;
        CHECK(sort_check_run(&c, NULL));
    }
    c.cfg.flags = 0;
    sort_slot *plain = checked_sorter(&c.cfg);
    if (plain)
        CHECK_EQ(plain->props.radix_partitioned, VK_FALSE);
}

/* VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL: the radix pipelines require one subgroup size - 32
 * when the device offers it, else its default - and the sort stays byte-identical. */
static void test_subgroup_size_pinning(void)
{
    sort_case c = make_case(VKSORT_KEY_I32, 1, DEFAULT_MAX);
    sort_slot *plain = checked_sorter(&c.cfg);
    if (plain)
        CHECK_EQ(plain->props.subgroup_size_pinned, VK_FALSE);
    if (!rig.subgroup_size_control) {
        printf("     device without subgroupSizeControl: pinning not tested here\n");
        return;
    }
    VkPhysicalDeviceSubgroupSizeControlProperties range = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &range;
    vkGetPhysicalDeviceProperties2(rig.physical_device, &p2);
    const uint32_t expect = range.minSubgroupSize <= 32 && 32 <= range.maxSubgroupSize
                                ? 32u
                                : rig.subgroup_size;
    c.cfg.flags = VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL;
    sort_slot *slot = checked_sorter(&c.cfg);
    if (!slot)
        return;
    CHECK_EQ(slot->props.subgroup_size_pinned, VK_TRUE);
    CHECK_EQ(slot->props.subgroup_size, expect);
    printf("     pinned subgroup size %u (device range %u..%u)\n", slot->props.subgroup_size,
           range.minSubgroupSize, range.maxSubgroupSize);
    const uint32_t sizes[] = {5, slot->props.radix_tile_size + 3, 300001};
    for (size_t i = 0; i < 3; ++i) {
        c.n = sizes[i];
        c.dist = (test_dist)(i % DIST_COUNT);
        c.desc = (int)(i & 1u);
        c.seed = 99 + i;
        CHECK(sort_check_run(&c, NULL));
    }
}

/* The key configurations the geometry tests run: u32 keys, u32 pairs, u64 keys. */
static const vksort_key_type geometry_types[3] = {VKSORT_KEY_U32, VKSORT_KEY_U32, VKSORT_KEY_U64};
static const int geometry_payloads[3] = {0, 1, 0};

/* Sorts c at each of the k counts, stable, rotating distribution, direction and bit range by
 * *rot (carried across calls); seeds seed_base + *rot. */
static void run_stable_counts(sort_case *c, const uint32_t *counts, size_t k, unsigned *rot,
                              uint64_t seed_base)
{
    for (size_t i = 0; i < k; ++i, ++*rot) {
        c->n = counts[i];
        c->dist = (test_dist)(*rot % DIST_COUNT);
        c->desc = (int)(*rot & 1u);
        c->stable = 1;
        c->bit_end = sort_check_bit_range(c->cfg.type, *rot / 2u, &c->bit_begin);
        c->seed = seed_base + *rot;
        CHECK(sort_check_run(c, NULL));
    }
}

/* radix_workgroup_size: wider workgroups (more subgroups than digits per invocation), also one
 * that is not a multiple of 128 (320), sort the same bytes where the device runs them (lavapipe
 * at 16 lanes runs 320 and 384: 20 and 24 subgroups' counters fit its 32 KiB; 512 there needs
 * all of it and falls back), else the default is kept. */
static void test_workgroup_sizes(void)
{
    const uint32_t sizes[] = {320, 384, 512, 1024};
    const vksort_key_type *types = geometry_types;
    const int *payloads = geometry_payloads;
    for (size_t w = 0; w < sizeof sizes / sizeof sizes[0]; ++w) {
        for (size_t ti = 0; ti < 3; ++ti) {
            sort_case c = make_case(types[ti], payloads[ti], DEFAULT_MAX);
            sort_slot *plain = checked_sorter(&c.cfg);
            if (!plain)
                continue;
            const uint32_t fallback = plain->props.radix_workgroup_size;
            c.cfg.radix_wg = sizes[w];
            sort_slot *slot = checked_sorter(&c.cfg);
            if (!slot)
                continue;
            const uint32_t got = slot->props.radix_workgroup_size;
            CHECK(got == sizes[w] || got == fallback);
            printf("     asked %u (%s%s): workgroup %u, tile %u\n", sizes[w],
                   vksort_key_type_name(types[ti]), payloads[ti] ? " pairs" : "", got,
                   slot->props.radix_tile_size);
            const uint32_t counts[] = {7, slot->props.radix_tile_size - 1u,
                                       3u * slot->props.radix_tile_size + 5u, 200003};
            for (size_t i = 0; i < 4; ++i) {
                c.n = counts[i];
                c.dist = (test_dist)((w + ti + i) % DIST_COUNT);
                c.desc = (int)(i & 1u);
                c.seed = 7000 + 16 * w + 4 * ti + i;
                CHECK(sort_check_run(&c, NULL));
            }
        }
    }
}

/* Ranking by shared atomicOr (radix_atomic_or): on with subgroups of at most 32 lanes where the
 * match words fit, which 64 invocations in at most 8 subgroups always do (at 4 lanes lavapipe's
 * 32 KiB hold the 16 subgroups' counters but not their match words: ballots). Keys, pairs and
 * u64 keys, stable, both directions, bit ranges and partial tiles sort the same bytes as the CPU
 * backend. */
static void test_atomic_or_ranking(void)
{
    unsigned rot = 0;
    for (size_t ti = 0; ti < 3; ++ti) {
        sort_case c = make_case(geometry_types[ti], geometry_payloads[ti], DEFAULT_MAX);
        c.cfg.radix_wg = 64;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        if (pr->radix_workgroup_size != 64u)
            continue; /* the device could not run 64 invocations: nothing to check */
        const int expect = pr->subgroup_size <= 32u && 64u / pr->subgroup_size <= 8u;
        CHECK_EQ(pr->radix_atomic_or ? 1 : 0, expect);
        if (ti == 0)
            printf("     64 invocations of %u lanes: %s ranking\n", pr->subgroup_size,
                   pr->radix_atomic_or ? "atomicOr" : "ballot");
        const uint32_t counts[] = {3, pr->radix_tile_size + 1u, 5u * pr->radix_tile_size - 7u, 100003};
        run_stable_counts(&c, counts, 4, &rot, 9100);
    }
}

/* Asks case c's sorter for tiles of 64 x 2 elements (small enough for many portable blocks at
 * modest counts); whether it exists with them (a failure is counted). */
static int tile128_sorter(sort_case *c)
{
    c->cfg.radix_wg = 64;
    c->cfg.radix_items = 2;
    sort_slot *slot = checked_sorter(&c->cfg);
    if (!slot)
        return 0;
    CHECK_EQ(slot->props.radix_tile_size, 128u);
    return slot->props.radix_tile_size == 128u;
}

/* Portable blocks that walk several tiles (more tiles than RADIX_MAX_BLOCKS): the downsweep of
 * 32-bit keys without payloads loads each tile's keys during the previous tile's scatter (its
 * prefetch). Tiles of 64 x 2 elements make a few hundred thousand keys walk two to six tiles
 * per block: u32 and f32 keys (prefetched), u32 and f32 pairs (from 4 x 1024 tiles on the
 * long-blocks downsweep, radix_long_blocks_min_count) and u64 keys (not), partial last tiles,
 * both directions, bit ranges, sort the same bytes as the CPU backend, and the plan in the
 * scratch walks more than one tile per block. Portable only (Onesweep has no blocks). */
static void test_tiles_per_block(void)
{
    if (algo != VKSORT_VK_ALGORITHM_PORTABLE)
        return;
    const vksort_key_type types[] = {VKSORT_KEY_U32, VKSORT_KEY_F32, VKSORT_KEY_U32,
                                     VKSORT_KEY_F32, VKSORT_KEY_U64};
    const int payloads[] = {0, 0, 1, 1, 0};
    unsigned rot = 0;
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti) {
        sort_case c = make_case(types[ti], payloads[ti], DEFAULT_MAX);
        if (!tile128_sorter(&c))
            continue;
        const uint32_t tile = 128u;
        /* Pairs with 32-bit keys have the long-blocks downsweep from 4 x 1024 tiles (below
         * DEFAULT_MAX), the others none. */
        const int long_blocks = payloads[ti] && vksort_key_size(types[ti]) == 4u;
        CHECK_EQ(checked_sorter(&c.cfg)->props.radix_long_blocks_min_count,
                 long_blocks ? 4u * RADIX_MAX_BLOCKS * tile : 0u);
        /* 3073 tiles (three a block, the first one four, the last tile partial), 1025 (one a
         * block, the first two), 2048 (two a block, the last tile one short), 5121 (five a
         * block, the first six: u32 pairs run every block's full tiles without bounds tests,
         * workgroup 0 on the last block, radix_downsweep.comp's long module), and 2048 again
         * through an indirect count (u32 pairs: the long module, chosen by max_count, with
         * blocks of two tiles, which take the bounds-tested copy). */
        const uint32_t counts[] = {3u * RADIX_MAX_BLOCKS * tile + 17u, (RADIX_MAX_BLOCKS + 1u) * tile,
                                   2u * RADIX_MAX_BLOCKS * tile - 1u, 5u * RADIX_MAX_BLOCKS * tile + 33u,
                                   2u * RADIX_MAX_BLOCKS * tile - 1u};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i, ++rot) {
            c.n = counts[i];
            c.indirect = i == 4;
            /* The long module's counts on random keys, so that every digit pass runs. */
            c.dist = i >= 3 ? DIST_UNIFORM : (test_dist)(rot % DIST_COUNT);
            c.desc = (int)(rot & 1u);
            c.stable = 1;
            c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
            c.seed = 9700 + rot;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (scratch) {
                /* Every tile in some block: the blocks are capped, so each walks tiles / blocks
                 * or one more (radix_block_tiles), here at least one block several. */
                const uint32_t *state = scratch;
                const uint32_t tiles = (c.n + tile - 1u) / tile;
                CHECK(state[RADIX_S_TILES] == tiles);
                CHECK(state[RADIX_S_BLOCKS] == RADIX_MAX_BLOCKS);
                CHECK(state[RADIX_S_TILES] > state[RADIX_S_BLOCKS]);
            }
        }
    }
}

/* The portable sort's mid geometry: where u32 keys default to 384 x 26 compact tiles (32-lane
 * devices: the H200), counts up to 2^23 take 384 x 22 compact tiles (radix_mid_*), and nowhere
 * else has the portable sort a mid geometry. Counts on both sides of the limit (the mid tiles,
 * the default tiles after a count one past it) and an indirect count (the geometry of max_count:
 * the default tiles) sort the same bytes as the CPU backend. */
static void test_portable_mid_tiles(void)
{
    if (algo != VKSORT_VK_ALGORITHM_PORTABLE)
        return;
    const uint32_t limit = 1u << 23;
    for (int payload = 0; payload < 2; ++payload) {
        sort_case c = make_case(VKSORT_KEY_U32, payload, limit + 4096u);
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        const int wide = !payload && pr->radix_workgroup_size == 384u && pr->radix_tile_size == 384u * 26u;
        printf("     u32%s: tile %u on %u; mid tile %u up to %u\n", payload ? " pairs" : "",
               pr->radix_tile_size, pr->radix_workgroup_size, pr->radix_mid_tile_size,
               pr->radix_mid_max_count);
        CHECK_EQ(pr->radix_mid_max_count, wide ? limit : 0u);
        if (!wide)
            continue;
        CHECK_EQ(pr->radix_mid_tile_size, 384u * 22u);
        CHECK_EQ(pr->radix_mid_workgroup_size, 384u);
        CHECK(!pr->radix_mid_fused);
        unsigned rot = 0;
        const uint32_t counts[] = {limit, limit + 1u};
        run_stable_counts(&c, counts, quick ? 1u : 2u, &rot, 9800);
        c.indirect = 1;
        c.n = 3u * pr->radix_tile_size + 5u;
        c.seed = 9810;
        CHECK(sort_check_run(&c, NULL));
    }
}

/* Portable upsweeps that add their block counts to the totals of groups of RADIX_SCAN_GROUP
 * blocks (each downsweep block adds the earlier groups' totals and its group's earlier rows to
 * the digit's start; slot 0 takes both from the histogram pass's table and its two sets of
 * table totals): one block, a group one short, one whole group,
 * one block past it, two groups and one past, three groups and one, with tiles of 64 x 2
 * elements (one tile a block). Slots 1.. count in the upsweep, slot 0 reads the histogram's
 * table, and a sorter with the no-forward-progress emulation (whose first block finishes last)
 * counts in every slot's upsweep. u32 pairs on a persistent scratch (host
 * counts: no prepare pass, so totals left over by one sort would break the next; one indirect
 * sort, with its prepare pass, in between; counts that grow, then shrink), u64 keys, both
 * directions, the CPU backend's bytes, and every slot's totals after every sort. */
static void test_scan_groups(void)
{
    if (algo != VKSORT_VK_ALGORITHM_PORTABLE)
        return;
    const struct {
        vksort_key_type type;
        int payload;
        vksort_vk_create_flags flags;
    } cfg[] = {{VKSORT_KEY_U32, 1, VKSORT_VK_CREATE_PERSISTENT_SCRATCH},
               {VKSORT_KEY_U64, 0, 0},
               {VKSORT_KEY_U32, 0, VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS}};
    const uint32_t blocks[] = {1, RADIX_SCAN_GROUP - 1u, RADIX_SCAN_GROUP, RADIX_SCAN_GROUP + 1u,
                               2u * RADIX_SCAN_GROUP, 2u * RADIX_SCAN_GROUP + 1u,
                               3u * RADIX_SCAN_GROUP + 1u,
                               /* then fewer groups again: totals another sort left behind */
                               2u, 2u * RADIX_SCAN_GROUP + 2u};
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        sort_case c = make_case(cfg[k].type, cfg[k].payload, DEFAULT_MAX);
        c.cfg.flags = cfg[k].flags;
        if (!tile128_sorter(&c))
            continue;
        const uint32_t tile = 128u;
        for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i, ++rot) {
            if (quick && i % 2 == 1)
                continue;
            c.n = blocks[i] * tile - (rot % 3u == 0u ? 0u : 5u); /* the last tile full or not */
            c.dist = i == 0 ? DIST_UNIFORM : (test_dist)(rot % DIST_COUNT);
            c.desc = (int)(rot & 1u);
            c.stable = 1;
            c.bit_end = sort_check_bit_range(c.cfg.type, rot % 3u == 1u ? 1u : 0u, &c.bit_begin);
            c.seed = 9900 + rot;
            c.indirect = i == 7; /* a prepare pass between host-sized sorts */
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (!scratch)
                continue;
            const uint32_t *state = scratch;
            CHECK_EQ(state[RADIX_S_BLOCKS], blocks[i]);
            /* Every recorded slot's scan-group totals (the groups in use) hold what its upsweep counted:
             * n in all where one ran, nothing where none did - the histogram pass zeroed them
             * at the sort's start, so the last sort's totals on this persistent scratch (or
             * another test's) are gone. Slot 0 with the histogram's table has no upsweep. */
            const int table = !(cfg[k].flags & VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS);
            const uint32_t positions = (uint32_t)vksort_key_size(c.cfg.type) * 8u / RADIX_BITS;
            const uint32_t hist_words =
                table ? RADIX_HIST_TABLE_GROUP_TOTALS(positions, 0u) : RADIX_HIST_TABLE_TOTALS;
            const uint32_t *hist =
                (const uint32_t *)((const char *)scratch + sort_check_sorter(&c.cfg)->reqs.scratch_size) -
                hist_words;
            const uint32_t groups = (blocks[i] + RADIX_SCAN_GROUP - 1u) / RADIX_SCAN_GROUP;
            const uint32_t bit_end = c.bit_end ? c.bit_end : positions * RADIX_BITS;
            const uint32_t slots = (bit_end - c.bit_begin + RADIX_BITS - 1u) / RADIX_BITS; /* recorded */
            for (uint32_t slot = 0; slot < slots; ++slot) {
                const uint32_t *entry = state + RADIX_S_DISPATCH + 4u * (RADIX_E_UPSWEEP + slot);
                const int ran = (slot > 0 || !table) && entry[0] * entry[1] != 0u;
                uint64_t sum = 0;
                for (uint32_t w = 0; w < groups * RADIX_DIGITS; ++w)
                    sum += hist[RADIX_HIST_SLOT_TOTALS(slot) + w];
                CHECK_EQ(sum, ran ? (uint64_t)c.n : 0u);
            }
            /* The histogram pass's table totals, in every group and position of the key type:
             * the set it filled (the plan flipped the set word since) holds every key once per
             * digit position of the range, the other set nothing - it zeroed that one's dirty
             * groups for the next sort - and the dirty counts say so. */
            const uint32_t filled = (hist[RADIX_HIST_TABLE_SET] & 1u) ^ 1u;
            for (uint32_t p = 0; table && p < positions; ++p) {
                uint64_t in_filled = 0, in_other = 0;
                for (uint32_t w = 0; w < RADIX_SCAN_GROUPS * RADIX_DIGITS; ++w) {
                    in_filled += hist[RADIX_HIST_TABLE_GROUP_TOTALS(p, filled) + w];
                    in_other += hist[RADIX_HIST_TABLE_GROUP_TOTALS(p, filled ^ 1u) + w];
                }
                CHECK_EQ(in_filled, p < slots ? (uint64_t)c.n : 0u);
                CHECK_EQ(in_other, 0u);
            }
            if (table) {
                CHECK_EQ(hist[RADIX_HIST_TABLE_DIRTY + filled], groups);
                CHECK_EQ(hist[RADIX_HIST_TABLE_DIRTY + (filled ^ 1u)], 0u);
            }
        }
    }
}

/* Scatter in two rounds (radix_scatter_rounds 2: the tile staged half at a time): on wherever
 * the whole tile does not fit shared memory, as 32 items of 64-bit keys on 128 invocations do
 * on any device with less than 48 KiB of it (a tile of 32 KiB or more: every device here).
 * u64 keys, u64 pairs and u32 pairs sort the same bytes as the CPU backend, partial tiles and
 * both halves included. */
static void test_scatter_rounds(void)
{
    const vksort_key_type types[] = {VKSORT_KEY_U64, VKSORT_KEY_U64, VKSORT_KEY_U32};
    const int payloads[] = {0, 1, 1};
    unsigned rot = 0;
    for (size_t ti = 0; ti < 3; ++ti) {
        /* Quick runs (4 and 16 lanes): u64 pairs only, both halves of keys and of payloads (at
         * 4 lanes on lavapipe the three sorters' 32-item pipelines took 99 s to compile). */
        if (quick && ti != 1)
            continue;
        sort_case c = make_case(types[ti], payloads[ti], DEFAULT_MAX);
        c.cfg.radix_items = 32;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        const uint64_t staged = (uint64_t)pr->radix_tile_size * vksort_key_size(types[ti]);
        CHECK(pr->radix_scatter_rounds == 1u || pr->radix_scatter_rounds == 2u);
        if (staged >= rig.props.limits.maxComputeSharedMemorySize)
            CHECK_EQ(pr->radix_scatter_rounds, 2u);
        printf("     %s%s: tile %u on %u invocations, %u scatter round(s)\n",
               vksort_key_type_name(types[ti]), payloads[ti] ? " pairs" : "", pr->radix_tile_size,
               pr->radix_workgroup_size, pr->radix_scatter_rounds);
        const uint32_t tile = pr->radix_tile_size;
        const uint32_t counts[] = {5, tile / 2u + 3u, tile + tile / 2u, 3u * tile - 1u, 70001};
        run_stable_counts(&c, counts, 5, &rot, 9300);
    }
}

/* VKSORT_VK_CREATE_RADIX_COMPACT_TILES: the default tiles in their compact form (two scatter
 * rounds, 16-bit counters) and, for Onesweep, the one-round geometry kept for counts up to 2^20
 * (radix_mid_*). Counts on both sides of the mid limit, host and indirect (an indirect count
 * takes the geometry of max_count), u32 keys and pairs and u64 keys, sort the same bytes as the
 * CPU backend. */
static void test_compact_tiles(void)
{
    const uint32_t max = (1u << 20) + 4096u;
    const vksort_key_type *types = geometry_types;
    const int *payloads = geometry_payloads;
    unsigned rot = 0;
    for (size_t ti = 0; ti < 3; ++ti) {
        sort_case c = make_case(types[ti], payloads[ti], max);
        c.cfg.flags |= VKSORT_VK_CREATE_RADIX_COMPACT_TILES;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        CHECK_EQ(pr->radix_scatter_rounds, 2u);
        if (algo == VKSORT_VK_ALGORITHM_ONESWEEP) {
            /* 32-bit keys always have a one-round geometry for the mid counts; u64 keys only
             * where their tile fits shared memory whole (not 512 x 17 on the H200's 48 KiB). */
            if (vksort_key_size(types[ti]) == 4u || pr->radix_mid_max_count != 0u) {
                CHECK_EQ(pr->radix_mid_max_count, 1u << 20);
                CHECK(pr->radix_mid_tile_size > 0u && pr->radix_mid_workgroup_size > 0u);
                CHECK(pr->radix_mid_fused); /* neither stall emulation nor partitioned ranking */
                CHECK(pr->radix_fused_max_count >= pr->radix_mid_max_count);
            }
        } else {
            CHECK_EQ(pr->radix_mid_max_count, 0u);
        }
        printf("     %s%s: compact tile %u on %u; mid tile %u on %u up to %u\n",
               vksort_key_type_name(types[ti]), payloads[ti] ? " pairs" : "", pr->radix_tile_size,
               pr->radix_workgroup_size, pr->radix_mid_tile_size, pr->radix_mid_workgroup_size,
               pr->radix_mid_max_count);
        /* Quick runs sort the counts around 2^20 for u32 keys only. */
        const uint32_t counts[] = {3, 70001, 1u << 20, (1u << 20) + 1u};
        run_stable_counts(&c, counts, quick && ti > 0 ? 2u : 4u, &rot, 9500);
        c.indirect = 1; /* max_count > 2^20: the compact geometry, whatever the count */
        c.n = 5000;
        c.seed = 9600 + ti;
        CHECK(sort_check_run(&c, NULL));
    }
    /* Odd item counts, whose two staging rounds cover more than the tile.
     * - 9 items (5 + 5): full tiles must still bound the second round (the H200's 512 x 17 u64
     *   tiles once wrote stale staged keys past the tile there). Checked to fail on lavapipe
     *   without the bound: the last full tiles' stray keys land past the sorted range, in the
     *   check's guard words.
     * - 320 x 27 (14 + 13), pairs descending: a workgroup that is not a multiple of 128 (320:
     *   two per NVIDIA SM leave each invocation 96 registers instead of 384's 80), the shape
     *   radix_workgroup_size admits for tuning the pairs tile (docs/perf-notes.md, forty-third
     *   session).
     * An indirect count keeps the compact geometry (a host count up to 2^20 takes the mid one). */
    const struct {
        uint32_t wg, items, n; /* wg 0: the sorter's */
        int desc_pairs;        /* pairs sort descending */
        uint64_t seed;
    } odd[] = {{0u, 9u, 150001u, 0, 9700u}, {320u, 27u, 3u * 320u * 27u + 4321u, 1, 9710u}};
    for (size_t k = 0; k < sizeof odd / sizeof odd[0]; ++k) {
        for (int payload = 0; payload < 2; ++payload) {
            sort_case c = make_case(VKSORT_KEY_U32, payload, max);
            c.cfg.flags |= VKSORT_VK_CREATE_RADIX_COMPACT_TILES;
            c.cfg.radix_wg = odd[k].wg;
            c.cfg.radix_items = odd[k].items;
            sort_slot *slot = checked_sorter(&c.cfg);
            const uint32_t wg = slot ? slot->props.radix_workgroup_size : 0u;
            if (!slot || slot->props.radix_tile_size != odd[k].items * wg ||
                (odd[k].wg && wg != odd[k].wg))
                continue; /* the device gave another geometry */
            CHECK_EQ(slot->props.radix_scatter_rounds, 2u);
            printf("     u32%s: compact tile %u on %u (%u items, two rounds of %u)\n",
                   payload ? " pairs" : "", slot->props.radix_tile_size,
                   slot->props.radix_workgroup_size, odd[k].items, (odd[k].items + 1u) / 2u);
            c.indirect = 1;
            c.n = odd[k].n;
            c.dist = DIST_UNIFORM;
            c.desc = payload && odd[k].desc_pairs;
            c.seed = odd[k].seed + (uint64_t)payload;
            CHECK(sort_check_run(&c, NULL));
        }
    }
}

/* Onesweep's small-count geometry: a default tile above 2048 elements (here 32 items per
 * invocation) gives the sorter a second tile pass of 2048-element tiles for counts up to 2^18
 * with payloads, 2^19 without (an indirect count: when max_count is). Counts on both sides of
 * every boundary, host and indirect, sort the same bytes as the CPU backend. */
static void test_small_tile_geometry(void)
{
    const uint32_t maxes[] = {600000, 50000};
    unsigned rot = 0;
    for (size_t m = 0; m < 2; ++m) {
        for (int payload = 0; payload < 2; ++payload) {
            sort_case c = make_case(VKSORT_KEY_U32, payload, maxes[m]);
            c.cfg.radix_items = 32;
            sort_slot *slot = checked_sorter(&c.cfg);
            if (!slot)
                continue;
            const vksort_vk_sorter_properties *pr = &slot->props;
            if (algo != VKSORT_VK_ALGORITHM_ONESWEEP || pr->radix_tile_size <= 2048u) {
                CHECK_EQ(pr->radix_small_tile_size, 0u);
                CHECK_EQ(pr->radix_small_max_count, 0u);
                continue;
            }
            CHECK_EQ(pr->radix_small_tile_size, 2048u);
            CHECK(pr->radix_small_fused); /* neither stall emulation nor partitioned ranking */
            CHECK(pr->radix_fused_max_count >= pr->radix_small_max_count);
            CHECK(pr->radix_small_workgroup_size <= 256u &&
                  pr->radix_small_workgroup_size <= pr->radix_workgroup_size);
            const uint32_t small_max = payload ? 1u << 18 : 1u << 19;
            CHECK_EQ(pr->radix_small_max_count, maxes[m] < small_max ? maxes[m] : small_max);
            if (m == 0 && payload == 0)
                printf("     tile %u on %u invocations; small counts: tile %u on %u, up to %u\n",
                       pr->radix_tile_size, pr->radix_workgroup_size, pr->radix_small_tile_size,
                       pr->radix_small_workgroup_size, pr->radix_small_max_count);
            const uint32_t counts[] = {2,       2047,          2049,    4097,          40000,
                                       1u << 18, (1u << 18) + 1u, 1u << 19, (1u << 19) + 1u, 600000};
            for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i, ++rot) {
                if (counts[i] > maxes[m] || (quick && i % 2))
                    continue;
                c.n = counts[i];
                c.dist = (test_dist)(rot % DIST_COUNT);
                c.desc = (int)(rot & 1u);
                c.stable = 1;
                c.bit_end = sort_check_bit_range(c.cfg.type, rot / 2u, &c.bit_begin);
                c.seed = 8100 + rot;
                CHECK(sort_check_run(&c, NULL));
            }
            /* Indirect: 300000 plans with the big tiles, 50000 with the small ones. */
            c.indirect = 1;
            c.n = 33333;
            c.bit_begin = c.bit_end = 0;
            CHECK(sort_check_run(&c, NULL));
            c.indirect = 0;
        }
    }
}

/* The histogram words at a radix sorter's scratch end (RADIX_HIST_ONESWEEP_WORDS of them, see
 * radix_interface.h) that the fused pass with its own histogram must leave zero for the next
 * sort on a persistent scratch, and how many of them are not: the counts, the chunk count and
 * ticket, the leave count and the passes' done counts. One left over makes the next sort count
 * no chunk, plan early or run a pass before the one it waits for. */
static uint32_t *fold_hist_words(const sort_slot *slot, const void *scratch)
{
    return (uint32_t *)((char *)(uintptr_t)scratch + slot->reqs.scratch_size) - RADIX_HIST_ONESWEEP_WORDS;
}

static uint32_t fold_words_left(const uint32_t *hist)
{
    uint32_t left = 0;
    for (uint32_t w = 0; w < RADIX_MAX_PASSES * RADIX_DIGITS; ++w)
        left += hist[w] != 0u;
    const uint32_t words[] = {RADIX_HIST_TICKET, RADIX_HIST_FOLD_TICKET, RADIX_HIST_FOLD_LEFT};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        left += hist[words[i]] != 0u;
    for (uint32_t p = 0; p < RADIX_MAX_PASSES; ++p)
        left += hist[RADIX_HIST_FOLD_DONE + p] != 0u;
    return left;
}

/* The small tiles' fused pass building its own histogram and plan (a host count on a persistent
 * scratch; 32-bit keys where the small tiles have 256 invocations, up to 32 of them): one
 * dispatch, so one pass in the timestamps (past that count, and for an indirect count, the
 * histogram pass comes first again). Sorts one after another on one scratch, prepared once, all
 * sort right: counts from 2 to the range's end and past it, constant keys (no active digit),
 * partial bit ranges, both directions, with sorts of other plans in between (indirect counts,
 * counts past the small range). After each, the histogram words at the scratch's end are zero
 * (fold_words_left). A scratch left broken on purpose (a chunk ticket past the tiles) costs one
 * wrong sort, not a hang, and the next sorts right. */
static void test_fused_histogram(void)
{
    const struct { vksort_key_type type; int payload; } cfg[] = {
        {VKSORT_KEY_U32, 1}, {VKSORT_KEY_U32, 0}, {VKSORT_KEY_U64, 0}, {VKSORT_KEY_F32, 1}};
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        sort_case c = make_case(cfg[k].type, cfg[k].payload, 600000);
        /* 256 x 16 tiles, so that the small ones (2048) have 256 invocations on any device. */
        c.cfg.radix_wg = 256;
        c.cfg.radix_items = 16;
        c.cfg.flags = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        const int folds = algo == VKSORT_VK_ALGORITHM_ONESWEEP && pr->radix_small_fused &&
                          pr->radix_small_workgroup_size == 256u && vksort_key_size(cfg[k].type) == 4u;
        const uint32_t small = pr->radix_small_max_count;
        const uint32_t most = folds ? (32u * pr->radix_small_tile_size < small ? 32u * pr->radix_small_tile_size : small) : 0u;
        CHECK_EQ(pr->radix_fused_histogram_max_count, most);
        if (!folds)
            continue;
        if (k == 0)
            printf("     small tiles %u on %u (up to %u), fused with the histogram up to %u\n",
                   pr->radix_small_tile_size, pr->radix_small_workgroup_size, small, most);
        vksort_vk_sort_info si = stub_sort_info(cfg[k].payload);
        si.count = 5000;
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 2u);
        si.count = most;
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 2u);
        si.count = most + 1u; /* the histogram pass, then the fused pass */
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 3u);
        si.count = 0; /* indirect: prepare and histogram passes first */
        si.count_buffer = (vksort_vk_buffer_range){(VkBuffer)(uintptr_t)1, 0, 4};
        CHECK(vksort_vk_timestamp_query_count(slot->sorter, &si) > 3u);

        const uint32_t sizes[] = {5000, 2, 3, 2048, 2049, most, 4097, most + 1u, 777, small + 1u, 20000};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i, ++rot) {
            if (quick && i % 3 == 2)
                continue;
            c.n = sizes[i];
            c.dist = rot % 4u == 1u ? DIST_CONSTANT : (test_dist)(rot % DIST_COUNT);
            c.desc = (int)((rot >> 1) & 1u);
            c.stable = 1;
            c.bit_end = sort_check_bit_range(c.cfg.type, rot, &c.bit_begin);
            c.indirect = rot % 5u == 3u;
            c.seed = 8200 + rot;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (!scratch)
                continue;
            /* What every radix sort leaves for the next. */
            CHECK_EQ(fold_words_left(fold_hist_words(slot, scratch)), 0u);
        }
        if (k != 0)
            continue;
        /* A broken promise (a chunk ticket left past the tiles: no workgroup counts, none
         * plans): the sort ends (its waits give up; its result is not checked), leaves the
         * words zero, and the next sort is right. */
        const void *scratch = NULL;
        c.n = 5000;
        c.indirect = 0;
        CHECK(sort_check_run(&c, &scratch));
        if (!scratch)
            continue;
        uint32_t *hist = fold_hist_words(slot, scratch);
        hist[RADIX_HIST_FOLD_TICKET] = 1000u;
        (void)sort_check_run(&c, NULL);
        CHECK_EQ(fold_words_left(hist), 0u);
        c.seed = 8299;
        CHECK(sort_check_run(&c, NULL));
    }
}

/* One stable sort of test_hybrid_sorts on `slot`'s sorter: the bytes against the CPU backend,
 * then the hybrid status word it left in the scratch (where the rig kept one). */
static void check_hybrid_sort(sort_case *c, const sort_slot *slot, uint32_t n, test_dist dist, int desc,
                              uint32_t seed, uint32_t expect)
{
    c->n = n;
    c->dist = dist;
    c->desc = desc;
    c->stable = 1;
    c->seed = seed;
    const void *scratch = NULL;
    CHECK(sort_check_run(c, &scratch));
    if (scratch)
        CHECK_EQ(scratch_word(scratch, vksort_vk_debug_hybrid_status_offset(slot->sorter)), expect);
}

/* The hybrid path (radix_hybrid; radix_interface.h's RADIX_FLAG_HYBRID): the top 16 bits by two
 * digit passes, then each chunk of top-16 values sorted by the low 16 bits in a workgroup. Each
 * case checks the bytes against the CPU backend (keys and payloads identical: stable) and what
 * the sort did, read back from the scratch (vksort_vk_debug_hybrid_status_offset): the local
 * path for uniform keys (both directions, u32, i32 and f32 keys, with and without payloads, with
 * and without a persistent scratch, the least count, chunks of 2048, 1024 and 512 top-16
 * values); the walk over duplicate keys (each about 8 times); the stable chunk sort where chunks'
 * keys share long digit groups (256 top-16 values; on a GPU also each key about 64 times,
 * below); digit by digit where the plan's estimate says a chunk would not fit (f32-depth-like
 * skew, five distinct keys) or the top digits are constant; a chunk crowded past the tile split
 * into parts that fit (two, in both directions, and four); the fallback's four digit passes
 * where one value of the top 16 bits has more keys than the tile while the estimate passes, and
 * a right local sort after it on the same persistent scratch; nothing of it for bit ranges,
 * indirect counts, counts below the least, radix_hybrid OFF, or AUTO on a CPU device. */
static void test_hybrid_sorts(void)
{
    const vksort_vk_create_flags persistent = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
    const int gpu = rig.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
    enum { EVERY_CASE, FIRST_CASES_ON_CPU };
    const struct {
        vksort_key_type type;
        int payload;
        vksort_vk_create_flags flags;
        vksort_vk_radix_hybrid hybrid;
        int where;
    } cfg[] = {{VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_HYBRID_ON, EVERY_CASE},
               {VKSORT_KEY_U32, 0, 0, VKSORT_VK_RADIX_HYBRID_ON, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_F32, 1, 0, VKSORT_VK_RADIX_HYBRID_ON, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_I32, 0, persistent, VKSORT_VK_RADIX_HYBRID_ON, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_HYBRID_OFF, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_HYBRID_AUTO, FIRST_CASES_ON_CPU}};
    enum { EITHER = -1 };
    const struct {
        uint32_t n;
        test_dist dist;
        int desc, half_range, indirect;
        int expect; /* RADIX_HYBRID_* where the sort records the hybrid path, or EITHER */
    } cases[] = {
        {70000, DIST_UNIFORM, 0, 0, 0, RADIX_HYBRID_LOCAL},
        {70000, DIST_CROWDED_CHUNK, 0, 0, 0, RADIX_HYBRID_LOCAL}, /* a chunk split in two */
        {70001, DIST_UNIFORM, 1, 0, 0, RADIX_HYBRID_LOCAL},
        {70000, DIST_SKEWED_TOP, 0, 0, 0, RADIX_HYBRID_DIGITS},
        {4096, DIST_UNIFORM, 1, 0, 0, RADIX_HYBRID_LOCAL},  /* the least count */
        {4095, DIST_UNIFORM, 0, 0, 0, RADIX_HYBRID_DIGITS},
        {150001, DIST_UNIFORM, 0, 0, 0, RADIX_HYBRID_LOCAL}, /* chunks of 512 values */
        {70000, DIST_CROWDED_CHUNK, 1, 0, 0, RADIX_HYBRID_LOCAL},
        {70000, DIST_FEW_UNIQUE, 1, 0, 0, RADIX_HYBRID_DIGITS},
        {70000, DIST_DIAGONAL_TOP, 0, 0, 0, RADIX_HYBRID_LOCAL_STABLE}, /* groups of ~136 keys */
        /* chunks of 512 top-16 values (log2 k = 9) whose two buckets differ only in bit 8 */
        {150001, DIST_PAIRED_TOP, 1, 0, 0, RADIX_HYBRID_LOCAL_STABLE},
        {70000, DIST_REPEATED_8, 1, 0, 0, RADIX_HYBRID_LOCAL}, /* duplicates the walk takes */
        {70000, DIST_FLAG_BIT, 0, 0, 0, RADIX_HYBRID_DIGITS}, /* top digits constant */
        {70000, DIST_HIGH_HALF, 1, 0, 0, RADIX_HYBRID_DIGITS}, /* low digits constant */
        {70000, DIST_LOW_BYTE, 0, 0, 0, RADIX_HYBRID_DIGITS},
        {70000, DIST_UNIFORM, 0, 1, 0, RADIX_HYBRID_DIGITS}, /* bits [0, 16) */
        {70000, DIST_UNIFORM, 1, 0, 1, RADIX_HYBRID_DIGITS}, /* indirect */
        {100000, DIST_SORTED, 0, 0, 0, RADIX_HYBRID_LOCAL},
        {100000, DIST_SPECIALS, 1, 0, 0, EITHER},
    };
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        const size_t case_count = !gpu && cfg[k].where == FIRST_CASES_ON_CPU ? 3u : sizeof cases / sizeof cases[0];
        sort_case c = make_case(cfg[k].type, cfg[k].payload, 1u << 18);
        c.cfg.flags |= cfg[k].flags;
        c.cfg.hybrid = cfg[k].hybrid;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        /* (AUTO takes counts from 2^22: none of these sorters', whose max_count is 2^18.) */
        const int on = algo == VKSORT_VK_ALGORITHM_ONESWEEP && !base_flags &&
                       cfg[k].hybrid == VKSORT_VK_RADIX_HYBRID_ON;
        CHECK_EQ(pr->radix_hybrid_max_count != 0u, on);
        if (cfg[k].hybrid == VKSORT_VK_RADIX_HYBRID_ON && on) {
            CHECK_EQ(pr->radix_hybrid_min_count, 4096u);
            CHECK_EQ(pr->radix_hybrid_max_count, 1u << 18);
            CHECK_EQ(pr->radix_hybrid_workgroup_size, 512u);
            CHECK_EQ(pr->radix_hybrid_tile_size, 2560u);
            CHECK_EQ(pr->radix_hybrid_large_tile_size, 0u); /* max_count <= 2^27 */
        }
        for (size_t i = 0; i < case_count; ++i) {
            if (quick && i % 2 == 1 && cfg[k].where == FIRST_CASES_ON_CPU)
                continue;
            c.n = cases[i].n;
            c.dist = cases[i].dist;
            c.desc = cases[i].desc;
            c.indirect = cases[i].indirect;
            c.stable = 1;
            c.bit_end = sort_check_bit_range(c.cfg.type, cases[i].half_range ? 1u : 0u, &c.bit_begin);
            c.seed = 9100 + 37u * (uint32_t)k + (uint32_t)i;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            const int whole = c.bit_end == 0u || (c.bit_begin == 0u && c.bit_end == 32u); /* 0: the default */
            const int recorded = on && !c.indirect && whole &&
                                 c.n >= pr->radix_hybrid_min_count && c.n <= pr->radix_hybrid_max_count;
            /* (The status word is the hybrid recording's: other sorts may leave it as it was, as
             * the fused small sorts do.) */
            if (!scratch || cases[i].expect == EITHER || !recorded)
                continue;
            const uint32_t want = (uint32_t)cases[i].expect;
            const uint32_t got = scratch_word(scratch, vksort_vk_debug_hybrid_status_offset(slot->sorter));
            if (got != want) {
                char d[200];
                sort_check_describe(&c, d, sizeof d);
                fprintf(stderr, "  hybrid status %u, expected %u: %s\n", got, want, d);
            }
            CHECK_EQ(got, want);
        }
    }
    /* The fallback: one value of the top 16 bits with more keys than the tile (no split of its
     * chunk fits), then a local sort on the same persistent scratch (the fallback's dispatch
     * sizes and tickets must not leak into it), then a chunk that fits only split in four. */
    if (algo == VKSORT_VK_ALGORITHM_ONESWEEP && !base_flags) {
        sort_case c = make_case(VKSORT_KEY_U32, 0, 1u << 22);
        c.cfg.flags |= persistent;
        c.cfg.hybrid = VKSORT_VK_RADIX_HYBRID_ON;
        sort_slot *slot = checked_sorter(&c.cfg);
        const struct {
            uint32_t n;
            test_dist dist;
            int desc;
            uint32_t expect;
        } seq[] = {{1u << 22, DIST_CROWDED_BUCKET, 1, RADIX_HYBRID_FALLBACK},
                   {(1u << 22) - 7u, DIST_UNIFORM, 0, RADIX_HYBRID_LOCAL},
                   {1u << 21, DIST_CROWDED_64, 0, RADIX_HYBRID_LOCAL}}; /* a chunk in four parts */
        for (size_t i = 0; slot && i < sizeof seq / sizeof seq[0]; ++i)
            check_hybrid_sort(&c, slot, seq[i].n, seq[i].dist, seq[i].desc, 9250 + (uint32_t)i, seq[i].expect);
    }
    /* AUTO on a 32-lane GPU, at the counts it takes: u32 pairs and keys, uniform (the local
     * path), f32-depth-like (digit by digit), each key about 8 times (the walk) and 64 times
     * (the stable chunk sort), the keys' largest count, both ends of the large chunk sort's
     * range and its stable sort; none for f32 keys. */
    if (!gpu || algo != VKSORT_VK_ALGORITHM_ONESWEEP || base_flags || rig.subgroup_size != 32u)
        return;
    const struct {
        int payload;
        uint32_t n;
        test_dist dist;
        int desc;
        uint32_t expect;
    } big[] = {{1, (1u << 22) + 3u, DIST_UNIFORM, 0, RADIX_HYBRID_LOCAL},
               {0, (1u << 24) + 5u, DIST_UNIFORM, 1, RADIX_HYBRID_LOCAL},
               {1, 1u << 24, DIST_SKEWED_TOP, 0, RADIX_HYBRID_DIGITS},
               {1, 1u << 24, DIST_REPEATED_8, 0, RADIX_HYBRID_LOCAL},
               {1, 1u << 24, DIST_REPEATED_64, 1, RADIX_HYBRID_LOCAL_STABLE},
               {0, 1u << 27, DIST_UNIFORM, 0, RADIX_HYBRID_LOCAL},
               {1, (1u << 27) + 1u, DIST_UNIFORM, 0, RADIX_HYBRID_LOCAL},
               /* the large tiles' stable sort (their module keeps ballots on NVIDIA too) */
               {1, (1u << 27) + 1u, DIST_REPEATED_64, 1, RADIX_HYBRID_LOCAL_STABLE},
               {1, 1u << 28, DIST_UNIFORM, 1, RADIX_HYBRID_LOCAL}};
    /* f32 keys (a renderer's depths): AUTO leaves them digit by digit, ON takes them. */
    for (int on = 0; on < 2; ++on) {
        sort_case f = make_case(VKSORT_KEY_F32, 1, 1u << 24);
        f.cfg.hybrid = on ? VKSORT_VK_RADIX_HYBRID_ON : VKSORT_VK_RADIX_HYBRID_AUTO;
        sort_slot *fs = checked_sorter(&f.cfg);
        if (fs)
            CHECK_EQ(fs->props.radix_hybrid_max_count, on ? 1u << 24 : 0u);
    }
    for (size_t i = 0; i < sizeof big / sizeof big[0]; ++i) {
        if (!large && big[i].n > (1u << 24) + 5u)
            continue;
        sort_case c = make_case(VKSORT_KEY_U32, big[i].payload, big[i].n);
        c.cfg.flags |= VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
        c.cfg.hybrid = VKSORT_VK_RADIX_HYBRID_AUTO;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        CHECK_EQ(slot->props.radix_hybrid_min_count, big[i].payload ? 1u << 22 : 1u << 24);
        CHECK_EQ(slot->props.radix_hybrid_max_count, big[i].payload ? big[i].n : big[i].n < (1u << 27) ? big[i].n : 1u << 27);
        CHECK_EQ(slot->props.radix_hybrid_large_tile_size, big[i].n > (1u << 27) ? 4608u : 0u);
        check_hybrid_sort(&c, slot, big[i].n, big[i].dist, big[i].desc, 9300 + (uint32_t)i, big[i].expect);
    }
}

/* Small fused sorts in buckets (radix_small_buckets, radix_onesweep_fused.comp): one pass over
 * the top active digit, then each bucket sorted by the lower active digits in a workgroup. Each
 * case checks the bytes against the CPU backend (stable: keys and payloads identical) and the
 * path the GPU's plan chose, read back from the scratch's state word RADIX_S_BUCKETS (1 + the
 * top digit, or 0 for digit-by-digit): buckets for uniform keys (full and partial bit ranges, a
 * constant digit between two active ones, five distinct keys, both directions, counts from
 * just past four small tiles, with and without a persistent scratch, the histogram in the fused
 * pass or before it, an indirect count; small buckets merge-sorted, larger ones digit by
 * digit, both in one sort), digit by digit where a bucket outgrows a tile (five
 * distinct keys over many tiles), where one digit or none is active, up to four tiles, and with
 * radix_buckets OFF (and AUTO on a CPU device, such as lavapipe: the sorter says no buckets). */
static void test_bucket_sorts(void)
{
    const vksort_vk_create_flags persistent = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
    /* Where: which runs create the sorter. Its pipelines compile at first use, and a cold
     * lavapipe compiles a bucket sorter's in 20-60 s (the whole test took 209 s at 8 lanes with
     * every sorter; CI's budget), so CPU devices sort in buckets only u32 pairs (the other key
     * types' bucket code is the same behind their order-key transforms, which every other test
     * covers), and check AUTO (off there) and OFF on the first cases only (the fused pipelines
     * that fold the histogram, which OFF then reuses). */
    enum { EVERY_RUN, FIRST_CASES_ON_CPU, GPU_ONLY };
    const struct {
        vksort_key_type type;
        int payload;
        vksort_vk_create_flags flags;
        vksort_vk_radix_buckets buckets;
        int where;
    } cfg[] = {{VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_BUCKETS_ON, EVERY_RUN},
               {VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_BUCKETS_AUTO, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_U32, 1, persistent, VKSORT_VK_RADIX_BUCKETS_OFF, FIRST_CASES_ON_CPU},
               {VKSORT_KEY_U64, 1, persistent, VKSORT_VK_RADIX_BUCKETS_ON, GPU_ONLY},
               {VKSORT_KEY_U32, 0, 0, VKSORT_VK_RADIX_BUCKETS_ON, GPU_ONLY},
               {VKSORT_KEY_F32, 1, 0, VKSORT_VK_RADIX_BUCKETS_ON, GPU_ONLY},
               {VKSORT_KEY_I32, 1, persistent, VKSORT_VK_RADIX_BUCKETS_ON, GPU_ONLY}};
    const int gpu = rig.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU;
    enum { FULL = 99 }; /* expected top digit: the key's highest */
    const struct {
        uint32_t n;
        test_dist dist;
        unsigned bits; /* sort_check_bit_range's rotation: 0 full, 1 [0,16), 2 [8,24) */
        int desc, indirect;
        int top;       /* expected top digit + 1 relative to bit_begin, FULL, or 0: digit by digit */
    } cases[] = {
        {12000, DIST_UNIFORM, 0, 0, 0, FULL},
        {12000, DIST_UNIFORM, 1, 1, 0, 2},
        {9000, DIST_UNIFORM, 2, 0, 0, 2},
        {9000, DIST_BYTES_0_2, 0, 1, 0, 3},
        {8500, DIST_FEW_UNIQUE, 0, 0, 0, FULL},
        {30000, DIST_FEW_UNIQUE, 0, 1, 0, 0}, /* buckets of ~6000 keys */
        {8192, DIST_UNIFORM, 0, 0, 0, 0},     /* 4 tiles: digit by digit (the host's rule) */
        {8193, DIST_UNIFORM, 0, 1, 0, FULL},
        {2, DIST_UNIFORM, 0, 0, 0, 0},
        {12000, DIST_CONSTANT, 0, 0, 0, 0},
        {12000, DIST_LOW_BYTE, 0, 0, 0, 0},
        {20000, DIST_REVERSED, 0, 1, 0, FULL},
        {40000, DIST_UNIFORM, 0, 1, 0, FULL},
        {100000, DIST_UNIFORM, 0, 0, 0, FULL}, /* past the fold: the histogram pass first */
        {20000, DIST_UNIFORM, 0, 0, 1, FULL},
        {1u << 17, DIST_SPECIALS, 0, 0, 0, -1}, /* either: checked for the bytes only */
        /* One bucket of ~1300 keys (sorted digit by digit in its workgroup: past the merge's
         * items), the others of ~34 (merged): both bucket paths in one sort. */
        {10000, DIST_TOP_HEAVY, 0, 1, 0, FULL},
        /* Buckets of ~590 keys: 3 items an invocation (2^17 on the H200): 32-bit keys sorted
         * digit by digit (the merge takes at most 2 of theirs), 64-bit keys merged with a
         * partial last run (512 + 256). */
        {150000, DIST_UNIFORM, 0, 1, 0, FULL},
    };
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        if (!gpu && cfg[k].where == GPU_ONLY)
            continue;
        const size_t case_count = !gpu && cfg[k].where == FIRST_CASES_ON_CPU ? 4u : sizeof cases / sizeof cases[0];
        sort_case c = make_case(cfg[k].type, cfg[k].payload, 1u << 18);
        c.cfg.flags = cfg[k].flags;
        c.cfg.buckets = cfg[k].buckets;
        /* 256 x 16 tiles, so that small ones (2048) exist on any device. */
        c.cfg.radix_wg = 256;
        c.cfg.radix_items = 16;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        const int asked = cfg[k].buckets == VKSORT_VK_RADIX_BUCKETS_ON ||
                          (cfg[k].buckets == VKSORT_VK_RADIX_BUCKETS_AUTO && gpu);
        const int on = algo == VKSORT_VK_ALGORITHM_ONESWEEP && pr->radix_small_fused && asked;
        CHECK_EQ(pr->radix_small_buckets, on ? VK_TRUE : VK_FALSE);
        if (algo != VKSORT_VK_ALGORITHM_ONESWEEP || !pr->radix_small_fused)
            continue;
        const int full_top = (int)vksort_key_size(cfg[k].type); /* a digit per byte: 1 + the highest */
        /* Whether the small sorts of a host count fold the histogram into the fused pass,
         * where every workgroup plans the bucket sorts itself (radix_onesweep_fused.comp). */
        const int folds = (cfg[k].flags & persistent) && pr->radix_fused_histogram_max_count > 0u;
        for (size_t i = 0; i < case_count; ++i) {
            if (cases[i].n > pr->radix_small_max_count || (quick && i % 2 == 1))
                continue;
            c.n = cases[i].n;
            c.dist = cases[i].dist;
            c.desc = cases[i].desc;
            c.indirect = cases[i].indirect;
            c.stable = 1;
            c.bit_end = sort_check_bit_range(c.cfg.type, cases[i].bits, &c.bit_begin);
            c.seed = 8400 + 31u * (uint32_t)k + (uint32_t)i;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (scratch && folds && c.n <= pr->radix_fused_histogram_max_count && !c.indirect)
                CHECK_EQ(fold_words_left(fold_hist_words(slot, scratch)), 0u);
            if (!scratch || cases[i].top < 0)
                continue;
            int want = cases[i].top == FULL ? full_top : cases[i].top;
            if (!on)
                want = 0;
            const uint32_t *state = (const uint32_t *)scratch; /* the state words start the scratch */
            if (state[RADIX_S_BUCKETS] != (uint32_t)want) {
                char d[160];
                sort_check_describe(&c, d, sizeof d);
                fprintf(stderr, "  bucket plan %u, expected %d: %s\n", state[RADIX_S_BUCKETS], want, d);
            }
            CHECK_EQ(state[RADIX_S_BUCKETS], (uint32_t)want);
        }
        if (!folds || !on || k != 0)
            continue;
        /* A broken promise on the bucket path (a chunk ticket left past the tiles: no chunk
         * is counted, so no workgroup may plan): the sort ends (the waits for the count give
         * up; its result is not checked), leaves the words zero, and the next sort is right. */
        const void *scratch = NULL;
        c.n = 9000;
        c.dist = DIST_UNIFORM;
        c.desc = 0;
        c.indirect = 0;
        c.bit_end = sort_check_bit_range(c.cfg.type, 0, &c.bit_begin);
        CHECK(sort_check_run(&c, &scratch));
        if (!scratch)
            continue;
        uint32_t *hist = fold_hist_words(slot, scratch);
        CHECK_EQ(fold_words_left(hist), 0u);
        hist[RADIX_HIST_FOLD_TICKET] = 1000u;
        (void)sort_check_run(&c, NULL);
        CHECK_EQ(fold_words_left(hist), 0u);
        c.seed = 8499;
        CHECK(sort_check_run(&c, NULL));
        /* A chunk count left at 1: the workgroup whose chunks bring it to the tiles plans on
         * partial counts, the later ones never see it equal the tiles and give up holding
         * tasks that others' look-backs wait for (bounded there: FUSED_SPIN_LIMIT). The sort
         * ends, leaves the words zero, and the next is right. */
        hist[RADIX_HIST_TICKET] = 1u;
        (void)sort_check_run(&c, NULL);
        CHECK_EQ(fold_words_left(hist), 0u);
        c.seed = 8498;
        CHECK(sort_check_run(&c, NULL));
    }
}

/* The fused small-count pass at its largest count with every digit: the most tasks a dispatch
 * has (256 tiles x 8 digits for u64 keys). On lavapipe, which runs one workgroup after another with
 * LP_NUM_THREADS=1, this failed while the first workgroup took every task: gallivm stops all of
 * an invocation's loops once they have run 65535 iterations together (docs/vulkan.md). */
static void test_fused_longest(void)
{
    const struct {
        vksort_key_type type;
        int payload;
        uint32_t n, bit_end, small_max;
    } cases[] = {
        {VKSORT_KEY_U32, 0, 1u << 19, 32, 1u << 19},        /* four digits */
        {VKSORT_KEY_U32, 1, (1u << 18) - 1u, 24, 1u << 18}, /* three digits and the copy back */
        {VKSORT_KEY_U64, 1, 1u << 18, 64, 1u << 18},        /* eight digits */
        {VKSORT_KEY_U64, 0, 1u << 19, 64, 1u << 19},        /* eight digits, no payload */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sort_case c = make_case(cases[i].type, cases[i].payload, cases[i].small_max);
        c.cfg.radix_items = 32;
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        if (!slot->props.radix_small_fused) {
            CHECK(algo != VKSORT_VK_ALGORITHM_ONESWEEP || slot->props.radix_tile_size <= 2048u);
            continue;
        }
        CHECK_EQ(slot->props.radix_small_max_count, cases[i].small_max);
        c.n = cases[i].n;
        c.dist = DIST_UNIFORM;
        c.bit_begin = 0;
        c.bit_end = cases[i].bit_end;
        c.seed = 8300 + i;
        CHECK(sort_check_run(&c, NULL));
    }
}

/* The fused range of the mid and default tiles (32-lane devices): its largest count and one
 * just below sort right in one fused dispatch, the next count up right with a dispatch per
 * digit. Elsewhere the fused range is exactly the small and mid geometries'. */
static void test_fused_default(void)
{
    const struct {
        vksort_key_type type;
        int payload;
        uint32_t max_count; /* above the fused range */
    } cases[] = {{VKSORT_KEY_U32, 0, 1u << 24}, {VKSORT_KEY_U32, 1, 1u << 23}, {VKSORT_KEY_U64, 0, 1u << 23}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sort_case c = make_case(cases[i].type, cases[i].payload, cases[i].max_count);
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        uint32_t geometries_max = pr->radix_small_fused ? pr->radix_small_max_count : 0u;
        if (pr->radix_mid_fused && pr->radix_mid_max_count > geometries_max)
            geometries_max = pr->radix_mid_max_count;
        CHECK(pr->radix_fused_max_count < cases[i].max_count); /* larger counts are never fused */
        if (algo != VKSORT_VK_ALGORITHM_ONESWEEP || rig.subgroup_size != 32u) {
            CHECK_EQ(pr->radix_fused_max_count, geometries_max);
            continue;
        }
        /* The mid, band or default tiles fuse too, up to about two waves of them. */
        CHECK(pr->radix_fused_max_count > pr->radix_small_max_count);
        const uint32_t top = pr->radix_fused_max_count;
        vksort_vk_sort_info si;
        memset(&si, 0, sizeof si);
        si.keys.buffer = si.values.buffer = si.scratch.buffer = (VkBuffer)(uintptr_t)1;
        si.keys.size = si.values.size = si.scratch.size = VK_WHOLE_SIZE;
        si.count = top;
        CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 4u);
        si.count = top + 1u;
        CHECK(vksort_vk_timestamp_query_count(slot->sorter, &si) > 4u);
        if (cases[i].type == VKSORT_KEY_U32 && cases[i].payload) {
            /* u32 pairs: 256 x 16 mid tiles up to 2^22, fused up to 640 of them; 384 x 19
             * compact tiles above. */
            CHECK_EQ(pr->radix_mid_workgroup_size, 256u);
            CHECK_EQ(pr->radix_mid_tile_size, 4096u);
            CHECK_EQ(pr->radix_mid_max_count, 1u << 22);
            CHECK_EQ(pr->radix_workgroup_size, 384u);
            CHECK_EQ(pr->radix_tile_size, 384u * 19u);
            CHECK_EQ(pr->radix_scatter_rounds, 2u);
            CHECK_EQ(top, 640u * 4096u);
        } else if (cases[i].type == VKSORT_KEY_U32 && pr->radix_scatter_rounds == 2u) {
            /* u32 keys: fused to 2^22 (the 384 x 22 band), the 384 x 26 tiles never. */
            CHECK_EQ(top, 1u << 22);
            CHECK_EQ(top, pr->radix_wave_max_count);
        }
        /* The largest fused count, one below it and the first count after it. */
        const uint32_t counts[] = {top, top - 12345u, top + 1u};
        for (size_t k = 0; k < 3; ++k) {
            c.n = counts[k];
            c.dist = DIST_UNIFORM;
            c.stable = cases[i].payload;
            c.seed = 8400 + 3 * i + k;
            CHECK(sort_check_run(&c, NULL));
        }
    }
}

/* The wave bands (Onesweep on 32-lane devices): counts in (radix_wave_min_count,
 * radix_wave_max_count] run the wave geometry's tiles fused. u32-sized pairs (where the driver
 * gives the SM count): 512 x 17 from 5/8 of one wave of them to one wave, inside the mid range.
 * u32 keys: 384 x 22 compact from the mid range's end to 2^22 (the default being 384 x 26). The
 * edges and one count past each sort right, with the tiles the plan counted showing which
 * geometry ran (the state's tile count: n over that geometry's tile). Elsewhere, and for u64
 * keys, no band. */
static void test_wave_band(void)
{
    const struct {
        vksort_key_type type;
        int payload;
    } cases[] = {{VKSORT_KEY_U32, 1}, {VKSORT_KEY_F32, 1}, {VKSORT_KEY_U32, 0}, {VKSORT_KEY_U64, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        sort_case c = make_case(cases[i].type, cases[i].payload, 1u << 23);
        sort_slot *slot = checked_sorter(&c.cfg);
        if (!slot)
            continue;
        const vksort_vk_sorter_properties *pr = &slot->props;
        const uint32_t lo = pr->radix_wave_min_count, hi = pr->radix_wave_max_count;
        const int lanes32 = algo == VKSORT_VK_ALGORITHM_ONESWEEP && rig.subgroup_size == 32u &&
                            pr->radix_mid_max_count != 0u && vksort_key_size(cases[i].type) == 4u;
        const int pairs_band = lanes32 && cases[i].payload;
        const int keys_band = lanes32 && !cases[i].payload && pr->radix_scatter_rounds == 2u;
        printf("     %s%s: wave band (%u, %u]\n", vksort_key_type_name(cases[i].type),
               cases[i].payload ? " pairs" : "", lo, hi);
        if (keys_band) {
            /* Always there (no SM count needed). */
            CHECK_EQ(lo, pr->radix_mid_max_count);
            CHECK_EQ(hi, 1u << 22);
            CHECK_EQ(pr->radix_wave_workgroup_size, 384u);
            CHECK_EQ(pr->radix_wave_tile_size, 384u * 22u);
        } else if (!pairs_band || hi == 0u) {
            /* Pairs only where the driver reports SMs: NVIDIA. */
            CHECK_EQ(lo, 0u);
            CHECK_EQ(hi, 0u);
            CHECK_EQ(pr->radix_wave_tile_size, 0u);
            if (pairs_band && strstr(rig.props.deviceName, "NVIDIA"))
                CHECK(hi != 0u); /* VK_NV_shader_sm_builtins is there */
            continue;
        } else {
            CHECK_EQ(pr->radix_wave_tile_size, 512u * 17u);
            CHECK_EQ(pr->radix_wave_workgroup_size, 512u);
            CHECK_EQ(hi % pr->radix_wave_tile_size, 0u); /* one tile per SM */
            CHECK_EQ(lo, hi / 8u * 5u);                  /* from 5/8 of the wave */
            CHECK(lo >= pr->radix_small_max_count && hi <= pr->radix_mid_max_count);
        }
        CHECK(hi <= pr->radix_fused_max_count); /* the fused counts stay one range */
        const uint32_t tile = pr->radix_wave_tile_size;
        /* Past the band: the mid tiles (pairs) or the default ones (keys). */
        const uint32_t other_tile = pairs_band ? pr->radix_mid_tile_size : pr->radix_tile_size;
        const uint32_t counts[] = {lo, lo + 1u, hi - 777u, hi, hi + 1u};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
            c.n = counts[k];
            c.dist = (test_dist)(k % DIST_COUNT);
            c.desc = (int)(k & 1u);
            c.stable = 1;
            c.seed = 8600 + 5 * (uint32_t)i + (uint32_t)k;
            const void *scratch = NULL;
            CHECK(sort_check_run(&c, &scratch));
            if (!scratch)
                continue;
            const uint32_t *state = scratch;
            const int in_band = c.n > lo && c.n <= hi;
            /* At lo itself: the mid tiles in both kinds. */
            const uint32_t t = in_band ? tile : c.n <= lo ? pr->radix_mid_tile_size : other_tile;
            CHECK_EQ(state[RADIX_S_TILES], (c.n + t - 1u) / t);
        }
    }
}

static void test_timestamps_and_errors(void)
{
    sort_case probe = make_case(VKSORT_KEY_U64, 1, 5000);
    sort_slot *slot = sort_check_sorter(&probe.cfg);
    CHECK(slot != NULL);
    if (!slot)
        return;
    vksort_vk_sorter *s = slot->sorter;
    CHECK_EQ(slot->props.algorithm, algo);
    CHECK(slot->reqs.scratch_size >= 5000u * 12u);

    vk_rig_buffer keys, vals, scratch;
    const VkBufferUsageFlags u = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    CHECK(vk_rig_buffer_create(&rig, 5000 * 8, u, 1, &keys) == 0);
    CHECK(vk_rig_buffer_create(&rig, 5000 * 4, u, 1, &vals) == 0);
    CHECK(vk_rig_buffer_create(&rig, slot->reqs.scratch_size, u | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                               0, &scratch) == 0);
    uint64_t *k = keys.mapped;
    uint32_t *v = vals.mapped;
    for (uint32_t i = 0; i < 5000; ++i) {
        k[i] = (uint64_t)(i * 2654435761u) << 20 | (i & 7u);
        v[i] = i;
    }
    vksort_vk_sort_info good = sort_check_u64_pairs_info(keys.buffer, vals.buffer, scratch.buffer,
                                                         5000, slot->reqs.scratch_size);

    /* Every argument error is refused (shared with the bitonic test; nothing recorded). */
    vk_rig_buffer count_buf;
    CHECK(vk_rig_buffer_create(&rig, 256, u, 1, &count_buf) == 0);
    VkCommandBuffer cmd = vk_rig_begin(&rig);
    CHECK_EQ(sort_check_argument_errors(s, cmd, &good, slot->reqs.scratch_size, count_buf.buffer,
                                        rig.props.limits.minStorageBufferOffsetAlignment),
             0);
    vksort_vk_sort_info si;

    /* A real sort with timestamps: one per pass plus one (prepare, histogram + plan, the digit
     * passes, copy); 64-bit keys: 8 digits. Onesweep's fused small-count pass: prepare,
     * histogram + plan, everything else. Portable: an upsweep (which scans the block counts
     * too) and a downsweep per digit, but the histogram pass counts the first digit's blocks
     * and its plan their group starts: slot 0 has only its downsweep. */
    const int onesweep = algo == VKSORT_VK_ALGORITHM_ONESWEEP;
    const uint32_t per_digit = onesweep ? 1u : 2u;
    const int fused = good.count <= slot->props.radix_fused_max_count;
    const uint32_t expect = fused ? 2u + 1u + 1u : 2u + 8u * per_digit - (onesweep ? 0u : 1u) + 1u + 1u;
    const uint32_t queries = vksort_vk_timestamp_query_count(s, &good);
    CHECK_EQ(queries, expect);
    /* Read back what the sort writes: a pool with more queries than that would wait forever. */
    const uint32_t pool_queries = queries >= 2u && queries <= 64u ? queries : expect;
    VkQueryPool pool = VK_NULL_HANDLE;
    VkQueryPoolCreateInfo qpci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = pool_queries;
    CHECK(vkCreateQueryPool(rig.device, &qpci, NULL, &pool) == VK_SUCCESS);
    si = good;
    si.query_pool = pool;
    CHECK_EQ(vksort_vk_cmd_sort(s, cmd, &si), VKSORT_SUCCESS);
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    uint64_t ts[64];
    CHECK(vkGetQueryPoolResults(rig.device, pool, 0, pool_queries, sizeof ts, ts, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
    vksort_vk_pass_time passes[64];
    uint32_t np = 64;
    double total = -1;
    CHECK_EQ(vksort_vk_timestamps_to_ms(s, &si, ts, pool_queries, passes, &np, &total), VKSORT_SUCCESS);
    CHECK_EQ(np, pool_queries - 1);
    CHECK(total >= 0);
    CHECK(strcmp(passes[0].kind, "radix_prepare") == 0);
    CHECK(strcmp(passes[1].kind, "histogram") == 0);
    if (fused) {
        CHECK(strcmp(passes[np - 1].kind, "onesweep_fused") == 0);
    } else {
        CHECK(strcmp(passes[np - 1].kind, "copy") == 0);
        CHECK(strstr(passes[2].name, "pass 0") != NULL);
        CHECK(strcmp(passes[2].kind, onesweep ? "onesweep" : "downsweep") == 0);
        if (!onesweep)
            CHECK(strcmp(passes[3].kind, "upsweep") == 0 && strcmp(passes[4].kind, "downsweep") == 0 &&
                  strstr(passes[4].name, "pass 1") != NULL);
    }
    int sorted = 1;
    for (uint32_t i = 1; i < 5000; ++i)
        if (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] > v[i]))
            sorted = 0;
    CHECK(sorted);
    vkDestroyQueryPool(rig.device, pool, NULL);
    vk_rig_buffer_destroy(&rig, &keys);
    vk_rig_buffer_destroy(&rig, &vals);
    vk_rig_buffer_destroy(&rig, &scratch);
    vk_rig_buffer_destroy(&rig, &count_buf);

    /* Radix limits at creation. */
    vksort_vk_sorter_create_info ci;
    sort_check_create_info(&rig, &ci);
    ci.algorithm = algo;
    ci.max_count = 1u << 30;
    vksort_vk_sorter *bad = NULL;
    vksort_vk_diagnostics diag;
    ci.diagnostics = &diag;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_UNSUPPORTED);
    CHECK(bad == NULL);
    CHECK(strstr(diag.message, "2^30") != NULL);

    /* The items knob: out of range is an argument error; any value in range sorts the same. */
    ci.max_count = 5000;
    ci.radix_items_per_invocation = 33;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK(strstr(diag.message, "radix_items_per_invocation") != NULL);
    ci.radix_items_per_invocation = 0;
    ci.radix_workgroup_size = 300;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK(strstr(diag.message, "radix_workgroup_size") != NULL);
    ci.radix_workgroup_size = 0;
    /* AUTO too (it used to fall back to the bitonic sort for every count instead), and the
     * bitonic tile cap's range. */
    ci.algorithm = VKSORT_VK_ALGORITHM_AUTO;
    ci.radix_items_per_invocation = 1000;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL && strstr(diag.message, "radix_items_per_invocation") != NULL);
    ci.radix_items_per_invocation = 0;
    ci.radix_workgroup_size = 100;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL && strstr(diag.message, "radix_workgroup_size") != NULL);
    ci.radix_workgroup_size = 0;
    ci.max_tile_size = 16384;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL && strstr(diag.message, "max_tile_size") != NULL);
    ci.max_tile_size = 0;
    ci.algorithm = algo;
    ci.radix_items_per_invocation = 5;
    CHECK_EQ(vksort_vk_sorter_create(&ci, &bad), VKSORT_SUCCESS);
    if (bad) {
        vksort_vk_sorter_properties props;
        vksort_vk_get_sorter_properties(bad, &props);
        CHECK_EQ(props.radix_tile_size, props.radix_workgroup_size * 5u);
        vksort_vk_sorter_destroy(bad);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a hang (the GPU machine's timeout) */
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--list-devices") == 0)
            return vk_rig_list_devices() >= 0 ? 0 : 1;
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--large") == 0)
            large = 1;
        else if (strcmp(argv[i], "--lookback-fallback") == 0)
            base_flags = VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK;
        else if (strcmp(argv[i], "--radix-wg") == 0 && i + 1 < argc)
            shape.workgroup = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--radix-items") == 0 && i + 1 < argc)
            shape.items = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--radix-groups") == 0 && i + 1 < argc)
            shape.onesweep_groups = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--radix-compact") == 0)
            shape.flags |= VKSORT_VK_CREATE_RADIX_COMPACT_TILES;
        else if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc) {
            ++i;
            if (strcmp(argv[i], "onesweep") == 0)
                algo = VKSORT_VK_ALGORITHM_ONESWEEP;
            else if (strcmp(argv[i], "portable") == 0)
                algo = VKSORT_VK_ALGORITHM_PORTABLE;
            else {
                fprintf(stderr, "unknown --algo %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: test_vk_radix --algo onesweep|portable [--quick] [--large] "
                            "[--lookback-fallback] [--radix-wg N [--radix-items N] "
                            "[--radix-groups N] [--radix-compact]]\n");
            return 2;
        }
    }
    if (!shape.workgroup && (shape.items || shape.onesweep_groups || shape.flags)) {
        fprintf(stderr, "test_vk_radix: --radix-items, --radix-groups and --radix-compact need "
                        "--radix-wg\n");
        return 2;
    }
    double t0 = vk_rig_now_ms();
    vk_rig_options opt = {1, -1, 0};
    if (vk_rig_create(&rig, &opt) != 0) {
        fprintf(stderr, "FAIL: no Vulkan test device\n");
        return 1;
    }
    CHECK(vk_rig_check_subgroup(&rig) == 0);
    sort_check_init(&rig);
    /* The portable suites test reduce-then-scan on every device: PORTABLE's Onesweep with the
     * look-back fallback (GPUs) is the Onesweep suites' with --lookback-fallback
     * (test_portable_choice). */
    if (algo == VKSORT_VK_ALGORITHM_PORTABLE)
        sort_check_add_create_flags(VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN);
    /* A tuning candidate's shape for every sorter that leaves its shape to the sorter; the
     * tests that assert a default geometry then fail by design, so run it with VKSORT_TEST_ONLY
     * (e.g. test_matrix_small,test_flags_cross,test_indirect,test_sizes_large). */
    if (shape.workgroup) {
        sort_check_override_radix(&shape);
        printf("radix shape asked: workgroup %u, items %u, persistent workgroups %u%s\n",
               shape.workgroup, shape.items, shape.onesweep_groups,
               shape.flags ? ", compact tiles" : "");
    }
    printf("algorithm %s\n", vksort_vk_algorithm_name(algo));
    /* VKSORT_TEST_ONLY=name[,name...]: run only the tests whose names contain one of them. */
#define TIMED(fn)                                                   \
    do {                                                            \
        if (!test_selected(#fn))                                    \
            break;                                                  \
        double s_ = vk_rig_now_ms();                                \
        RUN(fn);                                                    \
        printf("     (%.1f s)\n", (vk_rig_now_ms() - s_) / 1000.0); \
    } while (0)
    TIMED(test_dispatch_grid);
    TIMED(test_timestamps_and_errors);
    TIMED(test_constant_digits_skipped);
    TIMED(test_matrix_small);
    TIMED(test_flags_cross);
    TIMED(test_indirect);
    TIMED(test_persistent_scratch);
    TIMED(test_auto_choice);
    TIMED(test_portable_choice);
    TIMED(test_subgroup_size_pinning);
    TIMED(test_partitioned_ranking);
    TIMED(test_skew_ranking);
    TIMED(test_workgroup_sizes);
    TIMED(test_atomic_or_ranking);
    TIMED(test_scatter_rounds);
    TIMED(test_tiles_per_block);
    TIMED(test_portable_mid_tiles);
    TIMED(test_compact_tiles);
    TIMED(test_small_tile_geometry);
    TIMED(test_fused_longest);
    TIMED(test_fused_histogram);
    TIMED(test_bucket_sorts);
    TIMED(test_hybrid_sorts);
    TIMED(test_fused_default);
    TIMED(test_wave_band);
    TIMED(test_onesweep_workgroups);
    TIMED(test_no_forward_progress_emulation);
    TIMED(test_lookback_fallback);
    TIMED(test_scan_groups);
    TIMED(test_sizes_large);
    if (large)
        TIMED(test_sizes_huge);
    sort_check_shutdown();
    printf("validation messages: %d\n", rig.messages);
    CHECK_EQ(rig.messages, 0);
    vk_rig_destroy(&rig);
    printf("total %.1f s\n", (vk_rig_now_ms() - t0) / 1000.0);
    return test_summary();
}
