// Radix plan (run by the last histogram workgroup, radix_histogram.comp, or in the fused pass
// that builds its own histogram, radix_onesweep_fused.comp): per digit position,
// the exclusive scan of its histogram (the global start of each digit), and whether the digit is
// the same for every key (then its pass cannot change the order and is skipped). Then the pass
// plan: the digit of each scatter slot (slot k sorts the k-th active digit, reading A for even
// k and B for odd k), which buffer each digit reads in the fused pass (ping-pong parity), and
// the indirect dispatch sizes of every later pass, zero for the slots past the active passes,
// and for the final copy when an odd number of passes ran. RADIX_FLAG_PORTABLE: scatter passes are portable downsweeps (one workgroup per
// block). RADIX_FLAG_BUCKETS: whether the fused pass sorts in buckets (RADIX_S_BUCKETS). The
// includer declares `state` and `hist` (read-write, coherent).
#ifndef VKSORT_RADIX_PLAN_GLSL
#define VKSORT_RADIX_PLAN_GLSL

// RADIX_PLAN_HYBRID 1: the plan can choose the hybrid path (RADIX_FLAG_HYBRID): 32-bit keys' histogram
// pass only, so that the fused pass's plan carries none of its code.
#ifndef RADIX_PLAN_HYBRID
#define RADIX_PLAN_HYBRID 0
#endif

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

shared uint s_plan_constant[RADIX_MAX_PASSES];
shared uint s_plan_largest; // RADIX_FLAG_BUCKETS: the most keys of one value of the top digit
shared uint s_plan_skewed;  // RADIX_FLAG_SKEW: bit p set where one digit at position p has most keys
shared uint s_plan_top_largest[2]; // RADIX_FLAG_HYBRID: the most keys of one value of digits 2, 3
// The scan's partials, unless the includer has the scan already (the fused pass's tiles: one
// per subgroup of its RADIX_PLAN_WORKGROUP invocations suffices).
#ifndef VKSORT_RADIX_SCAN_GLSL
shared uint s_scan_partial[RADIX_PLAN_WORKGROUP];
#include "radix_scan.glsl"
#endif

#include "radix_dispatch.glsl"

// The plan's summary word (radix_plan_sort's result, and the fused pass's own plans'): bit 0
// set, bits 1-8 the active digits (RADIX_S_ACTIVE), bits 9-12 RADIX_S_BUCKETS, bit 13 whether
// the plan asks for the copy back.
const uint PLAN_WORD_ACTIVE_SHIFT = 1u;
const uint PLAN_WORD_BUCKETS_SHIFT = 9u;
const uint PLAN_WORD_COPY_BIT = 1u << 13u;

