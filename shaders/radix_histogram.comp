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
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
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
#include "radix_plan.glsl"

// RADIX_FLAG_BLOCK_COUNTS, as a constant: the portable sorters' pipelines carry the table code.
layout(constant_id = 10) const bool BLOCK_COUNTS = false;

shared uint s_hist[RADIX_MAX_PASSES * RADIX_DIGITS];
shared bool s_last;

#include "radix_hist_count.glsl"

// Table words (every digit position's counts) per invocation, at most.
#define TABLE_WORDS_PER_INVOCATION (RADIX_MAX_PASSES * RADIX_DIGITS / RADIX_PLAN_WORKGROUP)

#include "radix_group_starts.glsl"

// After the plan (RADIX_FLAG_BLOCK_COUNTS): the group starts of scatter slot 0 - its digit
// position's start of each digit (the plan's scan) plus the groups before, from the totals the
// workgroups added - in the group rows, where the slot's downsweep finds them; then every
// position's totals back to zero for the next sort. One digit per invocation.
void plan_first_slot_groups(uint n)
{
    uint t = gl_LocalInvocationID.x;
    uint tiles, blocks;
    radix_tile_counts(n, tiles, blocks);
    uint groups = (blocks + RADIX_SCAN_GROUP - 1u) / RADIX_SCAN_GROUP;
    uint first = RADIX_MAX_PASSES; // slot 0's digit position, if any runs
    for (uint p = pc.digit_count; p-- > 0u;)
        if (s_plan_constant[p] == 0u)
            first = p;
    if (first < RADIX_MAX_PASSES && n >= 2u)
        radix_group_starts(t, RADIX_HIST_TABLE_TOTALS + first * RADIX_SCAN_GROUPS * RADIX_DIGITS + t,
                           groups, hist[(RADIX_MAX_PASSES + first) * RADIX_DIGITS + t], false);
    for (uint p = 0u; p < pc.digit_count; ++p)
        for (uint g = 0u; g < groups; ++g)
            hist[RADIX_HIST_TABLE_TOTALS + (p * RADIX_SCAN_GROUPS + g) * RADIX_DIGITS + t] = 0u;
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    bool host_sized = (pc.flags & RADIX_FLAG_HOST_SIZED) != 0u;
    uint n = host_sized ? pc.count : state[RADIX_S_COUNT];
    uint group = radix_group_index();
    uint digits = pc.digit_count;
    uint lanes = subgroupBallotBitCount(subgroupBallot(true));
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG)
        s_hist[i] = 0u;
    barrier();

    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    bool block_counts = BLOCK_COUNTS && (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u;
    if (!block_counts) {
        uint per_group = (n + groups - 1u) / groups;
        uint chunk = (per_group + RADIX_HIST_ALIGN - 1u) / RADIX_HIST_ALIGN * RADIX_HIST_ALIGN;
        uint begin = min(group * chunk, n);
        count_range(begin, min(begin + chunk, n), lanes);
    } else {
        // This workgroup's blocks, each counted on top of the ones before it and its row of the
        // table written as the difference (its keys' counts) between two barriers.
        uint tiles, blocks;
        radix_tile_counts(n, tiles, blocks);
        uint group_blocks = (blocks + groups - 1u) / groups;
        uint first_block = group * group_blocks;
        uint last_block = min(first_block + group_blocks, blocks);
        uint before[TABLE_WORDS_PER_INVOCATION];
        [[unroll]] for (uint j = 0u; j < TABLE_WORDS_PER_INVOCATION; ++j)
            before[j] = 0u;
        for (uint b = first_block; b < last_block; ++b) {
            uint first_tile, last_tile;
            radix_block_tiles(b, tiles, blocks, first_tile, last_tile);
            count_range(first_tile * pc.tile_size, min(last_tile * pc.tile_size, n), lanes);
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
                    uint total = RADIX_HIST_TABLE_TOTALS +
                                 ((i / RADIX_DIGITS) * RADIX_SCAN_GROUPS + b / RADIX_SCAN_GROUP) * RADIX_DIGITS +
                                 i % RADIX_DIGITS;
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
    if (BLOCK_COUNTS && (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u)
        plan_first_slot_groups(n);
}
