// Radix sort: one Onesweep partition (tile) of one digit pass, shared by the Onesweep pass
// (radix_onesweep.comp: one dispatch per digit) and the fused pass (radix_onesweep_fused.comp:
// every digit in one dispatch). The tile's digits are counted and the counts published at once
// (AGGREGATE), then the tile is ranked (subgroup match words or ballots), the exclusive prefix
// over earlier partitions comes from a decoupled look-back, the inclusive prefix is published
// (INCLUSIVE), and the tile is written through shared memory.
//
// Look-back words (2-bit status, 30-bit count) live in two regions used by alternate active
// passes: while a pass reads region `parity`, each partition clears its row of the other region
// for the next active pass (the histogram pass cleared region 0 for the first one). Partitions
// come from an atomic ticket, not gl_WorkGroupID: a workgroup only ever waits for partitions
// whose workgroups already started, so it waits on running work (given forward progress).
#ifndef VKSORT_RADIX_ONESWEEP_TILE_GLSL
#define VKSORT_RADIX_ONESWEEP_TILE_GLSL

#include "radix_tile.glsl"
#include "radix_wait.glsl"
#extension GL_KHR_shader_subgroup_vote : require

layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) coherent volatile buffer Lookback {
    uint lookback[];
};

// Test mode (RADIX_FLAG_STALL_FIRST): partition 0 waits, before publishing, until every other
// partition has finished - as a GPU without forward progress might run it last. Onesweep's later
// partitions wait for partition 0, so this can only end by the bounded spin giving up, which is
// counted in state[RADIX_S_STALL_TIMEOUTS].
const uint STALL_SPIN_LIMIT = 1u << 20; // polls
// Whether the sorter emulates it (VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS): without, the
// pipeline carries none of its code (a flag alone left it in, and on the H200 code the passes
// never run has slowed them: docs/perf-notes.md).
layout(constant_id = 8) const bool STALL_EMULATION = false;

// The global start of digit d in pass p (the plan's scan in the histogram binding), and the next
// task ticket (from state[word]): an includer whose workgroups may plan for themselves
// (radix_onesweep_fused.comp) defines these before including this file, for the partitions
// called with another plan kind (0: this default; a constant at each call, so that each
// inlined copy has one kind).
#ifndef RADIX_DIGIT_START
#define RADIX_DIGIT_START(p, d, plan) hist[(RADIX_MAX_PASSES + (p)) * RADIX_DIGITS + (d)]
#endif
#ifndef RADIX_TAKE_TICKET
#define RADIX_TAKE_TICKET(word, plan) atomicAdd(state[word], 1u)
#endif

// A look-back gives up after this many steps (0: never). The fused pass bounds it: there a
// workgroup that gave up a wait on a broken persistent scratch may hold a partition it never
// publishes, and the sort must end (wrong) rather than hang.
#ifndef RADIX_LOOKBACK_SPIN_LIMIT
#define RADIX_LOOKBACK_SPIN_LIMIT 0u
#endif

// Look-back: predecessor words read per step.
const uint LB_WIDTH = 4u;

// The first element of partition `part` of a pass whose first (short) partition has first_n
// elements (radix_onesweep_partition below says why the short one is first).
uint radix_onesweep_tile_base(uint part, uint first_n)
{
    return part == 0u ? 0u : first_n + (part - 1u) * TILE;
}

// LOOKBACK_FALLBACK 1 (the digit pass's _fb modules, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK):
// no look-back waits on another workgroup for long. A subgroup whose lane has read a
// predecessor's empty word FALLBACK_POLLS steps running leaves its look-back and asks the
// workgroup for that predecessor (the nearest one asked wins a round); at the barrier that
// ends the look-back the workgroup counts the predecessor's tile itself (its keys, in this
// pass's source half, which nothing writes during the pass), installs each digit's count
// where the predecessor's word is still empty, every lane waiting on it takes its digit's
// word (that count or what arrived meanwhile), and the look-backs go on - the "decoupled fallback" of Smith, Levien and Owens (SPAA 2025), counted
// by the workgroup after the look-back instead of by the subgroup inside it, so that the
// look-back loop carries no counting code and its registers stay those of the default pass
// (the subgroup-ballot count inside the loop took the H100's keys pass from 80 to 130
// registers, docs/perf-notes.md, thirty-ninth session). Every wait is then bounded, so the pass
// needs no forward progress between workgroups. Built as separate modules, so the default
// passes' SPIR-V is unchanged.
#ifndef LOOKBACK_FALLBACK
#define LOOKBACK_FALLBACK 0
#endif
#if LOOKBACK_FALLBACK
layout(constant_id = 14) const uint FALLBACK_POLLS = 64u;

