/*
 * Radix sorts (Onesweep, with or without the look-back fallback, and reduce-then-scan): device
 * configuration, scratch layout, pipelines, pass plan and recording. Shaders:
 * shaders/radix_*.comp (see their headers).
 *
 * Every sort records the same sequence; the GPU decides what actually runs:
 *   radix_prepare   1 workgroup: clamp the count, tiles/blocks, clear histograms and tickets
 *   histogram       all digits at once (indirect: groups from prepare)
 *   plan            1 workgroup: digit starts, constant digits, ping-pong parity, and the
 *                   indirect dispatch sizes of everything after it (zero for skipped passes)
 *   per digit p     onesweep p                         (Onesweep)
 *                   upsweep p (not for the first: the histogram counted its blocks), downsweep p (portable)
 *   copy            B -> A when an odd number of passes ran (else zero workgroups)
 * Host and indirect counts take the same path, so a skipped digit costs an empty dispatch and
 * a barrier, never a read-back.
 * The hybrid path (32-bit keys, host counts in the sorter's hybrid range; radix_interface.h's
 * RADIX_FLAG_HYBRID) records onesweep 0, 1, chunk_bounds, chunk_sort and onesweep 2..5 after
 * the histogram: the plan runs slots 0 and 1 on the top two digits and the chunk passes (slots
 * 2..5 only where a chunk does not fit), or the slots digit by digit, slot 5 copying back after
 * an odd number of digits (no copy pass of its own: one empty dispatch fewer).
 */
#include "sorter_internal.h"
#include "radix_interface.h"
#include "radix_choice.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RADIX_MAX_COUNT ((1u << 30) - 1u) /* look-back words hold 30-bit counts */
/* Least elements per histogram invocation (small counts), for every key width: 16 (a chunk of
 * 4096 keys, one whole step of the pass's 16-byte loads for 32-bit keys, two for 64-bit keys;
 * 2^20 keys then take 256 workgroups, not 512, and half the global flushes). H100, persistent
 * scratch, two rounds, ms, 8 -> 16: u32 keys 2^19 0.0677 -> 0.0659, 2^20 0.0758 -> 0.0729; u32
 * pairs 2^19 0.0663 -> 0.0652, 2^20 0.0853 -> 0.0825, 2^21 0.1468 -> 0.1468 (from 2^21 on both
 * give 512 workgroups of n / 512; fifty-seventh session); u64 keys 2^19 0.1256 -> 0.1245, 2^20
 * 0.1530 -> 0.1508, 2^21 and 2^24 equal (fifty-eighth). */
#define RADIX_HIST_ITEMS 16u
/* VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK: a look-back's empty-word steps in a row before it
 * counts the predecessor's tile itself (spec constant 14 of the _fb modules): large enough that
 * a predecessor which is running publishes first (H100, 2026-12-05: no fallback in any timed
 * sort of 2^24 or 2^28 keys or pairs, docs/perf-notes.md). */
#define RADIX_LOOKBACK_FALLBACK_POLLS 64u
/* The same on a CPU device (lavapipe): there a long wait is for a workgroup queued behind
 * others on a worker thread, which no number of polls brings, and every poll counts against
 * gallivm's loop limit (docs/vulkan.md). (A workgroup running thirty fallbacks - 4-lane
 * subgroups, looping workgroups, the emulation - ran out of that limit in the first, subgroup-
 * counted fallback until its bit loop was unrolled: wrong output. Then 64 polls passed too; 8
 * keep a margin.) */
#define RADIX_LOOKBACK_FALLBACK_POLLS_CPU 8u

/* The hybrid path (radix_interface.h, RADIX_FLAG_HYBRID). Chunks of k buckets (values of the top
 * 16 bits), k the largest power of two up to RADIX_HYBRID_BINS with at most 2048 keys a chunk on
 * average (uniform keys), so up to 2^27 keys the chunk sort's tile is 512 x 5 (2560: the average
 * plus 11 standard deviations of a chunk of 2048 uniform keys); above, one bucket a chunk of up
 * to 4096 keys on average, in 512 x 9 (4608). Past 2^28 a bucket's keys would outgrow the tiles
 * that fit 32 KiB of shared memory and registers: digit by digit there. (H100, the benchmark's
 * probe of the fifty-eighth session, u32 pairs, ms, hybrid against Onesweep digit by digit:
 * 2^24 0.557 / 0.712, 2^25 1.035 / 1.315, 2^26 2.131 / 2.515, 2^28 8.066 / 10.28.) */
#define RADIX_HYBRID_ITEMS 5u
#define RADIX_HYBRID_LARGE_ITEMS 9u
#define RADIX_HYBRID_LARGE_FROM (1u << 27) /* counts above take the large chunk sort */
#define RADIX_HYBRID_MAX_COUNT (1u << 28)
/* AUTO: the counts where it was measured faster (H100, sixtieth session, u32, hybrid against
 * digit by digit, ms): pairs from 2^22 (2^21 0.151 / 0.145, 2^22 0.226 / 0.245, 2^24 0.596 /
 * 0.708, 2^28 8.51 / 10.23), keys from 2^24 to 2^27 (2^23 0.256 / 0.260, 2^24 0.438 / 0.450,
 * 2^27 2.84 / 3.03, 2^28 6.05 / 5.93: the large chunk sort loses to two digit passes of keys).
 * Not for f32 keys: in a renderer those are depths or distances, whose few top-bit values the
 * plan turns digit by digit, and the hybrid recording then costs its empty chunk and fallback
 * dispatches and the default tiles in place of the mid ones (f32 depth pairs 2^22 0.277 /
 * 0.249, 2^24 0.718 / 0.696). ON: any count whose bounds fit the scratch keys half (chunks + 1
 * <= 33 words), any 32-bit key type. */
#define RADIX_HYBRID_MIN_COUNT (1u << 22)
#define RADIX_HYBRID_KEYS_MIN_COUNT (1u << 24)
#define RADIX_HYBRID_KEYS_MAX_COUNT (1u << 27)
#define RADIX_HYBRID_MIN_COUNT_ON 4096u

/* log2 of the buckets a chunk of the hybrid path for n keys: the largest k <= RADIX_HYBRID_BINS
 * with k n / 2^16 <= 2048. */
static uint32_t hybrid_log_k(uint32_t n)
{
    uint32_t log_k = 0;
    while (log_k < RADIX_HYBRID_MAX_LOG_K &&
           ((uint64_t)2048u * RADIX_HYBRID_BUCKETS >> (log_k + 1u)) >= n)
        ++log_k;
    return log_k;
}

/* Shared memory of the chunk sort (radix_chunk_sort.comp): counters, tile, subgroup partials,
 * the rank-work word and an oversized chunk's part bounds. */
static uint32_t hybrid_smem_bytes(uint32_t items)
{
    return 4u * (RADIX_HYBRID_BINS / 2u + RADIX_HYBRID_WORKGROUP * items + RADIX_HYBRID_WORKGROUP / 4u +
                 1u + (1u << RADIX_HYBRID_SPLIT_MAX_LOG) + 1u);
}

/* Mirrors RadixPush in shaders/include/radix_common.glsl. */
typedef struct radix_push {
    uint32_t count, flags, key_type, bit_begin, bit_end, pass_index, max_count, max_tiles,
        count_word, digit_count, tile_size, aux, onesweep_groups;
} radix_push;

const char *vksort_vk_radix_pass_kind(uint32_t pipe)
{
    static const char *const names[RADIX_PIPE_COUNT] = {
        "radix_prepare", "histogram", "onesweep", "upsweep", "downsweep",
        "copy", "onesweep_fused", "onesweep_fused_histogram", "chunk_bounds", "chunk_sort"};
    return pipe < RADIX_PIPE_COUNT ? names[pipe] : "?";
}

/* Whether a pass kind is a scatter slot (plan.slot, RADIX_S_SLOT_DIGIT). */
static int pass_has_slot(uint32_t kind)
{
    return kind == RADIX_PIPE_ONESWEEP || kind == RADIX_PIPE_UPSWEEP || kind == RADIX_PIPE_DOWNSWEEP;
}

void vksort_vk_radix_pass_name(uint32_t pipe, uint32_t slot, char *buf, size_t n)
{
    if (pass_has_slot(pipe))
        snprintf(buf, n, "%s pass %u", vksort_vk_radix_pass_kind(pipe), (unsigned)slot);
    else
        snprintf(buf, n, "%s", vksort_vk_radix_pass_kind(pipe));
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
    return (v + a - 1) / a * a;
}

/* count / size rounded up (tiles of a count, chunks, workgroups), in 64 bits: count + size - 1
 * may pass 2^32. */
static uint32_t ceil_div(uint32_t count, uint32_t size)
{
    return (uint32_t)(((uint64_t)count + size - 1u) / size);
}

/* Vendors whose drivers run every started workgroup to completion alongside the others, and
 * where Onesweep has been seen correct. Mesa's lavapipe schedules fairly too, but its loop
 * limit bounds how long a look-back may wait (docs/vulkan.md): AUTO takes the portable sort
 * there. */
