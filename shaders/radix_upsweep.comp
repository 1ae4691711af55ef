#version 450
// Portable radix, step 1 of a pass: each workgroup (block) counts the digits of its run of
// consecutive tiles into its row of block counts and adds them to its scan group's totals
// (radix_interface.h, RADIX_SCAN_GROUP). No workgroup waits for another.
// Each invocation issues UPSWEEP_LOADS key loads before it counts any of them (one load in
// flight per invocation left the pass latency-bound: 61-67 us for 2^24 u32 keys on the H200,
// about 1 TB/s). Counting: one plain shared atomicAdd per key, except where every key the
// subgroup loaded in one full step has the same digit (constant, sorted or narrow-range data):
// one atomic for the subgroup, found with one subgroupAll (no subgroupAllEqual: it cost ~45 % of
// the histogram pass on the H200).
// Test mode (RADIX_FLAG_STALL_FIRST): block 0 waits, before it publishes its counts, until every
// other block has finished, as a GPU without forward progress might run it last; nothing waits
// on it, so the pass ends. (The wait sits after the counting loop: placed before it, lavapipe
// (Mesa 22.3) computed wrong counts in block 0 even with the wait cut to a fixed spin.)
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_SCAN_WORKGROUP) in;
#define WG RADIX_SCAN_WORKGROUP

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA4 { uvec4 keys_a4[]; };
layout(set = 0, binding = RADIX_BINDING_STATE, std430) coherent buffer State { uint state[]; };
// The block counts.
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) writeonly buffer Lookback { uint lookback[]; };
// The scan groups' totals (atomics).
layout(set = 0, binding = RADIX_BINDING_HIST, std430) buffer Hist { uint hist[]; };

shared uint s_hist[RADIX_DIGITS];

#include "radix_wait.glsl"
const uint STALL_SPIN_LIMIT = 1u << 24; // polls

// Key loads in flight per invocation: single keys, and 16-byte loads (4 u32 / 2 u64 keys) where
// the binding and the block's run start 16-byte aligned (RADIX_FLAG_KEYS_VEC4, as in the
// histogram pass). H200 (2026-12-01): the 2^24 u32 keys upsweep 35.2 -> 30.8 us, 2^28 391 ->
// 301 us; portable 2^24 keys 0.674 -> 0.655 ms, pairs -1..-4 %, u64 keys -3 %.
#ifndef UPSWEEP_LOADS
#define UPSWEEP_LOADS 8u
#endif
#define UPSWEEP_VEC_LOADS 4u
#if KEY64
#define VEC_KEYS 2u
#else
#define VEC_KEYS 4u
#endif
#define VEC_STEP_KEYS (UPSWEEP_VEC_LOADS * VEC_KEYS)

// Counts the step's digits d (0xffffffff: no key); full: every key of the workgroup's step is
// there (workgroup-uniform). In uniform control flow.
void count_digits(uint d[VEC_STEP_KEYS], uint used, bool full, uint lanes)
{
    uint first = subgroupBroadcastFirst(d[0]);
    bool same = true;
    [[unroll]] for (uint k = 0u; k < VEC_STEP_KEYS; ++k)
        same = same && (k >= used || d[k] == first);
    if (full && subgroupAll(same)) {
        if (subgroupElect())
            atomicAdd(s_hist[first], lanes * used);
    } else {
        [[unroll]] for (uint k = 0u; k < VEC_STEP_KEYS; ++k)
            if (k < used && d[k] != 0xffffffffu)
                atomicAdd(s_hist[d[k]], 1u);
    }
}

// The digits at `shift` of the keys of UPSWEEP_VEC_LOADS 16-byte loads, in memory order (as
// radix_hist_count.glsl's vector_order_keys for the histogram pass).
void vector_digits(uvec4 v[UPSWEEP_VEC_LOADS], uint shift, out uint d[VEC_STEP_KEYS])
{
    [[unroll]] for (uint k = 0u; k < UPSWEEP_VEC_LOADS; ++k) {
#if KEY64
        d[2u * k] = radix_digit(v[k].xy, shift);
        d[2u * k + 1u] = radix_digit(v[k].zw, shift);
#else
        [[unroll]] for (uint j = 0u; j < 4u; ++j)
            d[4u * k + j] = radix_digit(v[k][j], shift);
#endif
    }
}

