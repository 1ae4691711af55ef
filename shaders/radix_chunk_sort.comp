#version 450
// Hybrid sort's local stage (RADIX_FLAG_HYBRID, radix_interface.h). The digit passes of the top
// 16 bits left the keys in A sorted by them, stably (so each bucket - the keys of one value of
// the top 16 bits - is in input order); radix_chunk_bounds.comp found where each chunk of k
// buckets starts. Here one workgroup sorts chunk c (buckets [c k, (c + 1) k), elements
// [bound[c], bound[c + 1])) by the rest of the order key, in place: no other workgroup touches
// its elements.
// Ranks: one count of a chunk-relative digit - the bucket relative to c k, then the top g bits of
// the low 16 (g = log2(RADIX_HYBRID_BINS / k), so the digits fill the counters) - in 16-bit
// shared counters, two a word, with plain atomics (their order inside a digit's group is not the
// input order); then an element's place in its group is the number of members with a smaller
// word (low 16 bits << 16 | index in the chunk), which orders by the low bits and then by input
// position: stable. Keys, then payloads, go out through shared memory in sorted order, so the
// writes are contiguous.
// A chunk whose digit groups are long (duplicate keys: the rank walk would be quadratic,
// RADIX_HYBRID_RANK_WORK) is sorted instead by a stable LSD radix sort in shared memory
// (sort_chunk_stable). A chunk larger than the tile is sorted in parts of fewer buckets that
// fit (main). Only where no split into at most 64 parts fits (one bucket over the tile, or up to
// 2^20 keys, where such parts keep several buckets, a crowded run of them) does its workgroup
// open the fallback's four digit slots (their dispatch sizes and the top digits' tickets) and
// leave it; the fallback then sorts the whole array by every digit, which the top passes' order
// keeps right and stable.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#include "radix_common.glsl"
#define RADIX_PEERS_LOOP // (a runtime bit count: not unrolled)
#include "radix_peers.glsl"

layout(local_size_x = RADIX_HYBRID_WORKGROUP) in;
layout(constant_id = 1) const uint ITEMS = 5u; // elements an invocation holds at most

#define WG RADIX_HYBRID_WORKGROUP
#define TILE (WG * ITEMS)
#define WORDS (RADIX_HYBRID_BINS / 2u)
#define WORDS_PER_INV (WORDS / WG)

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) restrict buffer KeysA { uint keys[]; };
#if HAS_VALUE
layout(set = 0, binding = RADIX_BINDING_VALUES_A, std430) restrict buffer ValuesA { uint values[]; };
#endif
layout(set = 0, binding = RADIX_BINDING_STATE, std430) restrict buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_B, std430) restrict readonly buffer Bounds { uint bounds[]; };
#include "radix_dispatch.glsl"

shared uint s_count[WORDS]; // digit d's counter: half (d >= WORDS) of word d mod WORDS
shared uint s_stage[TILE];
shared uint s_part[WG / 4u]; // per subgroup (4 lanes at least)
shared uint s_rank_work;     // the elements' group lengths, summed
// An oversized chunk's parts: at most 2^RADIX_HYBRID_SPLIT_MAX_LOG, their starts and the end
// (radix.c's hybrid_smem_bytes counts them).
shared uint s_split[(1u << RADIX_HYBRID_SPLIT_MAX_LOG) + 1u];

// The chunk does not fit the tile: the fallback's slots get the digit passes' workgroups (as the
// plan sizes them) and the top digits' tickets start again (digits 0 and 1 have not run).
void open_fallback()
{
    const uint groups = radix_onesweep_pass_groups(state[RADIX_S_TILES]);
    for (uint k = 0u; k < 4u; ++k)
        radix_plan_write_groups(RADIX_E_PASS + RADIX_HYBRID_FALLBACK_SLOT + k, groups);
    state[RADIX_S_TICKET + 2u] = 0u;
    state[RADIX_S_TICKET + 3u] = 0u;
    atomicMax(state[RADIX_S_HYBRID], RADIX_HYBRID_FALLBACK); // over LOCAL_STABLE's
}

