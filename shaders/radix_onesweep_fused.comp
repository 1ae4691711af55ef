#version 450
// Onesweep with every digit pass in one dispatch, for small counts, where a dispatch per pass
// costs more than the pass's work (about 5 us each on the H200, docs/perf-notes.md). The
// workgroups take tasks from one ticket: task k is partition k % tiles of digit pass k / tiles
// (radix_onesweep_partition, as in radix_onesweep.comp); after the last pass, when the plan
// asks for a copy (an odd number of active passes), one more task per tile copies it back from
// the scratch half. A task of pass p first waits until every partition of pass p - 1 is written.
// Those partitions have smaller tickets, so their workgroups already started: the wait, like
// the look-back, is on running work - the forward progress Onesweep already needs. A workgroup
// takes its next ticket during its current task, and counts its partitions of a pass only when
// it moves to another pass, so DONE[p] may be held back while it runs more partitions of pass p;
// those wait only on pass p's look-back words (published without waiting once pass p - 1 is
// done) and nothing waits between taking a ticket and running it (FOLD_HISTOGRAM's first ticket
// waits for the chunk count, which running workgroups complete without waiting, see below), so
// by induction over the passes every pass finishes and is counted. A pass the plan skipped (one digit value
// everywhere) is only counted.
//
// FOLD_HISTOGRAM (a host count on a persistent scratch, RADIX_FLAG_HOST_SIZED, at the small
// tiles' 256 invocations): the dispatch also does the histogram pass's work and the plan, so a
// small sort is one dispatch. Its workgroups first take chunks (a tile's worth of the input each)
// from a ticket, count every digit position of them (radix_hist_count.glsl) and clear their rows
// of look-back region 0, then count their chunks in RADIX_HIST_TICKET. Every workgroup waits
// until that count has every chunk, reads the counts and plans for itself (fold_plan: the
// constant digits, bucket sorts or digit by digit, the digit starts it needs, in shared memory
// or registers) - so no planner's scans, stores, fence and flag lie between the last chunk and
// the first task. The chunks are all taken by workgroups that started and count them without
// waiting: the same forward progress as the tasks' waits. The tasks come from the same ticket:
// the tickets past the chunks are the tasks' (a workgroup's last chunk ticket is its first
// task, fold_task), and finished passes are counted in RADIX_HIST_FOLD_DONE + pass (the state's
// pass words are the prepare pass's or a planner's to reset, and here none runs first). The
// last workgroup to leave zeroes the counts, the tickets and those counts for the next sort (so
// none still reads or waits on them).
// On a scratch that broke the persistent-scratch promise (words left non-zero) the waits give up
// after FUSED_SPIN_LIMIT polls (the sort is then wrong, not hung), and the last workgroup to
// leave (the one that finds the leave count at or past the dispatch's size) zeroes the words the
// next sort needs, so the one after sorts right again.
#extension GL_GOOGLE_include_directive : require
#define RADIX_DATA_COHERENT coherent // a pass reads what other workgroups wrote in this dispatch
#define RADIX_HIST_ACCESS coherent   // FOLD_HISTOGRAM: built and planned in this dispatch
// The digit starts and task tickets of the plan kind (PLAN_*, below) a partition runs by.
uint fused_digit_start(uint p, uint d, uint plan);
uint fused_take_ticket(uint state_word, uint plan);
#define RADIX_DIGIT_START(p, d, plan) fused_digit_start(p, d, plan)
#define RADIX_TAKE_TICKET(word, plan) fused_take_ticket(word, plan)
// The dispatch's waits (the chunk count, a pass's predecessors, a look-back) give up after this
// many polls: seconds on a GPU, where every wait of a sort on a scratch that kept its promises
// (or of a fresh sort without VKSORT_VK_CREATE_PERSISTENT_SCRATCH) ends within microseconds. On
// one that broke the persistent-scratch promise the sort may then be wrong, but it ends.
#define FUSED_SPIN_LIMIT (1u << 22)
#define RADIX_LOOKBACK_SPIN_LIMIT FUSED_SPIN_LIMIT
#include "radix_onesweep_tile.glsl"

layout(constant_id = 12) const bool FOLD_HISTOGRAM = false;
// Whether the pipeline carries the bucket sorts (the small geometry's, where the sorter allows
// them): RADIX_FLAG_BUCKETS is then honoured.
layout(constant_id = 13) const bool BUCKET_SORTS = false;

// The histogram phase's bindings and counters: the keys as 16-byte vectors (as the histogram
// pass reads them), the counts in the tile's shared words (the host keeps them >= the digit
// positions' 256 counts each; the tiles clear them before use).
// (Not readonly: later passes of the dispatch write binding A through keys_a. The histogram
// phase's reads all come before the chunk count is complete, so before any such write.)
layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) buffer KeysA4 { uvec4 keys_a4[]; };
#define s_hist s_mem
// The chunk count and the passes' done counts, polled (see radix_wait.glsl).
layout(set = 0, binding = RADIX_BINDING_HIST, std430) coherent volatile buffer HistPoll { uint hist_poll[]; };


#include "radix_hist_count.glsl"
#include "radix_plan.glsl"