// Round r of a partition's look-back takes requests in s_fb_request[r & 1] (1 + the tile to
// count; 0: none), so that clearing the next round's word never races this round's requests.
// s_fb_count: the counted tile's digits. (The digit pass's shared memory has room for both:
// radix.c's radix_fixed_bytes counts a fourth digit array and spare words.)
shared uint s_fb_request[2];
shared uint s_fb_count[RADIX_DIGITS];

// Counts partition f's elements (its real ones, not a partial tile's sentinels) per digit of
// the pass into s_fb_count: the whole workgroup, ending with a barrier. The first (short)
// partition has first_n elements.
void radix_lookback_fallback_count(uint data_parity, uint f, uint first_n, uint shift)
{
    uint base = radix_onesweep_tile_base(f, first_n);
    uint len = f == 0u ? first_n : TILE;
    for (uint d = gl_LocalInvocationID.x; d < RADIX_DIGITS; d += WG)
        s_fb_count[d] = 0u;
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < len; i += WG)
        atomicAdd(s_fb_count[radix_digit(radix_load_key(data_parity, base + i), shift)], 1u);
    barrier();
}
#endif

// Publishes digit d's inclusive count (its look-back's exclusive sum + the tile's count) in
// this partition's look-back word: the next partition's look-back for it waits on this word.
void radix_lookback_publish_inclusive(uint row, uint d, uint exclusive)
{
    atomicExchange(lookback[row + d], RADIX_LB_INCLUSIVE | (exclusive + s_count[d]));
}

// One look-back step of digit d, whose walk has reached predecessor j (> 0): the words of up
// to LB_WIDTH predecessors at once (independent loads, one round trip), then summed back from
// the nearest while they are published, up to the first INCLUSIVE. Sets done there or at
// partition 0.
void radix_lookback_step(uint region, uint d, inout uint j, inout uint exclusive, inout bool done)
{
    uint j0 = j;
    uint w[LB_WIDTH];
    [[unroll]] for (uint k = 0u; k < LB_WIDTH; ++k)
        w[k] = k < j0 ? lookback[region + (j0 - 1u - k) * RADIX_DIGITS + d] : 0u;
    bool walk = true;
    [[unroll]] for (uint k = 0u; k < LB_WIDTH; ++k) {
        if (walk && k < j0) {
            if ((w[k] & RADIX_LB_STATUS) != 0u) {
                exclusive += w[k] & RADIX_LB_VALUE;
                --j;
                done = (w[k] & RADIX_LB_INCLUSIVE) != 0u || j == 0u;
                walk = !done;
            } else {
                walk = false;
            }
        }
    }
}

#if LOOKBACK_FALLBACK
// One digit's look-back across the fallback's rounds.
struct radix_lookback_walk {
    uint exclusive; // the sum so far
    uint j;         // the next predecessor + 1
    bool done;
    uint idle;      // steps in a row that found predecessor j - 1's word empty
};

// One round of the look-back of digit d (the whole subgroup): until every lane is done or one
// has found its predecessor's word empty FALLBACK_POLLS steps running, which asks the
// workgroup to count that predecessor (s_fb_request[fb_round & 1]: the nearest one asked).
// Each lane publishes its inclusive count once done (not with publish, the emulation's
// withheld words).
void radix_lookback_round(inout radix_lookback_walk lb, uint region, uint row, uint d,
                          bool publish, uint fb_round)
{
    while (!subgroupAll(lb.done)) {
        if (!lb.done) {
            uint j0 = lb.j;
            radix_lookback_step(region, d, lb.j, lb.exclusive, lb.done);
            if (lb.done && publish)
                radix_lookback_publish_inclusive(row, d, lb.exclusive);
            lb.idle = lb.j == j0 ? lb.idle + 1u : 0u;
        }
        bool stuck = !lb.done && lb.idle >= FALLBACK_POLLS;
        if (subgroupAny(stuck)) {
            uint want = subgroupMax(stuck ? lb.j : 0u);
            if (subgroupElect())
                atomicMax(s_fb_request[fb_round & 1u], want);
            return;
        }
    }
}
#endif