// The counter of digit d: its word and the shift of its half.
uint counter_word(uint d) { return d >= WORDS ? d - WORDS : d; }
uint counter_shift(uint d) { return d >= WORDS ? 16u : 0u; }

// The caller's key of an order key (the encoding and a descending complement undone: over the
// whole 32 bits both are one-to-one).
uint raw_key(uint ord)
{
    return vksort_decode32(radix_key_type(), (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? ~ord : ord);
}

// Exclusive scan of the counters in digit order (counter_word, counter_shift), in place: the
// words' low halves (digits < WORDS), then their high halves after the low halves' total. The
// sums cannot carry between the halves (a tile holds fewer than 2^16 elements). Ends with a
// barrier.
void scan_counters()
{
    const uint lid = gl_LocalInvocationID.x;
    uint cnt[WORDS_PER_INV];
    uint sum = 0u;
    [[unroll]] for (uint w = 0u; w < WORDS_PER_INV; ++w) {
        cnt[w] = s_count[lid * WORDS_PER_INV + w];
        sum += cnt[w];
    }
    const uint ex = subgroupExclusiveAdd(sum);
    const uint subgroup_total = subgroupAdd(sum);
    if (subgroupElect())
        s_part[gl_SubgroupID] = subgroup_total;
    barrier();
    uint before = 0u, total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
        const uint p = s_part[s];
        before += s < gl_SubgroupID ? p : 0u;
        total += p;
    }
    uint run = before + ex + ((total & 0xffffu) << 16);
    [[unroll]] for (uint w = 0u; w < WORDS_PER_INV; ++w) {
        s_count[lid * WORDS_PER_INV + w] = run;
        run += cnt[w];
    }
    barrier();
}

// The duplicates' path: the chunk [start, start + m) sorted by its order keys' low 16 + log_k
// bits (the chunk-relative bucket, then the low 16) with a stable LSD radix sort of the tile in
// shared memory, then written in place. s_stage holds element indices (in the chunk; from m on,
// padding that sorts last), in the current order; each pass ranks b-bit digits of the keys (read
// back from the chunk by index) as the digit passes do: subgroup s owns positions [s S ITEMS,
// (s + 1) S ITEMS), item j lane l at s S ITEMS + j S + l, peers from b ballots (one
// subgroupPartitionNV in the _nvp modules), so that each subgroup's ranks follow the current
// order; per-subgroup 16-bit counters (digit-major, so their scan gives stable offsets) in
// s_count's 2 WORDS halves, which sets b: every subgroup's 2^b counters fit (7 bits at 32 lanes:
// 19 bits in three passes). No quadratic work, whatever the duplicates.
void sort_chunk_stable(uint start, uint m, uint first_bucket, uint log_k)
{
    const uint lid = gl_LocalInvocationID.x;
    const uint subgroups = gl_NumSubgroups;
    const uint bits = min(findMSB(2u * WORDS / subgroups), 8u);
    const uint key_bits = 16u + log_k;
    const uint pad_key = (1u << key_bits) - 1u; // sorts after every element (stable: they come last)
    const uint base = gl_SubgroupID * gl_SubgroupSize * ITEMS;
    const uint lane = gl_SubgroupInvocationID;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
        s_stage[j * WG + lid] = j * WG + lid;
    for (uint shift = 0u; shift < key_bits; shift += bits) {
        barrier(); // the stage written (the previous scatter), the counters read
        [[unroll]] for (uint w = 0u; w < WORDS_PER_INV; ++w)
            s_count[lid * WORDS_PER_INV + w] = 0u;
        uint idx[ITEMS], digit[ITEMS];
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            idx[j] = s_stage[base + j * gl_SubgroupSize + lane];
            const uint key = idx[j] < m ? radix_order_key(keys[start + idx[j]]) - (first_bucket << 16) : pad_key;
            digit[j] = (key >> shift) & ((1u << bits) - 1u);
        }
        barrier(); // counters zeroed, the stage read
        // Rank inside the subgroup: the peers' lowest lane adds their number to the subgroup's
        // counter of the digit; each peer's rank is the count before plus the peers below it.
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            const uvec4 peers = radix_peers_of(digit[j], bits);
            const uint f = digit[j] * subgroups + gl_SubgroupID;
            const uint shift16 = counter_shift(f);
            const uint leader = subgroupBallotFindLSB(peers);
            uint before = 0u;
            if (lane == leader)
                before = atomicAdd(s_count[counter_word(f)], subgroupBallotBitCount(peers) << shift16);
            before = subgroupShuffle(before, leader);
            digit[j] = f | ((((before >> shift16) & 0xffffu) + subgroupBallotExclusiveBitCount(peers)) << 16);
        }
        barrier();
        scan_counters();
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
            const uint f = digit[j] & 0xffffu;
            s_stage[((s_count[counter_word(f)] >> counter_shift(f)) & 0xffffu) + (digit[j] >> 16)] = idx[j];
        }
    }
    barrier();
    // Gather each sorted position's key and payload from the chunk, then write them back in
    // place once every invocation has read.
    uint key_out[ITEMS];
