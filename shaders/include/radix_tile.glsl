// Radix sort: ranking one tile of keys with subgroup ballots (warp-level multi-split), shared by
// the Onesweep scatter pass and the portable downsweep pass.
//
// A tile is WG * ITEMS consecutive elements; WG is a divisor of 256 or a multiple of the subgroup
// size from 256 on (per-digit work then leaves invocations >= 256 idle). Subgroup s owns the tile's elements
// [s * S * ITEMS, (s + 1) * S * ITEMS) (S = subgroup size); its item j, lane l is element
// s * S * ITEMS + j * S + l, so each load instruction of a subgroup reads S consecutive keys.
// Ranking walks the items in order and, inside an item, the lanes in order, and subgroups own
// consecutive ranges: the rank of an element among the tile's elements of its digit is
// therefore its input order, which makes every pass stable.
//
// Peers (lanes of the subgroup holding the same digit) come from one ballot per digit bit, or
// from subgroupPartitionNV where VK_NV_shader_subgroup_partitioned exists (USE_PARTITIONED=1).
// Ballots are uvec4, so any subgroup size from 4 to 128 works. With RANK_ATOMIC_OR (subgroups of
// at most 32 lanes, set by the host where shared memory holds a second set of per-subgroup words)
// each lane instead ORs its lane bit into its subgroup's match word of the digit and reads the
// word back (CUB's "atomic or" match): a few instructions an item instead of about sixty for the
// eight ballots, the ranking loop's main cost on the H200 (docs/perf-notes.md).
#ifndef VKSORT_RADIX_TILE_GLSL
#define VKSORT_RADIX_TILE_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#ifndef USE_PARTITIONED
#define USE_PARTITIONED 0
#endif
#if USE_PARTITIONED
#extension GL_NV_shader_subgroup_partitioned : require
#endif

#include "radix_common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 8u;        // elements per invocation
layout(constant_id = 3) const uint SMEM_WORDS = 4096u; // >= max(tile * KEY_WORDS, subgroups * 256 * (1 + RANK_ATOMIC_OR))
layout(constant_id = 4) const bool RANK_ATOMIC_OR = false; // peers from a shared atomicOr (<= 32 lanes)

#define WG gl_WorkGroupSize.x
#define TILE (WG * ITEMS)

// RADIX_DATA_COHERENT: `coherent` where one dispatch reads what another workgroup of it wrote
// (the fused pass); empty where every pass is its own dispatch.
#ifndef RADIX_DATA_COHERENT
#define RADIX_DATA_COHERENT
#endif
layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) RADIX_DATA_COHERENT buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_B, std430) RADIX_DATA_COHERENT buffer KeysB { KEY_T keys_b[]; };
#if HAS_VALUE
layout(set = 0, binding = RADIX_BINDING_VALUES_A, std430) RADIX_DATA_COHERENT buffer ValuesA { uint values_a[]; };
layout(set = 0, binding = RADIX_BINDING_VALUES_B, std430) RADIX_DATA_COHERENT buffer ValuesB { uint values_b[]; };
#endif
layout(set = 0, binding = RADIX_BINDING_STATE, std430) coherent buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) readonly buffer Hist { uint hist[]; };

// Shared memory: first the per-subgroup digit counters, then (reused) the staged tile.
shared uint s_mem[SMEM_WORDS];
shared uint s_count[RADIX_DIGITS];      // elements of each digit in this tile
shared uint s_tile_start[RADIX_DIGITS]; // exclusive scan of s_count
shared uint s_dst[RADIX_DIGITS];        // global index of the digit's first element - tile start
shared uint s_scan_partial[WG];         // radix_workgroup_exclusive_scan's subgroup totals
shared uint s_broadcast;
#include "radix_scan.glsl"