/* Multiprocessors of the device where the driver says (VK_NV_shader_sm_builtins), else 0. */
static uint32_t multiprocessor_count(const vksort_vk_sorter *s, const vksort_vk_sorter_create_info *info)
{
    PFN_vkEnumerateDeviceExtensionProperties enumerate = s->vk.vkEnumerateDeviceExtensionProperties;
    uint32_t n = 0;
    if (!enumerate || enumerate(s->physical_device, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return 0u;
    const size_t bytes = (size_t)n * sizeof(VkExtensionProperties);
    VkExtensionProperties *ext = vksort_vk_host_alloc(info, bytes);
    if (!ext)
        return 0u; /* only a tuning input */
    int found = 0;
    if (enumerate(s->physical_device, NULL, &n, ext) >= VK_SUCCESS) /* VK_INCOMPLETE: a prefix */
        for (uint32_t i = 0; i < n && !found; ++i)
            found = strcmp(ext[i].extensionName, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME) == 0;
    vksort_vk_host_free(s, ext);
    if (!found)
        return 0u;
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sm;
    s->vk.vkGetPhysicalDeviceProperties2(s->physical_device, &p2);
    return sm.shaderSMCount;
}

/* Shared memory of a tile pass besides the staging area: counts, starts, destinations, one more
 * digit row (the portable downsweep's runs, the fused pass's own bucket starts), scan words. */
static uint32_t radix_fixed_bytes(uint32_t wg)
{
    return 4u * (4u * RADIX_DIGITS + wg / 4u + 16u);
}

/* One tile pass's shape: workgroup, items per invocation, scatter rounds (1: the tile staged
 * whole for the scatter, 32-bit per-subgroup counters; 2, "compact": half at a time and 16-bit
 * counters), ranking by shared atomicOr or by ballots. */
typedef struct radix_geometry {
    uint32_t workgroup, items, rounds;
    int atomic_or;
} radix_geometry;

/* Shared words of a tile pass (radix_tile.glsl): while ranking, per subgroup 256 words of
 * counters (128 compact) and 256 match words with atomicOr ranking; while scattering, the
 * staged tile. */
static uint32_t radix_smem_words(const radix_geometry *g, uint32_t min_size, uint32_t key_words)
{
    uint32_t staged = g->workgroup * ((g->items + g->rounds - 1u) / g->rounds) * key_words;
    uint32_t counters = g->rounds == 2u ? RADIX_DIGITS / 2u : RADIX_DIGITS;
    uint32_t ranking = g->workgroup / min_size * (counters + (g->atomic_or ? RADIX_DIGITS : 0u));
    return staged > ranking ? staged : ranking;
}

static int radix_geometry_fits(const VkPhysicalDeviceLimits *lim, const radix_geometry *g,
                               uint32_t min_size, uint32_t key_words)
{
    return (uint64_t)radix_fixed_bytes(g->workgroup) +
               4u * (uint64_t)radix_smem_words(g, min_size, key_words) <=
           lim->maxComputeSharedMemorySize;
}

/* The geometry for wg invocations with at most `preferred` items: rounds as asked (0: one
 * round where the whole tile fits, else compact), atomicOr ranking where asked and its match
 * words fit; fewer items when shared memory cannot hold the pass. items == 0: nothing fits. */
static radix_geometry radix_fit(const VkPhysicalDeviceLimits *lim, uint32_t wg, uint32_t min_size,
                                uint32_t key_words, uint32_t preferred, uint32_t rounds,
                                int atomic_or)
{
    radix_geometry g = {wg, preferred, rounds ? rounds : 1u, 0};
    for (; g.items > 0u; --g.items) {
        for (uint32_t r = rounds ? rounds : 1u; r <= (rounds ? rounds : 2u); ++r) {
            g.rounds = r;
            g.atomic_or = atomic_or;
            if (radix_geometry_fits(lim, &g, min_size, key_words))
                return g;
            g.atomic_or = 0;
            if (radix_geometry_fits(lim, &g, min_size, key_words))
                return g;
        }
    }
    return g;
}

/* Onesweep's small-count geometry: tiles of RADIX_SMALL_TILE elements on at most 256
 * invocations, for counts up to RADIX_SMALL_MAX_COUNT, where the default tile is larger. On the
 * H200 (u32 pairs, 512 x 17 by default) 256 x 8: 2^14 90 -> 67 us, 2^16 94 -> 74 us, 2^18
 * 105 -> 88 us, 2^19 equal, 2^20 126 -> 162 us (docs/perf-notes.md). */
#define RADIX_SMALL_TILE 2048u
#define RADIX_SMALL_MAX_COUNT (1u << 18)
/* Without payloads up to 2^19 (eleventh session, fused): u32 keys 2^19 0.078 -> 0.077 ms, u64
 * keys 0.160 -> 0.138 (61 mid tiles of 8704 left most SMs idle); u32 pairs lost (+4 %, their
 * mid tiles are 256 x 16), 2^20 lost for every type (keys +35 %). */
#define RADIX_SMALL_KEYS_MAX_COUNT (1u << 19)

/* Whether a tile pass of w invocations can run: whole subgroups of the largest size, a divisor
 * of 256 below 256 (radix_tile.glsl), within the device's limits and, with a pinned subgroup
 * size, within its subgroups per workgroup (max_pinned_wg). */
static int radix_workgroup_runs(const VkPhysicalDeviceLimits *lim, uint32_t w, uint32_t max_size,
                                uint32_t max_pinned_wg)
{
    return w != 0u && w % max_size == 0u && (w >= 256u || 256u % w == 0u) &&
           w <= lim->maxComputeWorkGroupInvocations && w <= lim->maxComputeWorkGroupSize[0] &&
           w <= max_pinned_wg;
}

/* Items per invocation of Onesweep's compact u32 pairs tiles (384 invocations, two scatter
 * rounds) on 32-lane devices: the most at which NVIDIA's compiler keeps the pass at 80
 * registers, so that two workgroups share an SM (H200, driver 580.159.04, registers of 384 x
 * 15..24: 80 80 80 108 80 114 113 152 150 167). Against 512 x 17 in one round (one per SM),
 * 2026-12-01: 2^23 0.392 -> 0.364 ms, 2^24 0.710 -> 0.628, 2^25 1.325 -> 1.157, 2^28 9.96 ->
 * 8.52; 384 x 17 0.639 / 8.79, 384 x 16 0.710 / 9.78 (docs/perf-notes.md, eighteenth
 * session). */
#define RADIX_PAIRS_COMPACT_ITEMS 19u
/* The same with the look-back fallback (the _fb digit pass): 17, the most at which its pass
 * stays at 80 registers (H100, driver 580.159.04, registers of the _fb pass at 384 x 15..22: 80
 * 80 80 119 111 154 142 162, against the default's 80 up to 19; docs/perf-notes.md, fortieth
 * session). */
#define RADIX_PAIRS_COMPACT_ITEMS_FALLBACK 17u
/* The same for u32 keys: 384 x 26 (9984, rounds of 13 items, about 23 KB of shared memory) is the
 * largest at 80 registers (384 x 22..26 at 80, 28 and 30 at 140-146). H200, 2026-12-01, against
 * 384 x 22: 2^24 0.470 -> 0.445 ms, 2^28 6.296 -> 5.850, 2^23 (fused) 0.286 -> 0.282, but 2^21
 * 0.098 -> 0.103 and 2^22 0.168 -> 0.175 (fused); 384 x 24 2^24 0.457, 2^28 6.02
 * (docs/perf-notes.md, eighteenth session). */
#define RADIX_KEYS_COMPACT_ITEMS 26u
/* The portable sort's u32 pairs on 32-lane devices: 512 x 21 in one round (about 47 KB of
 * shared memory, one workgroup per SM). H200, 2026-12-02 (twenty-second session, tiles spread
 * evenly over the blocks), ms at 2^24 / 2^28 against 512 x 17: 0.869 / 12.61 against 0.908 /
 * 13.29; 512 x 23 0.930 / 13.93, 25 0.881 / 12.42, 27 0.922 / 13.37 (two rounds). */
#define RADIX_PORTABLE_PAIRS_ITEMS 21u
/* Fused u32 keys above the mid counts up to this take 384 x 22 (see vksort_vk_radix_setup). */
#define RADIX_KEYS_BAND_MAX_COUNT (1u << 22)

/* Portable u32 keys up to this take 384 x 22 tiles (see vksort_vk_radix_setup). */
#define RADIX_PORTABLE_MID_MAX_COUNT (1u << 23)

/* Counts up to which the mid geometry (see vksort_vk_radix_setup) is taken: where the default
 * is compact, and for u32 pairs on 32-lane devices. */
#define RADIX_MID_MAX_COUNT (1u << 20)
#define RADIX_PAIRS_MID_MAX_COUNT (1u << 22)

/* The 32-lane default and mid tiles run fused up to RADIX_FUSED_WAVE_TILES tiles per workgroup
 * that shares a multiprocessor (two for the compact 384 x 22 and 256 x 16, one for 512 x 17):
 * about two waves of a 132-SM H200; u32 keys' to 2^22 and u32 pairs' mid tiles (256 x 16) to
 * 640 tiles (below).
 * There (2026-11-30, docs/perf-notes.md), one fused dispatch against one per digit, with a
 * workgroup fencing and counting its partitions of a pass once (radix_onesweep_fused.comp):
 * u32 keys 2^19 0.082 -> 0.079 ms, 2^22 0.227 -> 0.206 (two waves), 2^23 +1.5 %, 2^24 +4 %;
 * u32 pairs 2^21 0.181 -> 0.161, 2^22 0.278 -> 0.262 (four waves of its small tiles), 2^24
 * +3 %; u64 keys 2^21 -1 %, 2^22 +6 %. (With a fence and count per tile, fusing lost beyond
 * one wave.) */
#define RADIX_FUSED_WAVE_TILES 256u /* tiles per workgroup slot: about two waves */
/* u32 pairs' mid tiles (256 x 16) fuse to 640 tiles (2621440 pairs), about 2.4 waves of the
 * H100's or H200's 264 slots. H100, 2026-12-06 (forty-seventh session, persistent scratch, two
 * rounds), fused against a dispatch per digit: 2^21 0.150 / 0.155 ms, 3145728 0.205 / 0.202,
 * 2^22 0.256 / 0.246 (16-bit keys 0.146 / 0.137). Four waves (512 tiles a slot, to 2^22) were
 * measured on the H200 before the digit passes ran persistent workgroups. */
#define RADIX_PAIRS_MID_FUSED_WAVE_TILES 320u
/* u32 keys' default tiles (384 x 26) fuse no further than the band's counts (384 x 22 fused, to
 * 2^22): past them a dispatch per digit wins, by far. H100, 2026-12-06 (forty-seventh session),
 * fused against a dispatch per digit: 4718592 0.239 / 0.185 ms, 6291456 0.293 / 0.221, 2^23
 * 0.376 / 0.261 (CUB 0.179, 0.218, 0.268); within the band the fused 384 x 22 tiles win against
 * 384 x 26 a dispatch per digit (2^21 0.101 / 0.113, 2^22 0.169 / 0.177). Four waves
 * (10223616 keys) were measured on the H200 in the eleventh session, when every digit pass
 * launched a workgroup per tile; the persistent digit passes (seventeenth) made them faster
 * and the fused range was not measured again until now. */
#define RADIX_U32_KEYS_FUSED_MAX_COUNT RADIX_KEYS_BAND_MAX_COUNT

/* A 32-lane geometry's fused range: wave_tiles tiles per workgroup slot (per_sm workgroups
 * share an SM), within the counts that take it. */
static void radix_set_fused_max(vksort_vk_radix_geometry *geo, uint32_t per_sm, uint32_t wave_tiles)
{
    const uint64_t fused = (uint64_t)wave_tiles * per_sm * geo->tile;
    geo->fused_max_count = fused < geo->max_count ? (uint32_t)fused : geo->max_count;
}

static void radix_set_geometry(vksort_vk_radix_geometry *out, const radix_geometry *g,
                               uint32_t min_size, uint32_t key_words, uint32_t max_count)
{
    out->workgroup = g->workgroup;
    out->items = g->items;
    out->tile = g->workgroup * g->items;
    out->smem_words = radix_smem_words(g, min_size, key_words);
    out->scatter_rounds = g->rounds;
    out->atomic_or = g->atomic_or;
    out->max_count = max_count;
}

/* Items per invocation asked for: the knob, else 17 on subgroups >= 32 (measured best on the
 * H200 among 9..25 at 256 invocations and among 13, 15, 17 at 512, docs/perf-notes.md), 8 on
 * smaller subgroups. */
static uint32_t preferred_items(const vksort_vk_sorter_create_info *info, const vksort_vk_radix *rx)
{
    if (info->radix_items_per_invocation)
        return info->radix_items_per_invocation;
    return rx->subgroup_size < 32u ? 8u : 17u;
}

vksort_result vksort_vk_radix_setup(vksort_vk_sorter *s, const vksort_vk_sorter_create_info *info,
                                    vksort_vk_algorithm requested)
{
    vksort_vk_radix *rx = &s->radix;
    memset(rx, 0, sizeof *rx);
    if (!s->vk.vkGetPhysicalDeviceProperties2)
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "radix sorts need Vulkan 1.1 (vkGetPhysicalDeviceProperties2)");
    VkPhysicalDeviceProperties base;
    s->vk.vkGetPhysicalDeviceProperties(s->physical_device, &base);
    const int size_control = (info->flags & VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL) != 0;
    /* The size-control properties exist on Vulkan 1.3 devices, and on older ones with the
     * extension (which the caller vouches for with the flag). */
    const int size_range_known = size_control || base.apiVersion >= VK_API_VERSION_1_3;
    VkPhysicalDeviceSubgroupSizeControlProperties range = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    sg.pNext = size_range_known ? &range : NULL;
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    s->vk.vkGetPhysicalDeviceProperties2(s->physical_device, &p2);
    const VkPhysicalDeviceLimits *lim = &p2.properties.limits;

    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT |
                                          VK_SUBGROUP_FEATURE_VOTE_BIT |
                                          VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                          VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    if (!(sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
        (sg.supportedOperations & needed) != needed)
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "radix sorts need subgroup basic, vote, ballot and arithmetic "
                              "operations in compute shaders");
    if (sg.subgroupSize < 4 || sg.subgroupSize > 128 || (sg.subgroupSize & (sg.subgroupSize - 1)))
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "radix sorts need a power-of-two subgroup size in 4..128 (device: %u)",
                              sg.subgroupSize);
    /* The prepare, histogram, upsweep and copy passes run RADIX_DIGITS invocations (one per
     * digit) and every pass binds RADIX_BINDING_TOTAL storage buffers: above the spec's minimums
     * (128, 4), so checked here, where AUTO can still fall back to bitonic sorts. */
    if (lim->maxComputeWorkGroupInvocations < RADIX_PLAN_WORKGROUP ||
        lim->maxComputeWorkGroupSize[0] < RADIX_PLAN_WORKGROUP)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "radix sorts need %u invocations per workgroup "
                              "(maxComputeWorkGroupInvocations %u, maxComputeWorkGroupSize[0] %u)",
                              RADIX_PLAN_WORKGROUP, lim->maxComputeWorkGroupInvocations,
                              lim->maxComputeWorkGroupSize[0]);
    const vksort_result bindings =
        vksort_vk_check_storage_buffers(s, RADIX_BINDING_TOTAL, "radix sorts");
    if (bindings != VKSORT_SUCCESS)
        return bindings;
    if (s->max_count > RADIX_MAX_COUNT)
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "radix sorts handle at most 2^30 - 1 keys (max_count %u)",
                              s->max_count);

    const int cpu_device = p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const vksort_vk_radix_choice choice =
        vksort_vk_radix_choose(requested, p2.properties.vendorID, cpu_device, info->flags);
    rx->reported_algorithm = choice.reported;
    rx->algorithm = choice.implementation;
    rx->subgroup_size = sg.subgroupSize;
    /* lavapipe (Mesa's vendor ID on a CPU device) stops the loops of an invocation after 65535
     * iterations in all (gallivm's loop limiter, docs/vulkan.md): waits there poll in bursts. */
    rx->poll_burst = p2.properties.vendorID == 0x10005u &&
                             p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                         ? 64u
                         : 1u;
    /* Bucket sorts (radix_onesweep_fused.comp) take a workgroup per bucket beside the tiles' on
     * GPUs; a CPU device runs a few workgroups at a time, where each idle one only costs (on
     * lavapipe ~7 ms each), so there (radix_buckets ON) a few more than the tiles share the
     * buckets. */
    rx->bucket_groups = cpu_device ? 16u : RADIX_DIGITS;
    /* Two fused-pipeline workgroups fit a multiprocessor (83-88 registers at 256 invocations on
     * the H200's 64 Ki-register files): a bucket sort's dispatch stays within that where it can,
     * see bucket_sort_workgroups. */
    rx->bucket_resident = cpu_device ? 0u : 2u * multiprocessor_count(s, info);
    /* A look-back's empty-word steps before it counts the predecessor itself: a step is one
     * round trip to the look-back words (about 1 us on the H200), and a running predecessor
     * publishes its counts within a few - so on a GPU that schedules fairly the fallback
     * stays the exception. */
    rx->fallback_polls = !choice.lookback_fallback ? 0u
                         : cpu_device ? RADIX_LOOKBACK_FALLBACK_POLLS_CPU
                                      : RADIX_LOOKBACK_FALLBACK_POLLS;
    const int partition_ok = (sg.supportedOperations & VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV) &&
                             vksort_vk_extension_listed(info, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME);
    rx->partitioned = (info->flags & VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING) && partition_ok;
    /* Skewed digit positions rank with peer masks (RADIX_FLAG_SKEW): subgroupPartitionNV where
     * the device has it - on the H100 its peers cost least where few digits share a subgroup
     * (f32 depth keys' top pass 124 against 143 us with ballots, docs/perf-notes.md) - else
     * ballots. */
    rx->skew_ranking = choice.implementation == VKSORT_VK_ALGORITHM_ONESWEEP && !rx->fallback_polls &&
                       !(info->flags & VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING);
    rx->skew_partitioned = rx->skew_ranking && partition_ok;
    rx->chunk_partitioned = partition_ok;

    /* The subgroup sizes the pipelines may run with: the pinned size, else the device's range
     * (a driver may pick any size in it per pipeline), else its one reported size. */
    uint32_t min_size = sg.subgroupSize, max_size = sg.subgroupSize;
    if (size_range_known && range.minSubgroupSize >= 4 && range.maxSubgroupSize <= 128 &&
        range.minSubgroupSize <= range.maxSubgroupSize) {
        min_size = range.minSubgroupSize;
        max_size = range.maxSubgroupSize;
    }
    if (size_control && (range.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
        /* Tuned for 32 (NVIDIA's only size; wave32 on AMD RDNA, SIMD32 on Intel). */
        uint32_t pin = (min_size <= 32u && 32u <= max_size) ? 32u : sg.subgroupSize;
        if (pin < min_size || pin > max_size)
            pin = min_size;
        min_size = max_size = pin;
        rx->subgroup_size = pin;
        rx->pinned_subgroup_size = pin;
        rx->max_workgroup_subgroups = range.maxComputeWorkgroupSubgroups;
    }

    /* Default workgroup: at most 16 subgroups of the smallest size (their per-digit counters
     * live in shared memory), at most 256 invocations, a divisor of 256, and whole subgroups of
     * the largest size (ranking assumes full subgroups). */
    uint32_t wg = min_size * 16u;
    if (wg > 256u)
        wg = 256u;
    if (wg < 64u)
        wg = 64u;
    if (wg < max_size)
        wg = max_size;
    if (wg > 256u)
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "radix sorts need subgroups of at most 256 lanes (device: %u)", max_size);
    if (rx->pinned_subgroup_size && wg > rx->pinned_subgroup_size * range.maxComputeWorkgroupSubgroups)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "maxComputeWorkgroupSubgroups %u too small for %u invocations",
                              range.maxComputeWorkgroupSubgroups, wg);
    if (wg > lim->maxComputeWorkGroupInvocations || wg > lim->maxComputeWorkGroupSize[0])
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "radix sorts need %u invocations per workgroup", wg);
    /* radix_items_per_invocation and radix_workgroup_size were range-checked at creation
     * (sorter.c), for every algorithm. */
    const uint32_t want_wg = info->radix_workgroup_size;
    const uint32_t key_words = s->key_size / 4u;
    /* Ranking by a shared atomicOr per item (RANK_ATOMIC_OR in radix_tile.glsl) where a
     * subgroup's lanes fit one match word (at most 32) and shared memory holds the match words
     * (radix_fit drops it otherwise); else eight ballots per item. On the H200 the ballots were
     * the ranking loop's main cost: a CUDA model of the pass ran 237 -> 180 us at 2^24 with the
     * atomicOr, the Vulkan pass -4.5 % (docs/perf-notes.md). */
    const int atomic_or = !rx->partitioned && max_size <= 32u;
    radix_geometry geo = radix_fit(lim, wg, min_size, key_words, preferred_items(info, rx), 0u, atomic_or);
    if (geo.items == 0u)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "maxComputeSharedMemorySize %u too small for the radix tile",
                              lim->maxComputeSharedMemorySize);
    /* A wider workgroup: asked for (radix_workgroup_size), else by default where every pipeline
     * runs 32 lanes: u32 keys 384 invocations with 26 items each (RADIX_KEYS_COMPACT_ITEMS, a
     * tile of 9984; CUB's is 384 x 20; the portable downsweep's too since its blocks split the
     * tiles evenly: H200 2^24 0.578 -> 0.565 ms against 22 items, 2^28 7.04 -> 6.76), staged in
     * two halves, so that two workgroups share
     * a multiprocessor in NVIDIA's 48 KiB (2^24 u32 keys: 178 -> 150 us per digit pass on the
     * H200 at 22 items); Onesweep's u32 pairs the same with 19 items (RADIX_PAIRS_COMPACT_ITEMS);
     * portable u32 pairs 512 x 21 (RADIX_PORTABLE_PAIRS_ITEMS) and u64 keys 512 x 17, one
     * workgroup per multiprocessor.
     * A size the device cannot run leaves the default. */
    uint32_t wides[2] = {want_wg, 0u};
    uint32_t default_per_sm = 0u; /* the 32-lane default shape's workgroups per SM; 0: not it */
    const int onesweep_pairs32 = rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && key_words == 1u &&
                                 s->has_payload;
    if (min_size == 32u && max_size == 32u)
        wides[1] = key_words == 1u && (!s->has_payload || onesweep_pairs32) ? 384u : 512u;
    const uint32_t max_pinned_wg =
        rx->pinned_subgroup_size ? rx->pinned_subgroup_size * range.maxComputeWorkgroupSubgroups
                                 : UINT32_MAX;
    for (int k = 0; k < 2; ++k) {
        const uint32_t wide = wides[k];
        if (!radix_workgroup_runs(lim, wide, max_size, max_pinned_wg))
            continue;
        const int compact = k == 1 && wide == 384u;
        const int portable_pairs32 = k == 1 && wide == 512u && key_words == 1u && s->has_payload &&
                                     rx->algorithm == VKSORT_VK_ALGORITHM_PORTABLE &&
                                     info->radix_items_per_invocation == 0u;
        const uint32_t pref = portable_pairs32 ? RADIX_PORTABLE_PAIRS_ITEMS
                              : !compact || info->radix_items_per_invocation != 0u ? preferred_items(info, rx)
                              : s->has_payload ? (rx->fallback_polls ? RADIX_PAIRS_COMPACT_ITEMS_FALLBACK
                                                                     : RADIX_PAIRS_COMPACT_ITEMS)
                                               : RADIX_KEYS_COMPACT_ITEMS;
        radix_geometry g = radix_fit(lim, wide, min_size, key_words, pref, compact ? 2u : 0u, atomic_or);
        if (g.items != 0u && (k == 0 || g.items == pref)) {
            geo = g;
            default_per_sm = k == 1 ? (compact ? 2u : 1u) : 0u;
            break;
        }
    }
    /* Asked for: the chosen geometry in its compact form (one-round geometry kept as mid). */
    radix_geometry one_round = geo;
    if ((info->flags & VKSORT_VK_CREATE_RADIX_COMPACT_TILES) && geo.rounds != 2u) {
        radix_geometry c = radix_fit(lim, geo.workgroup, min_size, key_words, geo.items, 2u, atomic_or);
        if (c.items != 0u)
            geo = c;
    }
    /* Compact however it came about (asked, the 32-lane default, or a tile that only fits in
     * two rounds): a one-round geometry may serve the mid counts. */
    const int compact_default = geo.rounds == 2u;
    radix_set_geometry(&rx->geometry, &geo, min_size, key_words, s->max_count);
    const uint32_t wg_final = geo.workgroup;
    /* Onesweep's small-count geometry, where the tile above is larger: the same pass with at
     * most 256 invocations (whole subgroups of the largest size) and RADIX_SMALL_TILE elements. */
    if (rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && rx->geometry.tile > RADIX_SMALL_TILE &&
        s->max_count > 1u) {
        uint32_t swg = wg_final < 256u ? wg_final : 256u;
        uint32_t sitems = RADIX_SMALL_TILE / swg;
        radix_geometry small = radix_fit(lim, swg, min_size, key_words, sitems, 0u, atomic_or);
        if (swg % max_size == 0u && sitems >= 1u && small.items == sitems) {
            const uint32_t small_max = s->has_payload ? RADIX_SMALL_MAX_COUNT : RADIX_SMALL_KEYS_MAX_COUNT;
            radix_set_geometry(&rx->small, &small, min_size, key_words,
                               s->max_count < small_max ? s->max_count : small_max);
        }
    }
    /* The small and mid geometries' sorts run fused (every digit pass in one dispatch), and
     * the default geometry's while its tiles fit about two waves (RADIX_FUSED_WAVE_TILES). */
    const int fuse = rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && !rx->partitioned &&
                     !rx->fallback_polls &&
                     !(info->flags & VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS);
    const int default_shape = default_per_sm && !(info->flags & VKSORT_VK_CREATE_RADIX_COMPACT_TILES);
    if (fuse && default_shape) {
        radix_set_fused_max(&rx->geometry, default_per_sm, RADIX_FUSED_WAVE_TILES);
        if (key_words == 1u && !s->has_payload && rx->geometry.fused_max_count > RADIX_U32_KEYS_FUSED_MAX_COUNT)
            rx->geometry.fused_max_count = RADIX_U32_KEYS_FUSED_MAX_COUNT;
    }
    uint32_t mid_per_sm = 0u; /* a 32-lane mid shape's workgroups per SM; 0: fused whole */
    int pairs_mid = 0; /* the mid geometry is u32 pairs' 256 x 16 */
    /* u32 pairs on the 32-lane default (384 x 19 compact, two workgroups per SM): counts from the
     * small geometry's up to RADIX_PAIRS_MID_MAX_COUNT take 256 x 16 (two per SM, one round)
     * instead, fused (H200, 2026-12-01, two rounds each: 2^22 0.239 ms against the compact
     * tiles' 0.237 unfused and 0.287 fused; 2^21 0.142 against 0.176 fused; at 2^23 the compact
     * tiles win, 0.364 against 0.392; docs/perf-notes.md, eighteenth session). */
    if (rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && default_shape && onesweep_pairs32 &&
        s->max_count > rx->small.max_count && radix_workgroup_runs(lim, 256u, max_size, max_pinned_wg)) {
        radix_geometry mid = radix_fit(lim, 256u, min_size, key_words, 16u, 1u, atomic_or);
        if (mid.items == 16u) {
            radix_set_geometry(&rx->mid, &mid, min_size, key_words,
                               s->max_count < RADIX_PAIRS_MID_MAX_COUNT ? s->max_count
                                                                        : RADIX_PAIRS_MID_MAX_COUNT);
            mid_per_sm = 2u;
            pairs_mid = 1;
        }
    }
    /* Where the default is compact (384 x 26 u32 keys on 32-lane devices), counts from the small
     * geometry's up to RADIX_MID_MAX_COUNT take 512 x 17 in one round instead: at 2^19-2^20 on
     * the H200 the compact tiles' second workgroup per SM has no tiles to run (124 tiles of
     * 8448 at 2^20) and their two scatter rounds cost 10 % (0.124 against 0.111 ms at 2^20,
     * docs/perf-notes.md). */
    else if (rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && compact_default &&
             s->max_count > rx->small.max_count) {
        /* 512 x 17 where every pipeline runs 32 lanes, else the one-round geometry the flag
         * replaced. */
        const int wide32 = min_size == 32u && max_size == 32u && radix_workgroup_runs(lim, 512u, max_size, max_pinned_wg);
        /* Only where one round holds the whole preferred tile (u64 keys at 512 x 17 need two). */
        const uint32_t mid_items = wide32 ? 17u : one_round.items;
        radix_geometry mid = wide32 ? radix_fit(lim, 512u, min_size, key_words, 17u, 1u, atomic_or)
                                    : radix_fit(lim, one_round.workgroup, min_size, key_words,
                                                one_round.items, 1u, atomic_or);
        if (mid.items == mid_items && (wide32 || one_round.rounds == 1u))
            radix_set_geometry(&rx->mid, &mid, min_size, key_words,
                               s->max_count < RADIX_MID_MAX_COUNT ? s->max_count : RADIX_MID_MAX_COUNT);
        mid_per_sm = wide32 ? 1u : 0u;
    }
    /* Portable u32 keys on the 32-lane default (384 x 26 compact): counts up to
     * RADIX_PORTABLE_MID_MAX_COUNT take 384 x 22 compact tiles instead. H200, 2026-12-02
     * (twenty-second session, tiles spread evenly over the blocks), ms, 22 against 26 items:
     * 2^20 0.126 / 0.131, 2^21 0.150 / 0.156, 2^22 0.230 / 0.242, 2^23 0.368 / 0.379; from 2^24
     * the larger tiles win (0.577 / 0.565, 2^25 1.060 / 1.021, 2^26 1.931 / 1.862, 2^28 7.04 /
     * 6.76). */
    else if (rx->algorithm == VKSORT_VK_ALGORITHM_PORTABLE && default_shape && key_words == 1u &&
             !s->has_payload && rx->geometry.items == RADIX_KEYS_COMPACT_ITEMS) {
        radix_geometry mid = radix_fit(lim, 384u, min_size, key_words, 22u, 2u, atomic_or);
        if (mid.items == 22u && mid.rounds == 2u)
            radix_set_geometry(&rx->mid, &mid, min_size, key_words,
                               s->max_count < RADIX_PORTABLE_MID_MAX_COUNT ? s->max_count
                                                                           : RADIX_PORTABLE_MID_MAX_COUNT);
    }
    /* Small fused sorts may sort in buckets (radix_onesweep_fused.comp) where the small tile's
     * shared memory holds a whole bucket's keys, as asked (AUTO: not on a CPU device, see
     * vksort_vk_radix_buckets). */
    const int buckets_wanted = info->radix_buckets == VKSORT_VK_RADIX_BUCKETS_ON ||
                               (info->radix_buckets == VKSORT_VK_RADIX_BUCKETS_AUTO && !cpu_device);
    rx->small_buckets = fuse && buckets_wanted && rx->small.max_count &&
                        rx->small.smem_words >= rx->small.tile * key_words;
    if (fuse) {
        rx->small.fused_max_count = rx->small.max_count;
        if (mid_per_sm)
            radix_set_fused_max(&rx->mid, mid_per_sm,
                                pairs_mid ? RADIX_PAIRS_MID_FUSED_WAVE_TILES : RADIX_FUSED_WAVE_TILES);
        else
            rx->mid.fused_max_count = rx->mid.max_count;
    }
    /* Onesweep digit passes run at most onesweep_groups workgroups, each looping over tiles
     * (radix_onesweep.comp): asked for, else two per SM for the 32-lane default shapes where
     * the driver reports the SM count - every default and mid shape runs one or two per SM on
     * the H200, and a workgroup beyond what fits starts when the others are done and leaves.
     * There (2026-12-01): u32 keys 2^24 0.530 -> 0.515 ms, 2^28 6.97 -> 6.73; pairs 2^24 0.826
     * -> 0.787, 2^28 11.12 -> 10.73; u64 keys 2^24 1.571 -> 1.538 (no workgroup launch and
     * ticket round trip per tile). */
    if (rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP)
        rx->onesweep_groups = info->radix_onesweep_workgroups ? info->radix_onesweep_workgroups
                              : default_shape ? 2u * multiprocessor_count(s, info)
                                              : 0u;
    /* The default tiles take the counts above the small and mid geometries': they fuse only
     * where those fuse whole and their wave reaches past them (so the fused counts are one
     * range, vksort_vk_sorter_properties::radix_fused_max_count). */
    const uint32_t below = rx->mid.max_count > rx->small.max_count ? rx->mid.max_count : rx->small.max_count;
    /* u32 pairs on the 32-lane default where the driver gives the SM count: the mid counts that
     * fill between 5/8 of one wave and one wave of 512 x 17 tiles (one round, one workgroup per
     * SM: the wave geometry) run those tiles, fused, instead of the 256 x 16 mid tiles. On the
     * H200 (132 SMs, 2026-12-01, persistent scratch, two rounds): 655360 pairs 0.0768 -> 0.0762
     * ms, 786432 0.0809 -> 0.0793, 917504 0.0860 -> 0.0828, 2^20 0.0898 -> 0.0844 (CUB
     * 0.085-0.088); 589824 (68 tiles) +2.5 %, and past one wave 1310720 +7 %; the compact 384 x
     * 19 tiles fused in the band instead lost 1.5 % at 786432 and 34 % at 2^20
     * (docs/perf-notes.md). */
    if (fuse && pairs_mid && rx->mid.max_count &&
        radix_workgroup_runs(lim, 512u, max_size, max_pinned_wg)) {
        radix_geometry band = radix_fit(lim, 512u, min_size, key_words, 17u, 1u, atomic_or);
        const uint64_t wave = (uint64_t)multiprocessor_count(s, info) * band.workgroup * band.items;
        uint64_t hi = wave; /* within the mid counts */
        if (hi > rx->mid.max_count)
            hi = rx->mid.max_count;
        const uint64_t lo = wave / 8u * 5u;
        if (band.items == 17u && lo >= rx->small.max_count && hi > lo) {
            radix_set_geometry(&rx->wave, &band, min_size, key_words, (uint32_t)hi);
            rx->wave.fused_max_count = (uint32_t)hi;
            rx->wave_min_count = (uint32_t)lo;
            rx->wave_max_count = (uint32_t)hi;
        }
    }
    /* u32 keys on the 32-lane default (Onesweep, 384 x 26 compact): the fused counts above the
     * mid ones up to RADIX_KEYS_BAND_MAX_COUNT run 384 x 22 compact tiles instead (the wave
     * geometry): fewer, larger tiles over the 264 slots lost there. H200, 2026-12-02 (nineteenth
     * session, persistent scratch, two rounds), 384 x 26 -> the band: 2^21 0.1033 -> 0.1003 ms,
     * 3145728 0.1530 -> 0.1453, 2^22 0.1740 -> 0.1685; past it 384 x 26 fused is as fast (6291456
     * 0.2346 both, 2^23 0.281 both). */
    if (fuse && default_shape && rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && key_words == 1u &&
        !s->has_payload && rx->mid.max_count && rx->geometry.items == RADIX_KEYS_COMPACT_ITEMS &&
        s->max_count > rx->mid.max_count) {
        radix_geometry band = radix_fit(lim, 384u, min_size, key_words, 22u, 2u, atomic_or);
        const uint32_t lo = rx->mid.max_count;
        const uint32_t hi = s->max_count < RADIX_KEYS_BAND_MAX_COUNT ? s->max_count : RADIX_KEYS_BAND_MAX_COUNT;
        if (band.items == 22u && band.rounds == 2u && hi > lo && hi <= rx->geometry.fused_max_count) {
            radix_set_geometry(&rx->wave, &band, min_size, key_words, hi);
            rx->wave.fused_max_count = hi;
            rx->wave_min_count = lo;
            rx->wave_max_count = hi;
            /* The band takes every count the default tiles would fuse (both end at 2^22 or the
             * sorter's max_count): no count runs the default tiles fused, so their fused
             * pipeline is not built. */
            if (hi >= rx->geometry.fused_max_count)
                rx->geometry.fused_max_count = 0u;
        }
    }
    if (rx->geometry.fused_max_count <= below || rx->mid.fused_max_count < rx->mid.max_count)
        rx->geometry.fused_max_count = 0u;
    /* The hybrid path, as asked (AUTO: GPUs whose pipelines all run 32-lane subgroups, the
     * measured class), for Onesweep sorts of 32-bit keys on digit passes without the look-back
     * fallback, the no-forward-progress emulation or subgroupPartitionNV ranking (none
     * measured with it). */
    const int hybrid_on = info->radix_hybrid == VKSORT_VK_RADIX_HYBRID_ON;
    const int hybrid_asked = hybrid_on || (info->radix_hybrid == VKSORT_VK_RADIX_HYBRID_AUTO && !cpu_device &&
                                           min_size == 32u && max_size == 32u &&
                                           s->key_type != VKSORT_KEY_F32);
    const uint32_t hybrid_lo = hybrid_on ? RADIX_HYBRID_MIN_COUNT_ON
                               : s->has_payload ? RADIX_HYBRID_MIN_COUNT
                                                : RADIX_HYBRID_KEYS_MIN_COUNT;
    const uint32_t hybrid_top = hybrid_on || s->has_payload ? RADIX_HYBRID_MAX_COUNT : RADIX_HYBRID_KEYS_MAX_COUNT;
    const uint32_t hybrid_hi = s->max_count < hybrid_top ? s->max_count : hybrid_top;
    const uint32_t hybrid_large_items = hybrid_hi > RADIX_HYBRID_LARGE_FROM ? RADIX_HYBRID_LARGE_ITEMS : 0u;
    if (hybrid_asked && rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP && s->key_size == 4u &&
        !rx->fallback_polls && !rx->partitioned && !s->emulate_no_forward_progress &&
        hybrid_lo <= hybrid_hi && RADIX_HYBRID_WORKGROUP <= lim->maxComputeWorkGroupInvocations &&
        RADIX_HYBRID_WORKGROUP <= lim->maxComputeWorkGroupSize[0] &&
        (!rx->pinned_subgroup_size ||
         RADIX_HYBRID_WORKGROUP <= rx->pinned_subgroup_size * rx->max_workgroup_subgroups) &&
        hybrid_smem_bytes(hybrid_large_items ? hybrid_large_items : RADIX_HYBRID_ITEMS) <=
            lim->maxComputeSharedMemorySize) {
        rx->hybrid_min_count = hybrid_lo;
        rx->hybrid_max_count = hybrid_hi;
        rx->hybrid_items = RADIX_HYBRID_ITEMS;
        rx->hybrid_large_items = hybrid_large_items;
    }
    /* The histogram's workgroup is fixed to the plan's (RADIX_PLAN_WORKGROUP: its last
     * workgroup plans with one digit per invocation, radix_plan.glsl); the chunk is a multiple
     * of RADIX_HIST_ALIGN. */
    rx->hist_chunk = RADIX_PLAN_WORKGROUP * RADIX_HIST_ITEMS;

    uint32_t tiles = ceil_div(s->max_count, rx->geometry.tile);
    const vksort_vk_radix_geometry *others[3] = {&rx->small, &rx->mid, &rx->wave};
    for (int k = 0; k < 3; ++k) {
        if (!others[k]->max_count)
            continue;
        uint32_t other_tiles = ceil_div(others[k]->max_count, others[k]->tile);
        if (other_tiles > tiles)
            tiles = other_tiles;
    }
    rx->max_tiles = tiles ? tiles : 1u;
    rx->max_blocks = rx->max_tiles < RADIX_MAX_BLOCKS ? rx->max_tiles : RADIX_MAX_BLOCKS;
    /* Portable pairs with 32-bit keys, where every block walks RADIX_LONG_BLOCK_TILES tiles or
     * more: a downsweep module that runs those blocks' full tiles without bounds tests. Its
     * second copy of the tile code slowed the sorts with fewer tiles a block even where it never
     * ran, and keys, so only those counts take it. (H200, u32 pairs, 512 x 21, ms, every count
     * on that module: 2^24 0.857 -> 0.891, 2^25 1.730 -> 1.739, 2^26 3.326 -> 3.158, 2^27 6.416
     * -> 6.011, 2^28 12.56 -> 11.49; u32 keys 2^24 +3.7 % with such a copy; docs/perf-notes.md,
     * thirty-second session.) */
    const uint64_t long_from = (uint64_t)RADIX_LONG_BLOCK_TILES * RADIX_MAX_BLOCKS * rx->geometry.tile;
    if (rx->algorithm == VKSORT_VK_ALGORITHM_PORTABLE && s->has_payload && s->key_size == 4u &&
        !rx->partitioned && long_from <= s->max_count) {
        rx->long_blocks = rx->geometry;
        rx->long_blocks.full_tile_copy = 1;
        rx->long_blocks_min_count = (uint32_t)long_from;
    }

    /* Scratch layout, each range at the storage-buffer offset alignment. */
    const VkDeviceSize a = s->min_storage_align;
    rx->state_bytes = RADIX_STATE_WORDS * 4u;
    /* Portable: the first digit pass's block counts come with the histogram (one read of the
     * keys less; H200, 2^24 u32 keys: the upsweep was 30 of 605 us), in a table of every digit
     * position's counts per block after the block counts (RADIX_BLOCK_TABLE). */
    rx->block_counts = rx->algorithm == VKSORT_VK_ALGORITHM_PORTABLE && !s->emulate_no_forward_progress;
    const uint32_t digit_positions = (uint32_t)s->key_size * 8u / RADIX_BITS;
    /* The histogram binding up to what the algorithm uses (radix_interface.h): Onesweep stops
     * before the portable upsweeps' group totals, the portable sort after the histogram pass's
     * two sets of group totals of this key type's digit positions (with the block-count table). */
    rx->hist_bytes = 4u * (rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP ? RADIX_HIST_ONESWEEP_WORDS
                           : rx->block_counts ? RADIX_HIST_TABLE_GROUP_TOTALS(digit_positions, 0u)
                                              : RADIX_HIST_TABLE_TOTALS);
    rx->lookback_bytes = rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP
                             ? 2u * (VkDeviceSize)rx->max_tiles * RADIX_DIGITS * 4u
                             : (VkDeviceSize)RADIX_BLOCK_TABLE(rx->max_blocks) * 4u +
                                   (rx->block_counts ? (VkDeviceSize)rx->max_blocks *
                                                           digit_positions * RADIX_DIGITS * 4u
                                                     : 0u);
    rx->state_offset = 0;
    rx->lookback_offset = align_up(rx->state_bytes, a);
    rx->keys_offset = align_up(rx->lookback_offset + rx->lookback_bytes, a);
    rx->values_offset = align_up(rx->keys_offset + (VkDeviceSize)s->max_count * s->key_size, a);
    rx->scratch_size = s->has_payload ? rx->values_offset + (VkDeviceSize)s->max_count * 4u
                                      : rx->keys_offset + (VkDeviceSize)s->max_count * s->key_size;
    /* The histograms go last, past every algorithm's scratch: vksort_vk_radix_place_hist. */
    rx->hist_offset = 0;
    if (rx->lookback_bytes > lim->maxStorageBufferRange)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "radix look-back of %llu bytes exceeds maxStorageBufferRange",
                              (unsigned long long)rx->lookback_bytes);
    if ((uint64_t)rx->max_tiles > (uint64_t)RADIX_DISPATCH_SPLIT * lim->maxComputeWorkGroupCount[1] ||
        lim->maxComputeWorkGroupCount[0] < RADIX_DISPATCH_SPLIT)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "maxComputeWorkGroupCount too small for max_count %u", s->max_count);
    return VKSORT_SUCCESS;
}

