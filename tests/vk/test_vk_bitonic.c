/*
 * Vulkan bitonic sort against the CPU backend (vksort_cpu_sort), under the validation layer with
 * synchronization validation: key types x distributions x sizes (1 .. ~2M, tile boundaries,
 * 2^k +- 1) x ascending/descending x bit ranges x payload x stable flag, indirect counts
 * (0, 1, tile boundaries, max, above max), every elements-per-invocation setting, argument
 * errors, timestamps and debug labels. Any validation warning or error fails the test.
 *
 *   test_vk_bitonic [--list-devices] [--quick]
 * Environment: see support/vk_rig.h (VKSORT_TEST_DEVICE, VKSORT_TEST_EXPECT_SUBGROUP, ...);
 * VKSORT_TEST_ONLY=name[,name...] runs a subset, VKSORT_TEST_VERBOSE=1 prints sorter creation
 * times, VKSORT_TEST_CASE_TIMES=1 the time of every case. Every sorter is created with
 * VKSORT_VK_ALGORITHM_BITONIC.
 */
#include "support/sort_check.h"
#include "support/sort_errors.h"
#include "support/test_data.h"
#include "support/test_main.h"
#include "support/vk_rig.h"
#include "vksort/cpu.h"
#include "vksort/vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vk_rig rig;
static int quick;

/* ---- buffers shared by every case (grown on demand) ---- */
static vk_rig_buffer keys_buf, vals_buf, scratch_buf, count_buf;

static int ensure_buffer(vk_rig_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage)
{
    if (b->buffer && b->size >= size)
        return 0;
    vk_rig_buffer_destroy(&rig, b);
    VkDeviceSize grown = size + size / 4 + 4096;
    return vk_rig_buffer_create(&rig, grown, usage, 1, b);
}

static const VkBufferUsageFlags storage_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
    VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/* ---- sorters (support/sort_check.c caches them) ---- */
typedef sort_slot sorter_slot;

/* Small sort of the sorters the tests create: the network tests pin NETWORK (AUTO would take
 * RANK on a discrete GPU); test_rank_sort switches to RANK and AUTO. */
static vksort_vk_small_sort small_sort_mode = VKSORT_VK_SMALL_SORT_NETWORK;
/* RANK workgroup size and create flags of the sorters (test_rank_sort varies them). */
static uint32_t rank_wg_mode;
static vksort_vk_create_flags flags_mode;

static sort_config bitonic_config(vksort_key_type type, int payload, uint32_t max_count,
                                  uint32_t tile_cap, uint32_t elements)
{
    sort_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.type = type;
    cfg.payload = payload;
    cfg.max_count = max_count;
    cfg.tile_cap = tile_cap;
    cfg.algorithm = VKSORT_VK_ALGORITHM_BITONIC; /* AUTO would hand large counts to a radix sort */
    cfg.elements = elements;
    cfg.small_sort = small_sort_mode;
    cfg.rank_wg = rank_wg_mode;
    cfg.flags = flags_mode;
    return cfg;
}

static sorter_slot *get_sorter_e(vksort_key_type type, int payload, uint32_t max_count,
                                 uint32_t tile_cap, uint32_t elements)
{
    sort_config cfg = bitonic_config(type, payload, max_count, tile_cap, elements);
    sorter_slot *s = sort_check_sorter(&cfg);
    CHECK(s != NULL);
    return s;
}

static sorter_slot *get_sorter(vksort_key_type type, int payload, uint32_t max_count,
                               uint32_t tile_cap)
{
    return get_sorter_e(type, payload, max_count, tile_cap, 0);
}

/* ---- one case ---- */
/* A zeroed case for a sorter of the current modes (bitonic, small_sort_mode, rank_wg_mode,
 * flags_mode); the caller fills the type, payload, max count (and tile cap, elements) and the
 * case itself. */
static sort_case bitonic_sort_case(void)
{
    sort_case c;
    memset(&c, 0, sizeof c);
    c.cfg = bitonic_config(VKSORT_KEY_U32, 0, 0, 0, 0);
    return c;
}

/* One case through support/sort_check.c; VKSORT_TEST_CASE_TIMES=1 prints its time. */
static int run_case(const sort_case *c)
{
    double t0 = vk_rig_now_ms();
    int ok = sort_check_run(c, NULL);
    if (getenv("VKSORT_TEST_CASE_TIMES")) {
        char what[320];
        sort_check_describe(c, what, sizeof what);
        printf("%8.1f ms %s\n", vk_rig_now_ms() - t0, what);
    }
    return ok;
}

/* ---- the matrix ---- */
#define bit_range_choice sort_check_bit_range

#define DEFAULT_MAX ((1u << 21) + 4096u)

static void test_matrix_small(void)
{
    unsigned rot = 0;
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        for (int payload = 0; payload < 2; ++payload) {
            sorter_slot *slot = get_sorter((vksort_key_type)t, payload, DEFAULT_MAX, 0);
            if (!slot)
                continue;
            const uint32_t T = slot->props.tile_size, TS = slot->props.stable_tile_size;
            const uint32_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 100, 255, 257, TS - 1, TS, TS + 1,
                                      T - 1, T, T + 1, 2 * T - 1, 2 * T + 1, 3 * T + 17};
            const size_t ns = quick ? 12 : sizeof sizes / sizeof sizes[0];
            /* Both stable and not for every (distribution, size); direction and bit range
             * rotate so that each appears with each. */
            for (int d = 0; d < DIST_COUNT; ++d) {
                for (size_t si = 0; si < ns; ++si, ++rot) {
                    for (int stable = 0; stable < 2; ++stable) {
                        sort_case c = bitonic_sort_case();
                        c.cfg.type = (vksort_key_type)t;
                        c.dist = (test_dist)d;
                        c.n = sizes[si];
                        c.cfg.payload = payload;
                        c.desc = (int)((rot >> 1) & 1u) ^ stable;
                        c.stable = stable;
                        c.bit_end = bit_range_choice(c.cfg.type, rot / 2u + (unsigned)d + (unsigned)stable,
                                                     &c.bit_begin);
                        c.cfg.max_count = DEFAULT_MAX;
                        c.seed = rot * 7919u + 1u + (unsigned)stable;
                        CHECK(run_case(&c));
                    }
                }
            }
        }
    }
}

