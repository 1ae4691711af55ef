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
        uint e = t % OWN, slice = t / OWN;
        uint i = own_base + e;
        // The owned elements as they are (loaded first: nothing waits on them until the end).
        bool owner = slice == 0u && i < n;
        KEY_T raw = owner ? keys[i] : KEY_T(0u);
#if HAS_VALUE
        uint value = owner ? values[i] : 0u;
#else
        uint value = 0u;
#endif
        uint padded = (n + KEYS_PER_QUAD - 1u) / KEYS_PER_QUAD * KEYS_PER_QUAD;
        load_all_keys(n, padded / KEYS_PER_QUAD);
        barrier();

        KEY_T k = i < n ? shared_key(i) : KEY_T(0xffffffffu);
        // Slices of whole quads.
        uint quads = padded / KEYS_PER_QUAD;
        uint per = (quads + SLICES - 1u) / SLICES * KEYS_PER_QUAD;
        uint j0 = min(slice * per, padded), j1 = min(j0 + per, padded);
        s_partial[t] = rank_slice(j0, j1, i, k, own_base);
        barrier();
        if (owner) {
            uint rank = 0u;
            for (uint s = 0u; s < SLICES; ++s)
                rank += s_partial[s * OWN + e];
            stage(rank, raw, value);
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
    // COPY_BATCH elements per invocation and round, all loads before the stores.
    const uint COPY_BATCH = 16u;
    for (uint j0 = 0u; j0 < n; j0 += COPY_BATCH * WG) {
        KEY_T k[COPY_BATCH];
        uint v[COPY_BATCH];
        [[unroll]] for (uint m = 0u; m < COPY_BATCH; ++m) {
            uint j = min(j0 + m * WG + t, n - 1u); // clamped: a repeated load, no store below
#if KEY64
            k[m] = uvec2(staged[2u * j], staged[2u * j + 1u]);
#else
            k[m] = staged[j];
#endif
#if HAS_VALUE
            v[m] = staged[KEY_WORDS * CAPACITY + j];
#else
            v[m] = 0u;
#endif
        }
        [[unroll]] for (uint m = 0u; m < COPY_BATCH; ++m) {
            uint j = j0 + m * WG + t;
            if (j < n) {
                keys[j] = k[m];
#if HAS_VALUE
                values[j] = v[m];
#endif
            }
        }
    }
    if (t == 0u)
        state[VKSORT_STATE_TICKET_WORD] = 0u; // tidy; the next sort fills it again anyway
}