/* Whether portable slot k records an upsweep (block counts and scan-group totals,
 * radix_interface.h): not slot 0 with the block-count table, whose counts and group totals the
 * histogram pass wrote. (H200, 2026-12-02, against the block-scan dispatches that
 * did the scans before: u32 keys 2^20 0.1257 -> 0.1154 ms, 2^24 0.5637 -> 0.5500, 2^28 6.765 ->
 * 6.706; docs/perf-notes.md, twenty-second session.) */
static int records_upsweep(const vksort_vk_radix *rx, uint32_t slot)
{
    return slot > 0 || !rx->block_counts;
}

/* The chunk sort's module: the _nvp one (the stable sort's peers from subgroupPartitionNV) where
 * the device has it, but for the large tiles, which keep ballots: there the _nvp module slowed
 * uniform u32 pairs at 2^28 by 3 % though its stable sort never ran (chunk sort 2987 -> 3276 us,
 * H100, sixty-first session), while at the default tiles it changed nothing. */
static void chunk_sort_module_name(const vksort_vk_sorter *s, int large, char *buf, size_t n)
{
    snprintf(buf, n, "radix_chunk_sort_k%u_v%d%s", s->key_size * 8u, s->has_payload ? 1 : 0,
             s->radix.chunk_partitioned && !large ? "_nvp" : "");
}