/* Every combination of desc x stable x bit range x payload for a few sizes and two types. */
static void test_flags_cross(void)
{
    const vksort_key_type types[] = {VKSORT_KEY_F32, VKSORT_KEY_I64};
    unsigned rot = 0;
    for (size_t ti = 0; ti < 2; ++ti) {
        sorter_slot *slot = get_sorter(types[ti], 1, DEFAULT_MAX, 0);
        if (!slot)
            continue;
        const uint32_t sizes[] = {33, slot->props.stable_tile_size + 5, 2 * slot->props.tile_size + 3};
        for (size_t si = 0; si < 3; ++si)
            for (int payload = 0; payload < 2; ++payload)
                for (int desc = 0; desc < 2; ++desc)
                    for (int stable = 0; stable < 2; ++stable)
                        for (unsigned b = 0; b < 5; ++b, ++rot) {
                            sort_case c = bitonic_sort_case();
                            c.cfg.type = types[ti];
                            c.dist = (rot % 3u == 0) ? DIST_FEW_UNIQUE
                                                     : (rot % 3u == 1 ? DIST_SPECIALS : DIST_UNIFORM);
                            c.n = sizes[si];
                            c.cfg.payload = payload;
                            c.desc = desc;
                            c.stable = stable;
                            c.bit_end = bit_range_choice(c.cfg.type, b, &c.bit_begin);
                            c.cfg.max_count = DEFAULT_MAX;
                            c.seed = 1000 + rot;
                            CHECK(run_case(&c));
                        }
    }
}

/* Powers of two +- 1 and larger sizes, through several global merge levels. */
static void test_sizes_large(void)
{
    const uint32_t sizes[] = {(1u << 13) - 1, (1u << 13) + 1, (1u << 14) + 1, (1u << 15) - 1,
                              (1u << 16) + 1, (1u << 17) - 1, 300007};
    const test_dist dists[] = {DIST_UNIFORM, DIST_FEW_UNIQUE, DIST_SPECIALS, DIST_REVERSED,
                               DIST_LOW_BYTE, DIST_SORTED};
    unsigned rot = 0;
    const size_t ns = quick ? 3 : sizeof sizes / sizeof sizes[0];
    for (size_t si = 0; si < ns; ++si) {
        for (int t = 0; t < 2 * VKSORT_KEY_TYPE_COUNT; ++t, ++rot) {
            sort_case c = bitonic_sort_case();
            c.cfg.type = (vksort_key_type)(t % VKSORT_KEY_TYPE_COUNT);
            c.dist = dists[rot % 6u];
            c.n = sizes[si];
            c.cfg.payload = (int)(rot & 1u);
            c.desc = (int)((rot >> 1) & 1u);
            c.stable = (int)((rot >> 2) & 1u) ^ (int)(rot & 1u) ^ 1;
            c.bit_end = bit_range_choice(c.cfg.type, rot, &c.bit_begin);
            c.cfg.max_count = DEFAULT_MAX;
            c.seed = 5000 + rot;
            CHECK(run_case(&c));
        }
    }
}

/* One run at about 2M keys (u32 + payload, stable) and one 64-bit one. 2^21 + 3 keys pad to
 * 2^22: the global merges of the last level take more than VKSORT_DISPATCH_SPLIT workgroups
 * (2D dispatch). */
static void test_two_million(void)
{
    sort_case c = bitonic_sort_case();
    c.cfg.type = VKSORT_KEY_F32;
    c.dist = DIST_UNIFORM;
    c.n = (1u << 21) + 3;
    c.cfg.payload = 1;
    c.stable = 1;
    c.cfg.max_count = DEFAULT_MAX;
    c.seed = 77;
    CHECK(run_case(&c));
    if (quick)
        return;
    c.cfg.type = VKSORT_KEY_U64;
    c.dist = DIST_FEW_UNIQUE;
    c.n = (1u << 20) + 1;
    c.cfg.payload = 0;
    c.stable = 0;
    c.desc = 1;
    c.seed = 78;
    CHECK(run_case(&c));
}

/* Small tiles (256 elements) reach many merge levels at moderate sizes. */
static void test_small_tiles(void)
{
    /* 300007 keys in 256-element tiles: 1172 tiles, a 2D dispatch (VKSORT_DISPATCH_SPLIT). */
    const uint32_t sizes[] = {255, 256, 257, 511, 513, 1000, 4097, 20011, 65537, 131071, 300007};
    unsigned rot = 0;
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        size_t ns = quick ? 5 : sizeof sizes / sizeof sizes[0];
        for (size_t si = 0; si < ns; ++si, ++rot) {
            sort_case c = bitonic_sort_case();
            c.cfg.type = (vksort_key_type)t;
            c.dist = (test_dist)(rot % DIST_COUNT);
            c.n = sizes[si];
            c.cfg.payload = (int)((rot >> 1) & 1u);
            c.desc = (int)((rot >> 2) & 1u);
            c.stable = (int)(rot & 1u);
            c.bit_end = bit_range_choice(c.cfg.type, rot / 3u, &c.bit_begin);
            c.cfg.tile_cap = 256;
            c.cfg.max_count = 300007;
            c.seed = 9000 + rot;
            CHECK(run_case(&c));
        }
    }
}

/* The other elements-per-invocation settings (4, 8 and 32; 16, the default, runs everywhere else):
 * single tiles full and partial (a partial tile sorts only its active part), several tiles with
 * global and local merges, stable and not, 32- and 64-bit keys, bit ranges, indirect counts. */