// The plan a partition or bucket runs by, a constant at each call (never a runtime choice
// inside the tasks: that had cost the fold pipeline 69 -> 100 registers on the H200,
// docs/perf-notes.md): the state's and the histogram binding's (PLAN_STATE: the prepare or
// histogram pass planned), or FOLD_HISTOGRAM's own (fold_plan) - bucket sorts, starts in
// s_fold_start, or digit by digit, starts in fold_digit_start. Own plans take their tickets from
// the chunk ticket (past the chunks' tickets, see fold_task) and count finished passes in
// RADIX_HIST_FOLD_DONE.
const uint PLAN_STATE = 0u;
const uint PLAN_OWN_BUCKETS = 1u;
const uint PLAN_OWN_DIGITS = 2u;
// The top digit's global starts of an own bucket plan. (Fits the shared words the host budgets
// for a tile pass beside the staging area: radix.c's radix_fixed_bytes.)
shared uint s_fold_start[RADIX_DIGITS];
uint fold_digit_start_of(uint p);

// (An own plan's digit-by-digit starts are invocation t's of digit t: d == t, the fold's
// workgroups having RADIX_DIGITS invocations.)
uint fused_digit_start(uint p, uint d, uint plan)
{
    return plan == PLAN_OWN_BUCKETS ? s_fold_start[d]
           : plan == PLAN_OWN_DIGITS ? fold_digit_start_of(p)
                                     : hist[(RADIX_MAX_PASSES + p) * RADIX_DIGITS + d];
}

// The next ticket, raw (an own plan's: past the chunks, see fold_task).
uint fused_take_ticket(uint state_word, uint plan)
{
    return plan != PLAN_STATE ? atomicAdd(hist[RADIX_HIST_FOLD_TICKET], 1u)
                              : atomicAdd(state[state_word], 1u);
}