/* Embedded module name of a radix pipeline (variants: see src/vk/CMakeLists.txt). */
void vksort_vk_radix_module_name(const vksort_vk_sorter *s, vksort_vk_radix_pipe pipe,
                                 const vksort_vk_radix_geometry *geo, char *buf, size_t n)
{
    const unsigned kw = s->key_size * 8u;
    const int v = s->has_payload ? 1 : 0;
    const char *part = s->radix.partitioned ? "_nvp" : "";
    /* The digit pass's skew-proof ranking takes its peers from subgroupPartitionNV in the _nvp
     * modules (the default ranking there is still the atomicOr one unless partitioned). */
    const char *onesweep_part = s->radix.partitioned || s->radix.skew_partitioned ? "_nvp" : "";
    switch (pipe) {
    case RADIX_PIPE_PREPARE: snprintf(buf, n, "radix_prepare"); break;
    case RADIX_PIPE_HISTOGRAM: snprintf(buf, n, "radix_histogram_k%u", kw); break;
    case RADIX_PIPE_UPSWEEP: snprintf(buf, n, "radix_upsweep_k%u", kw); break;
    case RADIX_PIPE_COPY: snprintf(buf, n, "radix_copy_k%u_v%d", kw, v); break;
    case RADIX_PIPE_ONESWEEP:
        snprintf(buf, n, "radix_onesweep_k%u_v%d%s%s", kw, v, onesweep_part,
                 s->radix.fallback_polls ? "_fb" : "");
        break;
    case RADIX_PIPE_ONESWEEP_FUSED:
    case RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM: snprintf(buf, n, "radix_onesweep_fused_k%u_v%d", kw, v); break;
    case RADIX_PIPE_CHUNK_BOUNDS: snprintf(buf, n, "radix_chunk_bounds_k%u", kw); break;
    case RADIX_PIPE_CHUNK_SORT: chunk_sort_module_name(s, 0, buf, n); break;
    case RADIX_PIPE_DOWNSWEEP:
        /* (long blocks: only 32-bit keys with payloads, without partitioned ranking) */
        snprintf(buf, n, "radix_downsweep_k%u_v%d%s%s", kw, v, part,
                 geo && geo->full_tile_copy ? "_long" : "");
        break;
    default: snprintf(buf, n, "?"); break;
    }
}