static void test_elements(void)
{
    /* (elements, configuration): every configuration with 4, two with 8 and 32 (32 applies to
     * 32-bit keys without the stable flag only; the rest of such a sorter uses 16). Indirect
     * counts for the configurations marked so (each needs a sorter with a small max_count). */
    struct {
        uint32_t elements;
        vksort_key_type type;
        int payload;
        uint32_t tile_cap;
        int indirect;
    } cfg[] = {
        {4, VKSORT_KEY_U32, 0, 0, 1},   {4, VKSORT_KEY_F32, 1, 0, 0},
        {4, VKSORT_KEY_I64, 1, 512, 0}, {4, VKSORT_KEY_U32, 1, 256, 1},
        {8, VKSORT_KEY_F32, 1, 0, 0},   {8, VKSORT_KEY_I64, 1, 512, 0},
        {32, VKSORT_KEY_U32, 0, 0, 0},  {32, VKSORT_KEY_U32, 1, 256, 1},
    };
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        const uint32_t e = cfg[k].elements;
        sorter_slot *slot =
            get_sorter_e(cfg[k].type, cfg[k].payload, DEFAULT_MAX, cfg[k].tile_cap, e);
        if (!slot)
            continue;
        CHECK_EQ(slot->props.workgroup_size * e, slot->props.tile_size);
        const uint32_t T = slot->props.tile_size, TS = slot->props.stable_tile_size;
        const uint32_t sizes[] = {2,  3,  e - 1, e + 1,     100,       T / 2 + 3,
                                  TS - 1, TS, T,     T + 1, 3 * T + 17, 9 * T + 5};
        const size_t ns = quick ? 8 : sizeof sizes / sizeof sizes[0];
        for (size_t si = 0; si < ns; ++si, ++rot) {
            sort_case c = bitonic_sort_case();
            c.cfg.type = cfg[k].type;
            c.dist = (test_dist)(rot % DIST_COUNT);
            c.n = sizes[si];
            c.cfg.payload = cfg[k].payload;
            c.stable = (int)((rot >> 1) & 1u) ^ (int)(k & 1u);
            c.desc = (int)((rot >> 2) & 1u);
            c.bit_end = bit_range_choice(c.cfg.type, rot / 3u, &c.bit_begin);
            c.cfg.tile_cap = cfg[k].tile_cap;
            c.cfg.elements = e;
            c.cfg.max_count = DEFAULT_MAX;
            c.seed = 15000 + rot;
            CHECK(run_case(&c));
        }
        if (!cfg[k].indirect)
            continue;
        const uint32_t max = 2 * T + 9;
        const uint32_t counts[] = {1, T - 3, max, max + 7};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i, ++rot) {
            sort_case c = bitonic_sort_case();
            c.cfg.type = cfg[k].type;
            c.dist = (test_dist)(rot % DIST_COUNT);
            c.n = counts[i];
            c.cfg.payload = cfg[k].payload;
            c.stable = (int)(rot & 1u);
            c.desc = (int)((rot >> 1) & 1u);
            c.indirect = 1;
            c.cfg.tile_cap = cfg[k].tile_cap;
            c.cfg.elements = e;
            c.cfg.max_count = max;
            c.seed = 16000 + rot;
            CHECK(run_case(&c));
        }
    }
}

/* Indirect counts: clamped on the GPU; exactly the first min(count, max) elements sorted. */
static void test_indirect(void)
{
    struct { vksort_key_type type; int payload; uint32_t tile_cap; uint32_t max; } cfg[] = {
        {VKSORT_KEY_U32, 1, 0, 0},
        {VKSORT_KEY_F64, 0, 0, 0},
        {VKSORT_KEY_I32, 0, 256, 5000},
        {VKSORT_KEY_U64, 1, 256, 3000},
        {VKSORT_KEY_F32, 1, 256, 300007}, /* 1172 tiles: 2D indirect dispatches */
    };
    unsigned rot = 0;
    for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; ++k) {
        /* Max counts of 3 tiles + 5 (device tile) or as given. */
        sorter_slot *probe = get_sorter(cfg[k].type, cfg[k].payload, DEFAULT_MAX, cfg[k].tile_cap);
        if (!probe)
            continue;
        uint32_t T = probe->props.tile_size;
        uint32_t max = cfg[k].max ? cfg[k].max : 3 * T + 5;
        const uint32_t counts[] = {0, 1, 2, 3, T - 1, T, T + 1, max - 1, max, max + 1, max + 1000,
                                   0xffffffffu, 2 * T + 7};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
            for (int stable = 0; stable < 2; ++stable, ++rot) {
                sort_case c = bitonic_sort_case();
                c.cfg.type = cfg[k].type;
                c.dist = (test_dist)(rot % DIST_COUNT);
                c.n = counts[i];
                c.cfg.payload = cfg[k].payload;
                c.stable = stable;
                c.desc = (int)((rot >> 2) & 1u);
                c.bit_end = bit_range_choice(c.cfg.type, rot / 2u, &c.bit_begin);
                c.indirect = 1;
                c.cfg.tile_cap = cfg[k].tile_cap;
                c.cfg.max_count = max;
                c.seed = 12000 + rot;
                CHECK(run_case(&c));
            }
        }
    }
}

