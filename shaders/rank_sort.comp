#version 450
// Small-count sort spread over many workgroups in one dispatch (the bitonic sorter's RANK small
// sort, docs/vulkan.md): workgroup g owns the elements [g * OWN, (g + 1) * OWN). It loads every
// order key of the array into shared memory and computes the stable rank of each element it owns,
//     rank(i) = #{j : k_j < k_i} + #{j < i : k_j = k_i},
// with all its invocations (lane e of a slice holds owned element e; slice s compares it against
// the keys [s * chunk, (s + 1) * chunk), so every shared read is a broadcast), then writes the
// owned elements to their ranks. Writing into the keys buffer is safe only once every workgroup
// has read it, and no workgroup may wait for another (Vulkan promises no forward progress
// between workgroups; lavapipe runs them one after another). So, with one word W counting
// arrivals (reads done) in its low half and departures (ranks known) in its high half:
//  - arrive: W += 1 once the workgroup's reads are done;
//  - depart: W += 1 << 16 after ranking. A workgroup whose departure finds every arrival (the
//    usual case on a GPU, where all workgroups run at once) writes its elements in place; one
//    that does not "stages" them (element, rank) in the scratch and marks its bit in STAGED;
//  - W is one word, so the workgroups that departed before the last arrival are exactly the
//    staging ones: the last to arrive reads their number K from its own arrival and adds
//    2^16 - K to FINISHED, each staging workgroup adds 1 once its elements are staged; whoever
//    brings FINISHED to 2^16 writes every staged element in place (nothing to do when K = 0)
//    and zeroes FINISHED and STAGED; the last to depart zeroes W.
// One atomic round trip after ranking, nobody waits, and the control words end at zero, so a
// scratch that only this sorter uses needs them zeroed only once
// (VKSORT_VK_CREATE_PERSISTENT_SCRATCH); otherwise the host clears them before the dispatch.
//
// Ranks compare order keys AND-ed with the bit-range mask, ties by position: the result is the
// stable sort whatever VKSORT_FLAG_STABLE says.
//   pc.count: host count   pc.aux0: word of the indirect count   pc.aux1: max count
//   pc.level: log2 of the elements each workgroup owns
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vksort_shader_interface.h"
#include "keys.glsl"

#ifndef KEY64
#define KEY64 0
#endif
#ifndef HAS_VALUE
#define HAS_VALUE 0
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint CAPACITY = 4096u; // largest count (a multiple of 4)
layout(constant_id = 2) const uint KEY_TYPE = 0u;

#define WG gl_WorkGroupSize.x
// Elements each workgroup owns: a power of two from VKSORT_RANK_GROUP_ELEMENTS to WG, chosen by
// the host per sort (fewer, larger workgroups for larger counts, so that they run at once).
#define OWN (1u << pc.level)
#define SLICES (WG >> pc.level)

layout(push_constant) uniform Push {
    uint count;
    uint flags;
    uint mask_lo;
    uint mask_hi;
    uint level;
    uint bit_hi;
    uint aux0;
    uint aux1;
} pc;

#if KEY64
#define KEY_T uvec2
#define KEY_WORDS 2u
#define KEYS_PER_QUAD 2u
#else
#define KEY_T uint
#define KEY_WORDS 1u
#define KEYS_PER_QUAD 4u
#endif

layout(set = 0, binding = VKSORT_BINDING_KEYS, std430) buffer Keys { KEY_T keys[]; };
#if HAS_VALUE
layout(set = 0, binding = VKSORT_BINDING_VALUES, std430) buffer Values { uint values[]; };
#endif
// Control words and staging area: written by one workgroup, read by another.
layout(set = 0, binding = VKSORT_BINDING_STATE, std430) coherent buffer Control { uint control[]; };
layout(set = 0, binding = VKSORT_BINDING_INDICES, std430) coherent buffer Staging { uint staged[]; };
layout(set = 0, binding = VKSORT_BINDING_COUNT, std430) readonly buffer Count { uint count_words[]; };