/* The tile passes (radix_tile.glsl): their shape comes from specialization constants. */
static int radix_tile_pass(vksort_vk_radix_pipe pipe)
{
    return pipe == RADIX_PIPE_ONESWEEP || pipe == RADIX_PIPE_DOWNSWEEP ||
           pipe == RADIX_PIPE_ONESWEEP_FUSED || pipe == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM;
}

#define RADIX_SPEC_TILE_ENTRIES 14u

void vksort_vk_radix_specialization(const vksort_vk_sorter *s, vksort_vk_radix_pipe pipe,
                                    const vksort_vk_radix_geometry *geo, vksort_vk_radix_spec *out)
{
    const vksort_vk_radix *rx = &s->radix;
    /* Spec constants of the tile passes: 0 workgroup size, 1 items per invocation, 3 shared
     * words, 4 atomicOr ranking, 5 scatter rounds, 6 16-bit counters (compact: with 2 rounds),
     * 8 the no-forward-progress emulation's code (radix_onesweep_tile.glsl), 12 whether the
     * fused pass builds its own histogram (radix_onesweep_fused.comp's FOLD_HISTOGRAM), 13
     * whether it carries the bucket sorts' code (the small geometry's fused pipelines only:
     * elsewhere it cost 1-10 % on the H200), 14 the look-back fallback's empty-word steps (the
     * _fb digit-pass modules only), 15 whether the digit passes carry the skew-proof ranking's
     * code (radix_onesweep.comp's SKEW_PATH: off with VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING, so
     * that such a sorter's passes are compiled without it - its mere presence costs uniform
     * sorts); the other passes have fixed sizes. Every pass: 7 the key type (radix_common.glsl), 9 the
     * polls per spin iteration (radix_wait.glsl; passes that never wait ignore it), 10 whether
     * the histogram pass writes the block-count table (its code only in portable sorters'
     * histogram pipelines: code that never runs has slowed passes on the H200). */
    const int tile_pass = radix_tile_pass(pipe);
    const vksort_vk_radix_geometry *g = geo ? geo : &rx->geometry;
    const uint32_t data[RADIX_SPEC_TILE_ENTRIES] = {
        (uint32_t)s->key_type,
        rx->poll_burst,
        rx->block_counts ? VK_TRUE : VK_FALSE,
        g->workgroup,
        g->items,
        g->smem_words,
        g->atomic_or ? VK_TRUE : VK_FALSE,
        g->scatter_rounds,
        g->scatter_rounds == 2u ? VK_TRUE : VK_FALSE,
        s->emulate_no_forward_progress ? VK_TRUE : VK_FALSE,
        pipe == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM ? VK_TRUE : VK_FALSE,
        rx->small_buckets && geo == &rx->small ? VK_TRUE : VK_FALSE,
        rx->fallback_polls,
        rx->skew_ranking ? VK_TRUE : VK_FALSE};
    const uint32_t ids[RADIX_SPEC_TILE_ENTRIES] = {7, 9, 10, 0, 1, 3, 4, 5, 6, 8, 12, 13, 14, 15};
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < RADIX_SPEC_TILE_ENTRIES; ++i) {
        out->data[i] = data[i];
        out->entries[i] = (VkSpecializationMapEntry){ids[i], 4u * i, 4u};
    }
    /* The fixed-size passes take only the key type, the poll burst and the table flag (the first
     * three entries).
     * The portable pairs downsweep keeps the runtime key type: specialised, it ran 1.6x slower
     * on the H200 (2^24 u32 pairs 1.25 -> 2.03 ms, docs/perf-notes.md) while every other pass
     * gained 3-5 %. Its 32-bit-key module encodes keys without branching on the type
     * (ORDER_KEY_BRANCH_FREE, radix_common.glsl). */
    const uint32_t first = pipe == RADIX_PIPE_DOWNSWEEP && s->has_payload ? 1u : 0u;
    out->info.mapEntryCount = (tile_pass ? RADIX_SPEC_TILE_ENTRIES : 3u) - first;
    out->info.pMapEntries = out->entries + first;
    out->info.dataSize = sizeof out->data;
    out->info.pData = out->data;
}