// The tile held in registers.
KEY_T r_key[ITEMS];
uint r_pos[ITEMS];
#ifndef VALUES_WITH_KEYS
#define VALUES_WITH_KEYS 1 // payloads are loaded with the keys (latency overlapped with ranking)
#endif
#if HAS_VALUE && VALUES_WITH_KEYS
uint r_val[ITEMS];
#endif  // tile-local sorted position; >= TILE for elements past the count

KEY_T radix_load_key(uint parity, uint i) { return parity == 0u ? keys_a[i] : keys_b[i]; }
void radix_store_key(uint parity, uint i, KEY_T k)
{
    if (parity == 0u)
        keys_b[i] = k;
    else
        keys_a[i] = k;
}
#if HAS_VALUE
uint radix_load_value(uint parity, uint i) { return parity == 0u ? values_a[i] : values_b[i]; }
void radix_store_value(uint parity, uint i, uint v)
{
    if (parity == 0u)
        values_b[i] = v;
    else
        values_a[i] = v;
}
#endif

uint radix_subgroup_base() { return gl_SubgroupID * gl_SubgroupSize * ITEMS; }

// A subgroup barrier that orders shared memory only (subgroupMemoryBarrierShared() +
// subgroupBarrier() would also order every other storage class).
void radix_subgroup_shared_barrier()
{
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
}

// Lanes of this subgroup whose element is valid and has the same digit.
uvec4 radix_peers(bool valid, uint digit)
{
#if USE_PARTITIONED
    return subgroupPartitionNV(valid ? digit : 0xffffffffu) & subgroupBallot(valid);
#else
    uvec4 peers = subgroupBallot(valid);
    [[unroll]] for (uint b = 0u; b < RADIX_BITS; ++b) {
        bool bit = ((digit >> b) & 1u) != 0u;
        uvec4 vote = subgroupBallot(bit);
        peers &= bit ? vote : ~vote;
    }
    return peers;
#endif
}

// Exclusive scan of s_count into s_tile_start. Below 256 invocations (WG divides 256) each
// invocation sums RADIX_DIGITS / WG consecutive digits; from 256 on (any multiple of the
// subgroup size) invocation t < 256 takes digit t and the others add nothing. Ends with a
// barrier.
void radix_scan_counts()
{
    const uint per = WG >= RADIX_DIGITS ? 1u : RADIX_DIGITS / WG;
    uint t = gl_LocalInvocationID.x;
    bool owner = t * per < RADIX_DIGITS;
    uint sum = 0u;
    if (owner) {
        for (uint k = 0u; k < per; ++k)
            sum += s_count[t * per + k];
    }
    uint run = radix_workgroup_exclusive_scan(sum);
    if (owner) {
        for (uint k = 0u; k < per; ++k) {
            s_tile_start[t * per + k] = run;
            run += s_count[t * per + k];
        }
    }
    barrier();
}

