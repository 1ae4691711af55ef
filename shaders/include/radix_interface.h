/*
 * Constants shared by the radix shaders (GLSL) and the host (src/vk/radix.c): bindings, scratch
 * state layout, push-constant flags. Only #defines, so both preprocessors read it.
 */
#ifndef VKSORT_RADIX_INTERFACE_H
#define VKSORT_RADIX_INTERFACE_H

/* Push-descriptor bindings (set 0) of the radix passes. */
#define RADIX_BINDING_KEYS_A 0     /* the caller's keys */
#define RADIX_BINDING_VALUES_A 1   /* the caller's payload */
#define RADIX_BINDING_STATE 2      /* scratch: count, plan, tickets, indirect dispatch table */
#define RADIX_BINDING_KEYS_B 3     /* scratch: the other half of the ping-pong */
#define RADIX_BINDING_VALUES_B 4
#define RADIX_BINDING_HIST 5       /* scratch: per-digit histograms, then their exclusive scans */
#define RADIX_BINDING_LOOKBACK 6   /* scratch: Onesweep look-back words / portable block counts */
#define RADIX_BINDING_COUNT 7      /* the caller's indirect count */
#define RADIX_BINDING_TOTAL 8

#define RADIX_BITS 8u
#define RADIX_DIGITS 256u
#define RADIX_MAX_PASSES 8u

/* Push-constant flags. */
#define RADIX_FLAG_INDIRECT 1u     /* count from the count binding, clamped to max_count */
#define RADIX_FLAG_DESCENDING 2u
#define RADIX_FLAG_STALL_FIRST 4u  /* test mode: emulate a GPU without forward progress */
#define RADIX_FLAG_CLEAR_LOOKBACK 8u /* histogram pass: clear Onesweep look-back region 0 */
#define RADIX_FLAG_PORTABLE 16u    /* plan (in the histogram pass): scatter passes are portable downsweeps */
#define RADIX_FLAG_KEYS_VEC4 32u   /* histogram, upsweep: the keys binding (A) starts 16-byte aligned */
/* No prepare pass (a host count on a persistent scratch, VKSORT_VK_CREATE_PERSISTENT_SCRATCH):
 * the histogram pass takes the count from pc.count (its workgroups from the host's dispatch),
 * and its plan writes the sizes and resets the control words that the prepare pass otherwise
 * writes. */
#define RADIX_FLAG_HOST_SIZED 64u
/* Portable sorts: the histogram pass's workgroups walk whole blocks and write each block's
 * counts of every digit position into the block-count table (RADIX_BLOCK_TABLE) and add them to
 * the block's scan group's totals (RADIX_HIST_TABLE_GROUP_TOTALS), so that the first scatter
 * slot needs no upsweep: each of its downsweep blocks adds the totals of the groups before its
 * own and the table rows of its group's earlier blocks to the digit's start. */
#define RADIX_FLAG_BLOCK_COUNTS 128u
/* The sort runs the small tiles' fused pass (radix_onesweep_fused.comp), which can sort in
 * buckets: the plan may choose one Onesweep pass over the most significant active digit and a
 * local sort of each of its buckets (RADIX_S_BUCKETS) where every bucket fits one tile. */
#define RADIX_FLAG_BUCKETS 256u
/* Onesweep digit passes rank skewed digit positions skew-proof: the plan flags each digit
 * position whose largest digit value holds more than half of the keys (RADIX_S_SKEW), and that
 * position's pass ranks its full tiles with peer masks (subgroupPartitionNV where the module has
 * it, else ballots) and counts them after ranking, instead of the shared atomicOr and per-key
 * count atomics, which serialise when most lanes of a subgroup share a digit
 * (radix_onesweep_tile.glsl). */
#define RADIX_FLAG_SKEW 512u