#if HAS_VALUE
    uint value_out[ITEMS];
#endif
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        const uint from = i < m ? s_stage[i] : 0u;
        key_out[j] = i < m ? keys[start + from] : 0u;
#if HAS_VALUE
        value_out[j] = i < m ? values[start + from] : 0u;
#endif
    }
    memoryBarrierBuffer();
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        if (i < m) {
            keys[start + i] = key_out[j];
#if HAS_VALUE
            values[start + i] = value_out[j];
#endif
        }
    }
    if (lid == 0u)
        atomicMax(state[RADIX_S_HYBRID], RADIX_HYBRID_LOCAL_STABLE);
}

// Sorts the elements [start, start + m) (2 <= m <= TILE), the buckets [first_bucket,
// first_bucket + 2^log_k), by the low 16 bits, in place. Begins and ends without a barrier: every
// shared access of a previous call comes before barriers that every invocation passes first.
void sort_range(uint start, uint m, uint first_bucket, uint log_k)
{
    const uint lid = gl_LocalInvocationID.x;
    const uint g = RADIX_HYBRID_MAX_LOG_K - log_k; // low bits in the digit

    // Per item: packed = low 16 bits << 16 | index in the chunk (the rank's word), dp = the
    // digit | its place among the digit's count << 16, later the group start | the bucket
    // (relative) << 16; acc = the group's length << 16 | the rank in it.
    uint packed[ITEMS], dp[ITEMS], acc[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        const uint ord = i < m ? radix_order_key(keys[start + i]) : 0u;
        packed[j] = (ord << 16) | i;
        dp[j] = i < m ? (((ord >> 16) - first_bucket) << g) | ((ord & 0xffffu) >> (16u - g)) : 0u;
    }
    [[unroll]] for (uint w = 0u; w < WORDS_PER_INV; ++w)
        s_count[lid * WORDS_PER_INV + w] = 0u;
    if (lid == 0u)
        s_rank_work = 0u;
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        if (j * WG + lid < m) {
            const uint d = dp[j];
            const uint shift = counter_shift(d);
            const uint pre = (atomicAdd(s_count[counter_word(d)], 1u << shift) >> shift) & 0xffffu;
            dp[j] = d | (pre << 16);
        }
    }
    barrier();
    scan_counters();
    // Each element into its digit's group (in the count's order), its group's bounds kept.
    uint longest = 0u, work = 0u;
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        acc[j] = 0u;
        if (j * WG + lid < m) {
            const uint d = dp[j] & 0xffffu;
            const uint gs = (s_count[counter_word(d)] >> counter_shift(d)) & 0xffffu;
            const uint e = d + 1u;
            const uint ge = e >= RADIX_HYBRID_BINS ? m : (s_count[counter_word(e)] >> counter_shift(e)) & 0xffffu;
            s_stage[gs + (dp[j] >> 16)] = packed[j];
            dp[j] = gs | ((d >> g) << 16);
            acc[j] = (ge - gs) << 16;
            longest = max(longest, ge - gs);
            work += ge - gs;
        }
    }
    work = subgroupAdd(work);
    if (subgroupElect())
        atomicAdd(s_rank_work, work);
    barrier();
    // Groups of duplicates: the walk below would be quadratic in their length.