/* The subgroup size to pin for a pipeline of `local` invocations: the sorter's, where the device
 * allows that many invocations at it, else none. */
static uint32_t radix_pin_for(const vksort_vk_radix *rx, uint32_t local)
{
    const uint32_t pin = rx->pinned_subgroup_size;
    return pin && local > pin * rx->max_workgroup_subgroups ? 0u : pin;
}

/* geo: one of the other geometries (its pipeline into geo->onesweep, for the fused passes
 * geo->fused or geo->fused_histogram, for the portable downsweep geo->downsweep); NULL: the
 * default geometry. */
static vksort_result create_pipeline(vksort_vk_sorter *s, vksort_vk_radix_pipe pipe,
                                     vksort_vk_radix_geometry *geo)
{
    vksort_vk_radix *rx = &s->radix;
    char name[64];
    vksort_vk_radix_module_name(s, pipe, geo, name, sizeof name);
    const int tile_pass = radix_tile_pass(pipe);
    const uint32_t workgroup = (geo ? geo : &rx->geometry)->workgroup;
    vksort_vk_radix_spec spec;
    vksort_vk_radix_specialization(s, pipe, geo, &spec);
    char label[96];
    snprintf(label, sizeof label, "vksort %s%s", name,
             geo == &rx->small ? " small tiles" : geo == &rx->mid ? " mid tiles"
                                       : geo == &rx->wave ? " wave tiles"
                                       : geo == &rx->long_blocks ? " long blocks" : "");
    /* Pin the tile passes (their shared counters assume the size); the fixed 256-invocation
     * passes work with any size and are pinned only where 256 invocations allow it. */
    const uint32_t pin = radix_pin_for(rx, tile_pass ? workgroup : 256u);
    return vksort_vk_create_compute_pipeline(s, name, &spec.info, pin, rx->layout,
                                             label,
                                             !geo ? &rx->pipes[pipe]
                                             : pipe == RADIX_PIPE_ONESWEEP_FUSED ? &geo->fused
                                             : pipe == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM ? &geo->fused_histogram
                                             : pipe == RADIX_PIPE_DOWNSWEEP ? &geo->downsweep
                                                                                 : &geo->onesweep);
}

/* The small geometry's fused sorts of a host count up to this many tiles build their own
 * histogram and plan (RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM, one dispatch per sort). H200,
 * 2026-12-02 (nineteenth session, persistent scratch, two rounds, ms, histogram pass + fused ->
 * one dispatch), u32 pairs: 2^12 0.0386 -> 0.0351, 2^14 0.0418 -> 0.0385, 2^16 (32 tiles)
 * 0.0479 -> 0.0459-0.0466; u32 keys 2^16 0.0448 -> 0.0444; but 2^17 pairs 0.0513 -> 0.0561, 2^18
 * 0.0570 -> 0.0754, 2^19 keys 0.068 -> 0.131, and u64 keys 2^16 0.0780 -> 0.0824 (more tiles,
 * or 64-bit keys, lose: not understood - the pass's registers?, docs/perf-notes.md). */
#define RADIX_FOLD_MAX_TILES 32u

/* The counts that sort in the small geometry's fused pass with its own histogram: 32-bit keys
 * on a persistent scratch (a host count needs no prepare pass there), where the small tiles have
 * the plan's workgroup size (its one digit per invocation) and shared words for every digit
 * position's counts; 0: none. */
static uint32_t radix_fold_max_count(const vksort_vk_sorter *s)
{
    const vksort_vk_radix_geometry *g = &s->radix.small;
    const uint32_t positions = s->key_size * 8u / RADIX_BITS;
    if (s->radix.algorithm != VKSORT_VK_ALGORITHM_ONESWEEP || !s->persistent_scratch ||
        s->key_size != 4u || !g->max_count || !g->fused_max_count ||
        g->workgroup != RADIX_PLAN_WORKGROUP || g->smem_words < positions * RADIX_DIGITS)
        return 0u;
    const uint64_t most = (uint64_t)RADIX_FOLD_MAX_TILES * g->tile;
    return most < g->fused_max_count ? (uint32_t)most : g->fused_max_count;
}

/* The hybrid path's chunk sort, default or large tiles (radix_chunk_sort.comp: spec constants 7
 * the key type, 1 the items per invocation). */
void vksort_vk_radix_chunk_sort_specialization(const vksort_vk_sorter *s, int large, char *name,
                                               size_t name_size, vksort_vk_radix_spec *out)
{
    chunk_sort_module_name(s, large, name, name_size);
    memset(out, 0, sizeof *out);
    out->data[0] = (uint32_t)s->key_type;
    out->data[1] = large ? s->radix.hybrid_large_items : s->radix.hybrid_items;
    out->entries[0] = (VkSpecializationMapEntry){7u, 0u, 4u};
    out->entries[1] = (VkSpecializationMapEntry){1u, 4u, 4u};
    out->info = (VkSpecializationInfo){2u, out->entries, 2u * sizeof(uint32_t), out->data};
}

/* The hybrid recording's last slot: the default geometry's digit pass with COPY_SLOT (spec
 * constant 16, radix_onesweep.comp), which copies where the plan asks. */
static vksort_result create_copy_slot_pipeline(vksort_vk_sorter *s)
{
    vksort_vk_radix *rx = &s->radix;
    char name[64], label[96];
    vksort_vk_radix_module_name(s, RADIX_PIPE_ONESWEEP, NULL, name, sizeof name);
    snprintf(label, sizeof label, "vksort %s copy slot", name);
    vksort_vk_radix_spec spec;
    vksort_vk_radix_specialization(s, RADIX_PIPE_ONESWEEP, NULL, &spec);
    const uint32_t k = spec.info.mapEntryCount;
    spec.data[k] = VK_TRUE;
    spec.entries[k] = (VkSpecializationMapEntry){16u, 4u * k, 4u};
    spec.info.mapEntryCount = k + 1u;
    return vksort_vk_create_compute_pipeline(s, name, &spec.info,
                                             radix_pin_for(rx, rx->geometry.workgroup), rx->layout,
                                             label, &rx->hybrid_copy_slot);
}

static vksort_result create_chunk_sort_pipeline(vksort_vk_sorter *s, int large, VkPipeline *out)
{
    const vksort_vk_radix *rx = &s->radix;
    char name[64], label[96];
    vksort_vk_radix_spec spec;
    vksort_vk_radix_chunk_sort_specialization(s, large, name, sizeof name, &spec);
    snprintf(label, sizeof label, "vksort %s x%u", name, (unsigned)spec.data[1]);
    const uint32_t pin = rx->pinned_subgroup_size; /* setup checked that 512 invocations allow it */
    return vksort_vk_create_compute_pipeline(s, name, &spec.info, pin, rx->layout, label, out);
}