// The words of the histogram binding besides the counts that FOLD_HISTOGRAM leaves zero.
void fold_zero_words()
{
    hist[RADIX_HIST_FOLD_TICKET] = 0u;
    hist[RADIX_HIST_FOLD_LEFT] = 0u;
    [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
        hist[RADIX_HIST_FOLD_DONE + p] = 0u;
    hist[RADIX_HIST_TICKET] = 0u;
}

// Polls hist[word], as radix_wait_state (one subgroup, at most max_polls polls), until it equals
// target - or, at_least, until it is at least target; returns whether it got there. Equality for
// the counts: on a scratch that broke the persistent-scratch promise a count past its target
// must not let the sort go on. (at_least for the chunk ticket, which taking chunks moves past
// them.)
bool fold_poll_hist(uint word, uint target, bool at_least, uint max_polls)
{
    bool reached = false;
    for (uint polls = 0u; !reached && polls < max_polls; polls += POLL_BURST) {
        [[unroll]] for (uint k = 0u; k < POLL_BURST; ++k) {
            if (!reached) {
                uint v = subgroupBroadcastFirst(hist_poll[word]);
                reached = at_least ? v >= target : v == target;
            }
        }
    }
    return reached;
}

// fold_poll_hist by subgroup 0, its answer for every invocation. Every invocation calls it.
bool fold_workgroup_poll_hist(uint word, uint target, bool at_least, uint max_polls)
{
    if (gl_SubgroupID == 0u) {
        bool reached = fold_poll_hist(word, target, at_least, max_polls);
        if (subgroupElect())
            s_broadcast = reached ? 1u : 0u;
    }
    barrier();
    bool reached = s_broadcast != 0u;
    barrier(); // s_broadcast read
    return reached;
}

// A spare workgroup (see fold_histogram_and_plan) waits at most this many polls for the tiles'
// workgroups to take every chunk, then takes tickets itself. Where a dispatch's workgroups start
// in index order (the tiles' first) the chunks are taken by the time a spare polls; the bound is
// for a device that starts the spares first, where waiting longer could only delay the chunks'
// counts. (It also keeps lavapipe's loop limiter out of reach, see radix_wait.glsl.)
const uint SPARE_WAIT_POLLS = 1024u;

// The task of an own plan's ticket k (counted past the chunks). Digit by digit on a dispatch
// sized for bucket sorts, the tickets from `tiles` up to the dispatch's size are no task
// (NO_TASK: past every task, so the workgroup that takes one leaves), so that as many
// workgroups as tiles loop over the passes, as the state's plan has them (see main). The
// numbering stays in ticket order, so a task still waits only on smaller tickets. Each such
// ticket ends one workgroup's tasks, so the others - a tile's count of them - never meet one
// and their shares (max_taken) still cover every task.
const uint NO_TASK = 0xffffffffu;
uint fold_task(uint k, bool buckets, uint tiles)
{
    uint groups = gl_NumWorkGroups.x;
    if (buckets || k < tiles)
        return k;
    return k < groups ? NO_TASK : k - (groups - tiles);
}

// FOLD_HISTOGRAM's own digit-by-digit plan: invocation t's global start of digit t at each
// digit position (32-bit keys: four).
const uint FOLD_PASSES = 4u;
uint fold_digit_start[FOLD_PASSES];

uint fold_digit_start_of(uint p)
{
    uint start = 0u;
    [[unroll]] for (uint q = 0u; q < FOLD_PASSES; ++q)
        start = q == p ? fold_digit_start[q] : start; // (no dynamic index into the array)
    return start;
}

// Once every chunk is counted, each workgroup's own plan (the same in every workgroup: the same
// counts): its summary word (radix_plan.glsl's, as radix_plan_sort's), with the top digit's
// starts in s_fold_start for bucket sorts, else every active position's starts in
// fold_digit_start. Every invocation calls it.
uint fold_plan(uint n, uint first_task)
{
    uint t = gl_LocalInvocationID.x;
    uint c[RADIX_MAX_PASSES];
    radix_plan_load_counts(c, false);
    radix_plan_clear_shared();
    barrier();
    radix_plan_mark_constant(c, n);
    barrier();
    uint active_mask, top_count;
    uint top1 = radix_plan_buckets(c, n, active_mask, top_count);
    top1 = BUCKET_SORTS ? top1 : 0u; // (the pipeline without them ignores the flag)
    // (A workgroup of RADIX_PLAN_WORKGROUP = RADIX_DIGITS invocations: one digit each.)
    if (top1 != 0u) { // uniform
        s_fold_start[t] = radix_workgroup_exclusive_scan(top_count);
        barrier();
        return 1u | (active_mask << PLAN_WORD_ACTIVE_SHIFT) | (top1 << PLAN_WORD_BUCKETS_SHIFT);
    }
    // (A workgroup without a task, see fold_task, needs no starts.)
    uint tiles = (n + TILE - 1u) / TILE;
    bool runs = fold_task(first_task, false, tiles) != NO_TASK;
    [[unroll]] for (uint p = 0u; p < FOLD_PASSES; ++p) {
        fold_digit_start[p] = 0u;
        if (runs && (active_mask & (1u << p)) != 0u) { // uniform
            fold_digit_start[p] = radix_workgroup_exclusive_scan(c[p]);
            barrier(); // s_scan_partial read
        }
    }
    // An odd number of active passes leaves the keys in the scratch half: a copy back.
    bool copy = (bitCount(active_mask) & 1u) != 0u;
    return 1u | (active_mask << PLAN_WORD_ACTIVE_SHIFT) | (copy ? PLAN_WORD_COPY_BIT : 0u);
}

// FOLD_HISTOGRAM's first phase (see the top): ends with this workgroup's own plan, returning its
// summary word, or when the wait for the last chunk's count gave up (0: the workgroup runs no
// task). first_task: its first task (the chunk ticket it took past the chunks; see
// fold_task). Every invocation calls it.
uint fold_histogram_and_plan(out uint first_task)
{
    uint t = gl_LocalInvocationID.x;
    uint n = pc.count;
    uint tiles = (n + TILE - 1u) / TILE;
    uint digits = pc.digit_count;
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG)
        s_hist[i] = 0u;
    uint counted = 0u;
    // A spare workgroup - past one per tile: a dispatch sized for bucket sorts - takes no chunk
    // while the tiles' workgroups take them all, and takes its first ticket (its first task)
    // only once the chunks are counted. So its ticket is off the chunk counters' path and the
    // first tasks - the first digit pass, or bucket sorts' phase 0 - go to the workgroups that
    // counted (which of the two gains the time is not separated). (H200, 2026-12-03, spares
    // taking a chunk ticket first, as any workgroup: f32 depth keys 2^14 35.4 -> 41.2 us, 2^16
    // 41.1 -> 45.3, u32 pairs 2^16 25.7 -> 26.8; docs/perf-notes.md.) Should the chunks not all be
    // taken within SPARE_WAIT_POLLS polls (a device that starts the spares first), it takes
    // tickets as every workgroup does: then all chunks are still taken by running workgroups.
    bool spare_waits = gl_WorkGroupID.x >= tiles && // uniform
                       fold_workgroup_poll_hist(RADIX_HIST_FOLD_TICKET, tiles, true, SPARE_WAIT_POLLS);
    if (t == 0u)
        s_broadcast = spare_waits ? tiles : atomicAdd(hist[RADIX_HIST_FOLD_TICKET], 1u);
    barrier(); // s_hist zeroed, s_broadcast written
    uint c = s_broadcast;
    while (c < tiles) { // workgroup-uniform
        barrier(); // s_broadcast read
        // The next chunk's ticket is taken now and read after this chunk's count, so that its
        // round trip is not on the fold's path. (A workgroup counts every chunk it takes
        // without waiting, so the chunks are still all taken by running workgroups.)
        uint next = 0u;
        if (t == 0u)
            next = atomicAdd(hist[RADIX_HIST_FOLD_TICKET], 1u);
        uint begin = c * TILE;
        count_range(begin, min(begin + TILE, n));
        for (uint d = t; d < RADIX_DIGITS; d += WG)
            lookback[c * RADIX_DIGITS + d] = 0u; // region 0, row c
        ++counted;
        if (t == 0u)
            s_broadcast = next;
        barrier();
        c = s_broadcast;
    }
    first_task = c - tiles;
    barrier();
    bool last = false; // this workgroup's chunks completed the count
    if (counted != 0u) {
        for (uint i = t; i < digits * RADIX_DIGITS; i += WG) {
            uint v = s_hist[i];
            if (v != 0u)
                atomicAdd(hist[i], v);
        }
        // Counts and cleared rows before the count of chunks.
        memoryBarrierBuffer();
        barrier();
        if (t == 0u)
            s_broadcast = atomicAdd(hist[RADIX_HIST_TICKET], counted) + counted;
        barrier();
        last = s_broadcast == tiles;
        barrier(); // s_broadcast read
    }
    if (!last && !fold_workgroup_poll_hist(RADIX_HIST_TICKET, tiles, false, FUSED_SPIN_LIMIT))
        return 0u;
    memoryBarrierBuffer(); // the counts after their count
    if (spare_waits) {
        if (t == 0u)
            s_broadcast = atomicAdd(hist[RADIX_HIST_FOLD_TICKET], 1u);
        barrier();
        first_task = s_broadcast - tiles; // (every chunk is taken: a ticket past them)
        barrier(); // s_broadcast read
    }
    uint word = fold_plan(n, first_task);
    // (Read back by the tests: the path the plan chose. And the stall emulation's count, which
    // every radix sort resets: vksort_vk_debug_stall_counter_offset.)
    if (last && t == 0u) {
        state[RADIX_S_BUCKETS] = (word >> PLAN_WORD_BUCKETS_SHIFT) & 15u;
        state[RADIX_S_STALL_TIMEOUTS] = 0u;
    }
    return word;
}

