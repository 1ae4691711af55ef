#version 450
// Histogram pass: one read of the keys builds the histogram of every digit position at once
// (shared-memory counters per workgroup, then one global atomic per non-zero bin). Its
// workgroups also clear look-back region 0 for the first Onesweep pass (RADIX_FLAG_CLEAR_LOOKBACK),
// and the last one to finish (a ticket) runs the plan (radix_plan.glsl): one dispatch and one
// barrier less than a separate plan pass (≈ 8 µs per sort on the H200).
// Workgroup g handles elements [g * chunk, (g + 1) * chunk) of the caller's keys: the count
// split over the dispatch's workgroups (at most RADIX_HIST_MAX_GROUPS: radix_prepare.comp, or
// the host without a prepare pass, RADIX_FLAG_HOST_SIZED, whose count is pc.count), rounded up
// to a multiple of RADIX_HIST_ALIGN, so every chunk starts on a 16-byte boundary of the binding.
// With RADIX_FLAG_BLOCK_COUNTS (portable sorts) workgroup g walks consecutive portable blocks
// instead (the dispatch: ceil(blocks / k) workgroups of k blocks, k the least that keeps them
// at most RADIX_HIST_MAX_GROUPS; a block is a multiple of 4 keys) and writes each block's
// counts of every digit position to the block-count table: the first digit pass's upsweep.
// (One workgroup per block, 993 at 2^24 u32 keys on the H200, cost 4 us more: every
// workgroup's global atomics land on the same 1024 bins.)
// Loading and counting: radix_hist_count.glsl.
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

// Fixed at the plan's size: its last workgroup plans with one digit per invocation.
layout(local_size_x = RADIX_PLAN_WORKGROUP) in;
#define WG gl_WorkGroupSize.x

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA4 { uvec4 keys_a4[]; };
// Written by other workgroups (atomics, the ticket) and read by the last one: coherent.
layout(set = 0, binding = RADIX_BINDING_STATE, std430) coherent buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) coherent buffer Hist { uint hist[]; };
// Onesweep: look-back words (region 0 cleared); portable: the block-count table.
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) writeonly buffer Lookback { uint lookback[]; };
#if !KEY64
#define RADIX_PLAN_HYBRID 1 // (radix_plan.glsl)
#endif
#include "radix_plan.glsl"

// RADIX_FLAG_BLOCK_COUNTS, as a constant: the portable sorters' pipelines carry the table code.
layout(constant_id = 10) const bool BLOCK_COUNTS = false;

shared uint s_hist[RADIX_MAX_PASSES * RADIX_DIGITS];
shared bool s_last;

#include "radix_hist_count.glsl"

// Table words (every digit position's counts) per invocation, at most.
#define TABLE_WORDS_PER_INVOCATION (RADIX_MAX_PASSES * RADIX_DIGITS / RADIX_PLAN_WORKGROUP)