/* The hybrid sort (radix.c's plan_sort, 32-bit keys over their whole 32 bits, host counts in the
 * sorter's radix_hybrid range): the histogram and plan as for four digits, then the digit passes
 * of the top two digits only (slots 0 and 1: the keys sorted by their top 16 bits, stable, back in
 * A), then the local stage: the chunk bounds pass (radix_chunk_bounds.comp) and the chunk sort
 * (radix_chunk_sort.comp), which sorts each chunk of k consecutive buckets (a bucket: the keys of
 * one value of the top 16 bits; k = 2^RADIX_HYBRID_LOG_K(pc.aux)) by the low 16 bits in one
 * workgroup, in place. The plan chooses it per sort (RADIX_S_HYBRID) where the top two digits are
 * not constant, the low two not both constant, and its estimate of the largest chunk - the two top
 * digits' largest counts as if independent - fits the limit; else the sort goes digit by digit in
 * the same recorded slots. A chunk with long groups of duplicates (RADIX_HYBRID_RANK_WORK) is
 * sorted by a stable radix sort in the workgroup instead. A chunk larger than the chunk sort's
 * tile (a joint skew of the top bits that the estimate missed, or duplicates) is sorted in parts
 * of fewer buckets (up to 64 parts); where no split fits (one top-16 value over the tile, or
 * up to 2^20 keys a crowded run of a part's several values) the chunk sort opens
 * fallback slots 2..5, digits 0..3 over the whole array sorted by its top 16 bits: still right
 * and stable. */
#define RADIX_FLAG_HYBRID 1024u
#define RADIX_HYBRID_BUCKETS 65536u   /* values of the top 16 bits */
#define RADIX_HYBRID_BINS 2048u       /* the chunk sort's counters: chunk-relative bucket, then low bits */
#define RADIX_HYBRID_MAX_LOG_K 11u    /* at most RADIX_HYBRID_BINS buckets a chunk */
#define RADIX_HYBRID_WORKGROUP 512u   /* invocations of the chunk sort */
#define RADIX_CHUNK_BOUNDS_WORKGROUP 256u
#define RADIX_HYBRID_FALLBACK_SLOT 2u /* the first of the fallback's four digit slots */
/* log2 of the most parts the chunk sort splits a chunk over its tile into (their bounds: one
 * shared word each, and the end) */
#define RADIX_HYBRID_SPLIT_MAX_LOG 6u
/* The chunk sort's rank walk costs each element its digit group's length: a chunk whose elements'
 * group lengths sum past this many times its size (duplicate keys: groups of equal keys) is
 * sorted by the workgroup's stable radix sort instead, rather than walk quadratically (uniform
 * keys sum to 2-3 times the size; c copies of each key to about c + 1). Where each wins, H100, u32
 * pairs 2^24 (docs/perf-notes.md, sixty-first session): the walk up to about 25 copies against
 * the stable sort ranked with ballots, up to about 14 against it ranked with subgroupPartitionNV
 * (the _nvp modules). */
#define RADIX_HYBRID_RANK_WORK 24u
#define RADIX_HYBRID_RANK_WORK_PARTITIONED 16u
/* pc.aux of the histogram pass (its plan) and of the chunk passes in a hybrid sort: log2 of the
 * buckets a chunk (k) and the plan's limit on its estimate of the largest chunk. */
#define RADIX_HYBRID_AUX(log_k, limit) ((log_k) | ((limit) << 8))
#define RADIX_HYBRID_LOG_K(aux) ((aux) & 31u)
#define RADIX_HYBRID_LIMIT(aux) ((aux) >> 8)

/* State words. */
#define RADIX_S_COUNT 0u           /* clamped count */
#define RADIX_S_TILES 1u           /* tiles of the scatter passes */
#define RADIX_S_BLOCKS 2u          /* portable: blocks (workgroups) of a pass */
/* Onesweep digit passes with the look-back fallback (radix_onesweep_tile.glsl): how often a
 * workgroup counted a predecessor's tile itself. (Word 3 was free: a portable block's tiles
 * follow from RADIX_S_TILES and RADIX_S_BLOCKS, radix_block_tiles.) */