// FOLD_HISTOGRAM: the last workgroup to leave zeroes the counts (every workgroup read them),
// the chunk ticket and count, the done counts and this count (radix_interface.h) for the next
// sort. Every invocation calls it.
void fold_leave()
{
    uint t = gl_LocalInvocationID.x;
    barrier();
    // This workgroup's atomics (its done counts, tickets) before its leave count, and the last
    // one's zeroing after every leave count it saw: else a done count could land after the
    // zero and stall the next sort's waits.
    if (t == 0u) {
        memoryBarrierBuffer();
        s_broadcast = atomicAdd(hist[RADIX_HIST_FOLD_LEFT], 1u);
    }
    barrier();
    if (s_broadcast >= gl_NumWorkGroups.x - 1u) { // uniform
        memoryBarrierBuffer();
        // Unrolled, no loop: on lavapipe a workgroup whose wait gave up has spent its loop
        // iterations (gallivm's limiter, docs/vulkan.md), and a loop here would end at once,
        // leaving counts behind. (The fold's workgroups have a digit each: RADIX_DIGITS.)
        [[unroll]] for (uint p = 0u; p < FOLD_PASSES; ++p)
            hist[p * RADIX_DIGITS + t] = 0u;
        if (t == 0u)
            fold_zero_words();
    }
}

// Bucket sorts (RADIX_S_BUCKETS, chosen by the plan where the sort allows it,
// RADIX_FLAG_BUCKETS): phase 0 is one Onesweep pass over the most significant active digit,
// from the caller's buffers into the scratch half: it leaves each value of that digit (a bucket)
// in one run, which the plan's scan locates, and every bucket fits one tile. Phase 1 is a task
// per bucket: a workgroup loads the bucket into its registers and sorts it there - merge-sorted
// by its lower active digits (bucket_merge_sort) where it has at most BUCKET_MERGE_ITEMS
// elements an invocation, else by each lower active digit in turn (ranked as a tile, moved
// through shared memory) - then writes it to the caller's buffers. So a small sort crosses the
// device's memory once instead of once per digit. Both phases are stable (Onesweep's pass, and
// the merge or the tile's ranking in bucket order), so the whole is. Buckets sorted digit by
// digit are loaded in the tile's order (radix_load_tile), sentinels past the bucket.
#if HAS_VALUE
uint r_val[ITEMS];
#endif
// Keys and payloads staged together where shared memory holds both.
const bool BUCKET_STAGE_TOGETHER = SMEM_WORDS >= (KEY_WORDS + (HAS_VALUE != 0 ? 1u : 0u)) * TILE;
#define BUCKET_VALUE_WORD (BUCKET_STAGE_TOGETHER ? KEY_WORDS * TILE : 0u)

// The bucket position of item j of this invocation.
uint bucket_slot(uint j) { return radix_subgroup_base() + j * gl_SubgroupSize + gl_SubgroupInvocationID; }

void bucket_stage_keys()
{
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint q = r_pos[j];
#if KEY64
        s_mem[q] = r_key[j].x;
        s_mem[TILE + q] = r_key[j].y;
#else
        s_mem[q] = r_key[j];
#endif
#if HAS_VALUE
        if (BUCKET_STAGE_TOGETHER)
            s_mem[BUCKET_VALUE_WORD + q] = r_val[j];
#endif
    }
}

#if HAS_VALUE
void bucket_stage_values()
{
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
        s_mem[BUCKET_VALUE_WORD + r_pos[j]] = r_val[j];
}
#endif

// Moves the ranked elements (r_pos) to their places in the registers. Ends with a barrier.
void bucket_exchange()
{
    bucket_stage_keys();
    barrier();
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint i = bucket_slot(j);
#if KEY64
        r_key[j] = uvec2(s_mem[i], s_mem[TILE + i]);
#else
        r_key[j] = s_mem[i];
#endif
#if HAS_VALUE
        if (BUCKET_STAGE_TOGETHER)
            r_val[j] = s_mem[BUCKET_VALUE_WORD + i];
#endif
    }
    barrier();
#if HAS_VALUE
    if (!BUCKET_STAGE_TOGETHER) {
        bucket_stage_values();
        barrier();
        [[unroll]] for (uint j = 0u; j < ITEMS; ++j)
            r_val[j] = s_mem[bucket_slot(j)];
        barrier();
    }
#endif
}