/* ---- API errors ---- */
static void test_errors(void)
{
    sorter_slot *slot = get_sorter(VKSORT_KEY_U64, 1, 1000, 0);
    if (!slot)
        return;
    vksort_vk_sorter *s = slot->sorter;
    CHECK(ensure_buffer(&keys_buf, 64 * 1024, storage_usage) == 0);
    CHECK(ensure_buffer(&vals_buf, 64 * 1024, storage_usage) == 0);
    CHECK(ensure_buffer(&scratch_buf, slot->reqs.scratch_size + 256,
                        storage_usage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) == 0);
    CHECK(ensure_buffer(&count_buf, 256, storage_usage) == 0);
    CHECK(slot->reqs.scratch_size > 0);
    CHECK(slot->reqs.scratch_usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    CHECK(slot->reqs.keys_alignment % 8 == 0);

    vksort_vk_sort_info good = sort_check_u64_pairs_info(keys_buf.buffer, vals_buf.buffer,
                                                         scratch_buf.buffer, 1000,
                                                         slot->reqs.scratch_size);

    VkCommandBuffer cmd = vk_rig_begin(&rig);
    CHECK_EQ(sort_check_argument_errors(s, cmd, &good, slot->reqs.scratch_size, count_buf.buffer,
                                        rig.props.limits.minStorageBufferOffsetAlignment),
             0);
    /* Nothing was recorded: the empty command buffer submits cleanly. */
    CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    /* A good call clears the message. */
    cmd = vk_rig_begin(&rig);
    good.count = 1;
    CHECK_EQ(vksort_vk_cmd_sort(s, cmd, &good), VKSORT_SUCCESS);
    CHECK(strlen(vksort_vk_sorter_last_message(s)) == 0);
    CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    /* The reported scratch size holds for every count: a stable 2-element sort on a sorter
     * whose scratch also holds stable indices for 20000 keys touches only the state words, and
     * is still refused 4 bytes short (the radix sorts' rule too). */
    sorter_slot *indexed = get_sorter(VKSORT_KEY_U64, 1, 20000, 0);
    if (indexed) {
        vksort_vk_sort_info two = good;
        two.count = 2;
        two.flags = VKSORT_FLAG_STABLE;
        two.scratch.size = indexed->reqs.scratch_size - 4u;
        cmd = vk_rig_begin(&rig);
        CHECK_EQ(vksort_vk_cmd_sort(indexed->sorter, cmd, &two), VKSORT_ERROR_SCRATCH_TOO_SMALL);
        CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    }

    /* Creation errors. */
    vksort_vk_sorter_create_info ci;
    sort_check_create_info(&rig, &ci);
    ci.max_count = 100;
    vksort_vk_diagnostics diag;
    ci.diagnostics = &diag;
    vksort_vk_sorter *bad = NULL;
    vksort_vk_sorter_create_info c2 = ci;
    c2.max_count = 0;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK(strlen(diag.message) > 0);
    c2 = ci;
    c2.algorithm = (vksort_vk_algorithm)9;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    c2 = ci;
    c2.bitonic_elements_per_invocation = 5;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(diag.message, "bitonic_elements_per_invocation") != NULL);
    c2 = ci;
    c2.radix_buckets = (vksort_vk_radix_buckets)3;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(diag.message, "radix_buckets") != NULL);
    const uint32_t bad_rank_wg[] = {16, 48, 2048};
    for (size_t i = 0; i < 3; ++i) {
        c2 = ci;
        c2.rank_workgroup_size = bad_rank_wg[i];
        CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(diag.message, "rank_workgroup_size") != NULL);
    }
    c2 = ci;
    /* no such create flag (past the last) */
    c2.flags = VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING << 1;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    /* VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS needs its extension listed (or Vulkan 1.4); with it
     * the sorter reports the bounds checks off. */
    c2 = ci;
    c2.flags = VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS;
    if (rig.props.apiVersion < VK_MAKE_API_VERSION(0, 1, 4, 0)) {
        CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
        CHECK(bad == NULL);
        CHECK(strstr(diag.message, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME) != NULL);
    }
    if (rig.pipeline_robustness) {
        c2.enabled_extension_count = rig.enabled_extension_count;
        c2.enabled_extensions = rig.enabled_extensions;
        CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_SUCCESS);
        vksort_vk_sorter_properties rp;
        vksort_vk_get_sorter_properties(bad, &rp);
        CHECK(rp.buffer_robustness_off == VK_TRUE);
        vksort_vk_sorter_destroy(bad);
        bad = NULL;
    }
    c2 = ci;
    c2.bitonic_elements_per_invocation = 64;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    c2 = ci;
    c2.key_type = (vksort_key_type)17;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    c2 = ci;
    c2.max_tile_size = 300;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    c2 = ci;
    c2.get_instance_proc_addr = NULL;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_INVALID_ARGUMENT);
    c2 = ci;
    c2.key_type = VKSORT_KEY_U64;
    c2.max_count = 0x80000000u; /* 16 GiB of keys: beyond maxStorageBufferRange */
    if ((uint64_t)c2.max_count * 8u > rig.props.limits.maxStorageBufferRange) {
        CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_ERROR_DEVICE_LIMITS);
        CHECK(strstr(diag.message, "maxStorageBufferRange") != NULL);
    }
    c2 = ci;
    c2.algorithm = VKSORT_VK_ALGORITHM_BITONIC;
    c2.bitonic_elements_per_invocation = 4;
    CHECK_EQ(vksort_vk_sorter_create(&c2, &bad), VKSORT_SUCCESS);
    vksort_vk_sorter_properties props;
    vksort_vk_get_sorter_properties(bad, &props);
    CHECK_EQ(props.algorithm, VKSORT_VK_ALGORITHM_BITONIC);
    CHECK(props.buffer_robustness_off == VK_FALSE);
    /* Tiles never exceed the count rounded up to a power of two (nor go below 256). */
    CHECK_EQ(props.tile_size, 256);
    CHECK_EQ(props.workgroup_size, 64);
    vksort_vk_sorter_destroy(bad);
    vksort_vk_sorter_destroy(NULL);
    uint32_t n_ext = 0;
    const char *const *ext = vksort_vk_required_device_extensions(&n_ext);
    CHECK(n_ext == 1 && strcmp(ext[0], VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0);
}

/* ---- device limits below what the pipelines need ---- */
/* A device whose limits sit at (or near) the spec's minimums, faked by handing the sorter a
 * vkGetInstanceProcAddr whose property queries lower them: creation must refuse what the
 * pipelines would break (or AUTO fall back to bitonic sorts), never create invalid pipelines. */
static PFN_vkGetInstanceProcAddr real_gipa;
static PFN_vkGetPhysicalDeviceProperties real_get_props;
static PFN_vkGetPhysicalDeviceProperties2 real_get_props2;
static uint32_t fake_invocations, fake_storage_buffers, fake_storage_align;

static void lower_limits(VkPhysicalDeviceLimits *l)
{
    if (fake_invocations) {
        l->maxComputeWorkGroupInvocations = fake_invocations;
        l->maxComputeWorkGroupSize[0] = fake_invocations;
    }
    if (fake_storage_buffers)
        l->maxPerStageDescriptorStorageBuffers = fake_storage_buffers;
    if (fake_storage_align)
        l->minStorageBufferOffsetAlignment = fake_storage_align;
}

