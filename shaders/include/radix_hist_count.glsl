// Radix sort: counting the keys of a range into a histogram of every digit position at once,
// for the histogram pass (radix_histogram.comp) and the fused pass that builds its own
// (radix_onesweep_fused.comp). The includer declares the keys binding A as keys_a (KEY_T) and
// keys_a4 (uvec4, the same binding), WG (its workgroup size) and s_hist (at least
// pc.digit_count * RADIX_DIGITS words, zero before counting).
// Each invocation issues HIST_LOADS loads before it counts any of their keys (latency: one
// load in flight per invocation left the pass load-bound). Keys are read 16 bytes a load
// (4 u32 / 2 u64 keys) where the binding is 16-byte aligned (RADIX_FLAG_KEYS_VEC4); the last
// < VEC_KEYS keys of a range, and every key otherwise, one key a load.
// Counting: one plain shared atomicAdd of 1 per key and digit position, no more. NVIDIA's
// compiler makes each an ATOMS.POPC.INC, which adds once per address for the lanes that share
// it, so a digit that is the same over a subgroup (constant, sorted or narrow-range data) costs
// no more than a random one; the subgroupAll test per digit position and step that counted such
// a digit with one atomic did not pay for itself (H100, forty-eighth session: without it u64
// keys 2^24 1.390 -> 1.370 ms, histogram pass 121 -> 104 us; u32 keys 2^16 -2 %, depth keys
// 2^16 -3 %, 2^24 depth and uniform unchanged).
#ifndef VKSORT_RADIX_HIST_COUNT_GLSL
#define VKSORT_RADIX_HIST_COUNT_GLSL

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

// Counts the STEP_KEYS keys ok of each invocation (ok[i] counts when valid[i]).
void count_step(KEY_T ok[STEP_KEYS], bool valid[STEP_KEYS])
{
    uint digits = pc.digit_count;
    for (uint p = 0u; p < digits; ++p) {
        uint offset = p * RADIX_DIGITS;
        [[unroll]] for (uint i = 0u; i < STEP_KEYS; ++i)
            if (valid[i])
                atomicAdd(s_hist[offset + key_digit(ok[i], p)], 1u);
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
void count_range(uint begin, uint end)
{
    uint t = gl_LocalInvocationID.x;
    // Keys [begin, vec_end) in 16-byte loads (vectors [vbegin, vend)), [vec_end, end) one at a
    // time.
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
        count_step(ok, valid);
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
        count_step(ok, valid);
    }
    // One key a load, VEC_KEYS keys a step: the slots past them are constant and invalid, so
    // they take no registers (a STEP_KEYS step of single loads set the pass's register count:
    // u32 keys 64 against 48 on the H100).
    for (uint base = vec_end; base < end; base += WG * VEC_KEYS) {
        KEY_T ok[STEP_KEYS];
        bool valid[STEP_KEYS];
        [[unroll]] for (uint k = 0u; k < STEP_KEYS; ++k) {
            uint i = base + k * WG + t;
            valid[k] = k < VEC_KEYS && i < end;
            ok[k] = valid[k] ? radix_order_key(keys_a[i]) : KEY_T(0u);
        }
        count_step(ok, valid);
    }
}

#endif
