#version 450
// Portable radix, step 2 of a pass: each block walks its tiles in order, ranks each with
// subgroup ballots (as Onesweep does) and writes it at the block's running offsets. Offsets
// come from the upsweep's (or the histogram pass's) counts and scan-group totals, so no
// workgroup waits for another inside the dispatch.
#extension GL_GOOGLE_include_directive : require
// The 32-bit-key pairs downsweep takes the key type at run time (radix.c): its order key without
// branches (radix_common.glsl), except in the long-blocks and partitioned-ranking modules.
#if HAS_VALUE && !KEY64 && !defined(FULL_TILE_COPY) && !defined(USE_PARTITIONED)
#define ORDER_KEY_BRANCH_FREE 1
#endif
// Rank first, count after (radix_rank_tile_late_counts) in the 32-bit-key pairs modules. H200,
// u32 pairs: 2^24 0.847 -> 0.811 ms, 2^27 5.97 -> 5.51, 2^28 11.43 -> 10.71; partitioned
// ranking 2^24 1.241 -> 1.213. Not for 32-bit keys (registers 80 -> 166, 2^24 +23 %) nor
// 64-bit keys (u64 keys 2^24 unchanged). docs/perf-notes.md, thirty-fourth session.
#if HAS_VALUE && !KEY64
#define RANK_LATE_COUNTS 1
#else
#define RANK_LATE_COUNTS 0
#endif
#include "radix_tile.glsl"

layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) readonly buffer Blocks { uint block_offsets[]; };

shared uint s_run[RADIX_DIGITS];

// FULL_TILE_COPY 1 (the radix_downsweep_k32_v1_long module): blocks of at least
// RADIX_LONG_BLOCK_TILES tiles run their full tiles through a copy of the tile code without
// per-element bounds tests; the host takes it for the counts where every block is that long
// (radix.c's long_blocks). A module of its own, not a specialization constant: the
// specialised-off pipeline ran 19 % slower than the code without the copy (H200, u32 pairs 2^24).
#ifndef FULL_TILE_COPY
#define FULL_TILE_COPY 0
#endif
#if FULL_TILE_COPY && (HAS_VALUE == 0 || KEY64 != 0)
#error "FULL_TILE_COPY is measured for 32-bit keys with payloads only"
#endif