static VKAPI_ATTR void VKAPI_CALL faked_get_props(VkPhysicalDevice pd, VkPhysicalDeviceProperties *p)
{
    real_get_props(pd, p);
    lower_limits(&p->limits);
}

static VKAPI_ATTR void VKAPI_CALL faked_get_props2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *p)
{
    real_get_props2(pd, p);
    lower_limits(&p->properties.limits);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL faked_gipa(VkInstance instance, const char *name)
{
    PFN_vkVoidFunction f = real_gipa(instance, name);
    if (f && strcmp(name, "vkGetPhysicalDeviceProperties") == 0) {
        real_get_props = (PFN_vkGetPhysicalDeviceProperties)f;
        return (PFN_vkVoidFunction)faked_get_props;
    }
    if (f && strcmp(name, "vkGetPhysicalDeviceProperties2") == 0) {
        real_get_props2 = (PFN_vkGetPhysicalDeviceProperties2)f;
        return (PFN_vkVoidFunction)faked_get_props2;
    }
    return f;
}

/* Creates a sorter of `algorithm` on the faked limits; returns its result, and its properties
 * and requirements in *props / *reqs on success (the sorter is destroyed). */
static vksort_result create_on_lowered(vksort_vk_algorithm algorithm, vksort_vk_sorter_properties *props,
                                       vksort_vk_memory_requirements *reqs, char *message, size_t message_size)
{
    vksort_vk_sorter_create_info ci;
    sort_check_create_info(&rig, &ci);
    ci.key_type = VKSORT_KEY_U32;
    ci.has_payload = 1;
    ci.max_count = 1u << 16;
    ci.algorithm = algorithm;
    vksort_vk_diagnostics diag;
    memset(&diag, 0, sizeof diag);
    ci.diagnostics = &diag;
    real_gipa = ci.get_instance_proc_addr;
    ci.get_instance_proc_addr = faked_gipa;
    vksort_vk_sorter *s = NULL;
    vksort_result r = vksort_vk_sorter_create(&ci, &s);
    snprintf(message, message_size, "%s", diag.message);
    if (r == VKSORT_SUCCESS) {
        vksort_vk_get_sorter_properties(s, props);
        CHECK_EQ(vksort_vk_get_memory_requirements(s, reqs), VKSORT_SUCCESS);
        vksort_vk_sorter_destroy(s);
    } else {
        CHECK(s == NULL);
    }
    return r;
}

static void test_device_limits(void)
{
    vksort_vk_sorter_properties props;
    vksort_vk_memory_requirements reqs;
    char msg[512];
    vksort_result r;
    /* The spec's minimum of 128 invocations: the radix passes of 256 cannot run. */
    fake_invocations = 128;
    CHECK_EQ(create_on_lowered(VKSORT_VK_ALGORITHM_ONESWEEP, &props, &reqs, msg, sizeof msg),
             VKSORT_ERROR_DEVICE_LIMITS);
    CHECK(strstr(msg, "maxComputeWorkGroupInvocations") != NULL);
    CHECK_EQ(create_on_lowered(VKSORT_VK_ALGORITHM_PORTABLE, &props, &reqs, msg, sizeof msg),
             VKSORT_ERROR_DEVICE_LIMITS);
    r = create_on_lowered(VKSORT_VK_ALGORITHM_AUTO, &props, &reqs, msg, sizeof msg);
    CHECK_EQ(r, VKSORT_SUCCESS);
    if (r == VKSORT_SUCCESS) {
        CHECK_EQ(props.algorithm, VKSORT_VK_ALGORITHM_BITONIC);
        CHECK(props.workgroup_size <= 128u);
        CHECK(props.rank_workgroup_size <= 128u);
    }
    fake_invocations = 0;
    /* Storage buffers per stage: radix passes bind 8, bitonic ones 5 (the spec's minimum: 4). */
    fake_storage_buffers = 7;
    CHECK_EQ(create_on_lowered(VKSORT_VK_ALGORITHM_ONESWEEP, &props, &reqs, msg, sizeof msg),
             VKSORT_ERROR_DEVICE_LIMITS);
    CHECK(strstr(msg, "maxPerStageDescriptorStorageBuffers") != NULL);
    r = create_on_lowered(VKSORT_VK_ALGORITHM_AUTO, &props, &reqs, msg, sizeof msg);
    CHECK_EQ(r, VKSORT_SUCCESS);
    if (r == VKSORT_SUCCESS)
        CHECK_EQ(props.algorithm, VKSORT_VK_ALGORITHM_BITONIC);
    fake_storage_buffers = 4;
    CHECK_EQ(create_on_lowered(VKSORT_VK_ALGORITHM_BITONIC, &props, &reqs, msg, sizeof msg),
             VKSORT_ERROR_DEVICE_LIMITS);
    CHECK(strstr(msg, "maxPerStageDescriptorStorageBuffers") != NULL);
    CHECK_EQ(create_on_lowered(VKSORT_VK_ALGORITHM_AUTO, &props, &reqs, msg, sizeof msg),
             VKSORT_ERROR_DEVICE_LIMITS);
    fake_storage_buffers = 0;
    /* A storage offset alignment of 1 (allowed): the scratch still takes fills and indirect
     * dispatches, whose offsets must be multiples of 4. */
    fake_storage_align = 1;
    r = create_on_lowered(VKSORT_VK_ALGORITHM_AUTO, &props, &reqs, msg, sizeof msg);
    CHECK_EQ(r, VKSORT_SUCCESS);
    if (r == VKSORT_SUCCESS) {
        CHECK_EQ(reqs.scratch_alignment, 4u);
        CHECK_EQ(reqs.keys_alignment, 4u);
    }
    fake_storage_align = 0;
}

/* ---- timestamps ---- */
static void test_timestamps(void)
{
    if (rig.timestamp_valid_bits == 0) {
        printf("(no timestamps on this queue family; skipped)\n");
        return;
    }
    sorter_slot *slot = get_sorter(VKSORT_KEY_U32, 1, DEFAULT_MAX, 256);
    if (!slot)
        return;
    const uint32_t n = 5000;
    CHECK(ensure_buffer(&keys_buf, n * 4, storage_usage) == 0);
    CHECK(ensure_buffer(&vals_buf, n * 4, storage_usage) == 0);
    CHECK(ensure_buffer(&scratch_buf, slot->reqs.scratch_size,
                        storage_usage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) == 0);
    test_fill_keys(VKSORT_KEY_U32, DIST_UNIFORM, keys_buf.mapped, n, 3);
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){keys_buf.buffer, 0, n * 4};
    si.values = (vksort_vk_buffer_range){vals_buf.buffer, 0, n * 4};
    si.scratch = (vksort_vk_buffer_range){scratch_buf.buffer, 0, slot->reqs.scratch_size};
    si.count = n;
    uint32_t q = vksort_vk_timestamp_query_count(slot->sorter, &si);
    /* 5000 keys in 256-element tiles: local sort + levels 9..13, each ceil((level - 8) / 4)
     * global merges and a local merge; plus the first timestamp. */
    CHECK_EQ(q, 1 + 1 + (2 + 2 + 2 + 2 + 3));
    VkQueryPoolCreateInfo qpci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = q + 3;
    VkQueryPool pool;
    CHECK(vkCreateQueryPool(rig.device, &qpci, NULL, &pool) == VK_SUCCESS);
    si.query_pool = pool;
    si.first_query = 3;
    VkCommandBuffer cmd = vk_rig_begin(&rig);
    CHECK_EQ(vksort_vk_cmd_sort(slot->sorter, cmd, &si), VKSORT_SUCCESS);
    CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    uint64_t ts[64];
    CHECK(vkGetQueryPoolResults(rig.device, pool, 3, q, sizeof ts, ts, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
    vksort_vk_pass_time passes[32];
    uint32_t np = 32;
    double total = -1;
    CHECK_EQ(vksort_vk_timestamps_to_ms(slot->sorter, &si, ts, q, passes, &np, &total),
             VKSORT_SUCCESS);
    CHECK_EQ(np, q - 1);
    CHECK(total >= 0);
    double sum = 0;
    for (uint32_t i = 0; i < np; ++i) {
        CHECK(passes[i].ms >= 0);
        sum += passes[i].ms;
    }
    CHECK(sum <= total * 1.0001 + 1e-9);
    CHECK(strcmp(passes[0].kind, "local_sort") == 0);
    CHECK(strcmp(passes[1].kind, "global_merge") == 0);
    CHECK(strcmp(passes[np - 1].kind, "local_merge") == 0);
    printf("timestamps: %u passes, %.3f ms total; first %s %.3f ms, last %s %.3f ms\n", np, total,
           passes[0].name, passes[0].ms, passes[np - 1].name, passes[np - 1].ms);
    CHECK_EQ(vksort_vk_timestamps_to_ms(slot->sorter, &si, ts, q - 1, passes, &np, NULL),
             VKSORT_ERROR_INVALID_ARGUMENT);
    /* Indirect: prepare + passes for max_count. */
    CHECK(ensure_buffer(&count_buf, 256, storage_usage) == 0);
    si.count_buffer = (vksort_vk_buffer_range){count_buf.buffer, 0, 4};
    CHECK_EQ(vksort_vk_timestamp_query_count(slot->sorter, &si), 0); /* keys: 5000, not max */
    si.keys.size = si.values.size = si.scratch.size = VK_WHOLE_SIZE;
    CHECK(vksort_vk_timestamp_query_count(slot->sorter, &si) > q);
    vkDestroyQueryPool(rig.device, pool, NULL);
}

/* Two sorts in one command buffer with the documented barrier between them (scratch reuse), the
 * second with an indirect count; sorters of the current small_sort_mode. */
static void back_to_back(uint32_t n, test_dist dist)
{
    sorter_slot *slot = get_sorter(VKSORT_KEY_I32, 1, 4096, 256);
    if (!slot)
        return;
    CHECK(ensure_buffer(&keys_buf, 2 * 4096 * 4, storage_usage) == 0);
    CHECK(ensure_buffer(&vals_buf, 2 * 4096 * 4, storage_usage) == 0);
    CHECK(ensure_buffer(&scratch_buf, slot->reqs.scratch_size,
                        storage_usage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) == 0);
    CHECK(ensure_buffer(&count_buf, 256, storage_usage) == 0);
    int32_t *k = keys_buf.mapped;
    uint32_t *v = vals_buf.mapped;
    memset(scratch_buf.mapped, 0x5a, (size_t)scratch_buf.size);
    test_fill_keys(VKSORT_KEY_I32, dist, k, 2 * 4096, 5);
    for (uint32_t i = 0; i < 2 * 4096; ++i)
        v[i] = i;
    ((uint32_t *)count_buf.mapped)[0] = n;
    VkCommandBuffer cmd = vk_rig_begin(&rig);
    for (int pass = 0; pass < 2; ++pass) {
        vksort_vk_sort_info si;
        memset(&si, 0, sizeof si);
        si.keys = (vksort_vk_buffer_range){keys_buf.buffer, (VkDeviceSize)pass * 4096 * 4, 4096 * 4};
        si.values = (vksort_vk_buffer_range){vals_buf.buffer, (VkDeviceSize)pass * 4096 * 4, 4096 * 4};
        si.scratch = (vksort_vk_buffer_range){scratch_buf.buffer, 0, VK_WHOLE_SIZE};
        si.flags = VKSORT_FLAG_STABLE;
        if (pass == 0)
            si.count = n;
        else
            si.count_buffer = (vksort_vk_buffer_range){count_buf.buffer, 0, 4};
        if (pass == 1) /* scratch reuse: previous sort's last accesses -> this sort's first */
            vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                           VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        CHECK_EQ(vksort_vk_cmd_sort(slot->sorter, cmd, &si), VKSORT_SUCCESS);
    }
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
    for (int pass = 0; pass < 2; ++pass) {
        const int32_t *kk = k + pass * 4096;
        const uint32_t *vv = v + pass * 4096;
        int sorted = 1;
        for (uint32_t i = 1; i < n; ++i)
            if (kk[i - 1] > kk[i] || (kk[i - 1] == kk[i] && vv[i - 1] > vv[i]))
                sorted = 0;
        CHECK(sorted);
        /* The tail past the count stays as it was: payloads are still their positions. */
        int tail = 1;
        for (uint32_t i = n; i < 4096; ++i)
            tail &= vv[i] == (uint32_t)pass * 4096u + i;
        CHECK(tail);
    }
}

static void test_back_to_back(void)
{
    back_to_back(3000, DIST_UNIFORM);
}

/* One case of the RANK matrix: distribution, direction, stable flag and bit range rotate with
 * `rot`. */
static int run_rank_case(vksort_key_type type, int payload, uint32_t n, int indirect,
                         uint32_t max_count, unsigned rot)
{
    sort_case c = bitonic_sort_case();
    c.cfg.type = type;
    c.dist = (test_dist)(rot % DIST_COUNT);
    c.n = n;
    c.cfg.payload = payload;
    c.desc = (int)(rot & 1u);
    c.stable = (int)((rot >> 1) & 1u);
    c.bit_end = bit_range_choice(c.cfg.type, rot / 3u, &c.bit_begin);
    c.indirect = indirect;
    c.cfg.max_count = max_count;
    c.seed = 31000 + rot;
    return run_case(&c);
}

/* The RANK small sort (shaders/rank_sort.comp): every type, payload, direction, bit range and
 * distribution at counts around its 32-element workgroups and its capacity, indirect counts,
 * the AUTO choice, its timestamps and two back-to-back sorts on one scratch. */
static void test_rank_sort(void)
{
    const vksort_vk_small_sort saved = small_sort_mode;
    small_sort_mode = VKSORT_VK_SMALL_SORT_AUTO;
    sorter_slot *autos = get_sorter(VKSORT_KEY_U32, 1, 4096, 0);
    if (autos) {
        const int discrete = rig.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
        CHECK_EQ(autos->props.small_sort,
                 discrete ? VKSORT_VK_SMALL_SORT_RANK : VKSORT_VK_SMALL_SORT_NETWORK);
        CHECK_EQ(autos->props.rank_capacity, discrete ? 4096u : 0u);
    }
    small_sort_mode = VKSORT_VK_SMALL_SORT_RANK;
    unsigned rot = 0;
    /* A max_count that is not a multiple of 4: the staging rounds up, the capacity reported
     * does not (no count above max_count is sorted). */
    sorter_slot *tiny = get_sorter(VKSORT_KEY_U32, 1, 5, 0);
    if (tiny) {
        CHECK_EQ(tiny->props.rank_capacity, 5u);
        for (uint32_t n = 2; n <= 5; ++n, ++rot)
            CHECK(run_rank_case(VKSORT_KEY_U32, 1, n, 0, 5, rot));
        CHECK(run_rank_case(VKSORT_KEY_U32, 1, 0xffffffffu, 1, 5, rot++));
    }
    /* Default workgroups with the control words cleared before every sort; then small
     * workgroups (more of them per sort, so more that find others still reading and stage)
     * on a persistent scratch: prepared once per sorter, then kept through every case of that
     * sorter - each sort must leave the control words zero for the next. */
    const struct { uint32_t wg; vksort_vk_create_flags flags; } modes[] = {
        {0, 0}, {64, VKSORT_VK_CREATE_PERSISTENT_SCRATCH}};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
        rank_wg_mode = modes[m].wg;
        flags_mode = modes[m].flags;
        for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
            for (int payload = 0; payload < 2; ++payload) {
                sorter_slot *slot = get_sorter((vksort_key_type)t, payload, 4096, 0);
                if (!slot)
                    continue;
                const uint32_t cap = slot->props.rank_capacity;
                CHECK_EQ(slot->props.small_sort, VKSORT_VK_SMALL_SORT_RANK);
                CHECK(cap >= 1024 && cap <= 4096 && cap % 4 == 0);
                CHECK_EQ(slot->props.rank_min_count, 2u);
                CHECK(slot->props.rank_workgroup_size >= 32 &&
                      slot->props.rank_workgroup_size <= (modes[m].wg ? modes[m].wg : 1024u));
                if (modes[m].wg)
                    CHECK_EQ(slot->props.rank_workgroup_size, modes[m].wg);
                /* cap + 1 .. 4096 (64-bit keys where shared memory holds fewer) go to the network. */
                const uint32_t sizes[] = {2, 3, 4, 5, 31, 32, 33, 64, 100, 255, 257, 1000,
                                          cap - 1, cap, cap + 1 <= 4096 ? cap + 1 : 4096};
                const size_t ns = quick || m ? 9 : sizeof sizes / sizeof sizes[0];
                for (size_t si = 0; si < ns; ++si) {
                    for (int k = 0; k < 2; ++k, ++rot)
                        CHECK(run_rank_case((vksort_key_type)t, payload, sizes[si], 0, 4096, rot));
                }
                /* Indirect: one fixed grid for max_count; counts 0, 1 and past the maximum too. */
                const uint32_t counts[] = {0, 1, 2, 33, 700, 999, 1000, 1001, 0xffffffffu};
                for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i, ++rot)
                    CHECK(run_rank_case((vksort_key_type)t, payload, counts[i], 1, 1000, rot));
            }
        }
    }
    rank_wg_mode = 0;
    flags_mode = 0;

    /* A persistent scratch shared by the RANK sort and the radix sort of one AUTO sorter,
     * alternating: the radix passes must leave the RANK control words alone. Counts near the
     * capacity make the RANK workgroups own 64 elements each (at most 128 workgroups), unless
     * the workgroup is too small for that (32 invocations: 32 elements, 250 workgroups). */
    for (uint32_t wg = 64; wg >= 32; wg /= 2) {
        sort_case c;
        memset(&c, 0, sizeof c);
        c.cfg = bitonic_config(VKSORT_KEY_U32, 1, 1u << 16, 0, 0);
        c.cfg.algorithm = VKSORT_VK_ALGORITHM_AUTO;
        c.cfg.flags = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
        c.cfg.rank_wg = wg;
        sorter_slot *mixed = sort_check_sorter(&c.cfg);
        CHECK(mixed != NULL);
        if (!mixed)
            continue;
        const uint32_t cap = mixed->props.rank_capacity;
        CHECK(cap >= 7900u && mixed->props.radix_algorithm != 0);
        /* AUTO hands counts up to the RANK capacity to the RANK sort (one pass) even above the
         * tile, the radix sort above that. */
        {
            vksort_vk_sort_info si;
            memset(&si, 0, sizeof si);
            si.keys.buffer = si.values.buffer = si.scratch.buffer = (VkBuffer)(uintptr_t)1;
            si.keys.size = si.values.size = si.scratch.size = VK_WHOLE_SIZE;
            si.count = cap; /* never recorded: counts only */
            CHECK(mixed->props.tile_size < cap);
            CHECK_EQ(vksort_vk_timestamp_query_count(mixed->sorter, &si), 2u);
            si.count = mixed->props.rank_capacity + 1u;
            CHECK(vksort_vk_timestamp_query_count(mixed->sorter, &si) > 2u);
        }
        const uint32_t ns[] = {3000, 60000, cap, 4096, 40000, 2, cap - 1u, 1000};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i, ++rot) {
            c.n = ns[i];
            c.dist = (test_dist)(rot % DIST_COUNT);
            c.stable = 1;
            c.desc = (int)(rot & 1u);
            c.seed = 47000 + rot;
            CHECK(sort_check_run(&c, NULL));
        }
    }

    /* Timestamps: one pass named rank_sort. */
    sorter_slot *slot = get_sorter(VKSORT_KEY_F32, 1, 4096, 0);
    if (slot && rig.timestamp_valid_bits) {
        const uint32_t n = 3000;
        CHECK(ensure_buffer(&keys_buf, 2 * 4096 * 4, storage_usage) == 0);
        CHECK(ensure_buffer(&vals_buf, 2 * 4096 * 4, storage_usage) == 0);
        CHECK(ensure_buffer(&scratch_buf, slot->reqs.scratch_size, slot->reqs.scratch_usage) == 0);
        CHECK(slot->reqs.scratch_usage & VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        vksort_vk_sort_info si;
        memset(&si, 0, sizeof si);
        si.keys = (vksort_vk_buffer_range){keys_buf.buffer, 0, n * 4};
        si.values = (vksort_vk_buffer_range){vals_buf.buffer, 0, n * 4};
        si.scratch = (vksort_vk_buffer_range){scratch_buf.buffer, 0, slot->reqs.scratch_size};
        si.count = n;
        const uint32_t q = vksort_vk_timestamp_query_count(slot->sorter, &si);
        CHECK_EQ(q, 2u);
        VkQueryPoolCreateInfo qpci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2;
        VkQueryPool pool;
        CHECK(vkCreateQueryPool(rig.device, &qpci, NULL, &pool) == VK_SUCCESS);
        si.query_pool = pool;
        test_fill_keys(VKSORT_KEY_F32, DIST_UNIFORM, keys_buf.mapped, n, 77);
        VkCommandBuffer cmd = vk_rig_begin(&rig);
        CHECK_EQ(vksort_vk_cmd_sort(slot->sorter, cmd, &si), VKSORT_SUCCESS);
        CHECK(vk_rig_submit_wait(&rig, cmd) == 0);
        uint64_t ts[2];
        CHECK(vkGetQueryPoolResults(rig.device, pool, 0, 2, sizeof ts, ts, 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
        vksort_vk_pass_time pt[2];
        uint32_t np = 2;
        CHECK_EQ(vksort_vk_timestamps_to_ms(slot->sorter, &si, ts, 2, pt, &np, NULL), VKSORT_SUCCESS);
        CHECK_EQ(np, 1u);
        CHECK(strcmp(pt[0].kind, "rank_sort") == 0);
        vkDestroyQueryPool(rig.device, pool, NULL);
    }

    /* Back to back on one scratch (the ticket is filled again for the second sort). */
    back_to_back(3001, DIST_FEW_UNIQUE);
    small_sort_mode = saved;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress survives a hang (the GPU machine's timeout) */
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--list-devices") == 0)
            return vk_rig_list_devices() >= 0 ? 0 : 1;
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
    }
    double t0 = vk_rig_now_ms();
    vk_rig_options opt = {1, -1, 0};
    if (vk_rig_create(&rig, &opt) != 0) {
        fprintf(stderr, "FAIL: no Vulkan test device\n");
        return 1;
    }
    CHECK(vk_rig_check_subgroup(&rig) == 0);
    sort_check_init(&rig);

    /* VKSORT_TEST_ONLY=name[,name...]: run only the tests whose names contain one of them. */
#define TIMED(fn)                                                          \
    do {                                                                   \
        if (!test_selected(#fn))                                           \
            break;                                                         \
        double s_ = vk_rig_now_ms();                                       \
        RUN(fn);                                                           \
        printf("     (%.1f s)\n", (vk_rig_now_ms() - s_) / 1000.0);        \
    } while (0)
    TIMED(test_errors);
    TIMED(test_device_limits);
    TIMED(test_matrix_small);
    TIMED(test_flags_cross);
    TIMED(test_small_tiles);
    TIMED(test_elements);
    TIMED(test_indirect);
    TIMED(test_rank_sort);
    TIMED(test_sizes_large);
    TIMED(test_two_million);
    TIMED(test_timestamps);
    TIMED(test_back_to_back);

    sort_check_shutdown();
    vk_rig_buffer_destroy(&rig, &keys_buf);
    vk_rig_buffer_destroy(&rig, &vals_buf);
    vk_rig_buffer_destroy(&rig, &scratch_buf);
    vk_rig_buffer_destroy(&rig, &count_buf);
    vk_rig_destroy(&rig);
    printf("validation messages: %d\n", rig.messages);
    CHECK_EQ(rig.messages, 0);
    printf("total %.1f s\n", (vk_rig_now_ms() - t0) / 1000.0);
    return test_summary();
}
