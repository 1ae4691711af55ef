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
// Ballots are uvec4, so any subgroup size from 4 to 128 works. With RANK_ATOMIC_OR (set by the
// host for subgroups of at most 32 lanes) each lane instead ORs its lane bit into its
// subgroup's match word of the digit and reads the word back (CUB's "atomic or" match): a few
// instructions an item instead of about sixty for the eight ballots, the ranking loop's main
// cost on the H200 (docs/perf-notes.md).
//
// Shared memory can be kept small so that two workgroups share a multiprocessor where the driver
// gives compute little of it (NVIDIA's Vulkan driver: 48 KiB per multiprocessor on the H200,
// for all its workgroups together): per-subgroup counters of 16 bits (COUNTERS16, two digits a
// word) and the tile staged for the scatter in two halves (SCATTER_ROUNDS). The H200's u32 keys
// tile, 384 x 26, so runs two workgroups per multiprocessor (measured, docs/perf-notes.md).
#ifndef VKSORT_RADIX_TILE_GLSL
#define VKSORT_RADIX_TILE_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require

#include "radix_common.glsl"
#include "radix_peers.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 8u;        // elements per invocation
layout(constant_id = 3) const uint SMEM_WORDS = 4096u; // >= max(STAGED * KEY_WORDS, subgroups * (COUNTER_WORDS + 256 * RANK_ATOMIC_OR))
layout(constant_id = 4) const bool RANK_ATOMIC_OR = false; // peers from a shared atomicOr (<= 32 lanes)
layout(constant_id = 5) const uint SCATTER_ROUNDS = 1u;   // 1 or 2: the tile staged whole or in halves
layout(constant_id = 6) const bool COUNTERS16 = false;   // 16-bit per-subgroup counters (two a word)

#define WG gl_WorkGroupSize.x
#define TILE (WG * ITEMS)
#define STAGED_ITEMS ((ITEMS + SCATTER_ROUNDS - 1u) / SCATTER_ROUNDS)
#define STAGED (WG * STAGED_ITEMS) // elements staged per scatter round

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
// RADIX_HIST_ACCESS: `coherent` where the dispatch itself builds the histogram and plan (the
// fused pass's FOLD_HISTOGRAM); `readonly` elsewhere.
#ifndef RADIX_HIST_ACCESS
#define RADIX_HIST_ACCESS readonly
#endif
layout(set = 0, binding = RADIX_BINDING_HIST, std430) RADIX_HIST_ACCESS buffer Hist { uint hist[]; };

// Shared memory, while ranking: the per-subgroup counters (subgroup s, digit d in word
// s * 256 + d, or with COUNTERS16 digits 2w and 2w + 1 in the halves of word s * 128 + w; after
// ranking, in place, the subgroup's exclusive offsets among the tile's subgroups) and, with
// RANK_ATOMIC_OR, after them a match word per subgroup and digit. While scattering: the tile,
// or half of it.
shared uint s_mem[SMEM_WORDS];
shared uint s_count[RADIX_DIGITS];      // elements of each digit in this tile
shared uint s_tile_start[RADIX_DIGITS]; // exclusive scan of s_count
shared uint s_dst[RADIX_DIGITS];        // global index of the digit's first element - tile start
shared uint s_scan_partial[WG / 4u];    // radix_workgroup_exclusive_scan's subgroup totals (subgroups >= 4)
shared uint s_broadcast;
shared uint s_count_shift; // the tile's digit shift, reloaded from here (see radix_count_tile)
shared uint s_value_base;  // the tile's first element, for the payload loads (see radix_scatter_tile)
#include "radix_scan.glsl"

