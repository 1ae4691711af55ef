#version 450
// First radix pass (one workgroup): clamps the count (host or indirect) to max_count, derives
// the tile, block and histogram-group counts, clears the histograms and tickets, and writes the
// indirect dispatch of the histogram pass. Everything later reads the count from the state.
// Not recorded for a host count on a persistent scratch (RADIX_FLAG_HOST_SIZED): the histogram
// pass's plan does its work then (radix_plan.glsl).
//   pc.aux: least elements per histogram workgroup (a multiple of RADIX_HIST_ALIGN)
//   pc.max_tiles: portable block capacity
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_PREPARE_WORKGROUP) in;

layout(set = 0, binding = RADIX_BINDING_STATE, std430) writeonly buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) writeonly buffer Hist { uint hist[]; };
layout(set = 0, binding = RADIX_BINDING_COUNT, std430) readonly buffer Count { uint count_words[]; };

void write_groups(uint entry, uint groups)
{
    uint w = RADIX_S_DISPATCH + 4u * entry;
    state[w + 0u] = VKSORT_GRID_COLUMNS(groups, RADIX_DISPATCH_SPLIT);
    state[w + 1u] = VKSORT_GRID_ROWS(groups, RADIX_DISPATCH_SPLIT);
    state[w + 2u] = 1u;
    state[w + 3u] = 0u;
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint requested = (pc.flags & RADIX_FLAG_INDIRECT) != 0u ? count_words[pc.count_word] : pc.count;
    uint n = min(requested, pc.max_count);
    for (uint i = t; i < RADIX_MAX_PASSES * RADIX_DIGITS; i += RADIX_PREPARE_WORKGROUP)
        hist[i] = 0u;
    // And set 0 of the histogram pass's table totals (every position of the key type: the
    // binding ends after them), which it then adds to; set 1 may hold anything, so all of its
    // groups count as dirty (the histogram pass zeroes them).
    if ((pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u) {
        uint words = RADIX_SCAN_GROUPS * RADIX_DIGITS;
        uint positions = RADIX_HIST_TABLE_POSITIONS(uint(hist.length()));
        for (uint i = t; i < positions * words; i += RADIX_PREPARE_WORKGROUP)
            hist[RADIX_HIST_TABLE_GROUP_TOTALS(i / words, 0u) + i % words] = 0u;
        if (t == 0u) {
            hist[RADIX_HIST_TABLE_SET] = 0u;
            hist[RADIX_HIST_TABLE_DIRTY] = 0u;
            hist[RADIX_HIST_TABLE_DIRTY + 1u] = RADIX_SCAN_GROUPS;
        }
    }
    if (t == 0u) {
        hist[RADIX_HIST_TICKET] = 0u;
        uint tiles, blocks;
        radix_tile_counts(n, tiles, blocks);
        // At most RADIX_HIST_MAX_GROUPS histogram workgroups: each flushes up to
        // RADIX_DIGITS * digit_count global atomics, so big counts take bigger chunks.
        // At least one: the last histogram workgroup also writes the plan (for n < 2 too).
        // (radix.c's radix_hist_groups sizes a host-sized sort the same way; the histogram
        // pass derives its chunk from the count and its workgroups.)
        uint hist_groups = clamp((n + pc.aux - 1u) / pc.aux, 1u, RADIX_HIST_MAX_GROUPS);
        // Portable with the block-count table: workgroups of whole blocks.
        if ((pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u)
            hist_groups = RADIX_TABLE_HIST_GROUPS(max(blocks, 1u));
        state[RADIX_S_COUNT] = n;
        state[RADIX_S_TILES] = tiles;
        state[RADIX_S_BLOCKS] = blocks;
        radix_reset_pass_words();
        write_groups(RADIX_E_HISTOGRAM, hist_groups);
    }
}
