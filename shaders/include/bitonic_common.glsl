// Bitonic sort: what every bitonic pass shares (push constants, bindings, order keys,
// comparisons). The register-level code lives in bitonic_orbit.glsl, instantiated per orbit size.
//
// Variant defines (set by the build, one SPIR-V module per combination):
//   KEY64        0: 32-bit keys (uint); 1: 64-bit keys (uvec2, x = low word)
//   HAS_VALUE    a uint32 payload travels with each key
//   STABLE       each element carries its input position; ties are broken by it
//   USE_INDICES  the positions live in the indices binding between passes (multi-tile stable)
//
// The network is the "flip" form of the bitonic sort: level k (blocks of k = 2^lk elements)
// starts with a stage pairing i with i ^ (k - 1) (the mirror image in its block) and continues
// with half-cleaner stages pairing i with i ^ j for j = k/4 .. 1. Every comparator puts the
// smaller element at the lower index, so positions at or past the count behave as +infinity
// that never moves. In registers such positions hold a sentinel that compares greater than or
// equal to every element (all-ones order key, and all-ones position for a stable sort) and the
// comparators swap only when the lower element is strictly greater: so the sentinels never move
// and the comparators need no validity test. Nothing outside [0, count) is read or written.
//
// Order keys: the encoding of the key (keys.glsl), complemented for a descending sort. Stable
// sorts and 64-bit keys compare them AND-ed with the bit-range mask (then by position). 32-bit
// keys of a sort that need not be stable are instead kept rotated left so that the highest bit
// of the range is bit 31 ("ROTATED"): a plain unsigned comparison then orders by the range bits
// first and breaks their ties with the other bits, which a sort that need not be stable may do,
// and a keys-only comparator is just min and max. Between passes the key buffer holds these
// order keys; the last pass turns them back into keys.
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

#if KEY64 == 0 && STABLE == 0
#define ROTATED 1
#else
#define ROTATED 0
#endif

// Names of the per-orbit-size instances of bitonic_orbit.glsl: OF(round) is round4 for ORBIT_LOG 4.
#define VKSORT_PASTE2(a, b) a##b
#define VKSORT_PASTE(a, b) VKSORT_PASTE2(a, b)
#define OF(name) VKSORT_PASTE(name, ORBIT_LOG)

#if KEY64
#define KEY_T uvec2
#define SENTINEL_KEY uvec2(0xffffffffu)
#else
#define KEY_T uint
#define SENTINEL_KEY 0xffffffffu
#endif
#define SENTINEL_INDEX 0xffffffffu

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

uint element_count()
{
    return (pc.flags & VKSORT_PUSH_INDIRECT) != 0u ? state[0] : pc.count;
}

// Workgroups may be dispatched as a 2D grid when there are many (VKSORT_DISPATCH_SPLIT).
uint workgroup_index()
{
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// log2 of the smallest power of two >= n, for n >= 1 (0 for n == 1).
uint ceil_log2(uint n)
{
    return uint(findMSB(n - 1u) + 1);
}

#if ROTATED
// Left rotation that puts the highest bit of the range at bit 31 (the mask is never zero).
uint rotation()
{
    return uint(31 - findMSB(pc.mask_lo)) & 31u;
}

// Rotations by r in 0..31 (for r == 0 both halves are x).
uint rotl(uint x, uint r)
{
    return (x << r) | (x >> ((32u - r) & 31u));
}

uint rotr(uint x, uint r)
{
    return (x >> r) | (x << ((32u - r) & 31u));
}
#endif

// Order key of a raw key.
KEY_T to_order_key(KEY_T raw)
{
    bool desc = (pc.flags & VKSORT_PUSH_DESCENDING) != 0u;
#if KEY64
    KEY_T e = vksort_encode64(KEY_TYPE, raw);
    return desc ? ~e : e;
#else
    KEY_T e = vksort_encode32(KEY_TYPE, raw);
    e = desc ? ~e : e;
#if ROTATED
    e = rotl(e, rotation());
#endif
    return e;
#endif
}

KEY_T from_order_key(KEY_T ok)
{
    bool desc = (pc.flags & VKSORT_PUSH_DESCENDING) != 0u;
#if KEY64
    return vksort_decode64(KEY_TYPE, desc ? ~ok : ok);
#else
#if ROTATED
    ok = rotr(ok, rotation());
#endif
    return vksort_decode32(KEY_TYPE, desc ? ~ok : ok);
#endif
}

// Does element a (order key, position) go after element b? (mix() on bools is a select: no
// short-circuit branches.)
#if KEY64
bool key_greater(uvec2 a, uvec2 b)
{
    uint ah = a.y & pc.mask_hi, bh = b.y & pc.mask_hi;
    uint al = a.x & pc.mask_lo, bl = b.x & pc.mask_lo;
    return mix(ah > bh, al > bl, ah == bh);
}

bool key_equal(uvec2 a, uvec2 b)
{
    return ((a.y ^ b.y) & pc.mask_hi) == 0u && ((a.x ^ b.x) & pc.mask_lo) == 0u;
}
#else
bool key_greater(uint a, uint b)
{
#if ROTATED
    return a > b;
#else
    return (a & pc.mask_lo) > (b & pc.mask_lo);
#endif
}

bool key_equal(uint a, uint b)
{
    return ((a ^ b) & pc.mask_lo) == 0u;
}
#endif

bool elem_greater(KEY_T ka, uint ia, KEY_T kb, uint ib)
{
#if STABLE
    return mix(key_greater(ka, kb), ia > ib, key_equal(ka, kb));
#else
    return key_greater(ka, kb);
#endif
}

// Branch-free choice: b when c, else a.
uint pick(uint a, uint b, bool c)
{
    return mix(a, b, c);
}

uvec2 pick(uvec2 a, uvec2 b, bool c)
{
    return mix(a, b, bvec2(c));
}

#endif