// Loads the tile [tile_base, tile_base + tile_n) from the `parity` buffer and ranks it on the
// digit at `shift`: fills r_key, r_pos, s_count and s_tile_start.
void radix_rank_tile(uint parity, uint tile_base, uint tile_n, uint shift)
{
    uint t = gl_LocalInvocationID.x;
    uint counters = gl_SubgroupID * RADIX_DIGITS;
    // RANK_ATOMIC_OR: the subgroups' match words follow all counters.
    uint matches = (gl_NumSubgroups + gl_SubgroupID) * RADIX_DIGITS;
    for (uint i = t; i < gl_NumSubgroups * RADIX_DIGITS * (RANK_ATOMIC_OR ? 2u : 1u); i += WG)
        s_mem[i] = 0u;
    barrier();

    uint local_base = radix_subgroup_base();
    uint digits[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint li = local_base + j * gl_SubgroupSize + gl_SubgroupInvocationID;
        bool valid = li < tile_n;
        r_key[j] = valid ? radix_load_key(parity, tile_base + li) : KEY_T(0u);
#if HAS_VALUE && VALUES_WITH_KEYS
        r_val[j] = valid ? radix_load_value(parity, tile_base + li) : 0u;
#endif
    }
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint li = local_base + j * gl_SubgroupSize + gl_SubgroupInvocationID;
        bool valid = li < tile_n;
        uint digit = valid ? radix_digit(r_key[j], shift) : 0u;
        uint rank, peer_count;
        if (RANK_ATOMIC_OR) {
            if (valid)
                atomicOr(s_mem[matches + digit], 1u << gl_SubgroupInvocationID);
            radix_subgroup_shared_barrier();
            uint mask = valid ? s_mem[matches + digit] : 0u;
            rank = bitCount(mask & gl_SubgroupLtMask.x);
            peer_count = bitCount(mask);
        } else {
            uvec4 peers = radix_peers(valid, digit);
            rank = subgroupBallotExclusiveBitCount(peers);
            peer_count = subgroupBallotBitCount(peers);
        }
        uint before = valid ? s_mem[counters + digit] : 0u;
        // Every peer has read the counter (and the match word) before the digit's first lane
        // moves it on (and clears the match word for the next item).
        radix_subgroup_shared_barrier();
        if (valid && rank == 0u) {
            s_mem[counters + digit] = before + peer_count;
            if (RANK_ATOMIC_OR)
                s_mem[matches + digit] = 0u;
        }
        radix_subgroup_shared_barrier();
        digits[j] = digit;
        r_pos[j] = valid ? before + rank : 0xffffffffu;
    }
    barrier();

    // Per digit: subgroup counters -> exclusive offsets across subgroups, and the tile count.
    for (uint d = t; d < RADIX_DIGITS; d += WG) {
        uint run = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            uint v = s_mem[s * RADIX_DIGITS + d];
            s_mem[s * RADIX_DIGITS + d] = run;
            run += v;
        }
        s_count[d] = run;
    }
    barrier();
    radix_scan_counts();

    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        if (r_pos[j] != 0xffffffffu)
            r_pos[j] += s_tile_start[digits[j]] + s_mem[counters + digits[j]];
    }
    barrier(); // s_mem is reused for staging after this
}

// Writes the ranked tile: keys (and values) go through shared memory so that consecutive
// invocations write consecutive addresses of each digit's run. s_dst must hold, per digit, the
// global index of the digit's first element in this tile minus its tile start.
void radix_scatter_tile(uint parity, uint tile_base, uint tile_n, uint shift)
{
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        if (r_pos[j] != 0xffffffffu) {
#if KEY64
            s_mem[r_pos[j]] = r_key[j].x;
            s_mem[TILE + r_pos[j]] = r_key[j].y;
#else
            s_mem[r_pos[j]] = r_key[j];
#endif
        }
    }
    barrier();
    uint dst[ITEMS];
    [[unroll]] for (uint m = 0u; m < ITEMS; ++m) {
        uint i = m * WG + t;
        if (i < tile_n) {
#if KEY64
            KEY_T k = uvec2(s_mem[i], s_mem[TILE + i]);
#else
            KEY_T k = s_mem[i];
#endif
            dst[m] = s_dst[radix_digit(k, shift)] + i;
            radix_store_key(parity, dst[m], k);
        }
    }
#if HAS_VALUE
    barrier();
    uint local_base = radix_subgroup_base();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        if (r_pos[j] != 0xffffffffu) {
#if VALUES_WITH_KEYS
            s_mem[r_pos[j]] = r_val[j];
#else
            uint li = local_base + j * gl_SubgroupSize + gl_SubgroupInvocationID;
            s_mem[r_pos[j]] = radix_load_value(parity, tile_base + li);
#endif
        }
    }
    barrier();
    [[unroll]] for (uint m = 0u; m < ITEMS; ++m) {
        uint i = m * WG + t;
        if (i < tile_n)
            radix_store_value(parity, dst[m], s_mem[i]);
    }
#endif
}

#endif
