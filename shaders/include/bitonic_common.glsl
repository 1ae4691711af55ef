// Bitonic sort: what every bitonic pass shares.
//
// Variant defines (set by the build, one SPIR-V module per combination):
//   KEY64        0: 32-bit keys (uint); 1: 64-bit keys (uvec2, x = low word)
//   HAS_VALUE    a uint32 payload travels with each key
//   STABLE       each element carries its input position; ties are broken by it
//   USE_INDICES  the positions live in the indices binding between passes (multi-tile stable)
// The including shader defines ORBIT_LOG: each invocation holds 2^ORBIT_LOG elements.
//
// The network is the "flip" form of the bitonic sort: level k (blocks of k = 2^lk elements)
// starts with a stage pairing i with i ^ (k - 1) (the mirror image in its block) and continues
// with half-cleaner stages pairing i with i ^ j for j = k/4 .. 1. Every comparator puts the
// smaller element at the lower index, so positions at or past the count behave as +infinity
// that never moves: comparators whose upper element is out of range are skipped, and nothing
// outside [0, count) is ever read or written, whatever the count.
//
// Elements are compared on order keys: the encoding of the key (keys.glsl), complemented for a
// descending sort, AND-ed with the bit-range mask. Between passes the key buffer holds these
// encodings (unmasked); the last pass decodes them.
#ifndef VKSORT_BITONIC_COMMON_GLSL
#define VKSORT_BITONIC_COMMON_GLSL

#extension GL_EXT_control_flow_attributes : require

#include "vksort_shader_interface.h"
#include "keys.glsl"

#ifndef KEY64
#define KEY64 0
#endif
#ifndef HAS_VALUE
#define HAS_VALUE 0
#endif
#ifndef STABLE
#define STABLE 0
#endif
#ifndef USE_INDICES
#define USE_INDICES 0
#endif

#define ORBIT (1u << ORBIT_LOG)
#define ORBIT_ALL ((1u << ORBIT) - 1u)

#if KEY64
#define KEY_T uvec2
#else
#define KEY_T uint
#endif

layout(constant_id = 2) const uint KEY_TYPE = 0u;

layout(push_constant) uniform Push {
    uint count;    // number of elements (when not VKSORT_PUSH_INDIRECT)
    uint flags;    // VKSORT_PUSH_*
    uint mask_lo;  // bit-range mask of the order key, low and high word
    uint mask_hi;
    uint level;    // merge level: log2 of the block size being merged
    uint bit_hi;   // global merge: highest index bit of this pass's stages
    uint aux0;
    uint aux1;
} pc;

layout(set = 0, binding = VKSORT_BINDING_KEYS, std430) buffer Keys { KEY_T keys[]; };
#if HAS_VALUE
layout(set = 0, binding = VKSORT_BINDING_VALUES, std430) buffer Values { uint values[]; };
#endif
layout(set = 0, binding = VKSORT_BINDING_STATE, std430) readonly buffer State { uint state[]; };
#if USE_INDICES
layout(set = 0, binding = VKSORT_BINDING_INDICES, std430) buffer Indices { uint indices[]; };
#endif

// The elements an invocation holds.
KEY_T rk[ORBIT];
#if HAS_VALUE
uint rv[ORBIT];
#endif
#if STABLE
uint ri[ORBIT];
#endif

uint element_count()
{
    return (pc.flags & VKSORT_PUSH_INDIRECT) != 0u ? state[0] : pc.count;
}