// The tile held in registers.
KEY_T r_key[ITEMS];
// Each element's tile-local sorted position (sentinels of a partial tile: >= tile_n), through
// radix_pos / radix_pos_set / radix_pos_add. RADIX_POS16 1 keeps two positions a register
// (TILE < 2^16): the positions and the keys are both live from the ranking to the staging -
// across the look-back - and ITEMS / 2 registers fewer is what decides whether a pass fits
// two workgroups per SM (80 registers at 384 invocations on NVIDIA).
#ifndef RADIX_POS16
#define RADIX_POS16 0
#endif
#if RADIX_POS16
uint r_pos_pairs[(ITEMS + 1u) / 2u];
uint radix_pos(uint j) { return (r_pos_pairs[j / 2u] >> (16u * (j % 2u))) & 0xffffu; }
// Sets position j; the pairs are set in order (an even j first: it clears the odd half).
void radix_pos_set(uint j, uint p)
{
    if (j % 2u == 0u)
        r_pos_pairs[j / 2u] = p;
    else
        r_pos_pairs[j / 2u] |= p << 16u;
}
// Adds to position j (the sums stay below 2^16, so no half carries into the other).
void radix_pos_add(uint j, uint p) { r_pos_pairs[j / 2u] += p << (16u * (j % 2u)); }
#else
uint r_pos[ITEMS];
uint radix_pos(uint j) { return r_pos[j]; }
void radix_pos_set(uint j, uint p) { r_pos[j] = p; }
void radix_pos_add(uint j, uint p) { r_pos[j] += p; }
#endif

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

// The per-subgroup counters: COUNTER_WORDS words per subgroup, digit d of subgroup sg in word
// radix_counter_word(sg, d) at bit radix_counter_shift(d).
#define COUNTER_WORDS (COUNTERS16 ? RADIX_DIGITS / 2u : RADIX_DIGITS)
#define COUNTER_MASK (COUNTERS16 ? 0xffffu : 0xffffffffu)
uint radix_counter_word(uint sg, uint d) { return sg * COUNTER_WORDS + (COUNTERS16 ? d >> 1u : d); }
uint radix_counter_shift(uint d) { return COUNTERS16 ? (d & 1u) * 16u : 0u; }

// A subgroup barrier that orders shared memory only (subgroupMemoryBarrierShared() +
// subgroupBarrier() would also order every other storage class).
void radix_subgroup_shared_barrier()
{
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
}

// Lanes of this subgroup whose element has the same digit.
uvec4 radix_peers(uint digit) { return radix_peers_of(digit, RADIX_BITS); }

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

// Loads the tile [tile_base, tile_base + tile_n) of the `parity` buffer into r_key: item j of
// lane l of subgroup s is element s * S * ITEMS + j * S + l. Positions past tile_n (a partial
// tile) hold sentinels (see radix_count_tile). full: tile_n == TILE, a constant at the call.
void radix_load_tile(uint parity, uint tile_base, uint tile_n, bool full)
{
    uint local_base = radix_subgroup_base();
#if ORDER_KEY_BRANCH_FREE
    KEY_T sentinel = radix_sentinel_key(); // once: NVIDIA's compiler built it per item
#endif
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint li = local_base + j * gl_SubgroupSize + gl_SubgroupInvocationID;
        // A partial tile loads every position (clamped to its last element, tile_n >= 1) and
        // replaces those past tile_n afterwards: with predicated loads the H200's compiler
        // kept a predicate per item, saved to registers (u32 keys 2^20 -1 % without).
        uint at = full ? li : min(li, tile_n - 1u);
        KEY_T k = radix_load_key(parity, tile_base + at);
#if ORDER_KEY_BRANCH_FREE
        r_key[j] = full || li < tile_n ? k : sentinel;
#else
        r_key[j] = full || li < tile_n ? k : radix_sentinel_key();
#endif
    }
}

// Defined after radix_count_tile: glslang emits declarations in the order it meets them, and this
// order keeps every measured module's SPIR-V as it was timed (docs/perf-notes.md, thirty-fourth).
void radix_counters_to_offsets(uint tile_n, uint shift, bool full);

// A tile's start, before its counting or ranking: the per-subgroup counters (and match words)
// zeroed, the digit shift and the tile's first element recorded in shared memory (s_count_shift,
// s_value_base), then a barrier.
void radix_tile_begin(uint tile_base, uint shift)
{
    uint t = gl_LocalInvocationID.x;
    for (uint i = t; i < gl_NumSubgroups * (COUNTER_WORDS + (RANK_ATOMIC_OR ? RADIX_DIGITS : 0u));
         i += WG)
        s_mem[i] = 0u;
    if (t == 0u) {
        s_count_shift = shift;
        s_value_base = tile_base;
    }
    barrier();
}