vksort_result vksort_vk_radix_create_pipelines(vksort_vk_sorter *s)
{
    vksort_result r = vksort_vk_create_push_layout(s, RADIX_BINDING_TOTAL, sizeof(radix_push),
                                                   &s->radix.set_layout, &s->radix.layout);
    if (r != VKSORT_SUCCESS)
        return r;
    const int onesweep = s->radix.algorithm == VKSORT_VK_ALGORITHM_ONESWEEP;
    for (int p = 0; p < RADIX_PIPE_COUNT; ++p) {
        int needed = 1;
        if (p == RADIX_PIPE_ONESWEEP)
            needed = onesweep;
        if (p == RADIX_PIPE_UPSWEEP || p == RADIX_PIPE_DOWNSWEEP)
            needed = !onesweep;
        if (p == RADIX_PIPE_ONESWEEP_FUSED) /* the small and mid geometries' below */
            needed = s->radix.geometry.fused_max_count != 0u;
        if (p == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM) /* the small geometry's only */
            needed = 0;
        if (p == RADIX_PIPE_CHUNK_BOUNDS || p == RADIX_PIPE_CHUNK_SORT) /* below */
            needed = 0;
        if (!needed)
            continue;
        r = create_pipeline(s, (vksort_vk_radix_pipe)p, NULL);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    vksort_vk_radix_geometry *others[3] = {&s->radix.small, &s->radix.mid, &s->radix.wave};
    for (int k = 0; k < 3; ++k) {
        if (!others[k]->max_count)
            continue;
        /* The wave geometry's sorts always run fused; the portable mid geometry's downsweep. */
        if (!onesweep)
            r = create_pipeline(s, RADIX_PIPE_DOWNSWEEP, others[k]);
        else if (others[k] != &s->radix.wave)
            r = create_pipeline(s, RADIX_PIPE_ONESWEEP, others[k]);
        if (r == VKSORT_SUCCESS && others[k]->fused_max_count)
            r = create_pipeline(s, RADIX_PIPE_ONESWEEP_FUSED, others[k]);
        if (r == VKSORT_SUCCESS && others[k] == &s->radix.small && radix_fold_max_count(s)) {
            r = create_pipeline(s, RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM, others[k]);
            if (r == VKSORT_SUCCESS)
                s->radix.fold_max_count = radix_fold_max_count(s);
        }
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (s->radix.hybrid_max_count) {
        r = create_pipeline(s, RADIX_PIPE_CHUNK_BOUNDS, NULL);
        if (r == VKSORT_SUCCESS)
            r = create_chunk_sort_pipeline(s, 0, &s->radix.pipes[RADIX_PIPE_CHUNK_SORT]);
        if (r == VKSORT_SUCCESS && s->radix.hybrid_large_items)
            r = create_chunk_sort_pipeline(s, 1, &s->radix.hybrid_large_sort);
        if (r == VKSORT_SUCCESS)
            r = create_copy_slot_pipeline(s);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (s->radix.long_blocks_min_count)
        return create_pipeline(s, RADIX_PIPE_DOWNSWEEP, &s->radix.long_blocks);
    return VKSORT_SUCCESS;
}

void vksort_vk_radix_destroy_pipelines(vksort_vk_sorter *s)
{
    vksort_vk_radix *rx = &s->radix;
    for (int p = 0; p < RADIX_PIPE_COUNT; ++p) {
        if (rx->pipes[p])
            s->vk.vkDestroyPipeline(s->device, rx->pipes[p], s->vk_allocator);
        rx->pipes[p] = VK_NULL_HANDLE;
    }
    if (rx->hybrid_large_sort)
        s->vk.vkDestroyPipeline(s->device, rx->hybrid_large_sort, s->vk_allocator);
    rx->hybrid_large_sort = VK_NULL_HANDLE;
    if (rx->hybrid_copy_slot)
        s->vk.vkDestroyPipeline(s->device, rx->hybrid_copy_slot, s->vk_allocator);
    rx->hybrid_copy_slot = VK_NULL_HANDLE;
    vksort_vk_radix_geometry *others[4] = {&rx->small, &rx->mid, &rx->wave, &rx->long_blocks};
    for (int k = 0; k < 4; ++k) {
        if (others[k]->onesweep)
            s->vk.vkDestroyPipeline(s->device, others[k]->onesweep, s->vk_allocator);
        if (others[k]->fused)
            s->vk.vkDestroyPipeline(s->device, others[k]->fused, s->vk_allocator);
        if (others[k]->fused_histogram)
            s->vk.vkDestroyPipeline(s->device, others[k]->fused_histogram, s->vk_allocator);
        if (others[k]->downsweep)
            s->vk.vkDestroyPipeline(s->device, others[k]->downsweep, s->vk_allocator);
        others[k]->downsweep = VK_NULL_HANDLE;
        others[k]->onesweep = VK_NULL_HANDLE;
        others[k]->fused = VK_NULL_HANDLE;
        others[k]->fused_histogram = VK_NULL_HANDLE;
    }
    if (rx->layout)
        s->vk.vkDestroyPipelineLayout(s->device, rx->layout, s->vk_allocator);
    if (rx->set_layout)
        s->vk.vkDestroyDescriptorSetLayout(s->device, rx->set_layout, s->vk_allocator);
    rx->layout = VK_NULL_HANDLE;
    rx->set_layout = VK_NULL_HANDLE;
}

int vksort_vk_radix_selected(const vksort_vk_sorter *s, const vksort_vk_sort_info *info)
{
    if (s->radix.algorithm == VKSORT_VK_ALGORITHM_AUTO)
        return 0; /* no radix pipelines */
    if (!s->auto_algorithm)
        return 1; /* created as ONESWEEP or PORTABLE */
    /* AUTO: bitonic when every count this sort can see fits one bitonic tile or the RANK small
     * sort (on the H200 8192 u32 pairs take 17.5 us with RANK, 55 us with Onesweep). */
    const vksort_vk_tile *tile = &s->tile[(info->flags & VKSORT_FLAG_STABLE) ? 1 : 0];
    uint32_t n = info->count_buffer.buffer ? s->max_count : info->count;
    if (s->rank_capacity && n <= s->rank_capacity && n >= s->rank_min_count)
        return 0;
    return n > tile->size;
}

void vksort_vk_radix_place_hist(vksort_vk_sorter *s, VkDeviceSize offset)
{
    s->radix.hist_offset = offset;
    s->radix.scratch_size = offset + s->radix.hist_bytes;
}

/* The histogram pass's workgroups for n elements, as radix_prepare.comp sizes them (at least
 * one, at most RADIX_HIST_MAX_GROUPS, of at least `least` elements each); for a host-sized sort,
 * which has no prepare pass. */
static uint32_t radix_hist_groups(uint32_t n, uint32_t least)
{
    uint32_t g = ceil_div(n, least);
    return g < 1u ? 1u : g > RADIX_HIST_MAX_GROUPS ? RADIX_HIST_MAX_GROUPS : g;
}

/* The portable blocks of n elements in tiles of `tile`, as radix_tile_counts (radix_common.glsl)
 * derives them (min(tiles, max_blocks), the tiles spread evenly); at least one (the histogram
 * pass's last workgroup plans, for n < 2 too). */
static uint32_t radix_blocks(uint32_t n, uint32_t tile, uint32_t max_blocks)
{
    const uint32_t tiles = ceil_div(n, tile);
    const uint32_t blocks = tiles < max_blocks ? tiles : max_blocks;
    return blocks < 1u ? 1u : blocks;
}

vksort_result vksort_vk_radix_plan_sort(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                        vksort_vk_radix_plan *p, vksort_vk_sorter *s_msg)
{
    memset(p, 0, sizeof *p);
    vksort_result r = vksort_vk_check_sort_info(s, info, s_msg, &p->bit_begin, &p->bit_end,
                                                &p->indirect, &p->count);
    if (r != VKSORT_SUCCESS)
        return r;
    r = vksort_vk_check_range(s_msg, &info->scratch, s->min_storage_align, s->radix.scratch_size, "scratch",
                    VKSORT_ERROR_SCRATCH_TOO_SMALL);
    if (r != VKSORT_SUCCESS)
        return r;
    if (p->indirect) {
        r = vksort_vk_check_range(s_msg, &info->count_buffer, 4, 4, "count", VKSORT_ERROR_BUFFER_TOO_SMALL);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    p->digit_count = (p->bit_end - p->bit_begin + RADIX_BITS - 1u) / RADIX_BITS;
    if (!p->indirect && p->count < 2)
        return VKSORT_SUCCESS;

    const int onesweep = s->radix.algorithm == VKSORT_VK_ALGORITHM_ONESWEEP;
#define ADD(kind_, slot_)                                                         \
    do {                                                                         \
        p->kind[p->pass_count] = (uint8_t)(kind_);                               \
        p->slot[p->pass_count] = (uint8_t)(slot_);                               \
        p->pass_count++;                                                         \
    } while (0)
    const vksort_vk_radix *rx = &s->radix;
    p->geometry = NULL;
    /* The hybrid path (radix_interface.h) for host counts in its range over the whole 32 bits,
     * on the default tiles: histogram, slots 0 and 1 (the top digits, or the first two active
     * ones where the plan goes digit by digit), the chunk passes, slots 2..5 (the fallback's
     * digits, or the other active ones; slot 5 also the copy back, RADIX_SLOT_COPY). */
    if (onesweep && rx->hybrid_max_count && !p->indirect && p->count >= rx->hybrid_min_count &&
        p->count <= rx->hybrid_max_count && p->bit_begin == 0u && p->bit_end == 32u) {
        p->hybrid = 1;
        p->hybrid_large = rx->hybrid_large_items && p->count > RADIX_HYBRID_LARGE_FROM;
        const uint32_t tile = RADIX_HYBRID_WORKGROUP * (p->hybrid_large ? rx->hybrid_large_items : rx->hybrid_items);
        /* The plan's limit on its estimate of the largest chunk: the tile and a half - the
         * estimate (from the top digits' largest counts) runs high for uniform keys of small
         * counts (2^16: ~2900 for chunks of ~2048), and is meant to catch gross skew, such as
         * f32 depths, whose estimate is a hundred times the tile. */
        p->hybrid_aux = RADIX_HYBRID_AUX(hybrid_log_k(p->count), tile + tile / 2u);
        p->host_sized = s->persistent_scratch;
        if (!p->host_sized)
            ADD(RADIX_PIPE_PREPARE, 0);
        ADD(RADIX_PIPE_HISTOGRAM, 0);
        ADD(RADIX_PIPE_ONESWEEP, 0);
        ADD(RADIX_PIPE_ONESWEEP, 1);
        ADD(RADIX_PIPE_CHUNK_BOUNDS, 0);
        ADD(RADIX_PIPE_CHUNK_SORT, 0);
        /* (No copy pass: the last slot copies where the plan needs it, radix_interface.h's
         * RADIX_SLOT_COPY.) */
        for (uint32_t k = RADIX_HYBRID_FALLBACK_SLOT; k <= RADIX_HYBRID_COPY_SLOT; ++k)
            ADD(RADIX_PIPE_ONESWEEP, k);
        return VKSORT_SUCCESS;
    }
    /* The mid counts of one wave of the wave geometry's tiles (wave_min_count, wave_max_count]
     * run those tiles, fused. */
    const int wave = onesweep && p->count > rx->wave_min_count && p->count <= rx->wave_max_count;
    if (onesweep && rx->small.max_count && p->count <= rx->small.max_count)
        p->geometry = &rx->small;
    else if (wave)
        p->geometry = &rx->wave;
    else if (rx->mid.max_count && p->count <= rx->mid.max_count)
        p->geometry = &rx->mid;
    else if (rx->long_blocks_min_count && p->count >= rx->long_blocks_min_count)
        p->geometry = &rx->long_blocks;
    /* A host count on a persistent scratch needs no prepare pass: the histogram pass is sized
     * here, finds its counts and ticket zero (the last sort's plan left them so) and its plan
     * does the rest (RADIX_FLAG_HOST_SIZED). */
    p->host_sized = s->persistent_scratch && !p->indirect;
    /* There the small geometry's fused pass also builds the histogram and plans: one dispatch. */
    /* Where buckets of uniform keys fit a tile (half of one on average): larger counts would
     * only pay for the extra workgroups and sort digit by digit. And from 4 tiles on: below,
     * the three passes saved cost less than the buckets' local sorts (H200, u32 pairs 2^12
     * 0.0357 -> 0.0372 ms; 2^14 0.0392 -> 0.0380). */
    p->buckets = rx->small_buckets && p->geometry == &rx->small &&
                 p->count > 4u * rx->small.tile &&
                 p->count <= rx->small.tile * (RADIX_DIGITS / 2u); /* where it runs fused, below */
    if (p->host_sized && p->geometry == &rx->small && p->count <= rx->fold_max_count) {
        ADD(RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM, 0);
        return VKSORT_SUCCESS;
    }
    if (!p->host_sized)
        ADD(RADIX_PIPE_PREPARE, 0);
    ADD(RADIX_PIPE_HISTOGRAM, 0);
    if (onesweep && (wave || p->count <= (p->geometry ? p->geometry : &rx->geometry)->fused_max_count)) {
        ADD(RADIX_PIPE_ONESWEEP_FUSED, 0); /* every digit and the copy back */
        return VKSORT_SUCCESS;
    }
    /* One slot per digit; the plan gives those past the active digits no workgroups. With the
     * block-count table the histogram pass did slot 0's upsweep. */
    for (uint32_t k = 0; k < p->digit_count; ++k) {
        if (onesweep) {
            ADD(RADIX_PIPE_ONESWEEP, k);
        } else {
            if (records_upsweep(rx, k))
                ADD(RADIX_PIPE_UPSWEEP, k);
            ADD(RADIX_PIPE_DOWNSWEEP, k);
        }
    }
    ADD(RADIX_PIPE_COPY, 0);
#undef ADD
    return VKSORT_SUCCESS;
}

/* Indirect table entry of a pass (RADIX_E_*), or -1 for the fixed single-workgroup passes. */
static int pass_entry(uint32_t kind, uint32_t slot)
{
    switch (kind) {
    case RADIX_PIPE_HISTOGRAM: return (int)RADIX_E_HISTOGRAM;
    case RADIX_PIPE_ONESWEEP:
    case RADIX_PIPE_DOWNSWEEP: return (int)(RADIX_E_PASS + slot);
    case RADIX_PIPE_UPSWEEP: return (int)(RADIX_E_UPSWEEP + slot);
    case RADIX_PIPE_COPY: return (int)RADIX_E_COPY;
    case RADIX_PIPE_CHUNK_BOUNDS: return (int)RADIX_E_CHUNK_BOUNDS;
    case RADIX_PIPE_CHUNK_SORT: return (int)RADIX_E_CHUNK_SORT;
    default: return -1;
    }
}

/* Whether pass `kind` is recorded with vkCmdDispatchIndirect (its size from the plan's words in
 * the scratch): the barrier before it then names the indirect-command stage, and only then. */
static int pass_is_indirect(const vksort_vk_radix_plan *p, uint32_t kind, uint32_t slot)
{
    if (kind == RADIX_PIPE_ONESWEEP_FUSED || kind == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM)
        return 0;
    /* (The hybrid path's slots from RADIX_HYBRID_FALLBACK_SLOT on run only where the plan went
     * digit by digit or a chunk sort opened them: sized by the GPU.) */
    if (kind == RADIX_PIPE_ONESWEEP && p->hybrid && slot >= RADIX_HYBRID_FALLBACK_SLOT)
        return 1;
    if ((kind == RADIX_PIPE_HISTOGRAM || kind == RADIX_PIPE_ONESWEEP) && p->host_sized)
        return 0;
    return pass_entry(kind, 0u) >= 0;
}

/* The workgroups of a fused dispatch over `tiles` tiles: one per tile, and where the sort may
 * go in buckets (RADIX_DIGITS bucket tasks beside the tiles' first pass) spare workgroups for
 * them, as many as the device runs beside the tiles' at once (bucket_resident) but never fewer
 * than leave each bucket task a workgroup of the first round: the tiles' workgroups, which
 * finish the first pass before any bucket can start, take the buckets that no spare took. Past
 * the resident count a spare starts only when another has left, and its plan then lies on the
 * sort's path. H200 (2026-12-03, tiles + 256 -> at most 264 workgroups): u32 pairs 2^16 26.2
 * -> 24.7 us, u32 keys 2^16 25.3 -> 23.8, f32 depth pairs 2^18 62.2 -> 59.6; fewer spares than
 * buckets minus tiles (240 workgroups in all) cost 2.4-8 us at 2^15-2^18. */
static uint32_t bucket_sort_workgroups(const vksort_vk_radix *rx, uint32_t tiles, int buckets)
{
    if (!buckets)
        return tiles;
    uint32_t spares = rx->bucket_groups;
    if (rx->bucket_resident) {
        const uint32_t room = rx->bucket_resident > tiles ? rx->bucket_resident - tiles : 0u;
        const uint32_t needed = RADIX_DIGITS > tiles ? RADIX_DIGITS - tiles : 0u;
        const uint32_t wanted = room > needed ? room : needed;
        spares = wanted < spares ? wanted : spares;
    }
    return tiles + spares;
}

vksort_result vksort_vk_radix_record(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                     const vksort_vk_sort_info *info,
                                     const vksort_vk_radix_plan *p)
{
    const vksort_vk_radix *rx = &s->radix;
    const int timestamps = vksort_vk_timestamps_begin(s, cmd, info, p->pass_count);
    if (p->pass_count == 0)
        return VKSORT_SUCCESS;
    const int onesweep = rx->algorithm == VKSORT_VK_ALGORITHM_ONESWEEP;
    vksort_vk_label_begin(s, cmd, onesweep ? "vksort onesweep radix sort"
                                           : "vksort portable radix sort");

    const VkDeviceSize n = p->count;
    const VkDeviceSize base = info->scratch.offset;
    VkDescriptorBufferInfo bi[RADIX_BINDING_TOTAL];
    memset(bi, 0, sizeof bi);
    bi[RADIX_BINDING_KEYS_A] = (VkDescriptorBufferInfo){info->keys.buffer, info->keys.offset,
                                                        n * s->key_size};
    bi[RADIX_BINDING_VALUES_A] = (VkDescriptorBufferInfo){info->values.buffer, info->values.offset,
                                                          n * 4u};
    bi[RADIX_BINDING_STATE] = (VkDescriptorBufferInfo){info->scratch.buffer,
                                                       base + rx->state_offset, rx->state_bytes};
    bi[RADIX_BINDING_KEYS_B] = (VkDescriptorBufferInfo){info->scratch.buffer,
                                                        base + rx->keys_offset, n * s->key_size};
    bi[RADIX_BINDING_VALUES_B] = (VkDescriptorBufferInfo){info->scratch.buffer,
                                                          base + rx->values_offset, n * 4u};
    bi[RADIX_BINDING_HIST] = (VkDescriptorBufferInfo){info->scratch.buffer, base + rx->hist_offset,
                                                      rx->hist_bytes};
    bi[RADIX_BINDING_LOOKBACK] = (VkDescriptorBufferInfo){
        info->scratch.buffer, base + rx->lookback_offset, rx->lookback_bytes};
    /* The count binding starts at the offset rounded down to the storage alignment; a host
     * count binds the state range there (the shader does not read it). */
    uint32_t count_word = 0;
    if (p->indirect) {
        VkDeviceSize cb = info->count_buffer.offset / s->min_storage_align * s->min_storage_align;
        count_word = (uint32_t)((info->count_buffer.offset - cb) / 4u);
        bi[RADIX_BINDING_COUNT] = (VkDescriptorBufferInfo){info->count_buffer.buffer, cb,
                                                           (count_word + 1u) * 4u};
    } else {
        bi[RADIX_BINDING_COUNT] = bi[RADIX_BINDING_STATE];
    }
    /* Odd scatter slots see the halves swapped (A: B, B: A), so that every scatter pass reads A
     * and writes B: its shaders then never choose between two buffers per access (on the H200
     * a branch and a second address path at every load and store: 2-3 % of a sort). */
    VkDescriptorBufferInfo swapped[RADIX_BINDING_TOTAL];
    memcpy(swapped, bi, sizeof swapped);
    swapped[RADIX_BINDING_KEYS_A] = bi[RADIX_BINDING_KEYS_B];
    swapped[RADIX_BINDING_KEYS_B] = bi[RADIX_BINDING_KEYS_A];
    swapped[RADIX_BINDING_VALUES_A] = bi[RADIX_BINDING_VALUES_B];
    swapped[RADIX_BINDING_VALUES_B] = bi[RADIX_BINDING_VALUES_A];
    VkWriteDescriptorSet w[2][RADIX_BINDING_TOTAL];
    uint32_t nw = 0;
    memset(w, 0, sizeof w);
    for (uint32_t b = 0; b < RADIX_BINDING_TOTAL; ++b) {
        if (!s->has_payload && (b == RADIX_BINDING_VALUES_A || b == RADIX_BINDING_VALUES_B))
            continue;
        for (int k = 0; k < 2; ++k) {
            w[k][nw].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            w[k][nw].dstBinding = b;
            w[k][nw].descriptorCount = 1;
            w[k][nw].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w[k][nw].pBufferInfo = k ? &swapped[b] : &bi[b];
        }
        ++nw;
    }
    int pushed_swapped = 0;
    s->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rx->layout, 0, nw, w[0]);

    radix_push push;
    memset(&push, 0, sizeof push);
    push.count = p->indirect ? 0u : p->count;
    push.flags = (p->indirect ? RADIX_FLAG_INDIRECT : 0u) |
                 ((info->flags & VKSORT_FLAG_DESCENDING) ? RADIX_FLAG_DESCENDING : 0u) |
                 (s->emulate_no_forward_progress ? RADIX_FLAG_STALL_FIRST : 0u) |
                 (onesweep ? RADIX_FLAG_CLEAR_LOOKBACK : RADIX_FLAG_PORTABLE) |
                 ((info->keys.offset & 15u) == 0u ? RADIX_FLAG_KEYS_VEC4 : 0u) |
                 (p->host_sized ? RADIX_FLAG_HOST_SIZED : 0u) |
                 (rx->block_counts ? RADIX_FLAG_BLOCK_COUNTS : 0u) |
                 (p->buckets ? RADIX_FLAG_BUCKETS : 0u) |
                 (p->hybrid ? RADIX_FLAG_HYBRID : 0u);
    /* The skew choice where digit passes run (the fused passes rank every digit alike). */
    for (uint32_t i = 0; rx->skew_ranking && i < p->pass_count; ++i)
        if (p->kind[i] == RADIX_PIPE_ONESWEEP)
            push.flags |= RADIX_FLAG_SKEW;
    push.key_type = (uint32_t)s->key_type;
    push.bit_begin = p->bit_begin;
    push.bit_end = p->bit_end;
    push.max_count = s->max_count;
    push.max_tiles = onesweep ? rx->max_tiles : rx->max_blocks;
    push.count_word = count_word;
    push.digit_count = p->digit_count;
    /* Small and mid counts (an indirect count: by max_count) take their own geometry. */
    const vksort_vk_radix_geometry *geo = p->geometry;
    push.tile_size = (geo ? geo : &rx->geometry)->tile;
    push.onesweep_groups = onesweep ? rx->onesweep_groups : 0u;

    for (uint32_t i = 0; i < p->pass_count; ++i) {
        const uint32_t kind = p->kind[i];
        const uint32_t slot = p->slot[i];
        char name[48];
        if (s->debug_labels) {
            vksort_vk_radix_pass_name(kind, slot, name, sizeof name);
            vksort_vk_label_begin(s, cmd, name);
        }
        VkPipeline pipeline = rx->pipes[kind];
        if (geo && kind == RADIX_PIPE_ONESWEEP)
            pipeline = geo->onesweep;
        else if (geo && kind == RADIX_PIPE_ONESWEEP_FUSED)
            pipeline = geo->fused;
        else if (geo && kind == RADIX_PIPE_DOWNSWEEP)
            pipeline = geo->downsweep;
        else if (geo && kind == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM)
            pipeline = geo->fused_histogram;
        else if (kind == RADIX_PIPE_CHUNK_SORT && p->hybrid_large)
            pipeline = rx->hybrid_large_sort;
        else if (kind == RADIX_PIPE_ONESWEEP && p->hybrid && slot == RADIX_HYBRID_COPY_SLOT)
            pipeline = rx->hybrid_copy_slot;
        const int want_swapped = pass_has_slot(kind) && (slot & 1u);
        if (want_swapped != pushed_swapped) {
            s->vk.vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rx->layout, 0, nw,
                                            w[want_swapped]);
            pushed_swapped = want_swapped;
        }
        s->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        radix_push pc = push;
        pc.pass_index = slot;
        /* An odd slot's A binding is the scratch's keys, so RADIX_FLAG_KEYS_VEC4 follows their
         * alignment there. Of the slotted passes only the upsweep reads the flag (16-byte loads
         * where aligned); the others ignore it, so it is set for every slot alike. */
        if (want_swapped) {
            pc.flags &= ~RADIX_FLAG_KEYS_VEC4;
            if (((info->scratch.offset + rx->keys_offset) & 15u) == 0u)
                pc.flags |= RADIX_FLAG_KEYS_VEC4;
        }
        pc.aux = kind == RADIX_PIPE_PREPARE ? rx->hist_chunk : 0u;
        if (p->hybrid && (kind == RADIX_PIPE_HISTOGRAM || kind == RADIX_PIPE_CHUNK_BOUNDS ||
                          kind == RADIX_PIPE_CHUNK_SORT))
            pc.aux = p->hybrid_aux;
        uint32_t hist_groups = 0u;
        if (kind == RADIX_PIPE_HISTOGRAM && p->host_sized && rx->block_counts) {
            const uint32_t blocks = radix_blocks(p->count, push.tile_size, rx->max_blocks);
            hist_groups = RADIX_TABLE_HIST_GROUPS(blocks);
        } else if (kind == RADIX_PIPE_HISTOGRAM && p->host_sized) {
            hist_groups = radix_hist_groups(p->count, rx->hist_chunk);
        }
        s->vk.vkCmdPushConstants(cmd, rx->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
        /* Indirect or direct as pass_is_indirect says, which the barriers before each pass
         * follow too. */
        if (pass_is_indirect(p, kind, slot))
            s->vk.vkCmdDispatchIndirect(cmd, info->scratch.buffer,
                                        base + rx->state_offset +
                                            (VkDeviceSize)(RADIX_S_DISPATCH + 4u * (uint32_t)pass_entry(kind, slot)) * 4u);
        else if (kind == RADIX_PIPE_ONESWEEP_FUSED || kind == RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM) /* a workgroup per tile (indirect: of max_count), and per bucket */
            s->vk.vkCmdDispatch(cmd, bucket_sort_workgroups(rx, ceil_div(p->count, push.tile_size),
                                                            p->buckets), 1, 1);
        else if (hist_groups)
            s->vk.vkCmdDispatch(cmd, hist_groups, 1, 1);
        else if (kind == RADIX_PIPE_ONESWEEP && p->host_sized) {
            /* The host knows the tiles: a direct dispatch of the plan's size, which saves the
             * indirect size's fetch after each barrier. In a slot past the active digits
             * (radix_plan_sort skipped a constant one) every workgroup takes a dead ticket,
             * past any tile, and leaves (RADIX_SLOT_NONE, radix_interface.h). */
            const uint32_t tiles = ceil_div(p->count, push.tile_size);
            const uint32_t g = push.onesweep_groups && push.onesweep_groups < tiles ? push.onesweep_groups : tiles;
            s->vk.vkCmdDispatch(cmd, VKSORT_GRID_COLUMNS(g, RADIX_DISPATCH_SPLIT),
                                VKSORT_GRID_ROWS(g, RADIX_DISPATCH_SPLIT), 1);
        }
        else
            s->vk.vkCmdDispatch(cmd, 1, 1, 1);
        if (timestamps)
            s->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, info->query_pool,
                                      info->first_query + i + 1u);
        if (s->debug_labels)
            vksort_vk_label_end(s, cmd);
        if (i + 1 < p->pass_count)
            vksort_vk_compute_barrier(s, cmd, pass_is_indirect(p, p->kind[i + 1], p->slot[i + 1]));
    }
    vksort_vk_label_end(s, cmd);
    return VKSORT_SUCCESS;
}