// Workgroups may be dispatched as a 2D grid when there are many (VKSORT_DISPATCH_SPLIT).
uint workgroup_index()
{
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// log2 of the smallest power of two >= n, for n >= 2.
uint ceil_log2(uint n)
{
    return uint(findMSB(n - 1u)) + 1u;
}

// Order key of a raw key (encode, then complement when descending).
KEY_T to_order_key(KEY_T raw)
{
    bool desc = (pc.flags & VKSORT_PUSH_DESCENDING) != 0u;
#if KEY64
    KEY_T e = vksort_encode64(KEY_TYPE, raw);
    return desc ? ~e : e;
#else
    KEY_T e = vksort_encode32(KEY_TYPE, raw);
    return desc ? ~e : e;
#endif
}

KEY_T from_order_key(KEY_T ok)
{
    bool desc = (pc.flags & VKSORT_PUSH_DESCENDING) != 0u;
#if KEY64
    return vksort_decode64(KEY_TYPE, desc ? ~ok : ok);
#else
    return vksort_decode32(KEY_TYPE, desc ? ~ok : ok);
#endif
}

// Is the element in slot a greater than the one in slot b (masked order key, then position)?
bool slot_greater(uint a, uint b)
{
#if KEY64
    uint ah = rk[a].y & pc.mask_hi, bh = rk[b].y & pc.mask_hi;
    uint al = rk[a].x & pc.mask_lo, bl = rk[b].x & pc.mask_lo;
#if STABLE
    return ah > bh || (ah == bh && (al > bl || (al == bl && ri[a] > ri[b])));
#else
    return ah > bh || (ah == bh && al > bl);
#endif
#else
    uint ka = rk[a] & pc.mask_lo, kb = rk[b] & pc.mask_lo;
#if STABLE
    return ka > kb || (ka == kb && ri[a] > ri[b]);
#else
    return ka > kb;
#endif
#endif
}

// Comparator: slot a holds the lower index, slot b the upper one. Skipped when the upper
// element is out of range (bit b of valid clear).
void cmpx(uint a, uint b, uint valid)
{
    if (((valid >> b) & 1u) != 0u && slot_greater(a, b)) {
        KEY_T k = rk[a];
        rk[a] = rk[b];
        rk[b] = k;
#if HAS_VALUE
        uint v = rv[a];
        rv[a] = rv[b];
        rv[b] = v;
#endif
#if STABLE
        uint p = ri[a];
        ri[a] = ri[b];
        ri[b] = p;
#endif
    }
}

// Flip stage inside blocks of k slots: slot s pairs with its mirror s ^ (k - 1).
void flip_stage(uint k, uint valid)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if ((s & (k >> 1)) == 0u)
            cmpx(s, s ^ (k - 1u), valid);
    }
}

// Half-cleaner stage: slot s pairs with s ^ j.
void half_stage(uint j, uint valid)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if ((s & j) == 0u)
            cmpx(s, s | j, valid);
    }
}

// The stages an orbit applies in one round: its ORBIT_LOG stages of one merge level, the first
// being the level's flip or a half-cleaner. Slot bit q stands for index bit b_lo + q (see
// orbit_position), so the slot pattern is the same whatever the level.
void orbit_merge(bool flip, uint valid)
{
    if (flip)
        flip_stage(ORBIT, valid);
    else
        half_stage(ORBIT >> 1, valid);
    [[unroll]] for (uint q = 2u; q <= ORBIT_LOG; ++q)
        half_stage(ORBIT >> q, valid);
}

// Full sort of ORBIT contiguous elements (levels 1 .. ORBIT_LOG).
void orbit_sort(uint valid)
{
    flip_stage(2u, valid);
#if ORBIT_LOG >= 2
    flip_stage(4u, valid);
    half_stage(1u, valid);
#endif
#if ORBIT_LOG >= 3
    flip_stage(8u, valid);
    half_stage(2u, valid);
    half_stage(1u, valid);
#endif
#if ORBIT_LOG >= 4
    flip_stage(16u, valid);
    half_stage(4u, valid);
    half_stage(2u, valid);
    half_stage(1u, valid);
#endif
}

// Index of slot s of the orbit of invocation t for stages with index bits [b_lo, b_lo +
// ORBIT_LOG): t with ORBIT_LOG zero bits inserted at b_lo, the slot number in those bits. When
// the first stage is a flip, the upper half of the slots mirrors the bits below b_lo too, so
// that slot s and s ^ (ORBIT - 1) are exactly the flip's pairs.
uint orbit_base(uint t, uint b_lo)
{
    return ((t >> b_lo) << (b_lo + ORBIT_LOG)) | (t & ((1u << b_lo) - 1u));
}

uint orbit_position(uint base, uint b_lo, uint s, bool flip)
{
    uint p = base | (s << b_lo);
    if (flip && s >= (ORBIT >> 1))
        p ^= (1u << b_lo) - 1u;
    return p;
}

#endif