// Loads the tile [tile_base, tile_base + tile_n) from the `parity` buffer and counts its digits
// at `shift` (CUB's "early counts"): fills r_key, s_count and s_tile_start, and leaves
// in each subgroup's counters the position in the tile of that subgroup's first element of each
// digit, so that radix_rank_counted gives final tile positions without a second walk over the
// items. Callers may publish s_count before ranking. full: the caller knows tile_n == TILE (a
// constant at the call, so the compiler drops the per-element bounds tests: the tile functions
// are inlined). Otherwise the positions past tile_n hold sentinels (radix_sentinel_key, the last
// digit of every pass) that are counted and ranked like elements - after every real one - and
// never written, so the loads' select and the scatter are the only per-element tests (payloads
// are loaded in radix_scatter_tile). keys_loaded: r_key already holds the tile (radix_load_tile,
// e.g. prefetched by the previous tile's radix_scatter_tile). Ends with a barrier.
void radix_count_tile(uint parity, uint tile_base, uint tile_n, uint shift, bool full, bool keys_loaded)
{
    radix_tile_begin(tile_base, shift);

    if (!keys_loaded)
        radix_load_tile(parity, tile_base, tile_n, full);
    // Per-subgroup digit counts (shared atomics without a result: they pipeline, unlike the
    // ranking's per-item chain). The shift comes from shared memory so that the compiler cannot
    // keep these digits (and their counter addresses) live for the ranking loop: on the H200
    // that took the u32 keys pass from 80 to 131 registers, one workgroup per SM instead of two.
    uint count_shift = s_count_shift;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint d = radix_digit(r_key[j], count_shift);
        atomicAdd(s_mem[radix_counter_word(gl_SubgroupID, d)], 1u << radix_counter_shift(d));
    }
    barrier();

    radix_counters_to_offsets(tile_n, shift, full);
}

// Turns every subgroup's digit counts in s_mem into that subgroup's offsets in the tile (the
// digit's start in the tile plus the subgroup's start within the digit), with s_count /
// s_tile_start the tile's counts and starts. The caller's counting is complete behind a
// barrier; ends with a barrier.
void radix_counters_to_offsets(uint tile_n, uint shift, bool full)
{
    uint t = gl_LocalInvocationID.x;
    // Per counter word: subgroup counts -> exclusive offsets across subgroups, in place, and
    // the tile counts. One invocation owns a whole word (both digits of a 16-bit pair), so
    // plain stores do.
    for (uint w = t; w < COUNTER_WORDS; w += WG) {
        uint run_lo = 0u, run_hi = 0u;
        for (uint sg = 0u; sg < gl_NumSubgroups; ++sg) {
            uint v = s_mem[sg * COUNTER_WORDS + w];
            if (COUNTERS16) {
                s_mem[sg * COUNTER_WORDS + w] = run_lo | (run_hi << 16u);
                run_lo += v & 0xffffu;
                run_hi += v >> 16u;
            } else {
                s_mem[sg * COUNTER_WORDS + w] = run_lo;
                run_lo += v;
            }
        }
        if (COUNTERS16) {
            s_count[2u * w] = run_lo;
            s_count[2u * w + 1u] = run_hi;
        } else {
            s_count[w] = run_lo;
        }
    }
    barrier();
    radix_scan_counts();
    // The sentinels are the last elements of the pass's last digit: its tile count drops them
    // (its start, and every position of a real element, are unchanged).
    if (!full && t == 0u)
        s_count[radix_digit(radix_sentinel_key(), shift)] -= TILE - tile_n;

    // Seed every subgroup's counters with the digit's start in the tile (positions stay below
    // the tile size, < 2^16 with 16-bit counters, so the halves never carry into each other).
    for (uint w = t; w < COUNTER_WORDS; w += WG) {
        uint start = COUNTERS16 ? s_tile_start[2u * w] | (s_tile_start[2u * w + 1u] << 16u)
                                : s_tile_start[w];
        for (uint sg = 0u; sg < gl_NumSubgroups; ++sg)
            s_mem[sg * COUNTER_WORDS + w] += start;
    }
    barrier();
}