// What a partition does between its look-back and the barrier that publishes s_dst: its row of
// the other look-back region cleared for the next active pass, the next ticket taken (invocation
// 0, with fetch_next; returned, else 0), and the first scatter round's keys staged - before
// that barrier, so that the subgroups without a digit to look back for stage while the others
// wait, and the scatter needs one barrier fewer.
uint radix_onesweep_after_lookback(uint data_parity, uint parity, uint part, uint tile_n, bool full,
                                   bool fetch_next, uint ticket_word, uint plan)
{
    uint t = gl_LocalInvocationID.x;
    uint next_row = (parity ^ 1u) * pc.max_tiles * RADIX_DIGITS + part * RADIX_DIGITS;
    for (uint d = t; d < RADIX_DIGITS; d += WG)
        lookback[next_row + d] = 0u;
    uint next_ticket = 0u;
    if (fetch_next && t == 0u)
        next_ticket = RADIX_TAKE_TICKET(ticket_word, plan);
    radix_stage_first_round(data_parity, tile_n, full);
    return next_ticket;
}

// Partition `part` of digit pass p (tiles partitions in all): elements [tile_base, tile_base +
// tile_n), reading the `data_parity` half (0: A, as the digit passes' swapped bindings give
// it, a constant there so that no access branches between the halves; the fused pass's
// state[RADIX_S_PARITY + p]) and using look-back region `parity` (the pass's position among
// the active passes, mod 2). first_n: the elements of the pass's first (short) partition (the
// fallback counts predecessors' tiles). Every invocation calls it; it ends with the
// tile written (no barrier after the last writes). full: tile_n == TILE (constant at each call).
// fetch_next: invocation 0 takes the next ticket (state[ticket_word]: the digit pass's, or the
// fused pass's) when the look-back is done and returns it; the scatter hides the atomic's round
// trip, and nothing between taking the ticket and running it waits. (Taken at the partition's
// start, while the dispatch's workgroups were still starting, the first ones took two tiles of
// the first digit and later ones had none.) Else returns 0. plan: the kind of plan the digit
// starts and the ticket come from (RADIX_DIGIT_START, RADIX_TAKE_TICKET above; 0: the state's).
// skew: the plan found the digit skewed (RADIX_S_SKEW): the tile is ranked with peer masks first
// and counted after (radix_rank_tile_late_counts), its counts published then - with one digit
// in most lanes the shared atomicOr of the default ranking and the count atomics serialise over
// those lanes (docs/perf-notes.md, forty-eighth session). Uniform: a branch around the counting
// and ranking only, so that the look-back and the scatter stay one copy.
uint radix_onesweep_partition_tile(uint p, uint data_parity, uint parity, uint part, uint tile_base, uint tile_n,
                                   uint first_n, uint tiles, bool stall_first, bool full,
                                   bool fetch_next, uint ticket_word, uint plan, bool skew)
{
    uint t = gl_LocalInvocationID.x;
    uint shift = radix_pass_shift(p);
    // The digit's global start (the plan's scan) is loaded now, so that its round trip overlaps
    // the ranking instead of following the look-back; invocation t < RADIX_DIGITS holds digit t.
    uint global_start = t < RADIX_DIGITS ? RADIX_DIGIT_START(p, t, plan) : 0u;
#if LOOKBACK_FALLBACK
    // Round 0's request word, cleared before any request (the counting's barriers order it);
    // each later round clears its own word at its start, so a request a previous tile left in
    // the other word is never read.
    if (t == 0u)
        s_fb_request[0] = 0u;
#endif
    // Full tiles only: the short first tile ranks as by default (correct either way, and once
    // a pass; a skew-proof copy in the short tile's code too cost every pass: H100 f32 depth
    // keys 2^24 0.455 against 0.446 ms, docs/perf-notes.md, forty-ninth session).
    skew = skew && full;
    if (skew) {
        radix_rank_tile_late_counts(data_parity, tile_base, tile_n, shift, full, false, false);
        if (t == 0u)
            atomicAdd(state[RADIX_S_SKEW_TILES], 1u);
    } else {
        radix_count_tile(data_parity, tile_base, tile_n, shift, full, false);
    }

    if (stall_first) {
        if (part == 0u && gl_SubgroupID == 0u &&
            !radix_wait_state(RADIX_S_DONE + p, tiles - 1u, STALL_SPIN_LIMIT) && subgroupElect())
            atomicAdd(state[RADIX_S_STALL_TIMEOUTS], 1u);
        barrier();
    }

    // The tile's counts are published before it is ranked (CUB's early counts), so that later
    // partitions' look-backs find them while this one ranks. Each look-back word is the whole
    // message (status and count), written with one atomic, so no fence is needed; readers poll
    // it with coherent volatile loads (4 % faster per pass on the H200 than polling with
    // atomicOr(x, 0), docs/perf-notes.md).
    uint region = parity * pc.max_tiles * RADIX_DIGITS;
    uint row = region + part * RADIX_DIGITS;
    // Test mode with the fallback: the even partitions never publish (as a workgroup the GPU
    // stops running after its counts), so later partitions must count them themselves.
#if LOOKBACK_FALLBACK
    bool publish = !(stall_first && (part & 1u) == 0u);
    if (publish)
#endif
    for (uint d = t; d < RADIX_DIGITS; d += WG)
        atomicExchange(lookback[row + d],
                       (part == 0u ? RADIX_LB_INCLUSIVE : RADIX_LB_AGGREGATE) | s_count[d]);

    if (!skew)
        radix_rank_counted(shift, RANK_ATOMIC_OR);

    // The look-back: the invocations of one subgroup walk back together, one digit per lane,
    // LB_WIDTH predecessors per step, the whole subgroup looping until every lane is done (lanes
    // that spun independently inside a subgroup produced wrong prefixes on lavapipe); each lane
    // publishes its digit's inclusive count as soon as it has it (H200, 2^28: -0.7 % keys, -1 %
    // pairs against publishing after the subgroup's last digit): the next partition's look-back
    // for it waits on this word.
    uint next_ticket = 0u;
#if LOOKBACK_FALLBACK
    // In rounds (see LOOKBACK_FALLBACK above), every invocation in each (uniform control flow
    // for the barriers): a round ends at a barrier with every subgroup done or asking; without
    // a request that barrier is the one that publishes s_dst. The first round is peeled off the
    // loop of fallbacks, so that the stage after it is outside that loop (measured: inside it,
    // the u32 pairs pass took 114 registers, peeled 111; keys 80 either way). The next ticket
    // is taken with the stage, after the first round: a workgroup that then falls back holds
    // its next tile meanwhile (its successors' waits on it stay bounded).
    uint fb_round = 0u;
    for (uint d0 = 0u; d0 < RADIX_DIGITS; d0 += WG) {
        if (d0 != 0u) {
            // Workgroups of fewer than RADIX_DIGITS invocations: a new round for the next
            // digits, its word cleared before any request (the last one's may still be read).
            ++fb_round;
            if (t == 0u)
                s_fb_request[fb_round & 1u] = 0u;
            barrier();
        }
        uint d = d0 + t;
        radix_lookback_walk lb;
        lb.exclusive = 0u;
        lb.j = part;
        lb.done = d >= RADIX_DIGITS || part == 0u;
        lb.idle = 0u;
        radix_lookback_round(lb, region, row, d, publish, fb_round);
        if (d < RADIX_DIGITS && lb.done)
            s_dst[d] = (d == t ? global_start : RADIX_DIGIT_START(p, d, plan)) + lb.exclusive - s_tile_start[d];
        if (d0 == 0u)
            next_ticket = radix_onesweep_after_lookback(data_parity, parity, part, tile_n, full,
                                                        fetch_next, ticket_word, plan);
        barrier();
        for (uint want = s_fb_request[fb_round & 1u]; want != 0u; want = s_fb_request[fb_round & 1u]) {
            // A fallback: the requested tile counted by the whole workgroup, and every one of
            // its digits' counts installed (partition 0's as INCLUSIVE, as it publishes them)
            // where its word is still empty - not only the waiting lanes' digits, so that no
            // later digit block and no other partition counts the tile again for a digit this
            // count covers. The lanes waiting on it take their digit's word: this count or what
            // arrived meanwhile.
            ++fb_round;
            if (t == 0u) {
                s_fb_request[fb_round & 1u] = 0u;
                atomicAdd(state[RADIX_S_FALLBACKS], 1u);
            }
            uint f = want - 1u;
            radix_lookback_fallback_count(data_parity, f, first_n, shift);
            uint got = 0u;
            uint status = f == 0u ? RADIX_LB_INCLUSIVE : RADIX_LB_AGGREGATE;
            for (uint e = t; e < RADIX_DIGITS; e += WG) {
                uint mine = status | s_fb_count[e];
                uint was = atomicCompSwap(lookback[region + f * RADIX_DIGITS + e], 0u, mine);
                if (e == d)
                    got = was != 0u ? was : mine;
            }
            if (d < RADIX_DIGITS && !lb.done && lb.j - 1u == f) {
                uint w = got;
                lb.exclusive += w & RADIX_LB_VALUE;
                lb.j = f;
                lb.done = (w & RADIX_LB_INCLUSIVE) != 0u || f == 0u;
                lb.idle = 0u;
                if (lb.done && publish)
                    radix_lookback_publish_inclusive(row, d, lb.exclusive);
            }
            radix_lookback_round(lb, region, row, d, publish, fb_round);
            if (d < RADIX_DIGITS && lb.done)
                s_dst[d] = (d == t ? global_start : RADIX_DIGIT_START(p, d, plan)) + lb.exclusive - s_tile_start[d];
            barrier();
        }
    }
#else
    for (uint d = t; d < RADIX_DIGITS; d += WG) {
        uint exclusive = 0u;
        if (part != 0u) {
            uint j = part;
            bool done = false;
            uint steps = 0u;
            while (!subgroupAll(done)) {
                if (RADIX_LOOKBACK_SPIN_LIMIT != 0u && ++steps >= RADIX_LOOKBACK_SPIN_LIMIT)
                    done = true;
                if (!done) {
                    radix_lookback_step(region, d, j, exclusive, done);
                    if (done)
                        radix_lookback_publish_inclusive(row, d, exclusive);
                }
            }
        }
        uint start = d == t ? global_start : RADIX_DIGIT_START(p, d, plan);
        s_dst[d] = start + exclusive - s_tile_start[d];
    }
    next_ticket = radix_onesweep_after_lookback(data_parity, parity, part, tile_n, full, fetch_next,
                                                ticket_word, plan);
    barrier();
#endif

    radix_scatter_tile(data_parity, tile_base, tile_n, shift, full, false, 0u, 0u);
    return next_ticket;
}

