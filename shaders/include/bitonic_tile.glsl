// Bitonic tile passes (local sort and local merge): a workgroup holds a tile of TILE elements in
// shared memory; each invocation works on ORBIT = 2^ORBIT_LOG of them per round in registers.
//
// A round reads an invocation's orbit from shared memory, applies ORBIT_LOG comparator stages
// and writes it back to the same places, then the workgroup meets at one barrier. The first
// load of a pass comes from global memory and the last store goes to it, both coalesced.
// Shared arrays are one per component and swizzled (bitonic_orbit.glsl), free of bank conflicts
// on 32-bank hardware without padding memory.
//
// Orbit size: the pipelines specialise TILE (constant 1) and the workgroup size (constant 0,
// local_size_x) per sorter; ORBIT = TILE / workgroup size, 4, 8, 16 or 32, is chosen at sorter
// creation (vksort_vk_sorter_create_info::bitonic_elements_per_invocation). The module holds the
// code of every orbit size (instances of bitonic_orbit.glsl) and a branch on that
// specialization constant, which the driver folds: the pipeline keeps one of them.
// VKSORT_BITONIC_ORBIT_LOGS_ONLY=k builds only orbit size 2^k (for measuring code size).
#ifndef VKSORT_BITONIC_TILE_GLSL
#define VKSORT_BITONIC_TILE_GLSL

#include "bitonic_common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TILE = 4096u;
// Elements per invocation (a specialization constant expression).
const uint ORBIT_SPEC = TILE / gl_WorkGroupSize.x;
#define LOG_TILE uint(findMSB(TILE))

// Shared memory: the 32-bit words of an element (key, high key word, payload, position) go in
// pairs into uvec2 arrays, so most elements take one 64-bit access (fewer instructions; the
// swizzle keeps 64-bit accesses free of bank conflicts too), a third word into a uint array.
// WORDk(s) names word k of slot s (an lvalue; OF() expands where it is used).
#if KEY64
#define N_WORDS (2 + HAS_VALUE + STABLE)
#define WORD0(s) OF(rk)[s].x
#define WORD1(s) OF(rk)[s].y
#if HAS_VALUE
#define WORD2(s) OF(rv)[s]
#define WORD3(s) OF(ri)[s]
#else
#define WORD2(s) OF(ri)[s]
#endif
#else
#define N_WORDS (1 + HAS_VALUE + STABLE)
#define WORD0(s) OF(rk)[s]
#if HAS_VALUE
#define WORD1(s) OF(rv)[s]
#define WORD2(s) OF(ri)[s]
#else
#define WORD1(s) OF(ri)[s]
#endif
#endif

#if N_WORDS == 1
shared uint s_w0[TILE];
#else
shared uvec2 s_w01[TILE];
#endif
#if N_WORDS == 3
shared uint s_w2[TILE];
#elif N_WORDS == 4
shared uvec2 s_w23[TILE];
#endif

#define VKSORT_BITONIC_TILE 1

// 32 elements per invocation only for 32-bit keys without the stable flag (the host asks for no
// more than 16 otherwise), which keeps the other modules small.
#if KEY64 == 0 && STABLE == 0
#define VKSORT_BITONIC_HAS_ORBIT32 1
#else
#define VKSORT_BITONIC_HAS_ORBIT32 0
#endif

#if (!defined(VKSORT_BITONIC_ORBIT_LOGS_ONLY) && VKSORT_BITONIC_HAS_ORBIT32) || \
    VKSORT_BITONIC_ORBIT_LOGS_ONLY == 5
#define ORBIT_LOG 5
#include "bitonic_orbit.glsl"
#undef ORBIT_LOG
#endif
#if !defined(VKSORT_BITONIC_ORBIT_LOGS_ONLY) || VKSORT_BITONIC_ORBIT_LOGS_ONLY == 4
#define ORBIT_LOG 4
#include "bitonic_orbit.glsl"
#undef ORBIT_LOG
#endif
#if !defined(VKSORT_BITONIC_ORBIT_LOGS_ONLY) || VKSORT_BITONIC_ORBIT_LOGS_ONLY == 3
#define ORBIT_LOG 3
#include "bitonic_orbit.glsl"
#undef ORBIT_LOG
#endif
#if !defined(VKSORT_BITONIC_ORBIT_LOGS_ONLY) || VKSORT_BITONIC_ORBIT_LOGS_ONLY == 2
#define ORBIT_LOG 2
#include "bitonic_orbit.glsl"
#undef ORBIT_LOG
#endif

// Calls pass##5, pass##4, pass##3 or pass##2 by the orbit size of the pipeline.
#if defined(VKSORT_BITONIC_ORBIT_LOGS_ONLY)
#define VKSORT_BITONIC_DISPATCH(pass) VKSORT_PASTE(pass, VKSORT_BITONIC_ORBIT_LOGS_ONLY)()
#elif VKSORT_BITONIC_HAS_ORBIT32
#define VKSORT_BITONIC_DISPATCH(pass)      \
    if (ORBIT_SPEC == 32u)                 \
        VKSORT_PASTE(pass, 5)();           \
    else if (ORBIT_SPEC == 16u)            \
        VKSORT_PASTE(pass, 4)();           \
    else if (ORBIT_SPEC == 8u)             \
        VKSORT_PASTE(pass, 3)();           \
    else                                   \
        VKSORT_PASTE(pass, 2)()
#else
#define VKSORT_BITONIC_DISPATCH(pass)      \
    if (ORBIT_SPEC == 16u)                 \
        VKSORT_PASTE(pass, 4)();           \
    else if (ORBIT_SPEC == 8u)             \
        VKSORT_PASTE(pass, 3)();           \
    else                                   \
        VKSORT_PASTE(pass, 2)()
#endif

#endif