// Ranks the tile counted by radix_count_tile: r_pos = the element's position in the tile
// sorted by digit (sentinels of a partial tile at [tile_n, TILE)). Ends with a barrier (s_mem
// is reused for staging). Every item ranks: a partial tile's sentinels are elements of the last
// digit. atomic_or: peers from the shared match words (RANK_ATOMIC_OR's ranking), else from
// radix_peers (a constant at each call; false where RANK_ATOMIC_OR is, for skewed digits: the
// match word's atomicOr serialises over the lanes that share a digit, peer masks do not).
void radix_rank_counted(uint shift, bool atomic_or)
{
    uint matches = gl_NumSubgroups * COUNTER_WORDS + gl_SubgroupID * RADIX_DIGITS; // RANK_ATOMIC_OR
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint digit = radix_digit(r_key[j], shift);
        uint rank, peer_count;
        if (atomic_or) {
            atomicOr(s_mem[matches + digit], 1u << gl_SubgroupInvocationID);
            radix_subgroup_shared_barrier();
            uint mask = s_mem[matches + digit];
            rank = bitCount(mask & gl_SubgroupLtMask.x);
            peer_count = bitCount(mask);
        } else {
            uvec4 peers = radix_peers(digit);
            rank = subgroupBallotExclusiveBitCount(peers);
            peer_count = subgroupBallotBitCount(peers);
        }
        uint word = radix_counter_word(gl_SubgroupID, digit);
        uint half_shift = radix_counter_shift(digit);
        uint before = (s_mem[word] >> half_shift) & COUNTER_MASK;
        // Every peer has read the counter (and the match word) before the digit's first lane
        // moves it on (16-bit: an atomic, the other digit of the word may move in the same
        // item) and clears the match word for the next item.
        radix_subgroup_shared_barrier();
        if (rank == 0u) {
            if (COUNTERS16)
                atomicAdd(s_mem[word], peer_count << half_shift);
            else
                s_mem[word] = before + peer_count;
            if (atomic_or)
                s_mem[matches + digit] = 0u;
        }
        radix_subgroup_shared_barrier();
        radix_pos_set(j, before + rank);
    }
    barrier(); // s_mem is reused for staging after this
}

// Rank first, count after: for passes that publish no counts before ranking (the portable
// downsweep's 32-bit-key pairs modules) and for skewed digits (the Onesweep pass's skew-proof
// tiles, radix_onesweep_tile.glsl). The ranking's per-subgroup counters start at zero, so
// after it they hold each subgroup's digit counts; a column scan over the subgroups gives each
// subgroup's start within its digit, radix_scan_counts the tile's digit starts, and each item
// adds both (one shared load per item instead of radix_count_tile's shared atomic per item,
// which NVIDIA's compiler wraps in MATCH.ALL/REDUX aggregation only where all 32 lanes share
// the address, and otherwise serialises over the lanes that do). Measured only where it is
// used (radix_downsweep.comp says where and why not elsewhere). Fills s_count and
// s_tile_start as radix_count_tile does. atomic_or: as radix_rank_counted's. Ends with a
// barrier.
void radix_rank_tile_late_counts(uint parity, uint tile_base, uint tile_n, uint shift, bool full,
                                 bool keys_loaded, bool atomic_or)
{
    radix_tile_begin(tile_base, shift);
    if (!keys_loaded)
        radix_load_tile(parity, tile_base, tile_n, full);
    radix_rank_counted(shift, atomic_or); // positions among the subgroup's elements of each digit

    radix_counters_to_offsets(tile_n, shift, full);
    // The shift from shared memory, as in radix_count_tile: so that the compiler does not keep
    // the ranking's digits live across the counts for this loop.
    uint add_shift = s_count_shift;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint digit = radix_digit(r_key[j], add_shift);
        radix_pos_add(j, (s_mem[radix_counter_word(gl_SubgroupID, digit)] >> radix_counter_shift(digit)) & COUNTER_MASK);
    }
    barrier(); // s_mem is reused for staging after this
}

