// Bitonic register-level code for one orbit size: each invocation holds ORBIT = 2^ORBIT_LOG
// elements in registers. No include guard: included once per orbit size with ORBIT_LOG defined
// (every name goes through OF(), so round4 and round3 can live in one module). Every array index
// below is a compile-time constant once the [[unroll]] loops are unrolled, so the arrays are
// plain registers (no local memory).
//
// With VKSORT_BITONIC_TILE defined (bitonic_tile.glsl: shared arrays s_*, TILE, LOG_TILE) it
// also defines the tile passes OF(local_sort) and OF(local_merge).

#undef ORBIT
#define ORBIT (1u << ORBIT_LOG)

KEY_T OF(rk)[ORBIT];
#if HAS_VALUE
uint OF(rv)[ORBIT];
#endif
#if STABLE
uint OF(ri)[ORBIT];
#endif

// Comparator: slot a holds the lower index, slot b the upper one; the smaller element goes to a.
// Branch-free (selects), and never moves a sentinel (see bitonic_common.glsl).
void OF(cmpx)(uint a, uint b)
{
#if ROTATED && !HAS_VALUE
    uint x = OF(rk)[a], y = OF(rk)[b];
    OF(rk)[a] = min(x, y);
    OF(rk)[b] = max(x, y);
#else
    KEY_T ka = OF(rk)[a], kb = OF(rk)[b];
#if STABLE
    uint ia = OF(ri)[a], ib = OF(ri)[b];
    bool sw = elem_greater(ka, ia, kb, ib);
    OF(ri)[a] = pick(ia, ib, sw);
    OF(ri)[b] = pick(ib, ia, sw);
#else
    bool sw = key_greater(ka, kb);
#endif
    OF(rk)[a] = pick(ka, kb, sw);
    OF(rk)[b] = pick(kb, ka, sw);
#if HAS_VALUE
    uint va = OF(rv)[a], vb = OF(rv)[b];
    OF(rv)[a] = pick(va, vb, sw);
    OF(rv)[b] = pick(vb, va, sw);
#endif
#endif
}

// Flip stage inside blocks of k slots: slot s pairs with its mirror s ^ (k - 1).
void OF(flip_stage)(uint k)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if ((s & (k >> 1)) == 0u)
            OF(cmpx)(s, s ^ (k - 1u));
    }
}

// Half-cleaner stage: slot s pairs with s ^ j.
void OF(half_stage)(uint j)
{
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if ((s & j) == 0u)
            OF(cmpx)(s, s | j);
    }
}

// The ORBIT_LOG stages of one merge level that an orbit applies in one round, the first being
// the level's flip or a half-cleaner. Slot bit q stands for index bit b_lo + q (OF(window_pos)),
// so the slot pattern is the same whatever the level; only the first stage depends on `flip`
// (a uniform branch), the tail is shared.
void OF(merge)(bool flip)
{
    if (flip)
        OF(flip_stage)(ORBIT);
    else
        OF(half_stage)(ORBIT >> 1);
    [[unroll]] for (uint q = 2u; q <= ORBIT_LOG; ++q)
        OF(half_stage)(ORBIT >> q);
}

// Full sort of the ORBIT elements in registers (levels 1 .. ORBIT_LOG).
// (Spelled out: glslc does not unroll loops whose counter doubles, and a loop left rolled would
// index the register arrays with run-time values, i.e. put them in local memory.)
void OF(sort)()
{
    OF(flip_stage)(2u);
#if ORBIT_LOG >= 2
    OF(flip_stage)(4u);
    OF(half_stage)(1u);
#endif
#if ORBIT_LOG >= 3
    OF(flip_stage)(8u);
    OF(half_stage)(2u);
    OF(half_stage)(1u);
#endif
#if ORBIT_LOG >= 4
    OF(flip_stage)(16u);
    OF(half_stage)(4u);
    OF(half_stage)(2u);
    OF(half_stage)(1u);
#endif
#if ORBIT_LOG >= 5
    OF(flip_stage)(32u);
    OF(half_stage)(8u);
    OF(half_stage)(4u);
    OF(half_stage)(2u);
    OF(half_stage)(1u);
#endif
#if ORBIT_LOG >= 6
#error "orbits of more than 32 elements are not spelled out"
#endif
}

// The orbit of invocation t for stages with index bits [b_lo, b_lo + ORBIT_LOG): t with
// ORBIT_LOG zero bits inserted at b_lo (the base), slot s in those bits. When the first stage is
// a flip, the upper half of the slots also mirrors the bits below b_lo (mir = 2^b_lo - 1), so
// that slots s and s ^ (ORBIT - 1) are exactly the flip's pairs; otherwise mir = 0.
uint OF(orbit_base)(uint t, uint b_lo)
{
    return ((t >> b_lo) << (b_lo + ORBIT_LOG)) | (t & ((1u << b_lo) - 1u));
}

uint OF(window_pos)(uint base, uint b_lo, uint mir, uint s)
{
    uint p = base | (s << b_lo);
    return s >= (ORBIT >> 1) ? p ^ mir : p;
}