// Order keys as quads (4 32-bit or 2 64-bit keys per uvec4): one shared read feeds several
// comparisons. Padding past the count holds all-ones, which no comparison counts (it only ever
// sits at positions above every owned element, where a key counts when strictly smaller).
shared uvec4 s_quads[CAPACITY / KEYS_PER_QUAD];
shared uint s_partial[WG];
shared KEY_T s_own_key[VKSORT_RANK_MAX_GROUP_ELEMENTS];
#if HAS_VALUE
shared uint s_own_value[VKSORT_RANK_MAX_GROUP_ELEMENTS];
#endif
shared bool s_in_place;   // this workgroup writes in place (else it stages)
shared bool s_finisher;   // this workgroup places the staged elements and tidies up
shared bool s_any_staged;
shared uint s_staged_mask[VKSORT_RANK_CONTROL_WORDS - VKSORT_RANK_STAGED_MASK_WORD];
#define W_ARRIVALS 0xffffu
#define W_DEPARTURE 0x10000u
#define FINISHED_ALL 0x10000u

KEY_T masked_order_key(KEY_T raw)
{
    bool desc = (pc.flags & VKSORT_PUSH_DESCENDING) != 0u;
#if KEY64
    uvec2 e = vksort_encode64(KEY_TYPE, raw);
    e = desc ? ~e : e;
    return e & uvec2(pc.mask_lo, pc.mask_hi);
#else
    uint e = vksort_encode32(KEY_TYPE, raw);
    e = desc ? ~e : e;
    return e & pc.mask_lo;
#endif
}