#define RADIX_S_FALLBACKS 3u
/* With RADIX_FLAG_SKEW: bit p set where digit position p is skewed and its Onesweep pass ranks
 * skew-proof (one word, written by the plan only with the flag: a store per slot in the plan's
 * serial tail was the suspect of a histogram pass 1.5-2 us slower on the H100). Words 4 and 7
 * were free (the histogram ticket is RADIX_HIST_TICKET; the histogram pass derives its chunk
 * from the count and its workgroups): in them the state keeps its 120 words, so the look-back
 * and the scratch halves keep the offsets they had before the skew choice (the first build of it
 * put these words past the others, which moved those ranges by 16-48 bytes: a variable in its
 * timings that nobody chose). */
#define RADIX_S_SKEW 4u
#define RADIX_S_STALL_TIMEOUTS 5u  /* stall emulation: how often a stalled workgroup gave up */
/* The plan's choice for a fused pass with RADIX_FLAG_BUCKETS: 0 to sort digit by digit, else
 * 1 + the most significant active digit, whose pass partitions the keys into buckets that each
 * fit one tile; a workgroup then sorts each bucket by the lower active digits on its own. */
#define RADIX_S_BUCKETS 6u
/* The tiles the Onesweep digit passes ranked skew-proof (reset with the pass words; a test and
 * benchmark read-back, vksort_vk_debug_skew_tile_counter_offset). */
#define RADIX_S_SKEW_TILES 7u
#define RADIX_S_TICKET 8u          /* + pass: Onesweep partition tickets */
#define RADIX_S_FUSED_TICKET RADIX_S_TICKET /* fused Onesweep: the one task ticket */
#define RADIX_S_PARITY 16u         /* + pass: 0 reads A writes B; 1 reads B writes A (fused pass) */
#define RADIX_S_ACTIVE 24u         /* + pass: 1 when the pass runs */
#define RADIX_S_DISPATCH 32u       /* indirect table: 4 words an entry (x, y, z, unused) */
#define RADIX_E_HISTOGRAM 0u       /* entry: histogram pass */
#define RADIX_E_PASS 1u            /* entries 1..8: scatter pass of slot k (or downsweep) */
#define RADIX_E_UPSWEEP 9u         /* entries 9..16: portable upsweep of slot k */
#define RADIX_E_COPY 17u           /* entry: copy B back to A after an odd number of passes */
#define RADIX_E_COUNT 18u
/* The hybrid sort's two passes take the entries of the portable upsweeps of slots 0 and 1, which
 * Onesweep never records (so the state keeps its size), and the fourth word of the chunk sort's
 * entry says what the sort did: RADIX_HYBRID_* below (0 from the plan when it went digit by
 * digit). */
#define RADIX_E_CHUNK_BOUNDS RADIX_E_UPSWEEP
#define RADIX_E_CHUNK_SORT (RADIX_E_UPSWEEP + 1u)
#define RADIX_S_HYBRID (RADIX_S_DISPATCH + 4u * RADIX_E_CHUNK_SORT + 3u)
#define RADIX_HYBRID_DIGITS 0u   /* digit by digit */
#define RADIX_HYBRID_LOCAL 1u    /* top 16 bits by digit passes, the rest by the chunk sort */
#define RADIX_HYBRID_LOCAL_STABLE 2u /* the same, some chunks by the stable radix sort (duplicates) */
#define RADIX_HYBRID_FALLBACK 3u /* a chunk did not fit: the fallback slots sorted every digit */
/* + pass: workgroups of the pass that finished (stall emulation only) */
#define RADIX_S_DONE (RADIX_S_DISPATCH + 4u * RADIX_E_COUNT)
/* + slot: the digit (pass) that the slot-th active scatter pass sorts. The scatter passes are
 * recorded as slots 0, 1, ...: slot k reads A and writes B for even k, B to A for odd k (the
 * host swaps the bindings), and the plan gives the slots past the active passes no
 * workgroups. */