void OF(set_sentinel)(uint s)
{
    OF(rk)[s] = SENTINEL_KEY;
#if HAS_VALUE
    OF(rv)[s] = 0u;
#endif
#if STABLE
    OF(ri)[s] = SENTINEL_INDEX;
#endif
}

// Slot s from element gi of the buffers. raw: the keys are the caller's (local sort: encode
// them; a stable sort's position is gi itself); else order keys (and stored positions).
void OF(load_global)(uint s, uint gi, bool raw)
{
    KEY_T k = keys[gi];
    OF(rk)[s] = raw ? to_order_key(k) : k;
#if HAS_VALUE
    OF(rv)[s] = values[gi];
#endif
#if STABLE
#if USE_INDICES
    OF(ri)[s] = raw ? gi : indices[gi];
#else
    OF(ri)[s] = gi;
#endif
#endif
}

// Slot s to element gi. last: the sort's last pass (decode the keys, drop the positions).
void OF(store_global)(uint s, uint gi, bool last)
{
    keys[gi] = last ? from_order_key(OF(rk)[s]) : OF(rk)[s];
#if HAS_VALUE
    values[gi] = OF(rv)[s];
#endif
#if USE_INDICES
    if (!last)
        indices[gi] = OF(ri)[s];
#endif
}

#ifdef VKSORT_BITONIC_TILE

// Shared arrays are swizzled so that every access pattern of a round (contiguous orbits,
// windows at any b_lo, flipped or not, and the coalesced t + s * Wa pattern) is free of bank
// conflicts on 32 banks of 4 bytes, for 32-bit elements per warp and for 64-bit ones per half
// warp (checked exhaustively for tiles up to 8192). The swizzle is linear over XOR (swz(a ^ b) =
// swz(a) ^ swz(b)), and a slot's position is its orbit base XOR terms that are the same for the
// whole workgroup, so each slot's shared index costs one or two XORs with uniform values.
uint OF(swz)(uint i)
{
    return i ^ ((i >> ORBIT_LOG) & 31u);
}

// Slot s to / from swizzled shared index p.
void OF(put)(uint s, uint p)
{
#if N_WORDS == 1
    s_w0[p] = WORD0(s);
#else
    s_w01[p] = uvec2(WORD0(s), WORD1(s));
#endif
#if N_WORDS == 3
    s_w2[p] = WORD2(s);
#elif N_WORDS == 4
    s_w23[p] = uvec2(WORD2(s), WORD3(s));
#endif
}

void OF(get)(uint s, uint p)
{
#if N_WORDS == 1
    WORD0(s) = s_w0[p];
#else
    uvec2 w01 = s_w01[p];
    WORD0(s) = w01.x;
    WORD1(s) = w01.y;
#endif
#if N_WORDS == 3
    WORD2(s) = s_w2[p];
#elif N_WORDS == 4
    uvec2 w23 = s_w23[p];
    WORD2(s) = w23.x;
    WORD3(s) = w23.y;
#endif
}

// Swizzled shared index of slot s of a window: sb = swz(orbit base), sm = swz(mir).
uint OF(window_index)(uint sb, uint b_lo, uint sm, uint s)
{
    uint p = sb ^ OF(swz)(s << b_lo);
    return s >= (ORBIT >> 1) ? p ^ sm : p;
}

void OF(window_to_shared)(uint t, uint b_lo)
{
    uint sb = OF(swz)(OF(orbit_base)(t, b_lo));
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        OF(put)(s, OF(window_index)(sb, b_lo, 0u, s));
}

// Slots from the coalesced positions t + s * wa (t < wa, so the terms do not overlap).
void OF(coalesced_from_shared)(uint t, uint wa)
{
    uint st = OF(swz)(t);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        OF(get)(s, st ^ OF(swz)(s * wa));
}

// One round: the orbit of window [b_lo, b_lo + ORBIT_LOG) from shared memory, its stages in
// registers, back to the same places, then the workgroup meets. Invocations whose orbits lie
// wholly past the active part of the tile (only sentinels) skip the work but not the barrier.
void OF(round)(uint t, bool busy, uint b_lo, bool flip)
{
    if (busy) {
        uint sb = OF(swz)(OF(orbit_base)(t, b_lo));
        uint sm = flip ? OF(swz)((1u << b_lo) - 1u) : 0u;
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
            OF(get)(s, OF(window_index)(sb, b_lo, sm, s));
        OF(merge)(flip);
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
            OF(put)(s, OF(window_index)(sb, b_lo, sm, s));
    }
    barrier();
}

// Active part of a tile holding `limit` elements: the first 2^L positions, L = ceil(log2(limit))
// clamped to [ORBIT_LOG, LOG_TILE]; merge stages with larger strides only meet +infinity there.
uint OF(active_log)(uint limit)
{
    return clamp(ceil_log2(limit), uint(ORBIT_LOG), LOG_TILE);
}