void main()
{
    uint t = gl_LocalInvocationID.x;
    bool host_sized = (pc.flags & RADIX_FLAG_HOST_SIZED) != 0u;
    uint n = host_sized ? pc.count : state[RADIX_S_COUNT];
    uint group = radix_group_index();
    uint digits = pc.digit_count;
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG)
        s_hist[i] = 0u;
    barrier();

    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    bool block_counts = BLOCK_COUNTS && (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u;
    if (!block_counts) {
        uint per_group = (n + groups - 1u) / groups;
        uint chunk = (per_group + RADIX_HIST_ALIGN - 1u) / RADIX_HIST_ALIGN * RADIX_HIST_ALIGN;
        uint begin = min(group * chunk, n);
        count_range(begin, min(begin + chunk, n));
    } else {
        // This workgroup's blocks, each counted on top of the ones before it and its row of the
        // table written as the difference (its keys' counts) between two barriers.
        uint tiles, blocks;
        radix_tile_counts(n, tiles, blocks);
        uint group_blocks = (blocks + groups - 1u) / groups;
        uint first_block = group * group_blocks;
        uint last_block = min(first_block + group_blocks, blocks);
        // The set of table totals this sort adds to (radix_interface.h); the other one's dirty
        // groups go back to zero for the next sort, spread over the workgroups.
        uint table_set = hist[RADIX_HIST_TABLE_SET] & 1u;
        uint dirty = min(hist[RADIX_HIST_TABLE_DIRTY + (table_set ^ 1u)], RADIX_SCAN_GROUPS);
        uint dirty_words = dirty * RADIX_DIGITS;
        uint positions = RADIX_HIST_TABLE_POSITIONS(uint(hist.length()));
        for (uint i = group * WG + t; i < positions * dirty_words; i += groups * WG)
            hist[RADIX_HIST_TABLE_GROUP_TOTALS(i / dirty_words, table_set ^ 1u) + i % dirty_words] = 0u;
        uint before[TABLE_WORDS_PER_INVOCATION];
        [[unroll]] for (uint j = 0u; j < TABLE_WORDS_PER_INVOCATION; ++j)
            before[j] = 0u;
        for (uint b = first_block; b < last_block; ++b) {
            uint first_tile, last_tile;
            radix_block_tiles(b, tiles, blocks, first_tile, last_tile);
            count_range(first_tile * pc.tile_size, min(last_tile * pc.tile_size, n));
            barrier();
            uint row = RADIX_BLOCK_TABLE(pc.max_tiles) + b * digits * RADIX_DIGITS;
            [[unroll]] for (uint j = 0u; j < TABLE_WORDS_PER_INVOCATION; ++j) {
                uint i = j * WG + t;
                if (i < digits * RADIX_DIGITS) {
                    uint c = s_hist[i];
                    uint count = c - before[j];
                    lookback[row + i] = count;
                    before[j] = c;
                    // Position i / 256, digit i % 256 of the block's scan group.
                    uint total = RADIX_HIST_TABLE_GROUP_TOTALS(i / RADIX_DIGITS, table_set) +
                                 b / RADIX_SCAN_GROUP * RADIX_DIGITS + i % RADIX_DIGITS;
                    if (count != 0u)
                        atomicAdd(hist[total], count);
                }
            }
            barrier(); // read before the next block's counts land
        }
    }
    barrier();
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG) {
        uint c = s_hist[i];
        if (c != 0u)
            atomicAdd(hist[i], c);
    }

    // Clear look-back region 0 (rows of the first active Onesweep pass), spread over groups.
    if ((pc.flags & RADIX_FLAG_CLEAR_LOOKBACK) != 0u) {
        uint words = (n + pc.tile_size - 1u) / pc.tile_size * RADIX_DIGITS;
        uint per = (words + groups - 1u) / groups;
        uint lo = group * per;
        uint hi = min(lo + per, words);
        for (uint i = lo + t; i < hi; i += WG)
            lookback[i] = 0u;
    }

    // Portable: zero the upsweeps' scan-group totals of every slot (the groups in use), spread
    // over groups; the upsweeps add to them after this pass, the downsweeps read them.
    if ((pc.flags & RADIX_FLAG_PORTABLE) != 0u) {
        uint tiles, blocks;
        radix_tile_counts(n, tiles, blocks);
        uint slot_words = RADIX_SCAN_GROUP_COUNT(blocks) * RADIX_DIGITS;
        uint words = digits * slot_words;
        for (uint i = group * WG + t; i < words; i += groups * WG)
            hist[RADIX_HIST_SLOT_TOTALS(i / slot_words) + i % slot_words] = 0u;
    }

    // Counts flushed before the ticket; the workgroup with the last ticket plans.
    memoryBarrierBuffer();
    barrier();
    if (t == 0u)
        s_last = atomicAdd(hist[RADIX_HIST_TICKET], 1u) == groups - 1u;
    barrier();
    if (!s_last)
        return;
    memoryBarrierBuffer();
    uint c[RADIX_MAX_PASSES];
    radix_plan_load_counts(c, true);
    radix_plan_sort(n, c);
    // Every workgroup read the set and the other's dirty groups before it took its ticket: this
    // sort's set holds its groups, the other is all zero now, and the next sort takes it.
    if (BLOCK_COUNTS && (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u && t == 0u) {
        uint table_set = hist[RADIX_HIST_TABLE_SET] & 1u;
        uint tiles, blocks;
        radix_tile_counts(n, tiles, blocks);
        hist[RADIX_HIST_TABLE_DIRTY + table_set] = RADIX_SCAN_GROUP_COUNT(blocks);
        hist[RADIX_HIST_TABLE_DIRTY + (table_set ^ 1u)] = 0u;
        hist[RADIX_HIST_TABLE_SET] = table_set ^ 1u;
    }
}