// One tile: rank, advance the block's running offsets, scatter. full: tile_n == TILE (a
// constant at each call: the copy with it has no per-element bounds tests).
void radix_downsweep_tile(uint tile, uint tile_base, uint tile_n, uint shift, uint last, uint n,
                          bool prefetch, bool full)
{
    uint t = gl_LocalInvocationID.x;
    barrier();
#if RANK_LATE_COUNTS
    radix_rank_tile_late_counts(0u, tile_base, tile_n, shift, full, prefetch, RANK_ATOMIC_OR);
#else
    radix_rank_tile(0u, tile_base, tile_n, shift, full, prefetch);
#endif
    for (uint d = t; d < RADIX_DIGITS; d += WG) {
        s_dst[d] = s_run[d] - s_tile_start[d];
        s_run[d] += s_count[d];
    }
    radix_stage_first_round(0u, tile_n, full); // before the barrier radix_scatter_tile needs
    barrier();
    uint next_base = tile_base + TILE;
    bool more = tile + 1u < last;
    radix_scatter_tile(0u, tile_base, tile_n, shift, full, prefetch && more, next_base,
                       more ? min(TILE, n - next_base) : 0u);
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    // The slot's digit (radix_interface.h): the bindings are this slot's, A its source.
    uint p = state[RADIX_S_SLOT_DIGIT + pc.pass_index];
    uint n = state[RADIX_S_COUNT];
    uint blocks = state[RADIX_S_BLOCKS];
    uint group = radix_group_index();
    if (group >= blocks)
        return;
#if FULL_TILE_COPY
    // Workgroup 0 takes the last block, so that the short last tile (the other copy of the tile
    // code, cold in the instruction cache) starts with the first wave instead of running alone
    // at the pass's end (every block on that copy: H200 u32 pairs 2^22 0.313 -> 0.266 ms), and
    // workgroup g block g - 1, so that the blocks with one tile more (the first tiles % blocks)
    // start early too (against taking every block last first: 2^28 11.45 -> 11.37 ms, 2^26
    // 3.15 -> 3.13; docs/perf-notes.md, thirty-second and thirty-third sessions).
    const bool full_copy = true; // (only keeps the SPIR-V of the build that was timed)
    uint block = group == 0u ? blocks - 1u : group - 1u;
#else
    uint block = group;
#endif
    uint shift = radix_pass_shift(p);
    uint first, last;
    radix_block_tiles(block, state[RADIX_S_TILES], blocks, first, last);

    // The block's offset of each digit (radix_interface.h, RADIX_SCAN_GROUP): the digit's start
    // in the sorted order (the plan), plus the totals of the scan groups before this block's,
    // plus the counts of the group's blocks before this one - the upsweep's totals and rows, or
    // for slot 0 with RADIX_FLAG_BLOCK_COUNTS the histogram pass's table totals (the set it
    // filled: the plan has flipped RADIX_HIST_TABLE_SET since) and table rows of the slot's
    // digit position. Two work items a digit (the start and rows; the groups before, into s_dst
    // until the barrier), every one's loads in flight at once.
    bool from_table = (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u && pc.pass_index == 0u;
    uint group_index = block / RADIX_SCAN_GROUP;
    uint first_in_group = group_index * RADIX_SCAN_GROUP;
    uint stride = from_table ? pc.digit_count * RADIX_DIGITS : RADIX_DIGITS;
    uint rows = from_table ? RADIX_BLOCK_TABLE(pc.max_tiles) + p * RADIX_DIGITS : 0u;
    uint totals = from_table ? RADIX_HIST_TABLE_GROUP_TOTALS(p, (hist[RADIX_HIST_TABLE_SET] & 1u) ^ 1u)
                             : RADIX_HIST_SLOT_TOTALS(pc.pass_index);
    for (uint i = t; i < 2u * RADIX_DIGITS; i += WG) {
        uint d = i % RADIX_DIGITS;
        uint run = 0u;
        if (i < RADIX_DIGITS) {
            run = hist[(RADIX_MAX_PASSES + p) * RADIX_DIGITS + d];
            [[unroll]] for (uint k = 0u; k + 1u < RADIX_SCAN_GROUP; ++k)
                run += first_in_group + k < block ? block_offsets[rows + (first_in_group + k) * stride + d] : 0u;
            s_run[d] = run;
        } else {
            [[unroll]] for (uint g = 0u; g + 1u < RADIX_SCAN_GROUPS; ++g)
                run += g < group_index ? hist[totals + g * RADIX_DIGITS + d] : 0u;
            s_dst[d] = run;
        }
    }
    barrier();
    for (uint d = t; d < RADIX_DIGITS; d += WG)
        s_run[d] += s_dst[d];
    // 32-bit keys without payloads: each tile's keys are loaded during the previous tile's
    // scatter (its prefetch), the block's first here. (H200, 2^24: u32 keys 0.656 -> 0.607 ms,
    // 2^28 8.90 -> 7.42; u64 keys 1.882 -> 1.900, so not for them.)
    const bool prefetch = HAS_VALUE == 0 && KEY64 == 0;
    if (prefetch && first < last)
        radix_load_tile(0u, first * TILE, min(TILE, n - first * TILE), false);
    for (uint tile = first; tile < last; ++tile) {
        uint tile_base = tile * TILE;
        uint tile_n = min(TILE, n - tile_base);
#if FULL_TILE_COPY
        if (full_copy && tile_n == TILE && last - first >= RADIX_LONG_BLOCK_TILES)
            radix_downsweep_tile(tile, tile_base, TILE, shift, last, n, prefetch, true);
        else
#endif
            radix_downsweep_tile(tile, tile_base, tile_n, shift, last, n, prefetch, false);
    }
}