// Every partition but the first is a full tile: those run a copy of the partition without
// per-element bounds tests (the test is per workgroup, so the barriers inside stay in uniform
// control flow). The short partition is the first (elements [0, n - (tiles - 1) * TILE)), not
// the last: its copy of the code runs once per pass, from a cold instruction cache - on the
// H200 its counting and ranking took 4x a full tile's (~25 us at 2^24 keys), and as the last
// partition nothing else ran meanwhile (a tail of ~18 us in most passes). As the first, only
// the first wave's look-backs wait for it, a few microseconds.
uint radix_onesweep_partition(uint p, uint data_parity, uint parity, uint part, uint n, uint tiles,
                              bool stall_first, bool fetch_next, uint ticket_word, uint plan,
                              bool skew)
{
    uint first_n = n - (tiles - 1u) * TILE;
    uint tile_base = radix_onesweep_tile_base(part, first_n);
    if (part != 0u || first_n == TILE)
        return radix_onesweep_partition_tile(p, data_parity, parity, part, tile_base, TILE, first_n,
                                             tiles, stall_first, true, fetch_next, ticket_word, plan,
                                             skew);
    else
        return radix_onesweep_partition_tile(p, data_parity, parity, part, tile_base, first_n, first_n,
                                             tiles, stall_first, false, fetch_next, ticket_word, plan,
                                             skew);
}

#endif