#if KEY64
bool less64(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
KEY_T shared_key(uint i)
{
    uvec4 q = s_quads[i >> 1u];
    return (i & 1u) == 0u ? q.xy : q.zw;
}
// Keys of the quad strictly below k, and at most k.
uint quad_lt(uvec4 q, uvec2 k) { return uint(less64(q.xy, k)) + uint(less64(q.zw, k)); }
uint quad_le(uvec4 q, uvec2 k) { return uint(!less64(k, q.xy)) + uint(!less64(k, q.zw)); }
#else
KEY_T shared_key(uint i) { return s_quads[i >> 2u][i & 3u]; }
uint quad_lt(uvec4 q, uint k)
{
    return uint(q.x < k) + uint(q.y < k) + uint(q.z < k) + uint(q.w < k);
}
uint quad_le(uvec4 q, uint k)
{
    return uint(q.x <= k) + uint(q.y <= k) + uint(q.z <= k) + uint(q.w <= k);
}
#endif

// Rank contribution of the keys [j0, j1) (positions, multiples of KEYS_PER_QUAD) for owned
// element i with key k: keys before i count when <= k, keys after i when < k.
uint rank_slice(uint j0, uint j1, uint i, KEY_T k, uint own_base)
{
    uint c = 0u;
    // Below the owned block: every j < i.
    uint a_end = min(j1, own_base);
    uint j = j0;
    // Four quads per step: four shared reads in flight before the comparisons use them.
    for (; j + 4u * KEYS_PER_QUAD <= a_end; j += 4u * KEYS_PER_QUAD) {
        uint q = j / KEYS_PER_QUAD;
        uvec4 q0 = s_quads[q], q1 = s_quads[q + 1u], q2 = s_quads[q + 2u], q3 = s_quads[q + 3u];
        c += quad_le(q0, k) + quad_le(q1, k) + quad_le(q2, k) + quad_le(q3, k);
    }
    for (; j < a_end; j += KEYS_PER_QUAD)
        c += quad_le(s_quads[j / KEYS_PER_QUAD], k);
    // The owned block itself (one slice has it): ties count only for positions before i.
    uint b_end = min(j1, own_base + OWN);
    for (uint j = max(j0, own_base); j < b_end; ++j) {
        KEY_T kj = shared_key(j);
#if KEY64
        c += uint(j < i ? !less64(k, kj) : less64(kj, k));
#else
        c += uint(j < i ? kj <= k : kj < k);
#endif
    }
    // Above the owned block: every j > i.
    j = max(j0, own_base + OWN);
    for (; j + 4u * KEYS_PER_QUAD <= j1; j += 4u * KEYS_PER_QUAD) {
        uint q = j / KEYS_PER_QUAD;
        uvec4 q0 = s_quads[q], q1 = s_quads[q + 1u], q2 = s_quads[q + 2u], q3 = s_quads[q + 3u];
        c += quad_lt(q0, k) + quad_lt(q1, k) + quad_lt(q2, k) + quad_lt(q3, k);
    }
    for (; j < j1; j += KEYS_PER_QUAD)
        c += quad_lt(s_quads[j / KEYS_PER_QUAD], k);
    return c;
}

// Every key of the array into s_quads: invocation t fills quads t, t + WG, ...; LOAD_BATCH quads
// per round with all their global loads issued before any is used (one memory latency per round
// instead of one per key).
#define LOAD_BATCH 4u
KEY_T load_or_pad(uint j, uint n) { return j < n ? masked_order_key(keys[j]) : KEY_T(0xffffffffu); }
void load_all_keys(uint n, uint quads)
{
    uint t = gl_LocalInvocationID.x;
    for (uint q0 = 0u; q0 < quads; q0 += LOAD_BATCH * WG) {
        KEY_T v[LOAD_BATCH * KEYS_PER_QUAD];
        [[unroll]] for (uint b = 0u; b < LOAD_BATCH; ++b)
            [[unroll]] for (uint c = 0u; c < KEYS_PER_QUAD; ++c)
                v[b * KEYS_PER_QUAD + c] = load_or_pad((q0 + b * WG + t) * KEYS_PER_QUAD + c, n);
        [[unroll]] for (uint b = 0u; b < LOAD_BATCH; ++b) {
            uint q = q0 + b * WG + t;
            if (q < quads) {
#if KEY64
                s_quads[q] = uvec4(v[2u * b], v[2u * b + 1u]);
#else
                s_quads[q] = uvec4(v[4u * b], v[4u * b + 1u], v[4u * b + 2u], v[4u * b + 3u]);
#endif
            }
        }
    }
}

// Staging by input position i: the last workgroup finds key, payload and rank there.
#define STAGED_VALUES (KEY_WORDS * CAPACITY)
#define STAGED_RANKS (STAGED_VALUES + (HAS_VALUE != 0 ? CAPACITY : 0u))
void stage(uint i, uint rank, KEY_T raw, uint value)
{
#if KEY64
    staged[2u * i] = raw.x;
    staged[2u * i + 1u] = raw.y;
#else
    staged[i] = raw;
#endif
#if HAS_VALUE
    staged[STAGED_VALUES + i] = value;
#endif
    staged[STAGED_RANKS + i] = rank;
}

void put(uint rank, KEY_T raw, uint value)
{
    keys[rank] = raw;
#if HAS_VALUE
    values[rank] = value;
#endif
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    bool indirect = (pc.flags & VKSORT_PUSH_INDIRECT) != 0u;
    uint n = indirect ? min(count_words[pc.aux0], pc.aux1) : pc.count;
    if (n < 2u)
        return; // the same for every workgroup: nobody touches the control words
    uint groups = gl_NumWorkGroups.x;
    uint own_base = gl_WorkGroupID.x * OWN;
    bool owns = own_base < n; // uniform in the workgroup; a fixed grid (indirect) has idle ones
    uint e = t % OWN, slice = t / OWN;
    uint i = own_base + e;
    bool owner = owns && slice == 0u && i < n;

    // The owned elements as they are, and every key, into shared memory: stored before the
    // arrival's barrier, so their loads are done by then (no fence needed), and read back from
    // there at the end, never loaded again.
    if (owner) {
        s_own_key[e] = keys[i];
#if HAS_VALUE
        s_own_value[e] = values[i];
#endif
    }
    uint padded = (n + KEYS_PER_QUAD - 1u) / KEYS_PER_QUAD * KEYS_PER_QUAD;
    if (owns)
        load_all_keys(n, padded / KEYS_PER_QUAD);
    // This workgroup's reads of keys and values are done (every value read sits in shared
    // memory): arrive. The result is first looked at after ranking.
    barrier();
    uint arrival = 0u;
    if (t == 0u) {
        memoryBarrierBuffer();
        arrival = atomicAdd(control[VKSORT_RANK_W_WORD], 1u);
    }

    if (owns) {
        KEY_T k = i < n ? shared_key(i) : KEY_T(0xffffffffu);
        // Slices of whole quads.
        uint quads = padded / KEYS_PER_QUAD;
        uint per = (quads + SLICES - 1u) / SLICES * KEYS_PER_QUAD;
        uint j0 = min(slice * per, padded), j1 = min(j0 + per, padded);
        s_partial[t] = rank_slice(j0, j1, i, k, own_base);
    }
    if (t == 0u) {
        uint departure = atomicAdd(control[VKSORT_RANK_W_WORD], W_DEPARTURE);
        s_in_place = (departure & W_ARRIVALS) == groups;
        s_finisher = false;
        if ((departure >> 16) == groups - 1u)
            control[VKSORT_RANK_W_WORD] = 0u; // the last departure: nobody reads W any more
        if ((arrival & W_ARRIVALS) == groups - 1u) { // the last arrival
            uint staging = arrival >> 16;
            uint before = atomicAdd(control[VKSORT_RANK_FINISHED_WORD], FINISHED_ALL - staging);
            s_finisher = before == staging;
            s_any_staged = staging != 0u;
        }
    }
    barrier();
    bool in_place = s_in_place;
    if (owner) {
        uint rank = 0u;
        // Independent partial sums: the shared reads go out together.
        uint r1 = 0u, r2 = 0u, r3 = 0u;
        uint s = 0u;
        for (; s + 4u <= SLICES; s += 4u) {
            rank += s_partial[s * OWN + e];
            r1 += s_partial[(s + 1u) * OWN + e];
            r2 += s_partial[(s + 2u) * OWN + e];
            r3 += s_partial[(s + 3u) * OWN + e];
        }
        for (; s < SLICES; ++s)
            rank += s_partial[s * OWN + e];
        rank += r1 + r2 + r3;
        KEY_T raw = s_own_key[e];
#if HAS_VALUE
        uint value = s_own_value[e];
#else
        uint value = 0u;
#endif
        if (in_place)
            put(rank, raw, value);
        else
            stage(i, rank, raw, value);
    }
    if (!in_place) {
        // Staged writes before the STAGED bit and FINISHED that tell the finisher to place them.
        memoryBarrierBuffer();
        barrier();
        if (t == 0u) {
            uint g = gl_WorkGroupID.x;
            atomicOr(control[VKSORT_RANK_STAGED_MASK_WORD + g / 32u], 1u << (g % 32u));
            memoryBarrierBuffer();
            s_finisher = atomicAdd(control[VKSORT_RANK_FINISHED_WORD], 1u) == FINISHED_ALL - 1u;
            s_any_staged = true;
        }
        barrier();
    }
    if (!s_finisher)
        return;
    if (!s_any_staged) { // the usual case: every element is in place
        if (t == 0u)
            control[VKSORT_RANK_FINISHED_WORD] = 0u;
        return;
    }

    // Every workgroup has read its input and every staging one has staged: place the staged
    // elements, OWN per workgroup whose bit is set, SLICES workgroups per round.
    memoryBarrierBuffer();
    if (t < VKSORT_RANK_CONTROL_WORDS - VKSORT_RANK_STAGED_MASK_WORD)
        s_staged_mask[t] = control[VKSORT_RANK_STAGED_MASK_WORD + t];
    barrier();
    for (uint g0 = 0u; g0 < groups; g0 += SLICES) {
        uint g = g0 + slice;
        uint j = g * OWN + e;
        if (g < groups && j < n && (s_staged_mask[g / 32u] & (1u << (g % 32u))) != 0u) {
#if KEY64
            KEY_T k = uvec2(staged[2u * j], staged[2u * j + 1u]);
#else
            KEY_T k = staged[j];
#endif
#if HAS_VALUE
            uint v = staged[STAGED_VALUES + j];
#else
            uint v = 0u;
#endif
            uint r = staged[STAGED_RANKS + j];
            if (r < n) // always, unless a broken persistent-scratch promise left garbage here
                put(r, k, v);
        }
    }
    // Zero FINISHED and STAGED for the next sort on this scratch (W is the last departer's).
    if (t == 0u)
        control[VKSORT_RANK_FINISHED_WORD] = 0u;
    if (t < VKSORT_RANK_CONTROL_WORDS - VKSORT_RANK_STAGED_MASK_WORD)
        control[VKSORT_RANK_STAGED_MASK_WORD + t] = 0u;
}
