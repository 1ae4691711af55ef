// Radix sort: counting the keys of a range into a histogram of every digit position at once,
// for the histogram pass (radix_histogram.comp) and the fused pass that builds its own
// (radix_onesweep_fused.comp). The includer declares the keys binding A as keys_a (KEY_T) and
// keys_a4 (uvec4, the same binding), WG (its workgroup size) and s_hist (at least
// pc.digit_count * RADIX_DIGITS words, zero before counting).
// Each invocation issues HIST_LOADS loads before it counts any of their keys (latency: one
// load in flight per invocation left the pass load-bound). Keys are read 16 bytes a load
// (4 u32 / 2 u64 keys) where the binding is 16-byte aligned (RADIX_FLAG_KEYS_VEC4); the last
// < 4 keys of a range, and every key otherwise, one key a load.
// Counting: one plain shared atomicAdd per key and digit position, except where a digit
// position has a single value over all the keys a subgroup loaded in one step (constant,
// sorted or narrow-range data): one atomic for the subgroup, found with one subgroupAll per
// digit position and step (no subgroupAllEqual: it cost ~45 % of the pass on the H200).
#ifndef VKSORT_RADIX_HIST_COUNT_GLSL
#define VKSORT_RADIX_HIST_COUNT_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require

#if KEY64
#define VEC_KEYS 2u
#else
#define VEC_KEYS 4u
#endif

uint key_digit(KEY_T ok, uint p)
{
#if KEY64
    return radix_digit64(ok, radix_pass_shift(p));
#else
    return radix_digit32(ok, radix_pass_shift(p));
#endif
}

// Loads in flight per invocation (16-byte loads, or single keys without alignment).
#ifndef HIST_LOADS
#define HIST_LOADS 4u
#endif
// Keys one invocation holds per step.
#define STEP_KEYS (HIST_LOADS * VEC_KEYS)

// Counts the STEP_KEYS keys ok of each invocation (ok[i] counts when valid[i]); full: every key
// of the workgroup's step is valid (workgroup-uniform). In uniform control flow. lanes:
// invocations of the subgroup.
void count_step(KEY_T ok[STEP_KEYS], bool valid[STEP_KEYS], bool full, uint lanes)
{
    // Bits where some key of the subgroup differs from the subgroup's first key.
    KEY_T ref = subgroupBroadcastFirst(ok[0]);
    KEY_T diff = KEY_T(0u);
    [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
        diff |= ok[i] ^ ref;
    uint digits = pc.digit_count;
    for (uint p = 0u; p < digits; ++p) {
        uint offset = p * RADIX_DIGITS;
        bool same = false;
        if (full)
            same = subgroupAll(key_digit(diff, p) == 0u);
        if (same) {
            if (subgroupElect())
                atomicAdd(s_hist[offset + key_digit(ref, p)], lanes * STEP_KEYS);
        } else {
            [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
                if (valid[i])
                    atomicAdd(s_hist[offset + key_digit(ok[i], p)], 1u);
        }
    }
}

// The order keys of HIST_LOADS 16-byte loads, in memory order.
void vector_order_keys(uvec4 v[HIST_LOADS], out KEY_T ok[STEP_KEYS])
{
    [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k) {
#if KEY64
        ok[2u * k] = radix_order_key(v[k].xy);
        ok[2u * k + 1u] = radix_order_key(v[k].zw);
#else
        [[unroll]] for (uint j = 0u; j < 4u; ++j)
            ok[4u * k + j] = radix_order_key(v[k][j]);
#endif
    }
}

// Counts the keys [begin, end) into s_hist (begin a multiple of 4 keys). In uniform control flow.
void count_range(uint begin, uint end, uint lanes)
{
    uint t = gl_LocalInvocationID.x;
    // Keys [begin, vec_end) in 16-byte loads (vectors [vbegin, vend)), [vec_end, end) one at a
    // time. Trip counts are workgroup-uniform (subgroup operations in count_step).
    uint vec_end = (pc.flags & RADIX_FLAG_KEYS_VEC4) != 0u
                       ? begin + (end - begin) / VEC_KEYS * VEC_KEYS : begin;
    uint vbegin = begin / VEC_KEYS;
    uint vend = vec_end / VEC_KEYS;
    // Whole steps first, without per-load bounds (no predicates live across the counting),
    // then at most one partial step.
    uint vfull = vbegin + (vend - vbegin) / (WG * HIST_LOADS) * (WG * HIST_LOADS);
    for (uint base = vbegin; base < vfull; base += WG * HIST_LOADS) {
        uvec4 v[HIST_LOADS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k)
            v[k] = keys_a4[base + k * WG + t];
        KEY_T ok[STEP_KEYS];
        bool valid[STEP_KEYS];
        vector_order_keys(v, ok);
        [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
            valid[i] = true;
        count_step(ok, valid, true, lanes);
    }
    if (vfull < vend) {
        uint base = vfull;
        uvec4 v[HIST_LOADS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < HIST_LOADS; ++k) {
            uint i = base + k * WG + t;
            bool in_range = i < vend;
            v[k] = in_range ? keys_a4[i] : uvec4(0u);
            [[unroll]] for (uint j = 0u; j < VEC_KEYS; ++j)
                valid[k * VEC_KEYS + j] = in_range;
        }
        KEY_T ok[STEP_KEYS];
        vector_order_keys(v, ok);
        count_step(ok, valid, false, lanes);
    }
    for (uint base = vec_end; base < end; base += WG * STEP_KEYS) {
        KEY_T ok[STEP_KEYS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < STEP_KEYS; ++k) {
            uint i = base + k * WG + t;
            valid[k] = i < end;
            ok[k] = valid[k] ? keys_a[i] : KEY_T(0u);
        }
        [[unroll]] for (uint k = 0u; k < STEP_KEYS; ++k)
            ok[k] = radix_order_key(ok[k]);
        count_step(ok, valid, base + WG * STEP_KEYS <= end, lanes);
    }
}

#endif