// Both: loads (unless keys_loaded), counts and ranks the tile.
void radix_rank_tile(uint parity, uint tile_base, uint tile_n, uint shift, bool full, bool keys_loaded)
{
    radix_count_tile(parity, tile_base, tile_n, shift, full, keys_loaded);
    radix_rank_counted(shift, RANK_ATOMIC_OR);
}

// Stages the keys (and radix_stage_values the payloads) whose sorted position is in
// [lo, lo + STAGED).
void radix_stage_keys(uint lo)
{
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = radix_pos(j) - lo; // wraps past STAGED below lo
        if (SCATTER_ROUNDS == 1u || q < STAGED) {
#if KEY64
            s_mem[q] = r_key[j].x;
            s_mem[STAGED + q] = r_key[j].y;
#else
            s_mem[q] = r_key[j];
#endif
        }
    }
}

// Whether staged position pos (of a scatter round) holds an element. A full tile has every
// position below TILE; the rounds cover SCATTER_ROUNDS * STAGED >= TILE positions, more where
// ITEMS is odd (512 x 17 in two rounds of 9 items: the second round's last WG positions are
// past the tile), so only a full tile whose rounds cover it exactly skips the test.
bool radix_staged_element(uint pos, uint tile_n, bool full)
{
    if (full && SCATTER_ROUNDS * STAGED == TILE)
        return true;
    return pos < (full ? TILE : tile_n);
}

// The digits of an invocation's staged elements of one round, four to a word (kept for the
// payloads' destinations, so that neither the keys nor the destinations stay live).
#define DIGIT_WORDS ((STAGED_ITEMS + 3u) / 4u)
uint r_digits0[DIGIT_WORDS]; // round 0
uint r_digits1[DIGIT_WORDS]; // round 1 (SCATTER_ROUNDS == 2)

// Writes the keys of scatter round `round` (staged, then one barrier) and keeps their digits in
// r_digits0/1.
void radix_write_keys_round(uint parity, uint round, uint tile_n, uint shift, bool full)
{
    uint t = gl_LocalInvocationID.x;
    uint lo = round * STAGED;
    [[unroll]] for (uint w = 0u; w < DIGIT_WORDS; ++w) {
        if (round == 0u)
            r_digits0[w] = 0u;
        else
            r_digits1[w] = 0u;
    }
    [[unroll]] for (uint m = 0u; m < STAGED_ITEMS; ++m) {
        uint i = m * WG + t;
        if (radix_staged_element(lo + i, tile_n, full)) {
#if KEY64
            KEY_T k = uvec2(s_mem[i], s_mem[STAGED + i]);
#else
            KEY_T k = s_mem[i];
#endif
            uint d = radix_digit(k, shift);
            if (round == 0u)
                r_digits0[m / 4u] |= d << (8u * (m % 4u));
            else
                r_digits1[m / 4u] |= d << (8u * (m % 4u));
            radix_store_key(parity, s_dst[d] + lo + i, k);
        }
    }
}

#if HAS_VALUE
// Writes the payloads of scatter round `round` (staged, then one barrier) to their keys' places.
void radix_write_values_round(uint parity, uint round, uint tile_n, bool full)
{
    uint t = gl_LocalInvocationID.x;
    uint lo = round * STAGED;
    [[unroll]] for (uint m = 0u; m < STAGED_ITEMS; ++m) {
        uint i = m * WG + t;
        if (radix_staged_element(lo + i, tile_n, full)) {
            uint d = ((round == 0u ? r_digits0[m / 4u] : r_digits1[m / 4u]) >> (8u * (m % 4u))) & 0xffu;
            radix_store_value(parity, s_dst[d] + lo + i, s_mem[i]);
        }
    }
}
#endif

#if HAS_VALUE
uint r_vals[ITEMS]; // the tile's payloads, in input order, once loaded for the scatter