#define RADIX_S_SLOT_DIGIT (RADIX_S_DONE + RADIX_MAX_PASSES)
/* RADIX_S_SLOT_DIGIT of slot k past the active passes: not a digit but the offset from
 * RADIX_S_TICKET of the slot's dead ticket, the unused fourth word of its dispatch entry, which
 * the plan sets to RADIX_DEAD_TICKET (above any tile count). Host counts record the digit passes
 * direct (radix.c), so such a slot's workgroups do run: each takes a ticket there, finds no tile
 * and leaves - with no test of its own in the digit pass (an early return there cost the H100
 * 1.8 % on u32 keys 2^24, fifty-third session). */
#define RADIX_SLOT_NONE(k) (RADIX_S_DISPATCH + 4u * (RADIX_E_PASS + (k)) + 3u - RADIX_S_TICKET)
#define RADIX_DEAD_TICKET 0xc0000000u
/* RADIX_S_SLOT_DIGIT of the hybrid recording's last slot (RADIX_HYBRID_COPY_SLOT) where the plan
 * went digit by digit over an odd number of active digits: that slot copies B back to A instead
 * of the separate copy pass (its module's COPY_SLOT variant, radix_onesweep.comp). */
#define RADIX_SLOT_COPY 0xc0000001u
#define RADIX_HYBRID_COPY_SLOT 5u
#define RADIX_STATE_WORDS (RADIX_S_SLOT_DIGIT + RADIX_MAX_PASSES)

/* The histogram binding: RADIX_MAX_PASSES * RADIX_DIGITS counts (zero between sorts: the plan
 * clears what it read, or the fused pass's last workgroup), as many exclusive scans (the
 * plan's), then the ticket of the histogram
 * workgroups that finished (the last one plans; back to zero after it). It lies past every other
 * pass's scratch, so that on a persistent scratch each radix sort finds it as the last one left
 * it whatever other sorts of the sorter ran in between. */
#define RADIX_HIST_TICKET (2u * RADIX_MAX_PASSES * RADIX_DIGITS)
/* The fused pass that builds its own histogram (radix_onesweep_fused.comp, FOLD_HISTOGRAM):
 * its chunk ticket (past the chunks, its task ticket), the count of its workgroups that left and
 * the count of finished tasks of each digit pass (RADIX_HIST_FOLD_DONE + pass); the last
 * workgroup to leave zeroes these, RADIX_HIST_TICKET (the count of counted chunks) and the
 * counts for the next sort. Each group in a 128-byte line of its own: every workgroup polls the
 * chunk count, then the done counts, while others count and take tickets. */
#define RADIX_HIST_FOLD_TICKET (RADIX_HIST_TICKET + 32u)
#define RADIX_HIST_FOLD_LEFT (RADIX_HIST_TICKET + 64u)
#define RADIX_HIST_FOLD_DONE (RADIX_HIST_TICKET + 96u)
/* Portable sorts with RADIX_FLAG_BLOCK_COUNTS: which set of table totals (below) the next
 * histogram pass adds to (0 or 1; the plan flips it), and + set: how many scan groups of that
 * set (of every digit position) may be non-zero - the rest are. The prepare pass and
 * vksort_vk_cmd_init_scratch set them. Past the fold's done counts, which only Onesweep uses. */
#define RADIX_HIST_TABLE_SET (RADIX_HIST_TICKET + 104u)
#define RADIX_HIST_TABLE_DIRTY (RADIX_HIST_TICKET + 105u)
/* Portable upsweeps: scatter slot k's scan group g's totals of digit d at
 * RADIX_HIST_GROUP_TOTALS + (k * RADIX_SCAN_GROUPS + g) * RADIX_DIGITS + d, a range per slot so
 * that no pass has to clear what another reads; the histogram pass zeroes the slots' ranges of
 * the groups in use at every sort's start (vksort_vk_cmd_init_scratch zeroes them too). */