// Local sort: each workgroup sorts one tile (the last one may be partial) completely on chip:
// levels 1 .. L of its active part (L = LOG_TILE for a full tile). Reads the caller's keys;
// writes order keys for the merge passes that follow, or keys when the whole array is this one
// tile (then this is the only pass). With USE_INDICES it also writes the positions.
//
// Global memory is read and written coalesced (consecutive invocations, consecutive elements):
// on the way in the elements are taken in a transposed order (the order in which they enter the
// network does not matter: a stable sort carries their positions); on the way out one more pass
// through shared memory lets invocation t < Wa = 2^(L - ORBIT_LOG) write positions t + s * Wa.
void OF(local_sort)()
{
    uint n = element_count();
    uint base = workgroup_index() * TILE;
    if (base >= n)
        return;
    uint limit = min(n - base, TILE);
    uint t = gl_LocalInvocationID.x;
    uint L = OF(active_log)(limit);
    uint wa = 1u << (L - ORBIT_LOG);
    bool busy = t < wa;
    bool last_pass = n <= TILE;

    if (busy) {
        // Slot s of invocation t is tile position v = t * ORBIT + s. Positions past the limit
        // must hold the sentinels (they stand for +infinity only at the top: a sentinel in the
        // middle would be sorted like a real element and could swap with an equal one). The
        // others take the elements of [0, limit) in any order that reads memory coalesced: the
        // first q = floor(limit / ORBIT) invocations take element t + s * q, invocation q the
        // tail v itself.
        uint q = limit >> ORBIT_LOG;
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
            uint v = t * ORBIT + s;
            if (v < limit)
                OF(load_global)(s, base + (t < q ? t + s * q : v), true);
            else
                OF(set_sentinel)(s);
        }
        OF(sort)();
    }
    if (L > ORBIT_LOG) {
        // Levels ORBIT_LOG + 1 .. L: for each, the windows from the top (the first one flips)
        // down to the contiguous one (b_lo = 0). Windows may overlap: the stages they repeat are
        // harmless (after a half-cleaner with stride j, elements j apart are in order).
        // One call site for every round keeps the code small: (lk, b_hi) walk the windows.
        if (busy)
            OF(window_to_shared)(t, 0u);
        barrier();
        uint lk = ORBIT_LOG + 1u;
        int b_hi = int(lk) - 1;
        while (lk <= L) {
            bool contiguous = b_hi < int(ORBIT_LOG);
            uint b_lo = contiguous ? 0u : uint(b_hi) + 1u - ORBIT_LOG;
            OF(round)(t, busy, b_lo, b_hi == int(lk) - 1);
            if (contiguous) {
                ++lk;
                b_hi = int(lk) - 1;
            } else {
                b_hi -= int(ORBIT_LOG);
            }
        }
        if (busy)
            OF(coalesced_from_shared)(t, wa);
    }
    // (With L == ORBIT_LOG only invocation 0 is active and its slots are positions 0 .. ORBIT-1,
    // which is already the coalesced order.)
    if (busy) {
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
            uint p = t + s * wa;
            if (p < limit)
                OF(store_global)(s, base + p, last_pass);
        }
    }
}

// Local merge: the stages of merge level pc.level whose strides fit in a tile (all of them
// below TILE, only those below 2^L in a partial last tile), after the global merge passes did
// the larger ones. The first window (index bits [L - ORBIT_LOG, L)) comes straight from global
// memory: positions t + s * Wa, coalesced; the last one leaves through shared memory to be
// written coalesced too. The last merge level (the array's padded size) decodes the keys.
void OF(local_merge)()
{
    uint n = element_count();
    uint base = workgroup_index() * TILE;
    if (base >= n || pc.level > ceil_log2(max(n, 2u)))
        return;
    uint limit = min(n - base, TILE);
    uint t = gl_LocalInvocationID.x;
    uint L = OF(active_log)(limit);
    uint wa = 1u << (L - ORBIT_LOG);
    bool busy = t < wa;
    bool last_pass = pc.level == ceil_log2(n);

    if (busy) {
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
            uint p = t + s * wa;
            if (p < limit)
                OF(load_global)(s, base + p, false);
            else
                OF(set_sentinel)(s);
        }
        OF(merge)(false);
    }
    if (L > ORBIT_LOG) {
        if (busy)
            OF(window_to_shared)(t, L - ORBIT_LOG);
        barrier();
        // Windows below the first one, down to the contiguous one (one call site).
        for (int b_hi = int(L - ORBIT_LOG) - 1;; b_hi -= int(ORBIT_LOG)) {
            bool contiguous = b_hi < int(ORBIT_LOG);
            OF(round)(t, busy, contiguous ? 0u : uint(b_hi) + 1u - ORBIT_LOG, false);
            if (contiguous)
                break;
        }
        if (busy)
            OF(coalesced_from_shared)(t, wa);
    }
    if (busy) {
        [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
            uint p = t + s * wa;
            if (p < limit)
                OF(store_global)(s, base + p, last_pass);
        }
    }
}

#endif // VKSORT_BITONIC_TILE