// Loads the tile's payloads into r_vals, in input order (as the keys were loaded).
void radix_load_values(uint parity, uint tile_n, bool full)
{
    uint value_base = s_value_base;
    uint local_base = radix_subgroup_base();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint li = local_base + j * gl_SubgroupSize + gl_SubgroupInvocationID;
        r_vals[j] = radix_load_value(parity, value_base + (full ? li : min(li, tile_n - 1u)));
    }
}

// Stages the payloads r_vals whose sorted position is in [lo, lo + STAGED).
void radix_stage_values(uint lo)
{
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = radix_pos(j) - lo;
        if (SCATTER_ROUNDS == 1u || q < STAGED)
            s_mem[q] = r_vals[j];
    }
}
#endif

// The first scatter round, which callers run before the barrier that publishes s_dst: its keys
// staged and, where one round holds the whole tile (r_key is free once staged), the payload
// loads issued, so that their round trip overlaps that barrier (H200: portable u32 pairs 2^24
// -0.7 %, Onesweep's one-round pairs tiles 2^20 -1 %, twenty-fourth session).
void radix_stage_first_round(uint parity, uint tile_n, bool full)
{
    radix_stage_keys(0u);
#if HAS_VALUE
    if (SCATTER_ROUNDS == 1u)
        radix_load_values(parity, tile_n, full);
#endif
}

// Writes the ranked tile: keys (and values) go through shared memory so that consecutive
// invocations write consecutive addresses of each digit's run, STAGED elements at a time. The
// caller has run radix_stage_first_round and passed a barrier since (so that it stages while
// waiting for s_dst, one barrier fewer). s_dst must hold, per digit, the global index of the
// digit's first element in this tile minus its tile start. Payloads are loaded only once the
// keys are staged for the last round (CUB's order), so they are not live while the tile is
// ranked, and overlap the barrier after that staging and the last key writes (two rounds: H200
// u32 pairs 2^24 -0.5 %, twenty-third session). Their load address comes from shared memory,
// after a barrier, so that the compiler cannot hoist them into the ranking. (H200: 128 -> 121
// registers at 512 x 17 pairs, not the 80 of a keys pass - its compiler schedules the ranking
// wide once a pass cannot fit two workgroups per SM; pairs 2^24 -1.2 % against payloads held
// from the load. Loading them after the last key writes lost 3-4 %; docs/perf-notes.md,
// thirteenth session.)
//
// prefetch (uniform, keys only; the caller's choice): once the last round's keys are staged
// (r_key is free), the keys of the tile this workgroup runs next, [next_base, next_base +
// next_n) (next_n <= TILE), are loaded into r_key (radix_load_tile), so that their round trip
// overlaps this tile's writes instead of starting the next tile. The portable downsweep uses it
// for 32-bit keys (H200: downsweep 108 -> 96 us at 2^24, 1790 -> 1420 us at 2^28). Measured
// slower elsewhere (docs/perf-notes.md, seventeenth session): pairs (downsweep and Onesweep, more
// registers: 83 -> 115 at 512 x 17, wherever the payloads' loads went), Onesweep keys (2^24
// +6 %), u64 keys (+1 %).
void radix_scatter_tile(uint parity, uint tile_base, uint tile_n, uint shift, bool full,
                        bool prefetch, uint next_base, uint next_n)
{
    if (SCATTER_ROUNDS == 2u) {
        radix_write_keys_round(parity, 0u, tile_n, shift, full);
        barrier();
        radix_stage_keys(STAGED);
#if HAS_VALUE
        radix_load_values(parity, tile_n, full);
#endif
        barrier();
    }
#if !HAS_VALUE
    if (prefetch)
        radix_load_tile(parity, next_base, next_n, false);
#endif
    if (SCATTER_ROUNDS == 2u)
        radix_write_keys_round(parity, 1u, tile_n, shift, full);
    else
        radix_write_keys_round(parity, 0u, tile_n, shift, full);
#if HAS_VALUE
    barrier();
    radix_stage_values(0u);
    barrier();
    radix_write_values_round(parity, 0u, tile_n, full);
    if (SCATTER_ROUNDS == 2u) {
        barrier();
        radix_stage_values(STAGED);
        barrier();
        radix_write_values_round(parity, 1u, tile_n, full);
    }
#endif
}

#endif
