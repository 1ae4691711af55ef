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
// Each invocation issues HIST_LOADS loads before it counts any of their keys (latency: one
// load in flight per invocation left the pass load-bound). Keys are read 16 bytes a load
// (4 u32 / 2 u64 keys) where the binding is 16-byte aligned (RADIX_FLAG_KEYS_VEC4); the last
// < 4 keys of a chunk, and every key otherwise, one key a load.
// Counting: one plain shared atomicAdd per key and digit position, except where a digit
// position has a single value over all the keys a subgroup loaded in one step (constant,
// sorted or narrow-range data): one atomic for the subgroup, found with one subgroupAll per
// digit position and step (no subgroupAllEqual: it cost ~45 % of the pass on the H200).
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

#if KEY64
#define VEC_KEYS 2u
#else
#define VEC_KEYS 4u
#endif

// RADIX_FLAG_BLOCK_COUNTS, as a constant: the portable sorters' pipelines carry the table code.
layout(constant_id = 10) const bool BLOCK_COUNTS = false;

shared uint s_hist[RADIX_MAX_PASSES * RADIX_DIGITS];
shared bool s_last;

uint key_digit(KEY_T ok, uint p)
{
#if KEY64
    return radix_digit64(ok, radix_pass_shift(p));
#else
    return radix_digit32(ok, radix_pass_shift(p));
#endif
}

// Loads in flight per invocation (16-byte loads, or single keys without alignment).
#ifndef HIST_LOADS
#define HIST_LOADS 4u
#endif
// Keys one invocation holds per step.
#define STEP_KEYS (HIST_LOADS * VEC_KEYS)

// Counts the STEP_KEYS keys ok of each invocation (ok[i] counts when valid[i]); full: every key
// of the workgroup's step is valid (workgroup-uniform). In uniform control flow. lanes:
// invocations of the subgroup.
void count_step(KEY_T ok[STEP_KEYS], bool valid[STEP_KEYS], bool full, uint lanes)
{
    // Bits where some key of the subgroup differs from the subgroup's first key.
    KEY_T ref = subgroupBroadcastFirst(ok[0]);
    KEY_T diff = KEY_T(0u);
    [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
        diff |= ok[i] ^ ref;
    uint digits = pc.digit_count;
    for (uint p = 0u; p < digits; ++p) {
        uint offset = p * RADIX_DIGITS;
        bool same = false;
        if (full)
            same = subgroupAll(key_digit(diff, p) == 0u);
        if (same) {
            if (subgroupElect())
                atomicAdd(s_hist[offset + key_digit(ref, p)], lanes * STEP_KEYS);
        } else {
            [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
                if (valid[i])
                    atomicAdd(s_hist[offset + key_digit(ok[i], p)], 1u);
        }
    }
}

// Counts the keys [begin, end) into s_hist (begin a multiple of 4 keys). In uniform control flow.
void count_range(uint begin, uint end, uint lanes)
{
    uint t = gl_LocalInvocationID.x;
    // Keys [begin, vec_end) in 16-byte loads (vectors [vbegin, vend)), [vec_end, end) one at a
    // time. Trip counts are workgroup-uniform (subgroup operations in count_step).
    uint vec_end = (pc.flags & RADIX_FLAG_KEYS_VEC4) != 0u
                       ? begin + (end - begin) / VEC_KEYS * VEC_KEYS : begin;
    uint vbegin = begin / VEC_KEYS;
    uint vend = vec_end / VEC_KEYS;
    // Whole steps first, without per-load bounds (no predicates live across the counting),
    // then at most one partial step.
    uint vfull = vbegin + (vend - vbegin) / (WG * HIST_LOADS) * (WG * HIST_LOADS);
    for (uint base = vbegin; base < vfull; base += WG * HIST_LOADS) {
        uvec4 v[HIST_LOADS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k)
            v[k] = keys_a4[base + k * WG + t];
        KEY_T ok[STEP_KEYS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k) {
#if KEY64
            ok[2u * k] = radix_order_key(v[k].xy);
            ok[2u * k + 1u] = radix_order_key(v[k].zw);
#else
            [[unroll]] for (uint j = 0u; j < 4u; ++j)
                ok[4u * k + j] = radix_order_key(v[k][j]);
#endif
        }
        [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
            valid[i] = true;
        count_step(ok, valid, true, lanes);
    }
    if (vfull < vend) {
        uint base = vfull;
        uvec4 v[HIST_LOADS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k) {
            uint i = base + k * WG + t;
            bool in_range = i < vend;
            v[k] = in_range ? keys_a4[i] : uvec4(0u);
            [[unroll]] for (uint j = 0u; j < VEC_KEYS; ++j)
                valid[k * VEC_KEYS + j] = in_range;
        }
        KEY_T ok[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k) {
#if KEY64
            ok[2u * k] = radix_order_key(v[k].xy);
            ok[2u * k + 1u] = radix_order_key(v[k].zw);
#else
            [[unroll]] for (uint j = 0u; j < 4u; ++j)
                ok[4u * k + j] = radix_order_key(v[k][j]);
#endif
        }
        count_step(ok, valid, false, lanes);
    }
    for (uint base = vec_end; base < end; base += WG * STEP_KEYS) {
        KEY_T ok[STEP_KEYS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < STEP_KEYS; ++k) {
            uint i = base + k * WG + t;
            valid[k] = i < end;
            ok[k] = valid[k] ? keys_a[i] : KEY_T(0u);
        }
        [[unroll]] for (uint k = 0u; k < STEP_KEYS; ++k)
            ok[k] = radix_order_key(ok[k]);
        count_step(ok, valid, base + WG * STEP_KEYS <= end, lanes);
    }
}

// Table words (every digit position's counts) per invocation, at most.
#define TABLE_WORDS_PER_INVOCATION (RADIX_MAX_PASSES * RADIX_DIGITS / RADIX_PLAN_WORKGROUP)

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
        uint tiles, per_block, blocks;
        radix_tile_counts(n, tiles, per_block, blocks);
        uint span = per_block * pc.tile_size;
        uint group_blocks = (blocks + groups - 1u) / groups;
        uint first_block = group * group_blocks;
        uint last_block = min(first_block + group_blocks, blocks);
        uint before[TABLE_WORDS_PER_INVOCATION];
        [[unroll]] for (uint j = 0u; j < TABLE_WORDS_PER_INVOCATION; ++j)
            before[j] = 0u;
        for (uint b = first_block; b < last_block; ++b) {
            uint lo = b * span;
            count_range(lo, min(lo + span, n), lanes);
            barrier();
            uint row = RADIX_BLOCK_TABLE(pc.max_tiles) + b * digits * RADIX_DIGITS;
            [[unroll]] for (uint j = 0u; j < TABLE_WORDS_PER_INVOCATION; ++j) {
                uint i = j * WG + t;
                if (i < digits * RADIX_DIGITS) {
                    uint c = s_hist[i];
                    lookback[row + i] = c - before[j];
                    before[j] = c;
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
    radix_plan_sort(n);
}