// Writes the ranked elements to [start, start + count) of the caller's buffers, consecutive
// invocations to consecutive places.
void bucket_write(uint start, uint count)
{
    uint t = gl_LocalInvocationID.x;
    bucket_stage_keys();
    barrier();
    [[unroll]] for (uint m = 0u; m < ITEMS; ++m) {
        uint i = m * WG + t;
        if (i < count) {
#if KEY64
            keys_a[start + i] = uvec2(s_mem[i], s_mem[TILE + i]);
#else
            keys_a[start + i] = s_mem[i];
#endif
#if HAS_VALUE
            if (BUCKET_STAGE_TOGETHER)
                values_a[start + i] = s_mem[BUCKET_VALUE_WORD + i];
#endif
        }
    }
#if HAS_VALUE
    if (!BUCKET_STAGE_TOGETHER) {
        barrier();
        bucket_stage_values();
        barrier();
        [[unroll]] for (uint m = 0u; m < ITEMS; ++m) {
            uint i = m * WG + t;
            if (i < count)
                values_a[start + i] = s_mem[i];
        }
    }
#endif
}

// Buckets of at most BUCKET_MERGE_ITEMS elements an invocation are merge-sorted by a rank key
// made of their lower active digits instead of sorted digit by digit, where each of the tile's
// local digit rankings costs a dozen barriers (~3.8 us a digit at 2^16 u32 pairs on the H200,
// docs/perf-notes.md). The bucket's element e (in bucket order) is item e / WG of lane e % sg
// of subgroup (e % WG) / sg (sg: the subgroup size), its rank key in shared memory. Each
// subgroup first ranks its run of sg elements by comparing with all of them (a subgroup
// barrier), then runs of twice the length are merged, one workgroup barrier a level: an element's
// place in the merged run is its place in its own run plus the count of the other run's keys
// before it, found by a binary search there - keys smaller than its own, or equal ones too where
// the other run is earlier in the bucket, so that the merge is stable. Levels alternate between
// two halves of shared memory, so a bucket fits where two copies of its rank keys do. The last
// level's places are the sorted order, scattered straight to the caller's buffers. Measured
// against the digit rankings and the earlier rank by comparison with the whole bucket (H200,
// 2026-12-03, with the plan's flag word): u32 pairs 2^16 35.6 -> 30.7 us, u64 keys 2^16 62.5 ->
// 46.2.
// At most 2 elements an invocation of 32-bit keys: 4 (buckets of ~1024, u32 pairs 2^18) cost
// more than the digit rankings (H200, 2026-12-03: 46.1 -> 53.8 us; docs/perf-notes.md). 64-bit
// keys, with seven rankings to replace, merge up to 3 (u64 keys 2^17 62.8 -> 55.7 us; 4 items
// cost 2^18 64.4 -> 69.3).
#if KEY64
#define BUCKET_MERGE_MAX_ITEMS 3u
#else
#define BUCKET_MERGE_MAX_ITEMS 2u
#endif
// The rank key: the active digits below the bucket's, most significant first - at most three
// of 32-bit keys in a word, at most seven of 64-bit keys in two (high word first).
#if KEY64
#define RANK_T uvec2
#define RANK_WORDS 2u
const uint BUCKET_RANK_DIGITS = 7u;
RANK_T rank_pad() { return uvec2(0xff000000u, 0u); } // above every rank key; + 1 does not wrap
bool rank_below(RANK_T a, RANK_T b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
RANK_T rank_plus(RANK_T a, uint b)
{
    uint low = a.y + b;
    return uvec2(a.x + (low < b ? 1u : 0u), low);
}
RANK_T rank_push(RANK_T rk, uint digit)
{
    return uvec2((rk.x << RADIX_BITS) | (rk.y >> (32u - RADIX_BITS)), (rk.y << RADIX_BITS) | digit);
}
RANK_T rank_load(uint i) { return uvec2(s_mem[2u * i], s_mem[2u * i + 1u]); }
void rank_store(uint i, RANK_T rk)
{
    s_mem[2u * i] = rk.x;
    s_mem[2u * i + 1u] = rk.y;
}
#else
#define RANK_T uint
#define RANK_WORDS 1u
const uint BUCKET_RANK_DIGITS = 3u;
RANK_T rank_pad() { return 0xff000000u; } // above every rank key; + 1 does not wrap
bool rank_below(RANK_T a, RANK_T b) { return a < b; }
RANK_T rank_plus(RANK_T a, uint b) { return a + b; }
RANK_T rank_push(RANK_T rk, uint digit) { return (rk << RADIX_BITS) | digit; }
RANK_T rank_load(uint i) { return s_mem[i]; }
void rank_store(uint i, RANK_T rk) { s_mem[i] = rk; }
#endif
// Items an invocation merges: also within the tile's, and two copies of the rank keys within
// shared memory.
const uint BUCKET_MERGE_TILE_ITEMS = BUCKET_MERGE_MAX_ITEMS < ITEMS ? BUCKET_MERGE_MAX_ITEMS : ITEMS;
const uint BUCKET_MERGE_SMEM_ITEMS = SMEM_WORDS / (2u * RANK_WORDS * WG);
const uint BUCKET_MERGE_ITEMS = BUCKET_MERGE_TILE_ITEMS < BUCKET_MERGE_SMEM_ITEMS
                                    ? BUCKET_MERGE_TILE_ITEMS : BUCKET_MERGE_SMEM_ITEMS;

// The rank key of k: the digits in lower_digits (bit q: digit q, all below top), most
// significant first.
RANK_T bucket_rank_key(KEY_T k, uint top, uint lower_digits)
{
    RANK_T rk = RANK_T(0u);
    for (uint q = top; q-- > 0u;) {
        if ((lower_digits & (1u << q)) != 0u)
            rk = rank_push(rk, radix_digit(k, radix_pass_shift(q)));
    }
    return rk;
}

// Of the sorted rank keys at [at, at + len), the count below `bound` (a binary search;
// `span`: a power of two >= len).
uint bucket_count_below(uint at, uint len, uint span, RANK_T bound)
{
    uint c = 0u;
    for (uint step = span; step > 0u; step >>= 1u) {
        if (c + step <= len && rank_below(rank_load(at + c + step - 1u), bound))
            c += step;
    }
    return c;
}

// At a merge level of runs of len = 1 << len_log2 (of `total` elements), the run that the run
// holding `pos` merges with: its start (returned) and length (0 past the end), and whether it
// is the earlier of the two (so that its equal keys count as before).
uint bucket_partner_run(uint pos, uint len_log2, uint total, out uint partner_len, out bool partner_earlier)
{
    uint len = 1u << len_log2;
    uint r = pos >> len_log2;
    uint partner = (r ^ 1u) * len;
    partner_len = partner < total ? min(len, total - partner) : 0u;
    partner_earlier = (r & 1u) != 0u;
    return partner;
}

// The place of the element at `pos` in its merged run of 2 * len: its place in its own run plus
// the count of the partner run's keys before it.
uint bucket_merged_place(uint pos, uint len, uint below)
{
    return (pos & ~(2u * len - 1u)) + (pos & (len - 1u)) + below;
}

// Sorts the bucket [start, start + count) of the scratch half into the caller's buffers
// (count <= BUCKET_MERGE_ITEMS * WG; lower_digits: the active digits below top, at most
// BUCKET_RANK_DIGITS). Every invocation calls it.
void bucket_merge_sort(uint top, uint lower_digits, uint start, uint count)
{
    uint sg = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint items = (count + WG - 1u) / WG;
    uint total = items * WG; // elements with the padding, a multiple of sg
    uint run_offset = gl_SubgroupID * sg; // the subgroup's run within each row of WG elements
    RANK_T rk[BUCKET_MERGE_MAX_ITEMS];
    // Level 0 reads the rank keys from the second half and writes its runs to the first; the
    // merge levels then alternate.
    [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
        if (j < items) {
            uint e = j * WG + run_offset + lane;
            uint at = start + min(e, count - 1u);
            r_key[j] = keys_b[at];
#if HAS_VALUE
            r_val[j] = values_b[at];
#endif
            rk[j] = e < count ? bucket_rank_key(r_key[j], top, lower_digits) : rank_pad();
            rank_store(total + e, rk[j]);
        }
    }
    radix_subgroup_shared_barrier();
    // Level 0: the place in the subgroup's run, by comparison (stable: equal keys of lower
    // lanes first).
    [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
        if (j < items) {
            uint run = j * WG + run_offset;
            uint before = 0u;
            for (uint i = 0u; i < sg; i += 4u) {
                [[unroll]] for (uint c = 0u; c < 4u; ++c) {
                    RANK_T o = rank_load(total + run + i + c);
                    before += rank_below(o, rank_plus(rk[j], i + c < lane ? 1u : 0u)) ? 1u : 0u;
                }
            }
            r_pos[j] = run + before;
            rank_store(r_pos[j], rk[j]);
        }
    }
    uint from = 0u;
    // len is a power of two (sg is): the run index by a shift, not the division NVIDIA's
    // compiler emits for a runtime divisor (~20 instructions an item and level in its SASS).
    uint len_log2 = findLSB(sg);
    for (uint len = sg; len < total; len *= 2u, ++len_log2) { // workgroup-uniform
        barrier(); // the level's rank keys written
        uint to = total - from;
        // The earlier run's equal keys come first: a key counts the partner's equal keys where
        // the partner is the earlier run (bound = its rank key + 1).
        if (items == 1u) { // workgroup-uniform
            uint other_len;
            bool earlier;
            uint other = bucket_partner_run(r_pos[0], len_log2, total, other_len, earlier);
            RANK_T bound = rank_plus(rk[0], earlier ? 1u : 0u);
            uint below = bucket_count_below(from + other, other_len, len, bound);
            r_pos[0] = bucket_merged_place(r_pos[0], len, below);
            rank_store(to + r_pos[0], rk[0]);
        } else {
            // Several items: their binary searches step together, one shared-memory round trip
            // a step for all of them instead of a chain per item (with the shift above, H200
            // 2026-12-03: u32 pairs 2^16 30.2 -> 29.1 us, u64 keys 2^17 55.8 -> 53.2; a single
            // item keeps its own chain, which the interleaved form had cost 2^14-2^15 +0.5 us).
            uint other_at[BUCKET_MERGE_MAX_ITEMS], other_len[BUCKET_MERGE_MAX_ITEMS];
            uint below[BUCKET_MERGE_MAX_ITEMS];
            RANK_T bound[BUCKET_MERGE_MAX_ITEMS];
            [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
                bool earlier;
                other_at[j] = from + bucket_partner_run(r_pos[j], len_log2, total, other_len[j], earlier) - 1u;
                other_len[j] = j < items ? other_len[j] : 0u;
                bound[j] = rank_plus(rk[j], earlier ? 1u : 0u);
                below[j] = 0u;
            }
            for (uint step = len; step > 0u; step >>= 1u) {
                [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
                    uint probe = below[j] + step;
                    if (probe <= other_len[j] && rank_below(rank_load(other_at[j] + probe), bound[j]))
                        below[j] = probe;
                }
            }
            [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
                if (j < items) {
                    r_pos[j] = bucket_merged_place(r_pos[j], len, below[j]);
                    rank_store(to + r_pos[j], rk[j]);
                }
            }
        }
        from = to;
    }
    [[unroll]] for (uint j = 0u; j < BUCKET_MERGE_MAX_ITEMS; ++j) {
        if (j < items && j * WG + run_offset + lane < count) {
            keys_a[start + r_pos[j]] = r_key[j];
#if HAS_VALUE
            values_a[start + r_pos[j]] = r_val[j];
#endif
        }
    }
}

// Phase 1 task: sorts bucket b (keys whose digit `top` is b, a run of the scratch half) by
// the active digits below `top` (active_digits: bit q for an active digit q) into the caller's
// buffers. Every invocation calls it; phase 0 is written.
void bucket_sort(uint top, uint b, uint n, uint active_digits)
{
    uint plan = FOLD_HISTOGRAM ? PLAN_OWN_BUCKETS : PLAN_STATE;
    uint start = fused_digit_start(top, b, plan);
    uint count = (b + 1u < RADIX_DIGITS ? fused_digit_start(top, b + 1u, plan) : n) - start;
    if (count == 0u)
        return;
    uint lower_digits = active_digits & ((1u << top) - 1u);
    if (count <= BUCKET_MERGE_ITEMS * WG && bitCount(lower_digits) <= BUCKET_RANK_DIGITS) {
        bucket_merge_sort(top, lower_digits, start, count);
        return;
    }
    [[unroll]] for (uint j = 0u; j < ITEMS; ++j) {
        uint e = bucket_slot(j);
        uint at = start + min(e, count - 1u);
        KEY_T k = keys_b[at];
        r_key[j] = e < count ? k : radix_sentinel_key();
#if HAS_VALUE
        r_val[j] = values_b[at];
#endif
    }
    uint last = uint(findMSB(lower_digits)); // (one exists: the plan's rule)
    for (uint q = 0u; q <= last; ++q) {
        if ((lower_digits & (1u << q)) == 0u)
            continue;
        uint shift = radix_pass_shift(q);
        radix_count_tile(0u, start, count, shift, false, true);
        radix_rank_counted(shift, RANK_ATOMIC_OR);
        if (q == last)
            bucket_write(start, count);
        else
            bucket_exchange();
    }
}

// Copies tile `part` from the scratch half back to the caller's buffers.
void copy_back_tile(uint part, uint n)
{
    uint t = gl_LocalInvocationID.x;
    [[unroll]] for (uint m = 0u; m < ITEMS; ++m) {
        uint i = part * TILE + m * WG + t;
        if (i < n) {
            keys_a[i] = keys_b[i];
#if HAS_VALUE
            values_a[i] = values_b[i];
#endif
        }
    }
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint passes = pc.digit_count;
    uint n, tiles, planned_buckets, active_digits;
    bool copy_back;
    uint first_task = 0u;
    if (FOLD_HISTOGRAM) {
        uint word = fold_histogram_and_plan(first_task);
        if (word == 0u) {
            fold_leave();
            return;
        }
        // The plan's results from its summary word, the sizes from the host count.
        n = pc.count;
        tiles = (n + TILE - 1u) / TILE;
        planned_buckets = (word >> PLAN_WORD_BUCKETS_SHIFT) & 15u;
        copy_back = (word & PLAN_WORD_COPY_BIT) != 0u;
        active_digits = (word >> PLAN_WORD_ACTIVE_SHIFT) & ((1u << passes) - 1u);
    } else {
        n = state[RADIX_S_COUNT];
        tiles = state[RADIX_S_TILES];
        planned_buckets = state[RADIX_S_BUCKETS];
        copy_back = state[RADIX_S_DISPATCH + 4u * RADIX_E_COPY] != 0u;
        // Read once (a round trip each where a task read its own).
        active_digits = 0u;
        [[unroll]] for (uint p = 0u; p < RADIX_MAX_PASSES; ++p)
            active_digits |= p < passes && state[RADIX_S_ACTIVE + p] != 0u ? 1u << p : 0u;
    }
    // Bucket sorts: 1 + the top digit (phase 0: its pass, phase 1: a task per bucket), or 0.
    uint top1 = BUCKET_SORTS && (pc.flags & RADIX_FLAG_BUCKETS) != 0u ? planned_buckets : 0u;
    bool buckets = top1 != 0u;
    // Phases: digit passes (then the copy), or the bucket sorts' two; the tasks of the counted
    // phases are counted in RADIX_S_DONE + phase when finished (FOLD_HISTOGRAM:
    // RADIX_HIST_FOLD_DONE + phase).
    uint counted = buckets ? 1u : passes;
    uint tasks = buckets ? tiles + RADIX_DIGITS : tiles * (passes + (copy_back ? 1u : 0u));
    // Digit by digit, the workgroups that a dispatch sized for bucket sorts has past one per
    // tile leave now, holding no ticket (each one that took tasks slowed the waits: H200, 2^18
    // f32 depth keys, 0.057 -> 0.064 ms). (FOLD_HISTOGRAM's workgroups hold their first ticket
    // already: fold_task leaves as many without a task.)
    if (!FOLD_HISTOGRAM && !buckets && radix_group_index() >= tiles)
        return;
    // A workgroup takes at most twice its share of the tasks, then leaves the rest to the
    // others (the dispatch has a workgroup per tile, so the shares cover every task). Without a
    // bound, a driver that runs workgroups one after another gives every task to the first
    // one, and lavapipe cuts every loop of an invocation short once all its loops together
    // have run 65535 iterations (gallivm's loop limiter, docs/vulkan.md): from about 120 tiles
    // of four passes on, the first workgroup's look-backs stopped early and wrote wrong
    // positions. Leaving after its share keeps a workgroup at a few thousand iterations.
    uint groups = buckets ? gl_NumWorkGroups.x : min(gl_NumWorkGroups.x, tiles);
    uint max_taken = 2u * ((tasks + groups - 1u) / groups);
    // A workgroup takes its next ticket during a partition (radix_onesweep_partition's
    // fetch_next), so that it knows at the partition's end whether its next task is of the same
    // pass. Finished partitions are counted (after one fence for all of their writes) only when
    // the next task is of another pass (or there is none): a workgroup that runs several
    // partitions of a pass fences and counts once (the counts it holds back meanwhile block
    // only the next pass, see above). A taken ticket is always run (others wait for its
    // count), so none is taken past max_taken.
    // FOLD_HISTOGRAM's workgroups run by their own plan, and hold their first ticket already.
    const bool own_plan = FOLD_HISTOGRAM;
    if (t == 0u)
        s_broadcast = own_plan ? fold_task(first_task, buckets, tiles)
                               : fused_take_ticket(RADIX_S_FUSED_TICKET, PLAN_STATE);
    barrier();
    uint k = s_broadcast;
    barrier(); // s_broadcast is written again below
    uint pending = 0u;
    uint waited = 0u; // a phase whose predecessor this workgroup saw finished
    for (uint taken = 1u; k < tasks; ++taken) {
        bool fetch = taken < max_taken;
        uint p = buckets ? min(k / tiles, 1u) : k / tiles;
        uint part = k - p * tiles;
        if (p > 0u && pending == 0u && p != waited) {
            // Subgroup 0 waits, then the workgroup goes on (a workgroup with partitions of
            // this pass pending has waited already).
            if (gl_SubgroupID == 0u) {
                if (own_plan)
                    fold_poll_hist(RADIX_HIST_FOLD_DONE + p - 1u, tiles, false, FUSED_SPIN_LIMIT);
                else
                    radix_wait_state(RADIX_S_DONE + p - 1u, tiles, FUSED_SPIN_LIMIT);
            }
            // Then every invocation orders its reads after what subgroup 0 saw.
            barrier();
            memoryBarrierBuffer();
            waited = p;
        }
        uint next = tasks; // invocation 0's
        if (buckets) {
            if (p == 0u) {
                next = radix_onesweep_partition(top1 - 1u, 0u, 0u, part, n, tiles, false, fetch,
                                                RADIX_S_FUSED_TICKET, own_plan ? PLAN_OWN_BUCKETS : PLAN_STATE,
                                                false);
            } else {
                if (t == 0u && fetch)
                    next = fused_take_ticket(RADIX_S_FUSED_TICKET, own_plan ? PLAN_OWN_BUCKETS : PLAN_STATE);
                bucket_sort(top1 - 1u, part, n, active_digits);
            }
        } else if (p < passes && (active_digits & (1u << p)) != 0u) {
            // The plan's parity (RADIX_S_PARITY): the active digits before p, mod 2.
            uint parity = bitCount(active_digits & ((1u << p) - 1u)) & 1u;
            next = radix_onesweep_partition(p, parity, parity, part, n, tiles, false, fetch,
                                            RADIX_S_FUSED_TICKET, own_plan ? PLAN_OWN_DIGITS : PLAN_STATE,
                                            false);
        } else {
            if (t == 0u && fetch)
                next = fused_take_ticket(RADIX_S_FUSED_TICKET, own_plan ? PLAN_OWN_DIGITS : PLAN_STATE);
            if (p == passes)
                copy_back_tile(part, n);
        }
        if (p < counted)
            ++pending;
        if (t == 0u)
            s_broadcast = !fetch ? tasks : own_plan ? fold_task(next - tiles, buckets, tiles) : next;
        barrier();
        next = s_broadcast;
        barrier(); // s_broadcast is written again next round
        uint next_p = next >= tasks ? passes + 1u : buckets ? min(next / tiles, 1u) : next / tiles;
        if (pending != 0u && next_p != p) {
            memoryBarrierBuffer(); // the partitions' writes before their count
            barrier();
            if (t == 0u) {
                if (own_plan)
                    atomicAdd(hist[RADIX_HIST_FOLD_DONE + p], pending);
                else
                    atomicAdd(state[RADIX_S_DONE + p], pending);
            }
            pending = 0u;
        }
        k = next;
    }
    if (FOLD_HISTOGRAM)
        fold_leave();
}
