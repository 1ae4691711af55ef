#version 450
// Small-count sort spread over many workgroups in one dispatch (the bitonic sorter's RANK small
// sort, docs/vulkan.md): workgroup g owns the elements [g * OWN, (g + 1) * OWN). It loads every
// order key of the array into shared memory and computes the stable rank of each element it owns,
//     rank(i) = #{j : k_j < k_i} + #{j < i : k_j = k_i},
// with all its invocations (lane e of a slice holds owned element e; slice s compares it against
// the keys [s * chunk, (s + 1) * chunk), so every shared read is a broadcast), then writes the
// owned elements to their ranks in a staging area of the scratch. Writing straight into the keys
// buffer would overwrite keys other workgroups have not read yet, and waiting for them (a grid
// barrier) needs all workgroups resident at once, which Vulkan does not promise. Instead the last
// workgroup to finish (a ticket in the scratch, zeroed by vkCmdFillBuffer before the dispatch)
// copies the staged array back; nothing ever waits, so any device runs it.
//
// Ranks compare order keys AND-ed with the bit-range mask, ties by position: the result is the
// stable sort whatever VKSORT_FLAG_STABLE says.
//   pc.count: host count   pc.aux0: word of the indirect count   pc.aux1: max count
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
#define OWN VKSORT_RANK_GROUP_ELEMENTS
#define SLICES (WG / OWN)

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
// Ticket and staging area: written by one workgroup, read by another.
layout(set = 0, binding = VKSORT_BINDING_STATE, std430) coherent buffer State { uint state[]; };
layout(set = 0, binding = VKSORT_BINDING_INDICES, std430) coherent buffer Staging { uint staged[]; };
layout(set = 0, binding = VKSORT_BINDING_COUNT, std430) readonly buffer Count { uint count_words[]; };

// Order keys as quads (4 32-bit or 2 64-bit keys per uvec4): one shared read feeds several
// comparisons. Padding past the count holds all-ones, which no comparison counts (it only ever
// sits at positions above every owned element, where a key counts when strictly smaller).
shared uvec4 s_quads[CAPACITY / KEYS_PER_QUAD];
shared uint s_partial[WG];
shared bool s_last;

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
void store_key(uint i, uvec2 k)
{
    uint q = i >> 1u;
    if ((i & 1u) == 0u)
        s_quads[q].xy = k;
    else
        s_quads[q].zw = k;
}
// Counts of the quad's keys strictly below k (lt) and equal to k (eq).
void count_quad(uvec4 q, uvec2 k, inout uint lt, inout uint eq)
{
    lt += uint(less64(q.xy, k)) + uint(less64(q.zw, k));
    eq += uint(all(equal(q.xy, k))) + uint(all(equal(q.zw, k)));
}
#else
void store_key(uint i, uint k)
{
    uint q = i >> 2u;
    switch (i & 3u) {
    case 0u: s_quads[q].x = k; break;
    case 1u: s_quads[q].y = k; break;
    case 2u: s_quads[q].z = k; break;
    default: s_quads[q].w = k; break;
    }
}
void count_quad(uvec4 q, uint k, inout uint lt, inout uint eq)
{
    bvec4 l = lessThan(q, uvec4(k));
    bvec4 e = equal(q, uvec4(k));
    lt += uint(l.x) + uint(l.y) + uint(l.z) + uint(l.w);
    eq += uint(e.x) + uint(e.y) + uint(e.z) + uint(e.w);
}
#endif

// Rank contribution of the keys [j0, j1) (positions, multiples of KEYS_PER_QUAD) for owned
// element i with key k: keys before i count when <= k, keys after i when < k.
uint rank_slice(uint j0, uint j1, uint i, KEY_T k, uint own_base)
{
    uint lt = 0u, eq = 0u;
    // Below the owned block: every j < i.
    uint a_end = min(j1, own_base);
    for (uint j = j0; j < a_end; j += KEYS_PER_QUAD)
        count_quad(s_quads[j / KEYS_PER_QUAD], k, lt, eq);
    uint below_eq = eq;
    eq = 0u;
    // The owned block itself: ties count only for positions before i.
    uint b_begin = max(j0, own_base), b_end = min(j1, own_base + OWN);
    uint tie = 0u;
    for (uint j = b_begin; j < b_end; ++j) {
#if KEY64
        uvec4 q = s_quads[j >> 1u];
        KEY_T kj = (j & 1u) == 0u ? q.xy : q.zw;
        lt += uint(less64(kj, k));
        tie += uint(all(equal(kj, k)) && j < i);
#else
        uint kj = s_quads[j >> 2u][j & 3u];
        lt += uint(kj < k);
        tie += uint(kj == k && j < i);
#endif
    }
    // Above the owned block: every j > i; equal keys do not count.
    for (uint j = max(j0, own_base + OWN); j < j1; j += KEYS_PER_QUAD)
        count_quad(s_quads[j / KEYS_PER_QUAD], k, lt, eq);
    return lt + below_eq + tie;
}

void stage(uint rank, KEY_T raw, uint value)
{
#if KEY64
    staged[2u * rank] = raw.x;
    staged[2u * rank + 1u] = raw.y;
#else
    staged[rank] = raw;
#endif
#if HAS_VALUE
    staged[KEY_WORDS * CAPACITY + rank] = value;
#endif
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    bool indirect = (pc.flags & VKSORT_PUSH_INDIRECT) != 0u;
    uint n = indirect ? min(count_words[pc.aux0], pc.aux1) : pc.count;
    if (n < 2u)
        return; // the same for every workgroup: nobody takes a ticket
    uint own_base = gl_WorkGroupID.x * OWN;

    if (own_base < n) { // uniform in the workgroup
        uint padded = (n + KEYS_PER_QUAD - 1u) / KEYS_PER_QUAD * KEYS_PER_QUAD;
        for (uint j = t; j < padded; j += WG)
            store_key(j, j < n ? masked_order_key(keys[j]) : KEY_T(0xffffffffu));
        barrier();

        uint e = t % OWN, slice = t / OWN;
        uint i = own_base + e;
        KEY_T k = i < n ? masked_order_key(keys[i]) : KEY_T(0xffffffffu);
        // Slices of whole quads.
        uint quads = padded / KEYS_PER_QUAD;
        uint per = (quads + SLICES - 1u) / SLICES * KEYS_PER_QUAD;
        uint j0 = min(slice * per, padded), j1 = min(j0 + per, padded);
        s_partial[t] = rank_slice(j0, j1, i, k, own_base);
        barrier();
        if (slice == 0u && i < n) {
            uint rank = 0u;
            for (uint s = 0u; s < SLICES; ++s)
                rank += s_partial[s * OWN + e];
#if HAS_VALUE
            stage(rank, keys[i], values[i]);
#else
            stage(rank, keys[i], 0u);
#endif
        }
    }

    // Staged writes before the ticket; the workgroup that takes the last ticket copies back.
    memoryBarrierBuffer();
    barrier();
    if (t == 0u)
        s_last = atomicAdd(state[VKSORT_STATE_TICKET_WORD], 1u) == gl_NumWorkGroups.x - 1u;
    barrier();
    if (!s_last)
        return;
    memoryBarrierBuffer();
    for (uint j = t; j < n; j += WG) {
#if KEY64
        keys[j] = uvec2(staged[2u * j], staged[2u * j + 1u]);
#else
        keys[j] = staged[j];
#endif
#if HAS_VALUE
        values[j] = staged[KEY_WORDS * CAPACITY + j];
#endif
    }
    if (t == 0u)
        state[VKSORT_STATE_TICKET_WORD] = 0u; // tidy; the next sort fills it again anyway
}