// Invocation t's counts of digit t at every digit position (zero past pc.digit_count), all
// loaded at once, so that the plan - the histogram pass's exposed tail - waits for one round
// trip instead of one per digit position. zero: leave them and the histogram ticket zero for the
// next sort (this invocation's own words: it has read them).
void radix_plan_load_counts(out uint c[RADIX_MAX_PASSES], bool zero)
{
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
        c[p] = p < pc.digit_count ? hist[p * RADIX_DIGITS + t] : 0u;
    if (zero) {
        [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
            if (p < pc.digit_count)
                hist[p * RADIX_DIGITS + t] = 0u;
        if (t == 0u)
            hist[RADIX_HIST_TICKET] = 0u;
    }
}

// Clears the plan's shared words; a barrier must follow before radix_plan_mark_constant.
void radix_plan_clear_shared()
{
    uint t = gl_LocalInvocationID.x;
    if (t < RADIX_MAX_PASSES)
        s_plan_constant[t] = 0u;
    if (t == 0u) {
        s_plan_largest = 0u;
        s_plan_skewed = 0u;
        s_plan_top_largest[0] = 0u;
        s_plan_top_largest[1] = 0u;
    }
}

// Flags the digit positions where one digit value has every key (its pass cannot change the
// order); visible to the workgroup after the next barrier.
void radix_plan_mark_constant(uint c[RADIX_MAX_PASSES], uint n)
{
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
        if (p < pc.digit_count && c[p] == n)
            s_plan_constant[p] = 1u;
}

// RADIX_FLAG_SKEW: flags the digit positions where one digit value has more than half of the n
// keys (bit p of s_plan_skewed, visible after the next barrier). At most one value can, so an
// invocation's own count decides: no reduction. Half is where the two rankings cross (H100,
// u32 keys 2^24 with one top digit value in a share of the keys, the top pass default against
// skew-proof, us: 37.5 % 128 / 144, 50 % 139 / 133, 69 % 156 / 114, f32 depths' 98 % 156 / 96;
// docs/perf-notes.md, forty-ninth session): subgroupPartitionNV's peers cost more the more
// digit values a subgroup holds, the atomicOr ranking's the more lanes share one.
#ifndef RADIX_SKEW_SHARE_DIVISOR
#define RADIX_SKEW_SHARE_DIVISOR 2u // skewed: one digit value in more than n / this of the keys
#endif
void radix_plan_mark_skewed(uint c[RADIX_MAX_PASSES], uint n)
{
    uint mine = 0u;
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
        if (p < pc.digit_count && c[p] > n / RADIX_SKEW_SHARE_DIVISOR)
            mine |= 1u << p;
    if (mine != 0u)
        atomicOr(s_plan_skewed, mine);
}

#if RADIX_PLAN_HYBRID
// RADIX_FLAG_HYBRID: the largest counts of one value of digits 2 and 3 (the top 16 bits of
// 32-bit keys), visible after the next barrier.
void radix_plan_mark_top_largest(uint c[RADIX_MAX_PASSES])
{
    uint top2 = subgroupMax(c[2]);
    uint top3 = subgroupMax(c[3]);
    if (subgroupElect()) {
        atomicMax(s_plan_top_largest[0], top2);
        atomicMax(s_plan_top_largest[1], top3);
    }
}

// RADIX_FLAG_HYBRID: whether this sort takes the hybrid path (radix_interface.h): digits 2 and 3
// not constant, digit 0 or 1 not constant, and the largest chunk as estimated from the two digits' largest counts as if
// independent (n a16 a24 / n^2 keys a bucket, k buckets a chunk) within the host's limit - past
// it a chunk would likely not fit (f32 depths, a top byte of few values) and the fallback would
// cost the two top passes on top of four.
bool radix_plan_hybrid(uint active_mask, uint n)
{
    // (Digits 0 and 1 both constant: two passes digit by digit, and the chunk sort's groups
    // would each hold a whole bucket.)
    if ((active_mask & 12u) != 12u || (active_mask & 3u) == 0u)
        return false;
    float estimate = float(s_plan_top_largest[0]) * float(s_plan_top_largest[1]) / float(n) *
                     float(1u << RADIX_HYBRID_LOG_K(pc.aux));
    return estimate <= float(RADIX_HYBRID_LIMIT(pc.aux));
}
#endif

// After radix_plan_mark_constant's flags are visible: the active digits (bit p: its pass runs)
// and the bucket sorts' choice, 1 + the most significant active digit where RADIX_FLAG_BUCKETS
// asks for them, two or more digits are active and every value of that digit (a bucket) fits
// one tile, else 0; top_count: invocation t's count of digit t there. Every invocation calls it
// and gets the same answer.
uint radix_plan_buckets(uint c[RADIX_MAX_PASSES], uint n, out uint active_mask, out uint top_count)
{
    uint top = 0u, active_digits = 0u;
    active_mask = 0u;
    for (uint p = 0u; p < pc.digit_count; ++p) {
        if (n >= 2u && s_plan_constant[p] == 0u) {
            top = p;
            ++active_digits;
            active_mask |= 1u << p;
        }
    }
    top_count = 0u;
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
        top_count = p == top ? c[p] : top_count; // (no dynamic index into c)
    if ((pc.flags & RADIX_FLAG_BUCKETS) == 0u || active_digits < 2u) // uniform
        return 0u;
    uint largest = subgroupMax(top_count);
    if (subgroupElect())
        atomicMax(s_plan_largest, largest);
    barrier();
    return s_plan_largest <= pc.tile_size ? top + 1u : 0u;
}

// Run by one whole workgroup of RADIX_PLAN_WORKGROUP invocations (one digit value each) after
// every histogram count is in `hist`, for n (the clamped count) elements, with the counts c from
// radix_plan_load_counts. Without a prepare pass (RADIX_FLAG_HOST_SIZED) it also writes the
// sizes to the state and resets the pass words. Returns the plan's summary word in invocation 0
// (0 in the others).
uint radix_plan_sort(uint n, uint c[RADIX_MAX_PASSES])
{
    uint t = gl_LocalInvocationID.x;
    // The sizes from the count (as the prepare pass derived them), not loaded from the state.
    uint tiles, blocks;
    radix_tile_counts(n, tiles, blocks);
    if ((pc.flags & RADIX_FLAG_HOST_SIZED) != 0u && t == 0u) {
        state[RADIX_S_COUNT] = n;
        state[RADIX_S_TILES] = tiles;
        state[RADIX_S_BLOCKS] = blocks;
        radix_reset_pass_words();
    }
    radix_plan_clear_shared();
    barrier();
    radix_plan_mark_constant(c, n);
    if ((pc.flags & RADIX_FLAG_SKEW) != 0u) // uniform
        radix_plan_mark_skewed(c, n);
#if RADIX_PLAN_HYBRID
    if ((pc.flags & RADIX_FLAG_HYBRID) != 0u) // uniform
        radix_plan_mark_top_largest(c);
#endif
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p) {
        if (p < pc.digit_count) { // uniform
            hist[(RADIX_MAX_PASSES + p) * RADIX_DIGITS + t] = radix_workgroup_exclusive_scan(c[p]);
            barrier();
        }
    }
    uint active_mask, top_count;
    uint top1 = radix_plan_buckets(c, n, active_mask, top_count);
    uint word = 0u;
    if (t == 0u) {
        // One pass and a local sort of every bucket, where each fits a tile and lower digits
        // remain (radix_onesweep_fused.comp); else digit by digit.
        bool buckets = top1 != 0u;
        state[RADIX_S_BUCKETS] = top1;
        word = 1u | (top1 << PLAN_WORD_BUCKETS_SHIFT);
        bool portable = (pc.flags & RADIX_FLAG_PORTABLE) != 0u;
        uint groups = portable ? blocks : radix_onesweep_pass_groups(tiles);
        uint ordinal = 0u;
        for (uint p = 0u; p < RADIX_MAX_PASSES; ++p) {
            bool runs = (active_mask & (1u << p)) != 0u;
            state[RADIX_S_ACTIVE + p] = runs ? 1u : 0u;
            word |= runs ? 1u << (PLAN_WORD_ACTIVE_SHIFT + p) : 0u;
            state[RADIX_S_PARITY + p] = ordinal & 1u;
            if (runs)
                state[RADIX_S_SLOT_DIGIT + ordinal++] = p;
        }
        if ((pc.flags & RADIX_FLAG_SKEW) != 0u)
            state[RADIX_S_SKEW] = s_plan_skewed;
        // The scatter passes are slots: the first `ordinal` sort the active digits in order;
        // the recorded slots past them map to no digit but to a dead ticket (radix_interface.h).
        for (uint k = 0u; k < RADIX_MAX_PASSES; ++k) {
            bool runs = k < ordinal;
            radix_plan_write_groups(RADIX_E_PASS + k, runs ? groups : 0u);
            if (!runs && k < pc.digit_count) {
                state[RADIX_S_SLOT_DIGIT + k] = RADIX_SLOT_NONE(k);
                state[RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + k) + 3u] = RADIX_DEAD_TICKET;
            }
            radix_plan_write_groups(RADIX_E_UPSWEEP + k, runs && portable ? blocks : 0u);
        }
        uint copy_groups = (n + RADIX_COPY_PER_GROUP - 1u) / RADIX_COPY_PER_GROUP;
        // (The bucket sorts write the caller's buffers themselves.)
        bool copy = (ordinal & 1u) != 0u && !buckets;
        radix_plan_write_groups(RADIX_E_COPY, copy ? copy_groups : 0u);
        word |= copy ? PLAN_WORD_COPY_BIT : 0u;
#if RADIX_PLAN_HYBRID
        // The hybrid path (recorded slots: 0, 1, chunk bounds, chunk sort, 2..5): slots 0
        // and 1 sort digits 2 and 3 (A -> B -> A), then the chunk passes; slots 2..5 hold digits
        // 0..3 for the fallback, which the chunk sort opens where a chunk does not fit.
        // (Otherwise the slots above carry the active digits as planned, the chunk passes none.)
        if ((pc.flags & RADIX_FLAG_HYBRID) != 0u && radix_plan_hybrid(active_mask, n)) {
            uint chunks = RADIX_HYBRID_BUCKETS >> RADIX_HYBRID_LOG_K(pc.aux);
            for (uint k = 0u; k < 6u; ++k) {
                state[RADIX_S_SLOT_DIGIT + k] = k < 2u ? k + 2u : k - 2u;
                radix_plan_write_groups(RADIX_E_PASS + k, k < 2u ? groups : 0u);
            }
            // Bounds: one a subgroup, chunks + 1 of them (the pass loops where its subgroups are
            // fewer than 32 lanes).
            radix_plan_write_groups(RADIX_E_CHUNK_BOUNDS,
                                    (chunks + 1u + RADIX_CHUNK_BOUNDS_WORKGROUP / 32u - 1u) /
                                        (RADIX_CHUNK_BOUNDS_WORKGROUP / 32u));
            radix_plan_write_groups(RADIX_E_CHUNK_SORT, chunks);
            state[RADIX_S_HYBRID] = RADIX_HYBRID_LOCAL;
            radix_plan_write_groups(RADIX_E_COPY, 0u);
            word &= ~PLAN_WORD_COPY_BIT;
        } else if ((pc.flags & RADIX_FLAG_HYBRID) != 0u && copy) {
            // Digit by digit over an odd number of digits (at most three: the last slot is
            // free): the last slot copies, the recording has no copy pass.
            state[RADIX_S_SLOT_DIGIT + RADIX_HYBRID_COPY_SLOT] = RADIX_SLOT_COPY;
            radix_plan_write_groups(RADIX_E_PASS + RADIX_HYBRID_COPY_SLOT, copy_groups);
            radix_plan_write_groups(RADIX_E_COPY, 0u);
        }
#endif
    }
    return word;
}

#endif