#if USE_PARTITIONED
    const uint rank_work_limit = RADIX_HYBRID_RANK_WORK_PARTITIONED;
#else
    const uint rank_work_limit = RADIX_HYBRID_RANK_WORK;
#endif
    if (s_rank_work > rank_work_limit * m) {
        sort_chunk_stable(start, m, first_bucket, log_k);
        return;
    }
    // The rank inside the group: the walk over its members outside, the items inside, so that the
    // item arrays stay in registers and each step has ITEMS independent loads.
    for (uint t = 0u; t < longest; ++t)
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
            if (t < (acc[j] >> 16))
                acc[j] += s_stage[(dp[j] & 0xffffu) + t] < packed[j] ? 1u : 0u;
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
        if (j * WG + lid < m)
            s_stage[(dp[j] & 0xffffu) + (acc[j] & 0xffffu)] =
                raw_key(((first_bucket + (dp[j] >> 16)) << 16) | (packed[j] >> 16));
#if HAS_VALUE
    uint vals[ITEMS];
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        vals[j] = i < m ? values[start + i] : 0u;
    }
#endif
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        if (i < m)
            keys[start + i] = s_stage[i];
    }
#if HAS_VALUE
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
        if (j * WG + lid < m)
            s_stage[(dp[j] & 0xffffu) + (acc[j] & 0xffffu)] = vals[j];
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        const uint i = j * WG + lid;
        if (i < m)
            values[start + i] = s_stage[i];
    }
#endif
}

// The first element of [start, start + m) (sorted by the top 16 bits) whose top 16 bits are at
// least `bucket`.
uint bucket_start(uint start, uint m, uint bucket)
{
    uint lo = 0u, len = m;
    while (len > 0u) {
        const uint half_len = len >> 1;
        if ((radix_order_key(keys[start + lo + half_len]) >> 16) < bucket) {
            lo += half_len + 1u;
            len -= half_len + 1u;
        } else {
            len = half_len;
        }
    }
    return start + lo;
}

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    const uint log_k = RADIX_HYBRID_LOG_K(pc.aux);
    const uint c = radix_group_index();
    if (c >= (RADIX_HYBRID_BUCKETS >> log_k)) // a 2D grid's surplus
        return;
    const uint start = bounds[c];
    const uint m = bounds[c + 1u] - start;
    // Over the tile (duplicates or a joint skew of the top bits crowd the chunk): split it into
    // 2^s parts of 2^(log_k - s) buckets, s the least that fits every part in the tile, and sort
    // the parts one after another. Only where s would pass RADIX_HYBRID_SPLIT_MAX_LOG (parts of
    // several buckets, up to 2^20 keys) or log_k (a single bucket outgrows the tile) does the
    // chunk open the fallback. (One call of sort_range for both cases: a second, inlined, doubled the code
    // and slowed the common case.)
    uint s = 0u;
    bool fits = m <= TILE;
    while (!fits) {
        if (s >= min(log_k, RADIX_HYBRID_SPLIT_MAX_LOG)) {
            if (lid == 0u)
                open_fallback();
            return;
        }
        ++s;
        const uint parts = 1u << s;
        for (uint i = lid; i <= parts; i += WG)
            s_split[i] = i == 0u ? start : i == parts ? start + m
                                                       : bucket_start(start, m, (c << log_k) + (i << (log_k - s)));
        if (lid == 0u)
            s_rank_work = 0u;
        barrier();
        for (uint i = lid; i < parts; i += WG)
            if (s_split[i + 1u] - s_split[i] > TILE)
                atomicOr(s_rank_work, 1u); // a part over the tile
        barrier();
        fits = s_rank_work == 0u;
        barrier(); // every invocation has read s_rank_work and s_split before either changes
    }
    for (uint i = 0u; i < (1u << s); ++i) {
        const uint part_start = s == 0u ? start : s_split[i];
        const uint part_m = s == 0u ? m : s_split[i + 1u] - part_start;
        if (part_m >= 2u)
            sort_range(part_start, part_m, (c << log_k) + (i << (log_k - s)), log_k - s);
    }
}