#define RADIX_HIST_GROUP_TOTALS (RADIX_HIST_TICKET + 128u)
#define RADIX_HIST_SLOT_TOTALS(slot) (RADIX_HIST_GROUP_TOTALS + (slot) * RADIX_SCAN_GROUPS * RADIX_DIGITS)
/* Portable sorts with RADIX_FLAG_BLOCK_COUNTS: the histogram pass's group totals of every digit
 * position of the key type, in two sets (position p, set s, group g, digit d at
 * RADIX_HIST_TABLE_GROUP_TOTALS(p, s) + g * RADIX_DIGITS + d; the binding ends after them, so
 * its length gives the positions). A sort's histogram pass adds to set RADIX_HIST_TABLE_SET
 * (all zero then) and zeroes the other one's dirty groups (what the last sort's first downsweep
 * read: the next sort adds to it); slot 0's downsweep reads the set the pass filled.
 * (Until the thirty-fifth session the plan turned one set into slot 0's group starts and zeroed
 * it: a chain of loads and 128-256 stores an invocation on the histogram pass's tail.) */
#define RADIX_HIST_TABLE_TOTALS RADIX_HIST_SLOT_TOTALS(RADIX_MAX_PASSES)
#define RADIX_HIST_TABLE_GROUP_TOTALS(p, s) \
    (RADIX_HIST_TABLE_TOTALS + ((p) * 2u + (s)) * RADIX_SCAN_GROUPS * RADIX_DIGITS)
/* The digit positions whose table totals a portable histogram binding of `words` words holds
 * (it ends after them: the key type's, whatever a sort's bit range). */
#define RADIX_HIST_TABLE_POSITIONS(words) \
    (((words) - RADIX_HIST_TABLE_TOTALS) / (2u * RADIX_SCAN_GROUPS * RADIX_DIGITS))
/* Each sorter's binding ends where its algorithm's words do (radix.c's hist_bytes): Onesweep's
 * before the group totals, the portable sort's after its key type's table totals. */
#define RADIX_HIST_ONESWEEP_WORDS RADIX_HIST_GROUP_TOTALS

/* Workgroup counts above this are split into an (x, y) grid. */
#define RADIX_DISPATCH_SPLIT 32768u

/* Look-back words: 2-bit status, 30-bit count. */
#define RADIX_LB_AGGREGATE 0x40000000u
#define RADIX_LB_INCLUSIVE 0x80000000u
#define RADIX_LB_STATUS 0xc0000000u
#define RADIX_LB_VALUE 0x3fffffffu

/* Fixed workgroup sizes of the small passes. */
#define RADIX_PREPARE_WORKGROUP 256u
#define RADIX_PLAN_WORKGROUP 256u
#define RADIX_SCAN_WORKGROUP 256u
#define RADIX_COPY_WORKGROUP 256u
#define RADIX_COPY_PER_GROUP 1024u
/* Histogram pass: at most this many workgroups (each walks a chunk of
 * max(pc.aux, n / RADIX_HIST_MAX_GROUPS) elements, so larger counts cost no more global
 * atomics); chunks are multiples of RADIX_HIST_ALIGN elements. Chosen from H200 timings (u32
 * keys, 16-byte loads, 5 histogram workgroups resident per SM): at 2^22 keys 528 groups of 8192
 * keys take 25.6 us against 41.6 us for 2048 groups of 2048 (each workgroup's fixed work -
 * clearing, flushing, its ticket - and a third wave of workgroups cost more than the keys); at
 * 2^24 528, 660, 1024 and 2048 groups all take 63-66 us; at 2^20 the least chunk (pc.aux, 2048
 * keys: 512 groups) 16 us against 19 us with 128 groups of 8192. So the least chunk up to 512
 * groups, then 512 groups: about four per SM of a large GPU, enough to fill it. Since the
 * fifty-seventh session the least chunk of 32-bit keys is 4096 (radix.c's RADIX_HIST_ITEMS:
 * H100 2^20 histogram 18.6-18.8 -> 15.8-15.9 us, 256 groups instead of 512), and since the
 * fifty-eighth that of 64-bit keys too (u64 keys 2^20 histogram 22.6 -> 20.1 us), so 512
 * groups from 2^21. */