// (radix_interface.h, RADIX_SCAN_GROUP) This block adds its counts (s_hist) to its scan
// group's totals of this slot; the downsweep blocks read them. (Until the thirty-fifth session
// the last block to arrive turned every group's totals into starts: an arrival per block and a
// chain of loads on the pass's tail, 3-4 us of each upsweep on the H200.)
void add_group_totals(uint block)
{
    uint totals = RADIX_HIST_SLOT_TOTALS(pc.pass_index) + block / RADIX_SCAN_GROUP * RADIX_DIGITS;
    for (uint d = gl_LocalInvocationID.x; d < RADIX_DIGITS; d += WG) {
        uint c = s_hist[d];
        if (c != 0u)
            atomicAdd(hist[totals + d], c);
    }
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    // The slot's digit (radix_interface.h): the bindings are this slot's, A its source.
    uint p = state[RADIX_S_SLOT_DIGIT + pc.pass_index];
    uint n = state[RADIX_S_COUNT];
    uint blocks = state[RADIX_S_BLOCKS];
    uint block = radix_group_index();
    if (block >= blocks)
        return;
    uint shift = radix_pass_shift(p);
    uint first_tile, last_tile;
    radix_block_tiles(block, state[RADIX_S_TILES], blocks, first_tile, last_tile);
    uint begin = first_tile * pc.tile_size;
    uint end = min(last_tile * pc.tile_size, n);

    for (uint d = t; d < RADIX_DIGITS; d += WG)
        s_hist[d] = 0u;
    barrier();
    uint lanes = subgroupBallotBitCount(subgroupBallot(true));
    // Keys [begin, vec_end) in 16-byte loads, [vec_end, end) one at a time. Trip counts are
    // workgroup-uniform (subgroup operations inside).
    uint vec_end = (pc.flags & RADIX_FLAG_KEYS_VEC4) != 0u && begin % VEC_KEYS == 0u
                       ? begin + (end - begin) / VEC_KEYS * VEC_KEYS : begin;
    uint vend = vec_end / VEC_KEYS;
    // Whole steps first, without per-load bounds (no predicates live across the counting: in
    // the histogram pass this took u64 keys 145 -> 118 us at 2^24 on the H200), then at most
    // one partial step.
    uint vbegin = begin / VEC_KEYS;
    uint vfull = vbegin + (vend - vbegin) / (WG * UPSWEEP_VEC_LOADS) * (WG * UPSWEEP_VEC_LOADS);
    for (uint base = vbegin; base < vfull; base += WG * UPSWEEP_VEC_LOADS) {
        uvec4 v[UPSWEEP_VEC_LOADS];
        [[unroll]] for (uint k = 0u; k < UPSWEEP_VEC_LOADS; ++k)
            v[k] = keys_a4[base + k * WG + t];
        uint d[VEC_STEP_KEYS];
        vector_digits(v, shift, d);
        count_digits(d, VEC_STEP_KEYS, true, lanes);
    }
    if (vfull < vend) {
        uint base = vfull;
        uvec4 v[UPSWEEP_VEC_LOADS];
        [[unroll]] for (uint k = 0u; k < UPSWEEP_VEC_LOADS; ++k) {
            uint i = base + k * WG + t;
            v[k] = i < vend ? keys_a4[i] : uvec4(0u);
        }
        uint d[VEC_STEP_KEYS];
        vector_digits(v, shift, d);
        [[unroll]] for (uint k = 0u; k < UPSWEEP_VEC_LOADS; ++k)
            if (base + k * WG + t >= vend) // no key: not counted
                [[unroll]] for (uint j = 0u; j < VEC_KEYS; ++j)
                    d[k * VEC_KEYS + j] = 0xffffffffu;
        count_digits(d, VEC_STEP_KEYS, false, lanes);
    }
    for (uint base = vec_end; base < end; base += WG * UPSWEEP_LOADS) {
        uint d[VEC_STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < VEC_STEP_KEYS; ++k) {
            uint i = base + k * WG + t;
            bool valid = k < UPSWEEP_LOADS && i < end;
            KEY_T key = valid ? keys_a[i] : KEY_T(0u);
            d[k] = valid ? radix_digit(key, shift) : 0xffffffffu;
        }
        count_digits(d, UPSWEEP_LOADS, base + WG * UPSWEEP_LOADS <= end, lanes);
    }
    barrier();
    bool stall = (pc.flags & RADIX_FLAG_STALL_FIRST) != 0u && block == 0u;
    if (stall && gl_SubgroupID == 0u &&
        !radix_wait_state(RADIX_S_DONE + p, blocks - 1u, STALL_SPIN_LIMIT) && subgroupElect())
        atomicAdd(state[RADIX_S_STALL_TIMEOUTS], 1u);
    barrier();
    for (uint d = t; d < RADIX_DIGITS; d += WG)
        lookback[block * RADIX_DIGITS + d] = s_hist[d];
    add_group_totals(block);

    if ((pc.flags & RADIX_FLAG_STALL_FIRST) != 0u) {
        barrier();
        if (t == 0u && block != 0u)
            atomicAdd(state[RADIX_S_DONE + p], 1u);
    }
}
