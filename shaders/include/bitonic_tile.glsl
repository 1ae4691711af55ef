// Bitonic tile passes (local sort and local merge): a workgroup holds a tile of TILE elements in
// shared memory; each invocation works on ORBIT = 2^ORBIT_LOG of them per round in registers.
//
// A round reads an invocation's orbit, applies ORBIT_LOG comparator stages and writes it back to
// the same places, then the workgroup meets at one barrier. Two kinds of orbit:
//  - contiguous: invocation t holds elements t*ORBIT .. t*ORBIT+ORBIT-1 (the strides below ORBIT);
//  - chunk: invocation t holds the orbit of stages with index bits [b_lo, b_lo+ORBIT_LOG).
// The first round of a pass reads global memory directly and the last one writes it directly,
// so shared memory only carries the rounds in between. Shared arrays are one per component and
// swizzled (index ^ ((index >> ORBIT_LOG) & 31)), which makes the slot accesses of both kinds
// free of bank conflicts on 32-bank hardware without padding memory.
#ifndef VKSORT_BITONIC_TILE_GLSL
#define VKSORT_BITONIC_TILE_GLSL

#define ORBIT_LOG VKSORT_BITONIC_LOCAL_LOG
#include "bitonic_common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TILE = 2048u;

shared uint s_key[TILE];
#if KEY64
shared uint s_key_hi[TILE];
#endif
#if HAS_VALUE
shared uint s_val[TILE];
#endif
#if STABLE
shared uint s_idx[TILE];
#endif

uint swz(uint i)
{
    return i ^ ((i >> ORBIT_LOG) & 31u);
}

void slot_from_shared(uint s, uint i)
{
    uint p = swz(i);
#if KEY64
    rk[s] = uvec2(s_key[p], s_key_hi[p]);
#else
    rk[s] = s_key[p];
#endif
#if HAS_VALUE
    rv[s] = s_val[p];
#endif
#if STABLE
    ri[s] = s_idx[p];
#endif
}

void slot_to_shared(uint s, uint i)
{
    uint p = swz(i);
#if KEY64
    s_key[p] = rk[s].x;
    s_key_hi[p] = rk[s].y;
#else
    s_key[p] = rk[s];
#endif
#if HAS_VALUE
    s_val[p] = rv[s];
#endif
#if STABLE
    s_idx[p] = ri[s];
#endif
}

// Invalid slots get defined contents (they are never compared with effect nor stored).
void slot_clear(uint s)
{
#if KEY64
    rk[s] = uvec2(0u);
#else
    rk[s] = 0u;
#endif
#if HAS_VALUE
    rv[s] = 0u;
#endif
#if STABLE
    ri[s] = 0u;
#endif
}

// Elements of the tile that exist: tile positions < limit (limit = count - tile start).
uint contiguous_valid(uint t, uint limit)
{
    uint first = t * ORBIT;
    if (first >= limit)
        return 0u;
    uint left = limit - first;
    return left >= ORBIT ? ORBIT_ALL : ((1u << left) - 1u);
}

void contiguous_from_shared(uint t)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        slot_from_shared(s, t * ORBIT + s);
}

void contiguous_to_shared(uint t)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        slot_to_shared(s, t * ORBIT + s);
}

// Chunk positions of invocation t for index bits [b_lo, b_lo + ORBIT_LOG); returns the valid mask.
uint chunk_positions(uint t, uint b_lo, bool flip, uint limit, out uint pos[ORBIT])
{
    uint base = orbit_base(t, b_lo);
    uint valid = 0u;
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        pos[s] = orbit_position(base, b_lo, s, flip);
        valid |= pos[s] < limit ? (1u << s) : 0u;
    }
    return valid;
}

// Chunk round through shared memory.
void round_chunk(uint b_lo, bool flip, uint limit)
{
    uint t = gl_LocalInvocationID.x;
    uint pos[ORBIT];
    uint valid = chunk_positions(t, b_lo, flip, limit, pos);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        slot_from_shared(s, pos[s]);
    orbit_merge(flip, valid);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        slot_to_shared(s, pos[s]);
    barrier();
}

// Chunk rounds for the stages of one merge level with index bits top_bit down to ORBIT_LOG (a
// chunk may reach below ORBIT_LOG: the contiguous round that follows then repeats stages already
// applied, which is harmless: after a half-cleaner with stride j, elements j apart are in order).
void chunk_rounds(uint top_bit, bool first_is_flip, uint limit)
{
    bool flip = first_is_flip;
    for (int b_hi = int(top_bit); b_hi >= int(ORBIT_LOG); b_hi -= int(ORBIT_LOG)) {
        round_chunk(uint(b_hi) + 1u - ORBIT_LOG, flip, limit);
        flip = false;
    }
}

#endif
