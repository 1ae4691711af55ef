/*
 * Constants shared by the shaders (GLSL) and the host code (C): bindings, push-constant flags,
 * bitonic geometry. Only #defines, so both preprocessors read it.
 */
#ifndef VKSORT_SHADER_INTERFACE_H
#define VKSORT_SHADER_INTERFACE_H

/* Push-descriptor bindings (set 0). Each pipeline uses a subset. */
#define VKSORT_BINDING_KEYS 0
#define VKSORT_BINDING_VALUES 1
#define VKSORT_BINDING_STATE 2   /* scratch header: clamped count + indirect dispatch table */
#define VKSORT_BINDING_INDICES 3 /* scratch: input positions carried by the stable sort */
#define VKSORT_BINDING_COUNT 4   /* the caller's indirect count */
#define VKSORT_BINDING_TOTAL 5

/* Push-constant flags (vksort_push.flags). */
#define VKSORT_PUSH_INDIRECT 1u   /* the count is state.count (written by the prepare pass) */
#define VKSORT_PUSH_DESCENDING 2u /* order keys are complemented encodings */
#define VKSORT_PUSH_FLIP 4u       /* global merge: the first stage is the level's flip */

/* Key types (same values as vksort_key_type). */
#define VKSORT_SHADER_KEY_U32 0u
#define VKSORT_SHADER_KEY_I32 1u
#define VKSORT_SHADER_KEY_F32 2u
#define VKSORT_SHADER_KEY_U64 3u
#define VKSORT_SHADER_KEY_I64 4u
#define VKSORT_SHADER_KEY_F64 5u

/* Bitonic geometry. Tile passes: each invocation holds E = 4, 8, 16 or 32 elements in registers
 * (chosen per sorter, vksort_vk_sorter_create_info::bitonic_elements_per_invocation; default
 * 2^LOCAL_LOG), so a workgroup of W invocations sorts a tile of W * E elements and every round
 * trip through shared memory applies log2(E) comparator stages. Tiles are powers of two in
 * [MIN_TILE, MAX_TILE]. Global merge passes: each invocation holds 2^GLOBAL_LOG elements, so one
 * pass over the array applies GLOBAL_LOG stages. */
#ifndef VKSORT_BITONIC_LOCAL_LOG
#define VKSORT_BITONIC_LOCAL_LOG 4 /* 2, 3 or 4 (CMake: VKSORT_BITONIC_LOCAL_LOG) */
#endif
#define VKSORT_BITONIC_MIN_TILE 256u
#define VKSORT_BITONIC_MAX_TILE 8192u
#define VKSORT_BITONIC_GLOBAL_LOG 4
#define VKSORT_BITONIC_GLOBAL_WORKGROUP 128
#define VKSORT_PREPARE_WORKGROUP 64

/* Scratch state layout (32-bit words): [0] clamped count, [1..3] reserved, then the indirect
 * dispatch table, 3 words (x, y, z) per entry: entry 0 the local sort, then per merge level
 * above the tile two entries: global merges, local merge. */
#define VKSORT_STATE_HEADER_WORDS 4u
/* RANK small sort (shaders/rank_sort.comp): each workgroup owns at least
 * VKSORT_RANK_GROUP_ELEMENTS elements. Its control words live in their own range at the end of
 * the scratch (no other pass writes there; zero before the dispatch, zero again after it): W
 * (arrivals | departures << 16), FINISHED, and one STAGED bit per workgroup (at most 256). The
 * staging area (the indices binding) is indexed by input position: keys (capacity x key
 * words), then payloads, then ranks. */
#define VKSORT_RANK_W_WORD 0u
#define VKSORT_RANK_FINISHED_WORD 1u
#define VKSORT_RANK_STAGED_MASK_WORD 4u
#define VKSORT_RANK_CONTROL_WORDS 16u
#define VKSORT_RANK_GROUP_ELEMENTS 32u
#define VKSORT_RANK_MAX_GROUP_ELEMENTS 64u /* 8192 elements (the most) in 128 workgroups */
#define VKSORT_DISPATCH_SPLIT 1024u /* workgroup counts above this are split into (x, y) */

/* A dispatch of g workgroups above `split` runs as a grid of VKSORT_GRID_ROWS rows (y) of
 * VKSORT_GRID_COLUMNS workgroups (x <= split): fewer than y surplus workgroups, which find no
 * work of their own (Onesweep's take tickets like the others, so a looping Onesweep pass may
 * run up to y - 1 workgroups more than asked). Rows of `split` left up to split - 1: at 34953
 * Onesweep tiles, 30583 surplus workgroups cost ~0.6 ms a pass on the H200
 * (docs/perf-notes.md). g = 0 gives (0, 1). Shared by the host (direct dispatches) and the
 * shaders that write indirect ones. */
#define VKSORT_GRID_ROWS(g, split) ((g) > (split) ? ((g) + (split) - 1u) / (split) : 1u)
#define VKSORT_GRID_COLUMNS(g, split) (((g) + VKSORT_GRID_ROWS(g, split) - 1u) / VKSORT_GRID_ROWS(g, split))

#endif