#define RADIX_HIST_MAX_GROUPS 512u
#define RADIX_HIST_ALIGN 1024u
/* Portable sort: at most this many blocks (workgroups) per pass (RADIX_SCAN_GROUPS groups of
 * RADIX_SCAN_GROUP: one load of a group total per digit and group, below). */
#define RADIX_MAX_BLOCKS 1024u
/* Portable blocks of at least this many tiles run their full tiles without bounds tests where
 * the downsweep pipeline has FULL_TILE_COPY (radix_downsweep.comp; radix.c's long_blocks). */
#define RADIX_LONG_BLOCK_TILES 4u
/* Portable blocks per scan group, and the most groups. A digit pass's offsets need no dispatch
 * of their own: each upsweep block writes its counts and adds them to its scan group's totals
 * (global atomics into the slot's RADIX_HIST_SLOT_TOTALS). A downsweep block's offset of digit
 * d is the digit's start in the sorted order (the plan) plus the totals of the scan groups
 * before its own (at most RADIX_SCAN_GROUPS - 1) plus the counts of its group's blocks before
 * it (at most RADIX_SCAN_GROUP - 1 rows), all loads in flight at once; for the first slot
 * with RADIX_FLAG_BLOCK_COUNTS the histogram pass's table and table totals take the place of
 * the upsweep's rows and totals. No workgroup waits for another, and no upsweep has a last
 * block (its chain - an arrival per block, then the last one turning every group's totals into
 * starts - was 3-4 us of each upsweep's 33-50 on the H200; without it, and without the
 * histogram plan's slot-0 chain, u32 pairs 2^24 0.8136 -> 0.8042 ms: docs/perf-notes.md,
 * thirty-fifth and thirty-seventh sessions). */
#define RADIX_SCAN_GROUP 32u
#define RADIX_SCAN_GROUPS (RADIX_MAX_BLOCKS / RADIX_SCAN_GROUP)
/* The scan groups that `blocks` portable blocks fill. */
#define RADIX_SCAN_GROUP_COUNT(blocks) (((blocks) + RADIX_SCAN_GROUP - 1u) / RADIX_SCAN_GROUP)
/* Portable sort's look-back binding: the block counts of the current pass
 * (block b, digit d at b * RADIX_DIGITS + d: max_blocks rows, max_blocks = pc.max_tiles), then,
 * with RADIX_FLAG_BLOCK_COUNTS, the histogram pass's table: block b's count of digit d at
 * position p at RADIX_BLOCK_TABLE(max_blocks) + (b * digit_count + p) * RADIX_DIGITS + d. */
#define RADIX_BLOCK_TABLE(max_blocks) ((max_blocks) * RADIX_DIGITS)
/* The histogram pass's workgroups with the block-count table, for blocks >= 1 portable blocks:
 * ceil(blocks / k) workgroups of k whole blocks each, k the least that keeps them at most
 * RADIX_HIST_MAX_GROUPS (the prepare pass and, for a host-sized sort, the host). */
#define RADIX_TABLE_HIST_K(blocks) (((blocks) + RADIX_HIST_MAX_GROUPS - 1u) / RADIX_HIST_MAX_GROUPS)
#define RADIX_TABLE_HIST_GROUPS(blocks) (((blocks) + RADIX_TABLE_HIST_K(blocks) - 1u) / RADIX_TABLE_HIST_K(blocks))

#endif
