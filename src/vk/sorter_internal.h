/* Vulkan sorter internals shared by sorter.c, pipelines.c, bitonic.c and labels.c. */
#ifndef VKSORT_VK_SORTER_INTERNAL_H
#define VKSORT_VK_SORTER_INTERNAL_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include "vksort/vulkan.h"

#include "device_table.h"
#include "vksort_shader_interface.h"

#include <stdarg.h>

/* Pipelines of the bitonic sorter. NS: not stable; S1: stable, one tile (positions generated
 * and dropped in the pass); SI: stable with the positions stored in the scratch indices. */
typedef enum vksort_vk_pipeline_id {
    PIPE_LOCAL_SORT_NS,
    PIPE_LOCAL_SORT_S1,
    PIPE_LOCAL_SORT_SI,
    PIPE_LOCAL_MERGE_NS,
    PIPE_LOCAL_MERGE_SI,
    PIPE_GLOBAL_MERGE_NS,
    PIPE_GLOBAL_MERGE_SI,
    PIPE_PREPARE,
    PIPE_RANK_SORT, /* only when the sorter has a rank capacity */
    PIPE_COUNT
} vksort_vk_pipeline_id;

/* Push constants of every pass (mirrors `Push` in shaders/include/bitonic_common.glsl). */
typedef struct vksort_vk_push {
    uint32_t count;
    uint32_t flags;
    uint32_t mask_lo;
    uint32_t mask_hi;
    uint32_t level;
    uint32_t bit_hi;
    uint32_t aux0;
    uint32_t aux1;
} vksort_vk_push;

/* Tile geometry of one flavour (index 0: not stable, 1: stable). */
typedef struct vksort_vk_tile {
    uint32_t size;       /* elements per workgroup */
    uint32_t log_size;
    uint32_t workgroup;  /* invocations: size / elements */
    uint32_t elements;   /* elements per invocation (4, 8, 16 or 32; the shaders derive it from the
                          * specialised tile and workgroup sizes) */
} vksort_vk_tile;

/* Radix sorts (src/vk/radix.c). */
typedef enum vksort_vk_radix_pipe {
    RADIX_PIPE_PREPARE,
    RADIX_PIPE_HISTOGRAM,
    RADIX_PIPE_ONESWEEP,
    RADIX_PIPE_UPSWEEP,
    RADIX_PIPE_DOWNSWEEP,
    RADIX_PIPE_COPY,
    RADIX_PIPE_ONESWEEP_FUSED, /* every digit pass in one dispatch (geometry.fused_max_count) */
    /* The fused pass building its own histogram and plan (the small geometry, a host count on
     * a persistent scratch: the sort's only dispatch). */
    RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM,
    /* The hybrid path's local stage (RADIX_FLAG_HYBRID): the chunk bounds, the chunk sort
     * (pipes[]: hybrid_items; the larger counts' in hybrid_large_sort). */
    RADIX_PIPE_CHUNK_BOUNDS,
    RADIX_PIPE_CHUNK_SORT,
    RADIX_PIPE_COUNT
} vksort_vk_radix_pipe;

/* A tile pass's shape beside the default one (vksort_vk_radix's own fields). */
typedef struct vksort_vk_radix_geometry {
    uint32_t workgroup;
    uint32_t items;
    uint32_t tile;           /* workgroup * items */
    uint32_t smem_words;
    uint32_t scatter_rounds; /* 2: compact (two scatter rounds, 16-bit counters) */
    int atomic_or;
    uint32_t max_count;      /* counts up to this take it; 0: not built */
    VkPipeline onesweep;
    VkPipeline fused;        /* the fused pass at this geometry (where the sorter fuses) */
    VkPipeline fused_histogram; /* the small geometry's RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM, or none */
    VkPipeline downsweep;    /* the portable downsweep at this geometry (mid tiles, long blocks) */
    /* The portable downsweep runs the full tiles of blocks of several tiles without bounds
     * tests (its radix_downsweep_k32_v1_long module): the long_blocks geometry only. */
    int full_tile_copy;
    /* Counts up to this run fused at this geometry (every digit pass in one dispatch); 0:
     * never, as with the stall emulation or subgroupPartitionNV ranking. */
    uint32_t fused_max_count;
} vksort_vk_radix_geometry;

typedef struct vksort_vk_radix {
    /* The implementation: ONESWEEP (decoupled look-back, with fallback_polls the look-back
     * fallback) or PORTABLE (reduce-then-scan); AUTO (0) when the sorter has none. */
    vksort_vk_algorithm algorithm;
    /* What the sorter reports: ONESWEEP or PORTABLE as asked or as AUTO resolved it (PORTABLE
     * runs ONESWEEP with the fallback on GPUs, radix_choice.h). */
    vksort_vk_algorithm reported_algorithm;
    /* Counts in (wave_min_count, wave_max_count] run the `wave` geometry's tiles fused (u32
     * pairs on 32-lane devices inside the mid range, u32 keys above it; 0, 0: none). */
    uint32_t wave_min_count, wave_max_count;
    /* Host counts up to this on a persistent scratch sort in the small geometry's
     * fused_histogram pass alone (0: never). */
    uint32_t fold_max_count;
    /* The small geometry's fused sorts may sort in buckets (RADIX_FLAG_BUCKETS): its shared
     * memory holds a tile's keys at once, where radix_buckets asks for them (AUTO: GPUs). */
    int small_buckets;
    uint32_t bucket_groups; /* workgroups a bucket sort's dispatch adds to the tiles', at most */
    /* Workgroups of the fused pipelines the device runs at once (two per multiprocessor where
     * the driver gives the count, else 0: unknown); caps a bucket sort's dispatch (radix.c). */
    uint32_t bucket_resident;
    uint32_t subgroup_size;        /* the pinned size, else the device's default size */
    uint32_t pinned_subgroup_size; /* 0: not pinned (VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL) */
    uint32_t max_workgroup_subgroups; /* maxComputeWorkgroupSubgroups, when pinned */
    int partitioned;               /* subgroupPartitionNV ranking */
    /* Onesweep digit passes rank skewed digit positions skew-proof (RADIX_FLAG_SKEW), with
     * subgroupPartitionNV peers where skew_partitioned (the _nvp digit-pass modules); without
     * it their pipelines are compiled without that code (specialisation constant 15). */
    int skew_ranking, skew_partitioned;
    /* The hybrid chunk sort's stable radix sort (duplicate keys) takes its peers from
     * subgroupPartitionNV (the _nvp chunk-sort modules) where the device has it; the large
     * tiles' pipeline keeps ballots (radix.c, chunk_sort_module_name). */
    int chunk_partitioned;
    /* Onesweep's look-back fallback (VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, the _fb digit-pass
     * modules): empty-word steps before a look-back counts the predecessor itself; 0: off. */
    uint32_t fallback_polls;
    /* The default tile geometry of the scatter/downsweep passes (max_count: the sorter's; its
     * pipelines are in pipes[], not in its `onesweep`). */
    vksort_vk_radix_geometry geometry;
    /* Onesweep's other tile geometries, chosen per sort by count: `small` (counts up to its
     * max_count: smaller tiles spread a small sort over more workgroups) and `mid` (counts up
     * to its max_count above small's: where the default geometry is compact, the one-workgroup
     * geometry that is faster for mid-size counts). max_count 0: none. */
    vksort_vk_radix_geometry small;
    vksort_vk_radix_geometry mid;
    /* The wave band's tiles (on 32-lane devices u32 pairs 512 x 17 in one round, u32 keys 384 x
     * 22 compact; only its `fused` pipeline is built). max_count 0: none. */
    vksort_vk_radix_geometry wave;
    /* The portable sort's counts from long_blocks_min_count on (0: none) take the default
     * geometry with full_tile_copy, where every block walks several tiles (radix.c). */
    vksort_vk_radix_geometry long_blocks;
    uint32_t long_blocks_min_count;
    /* Polls per spin-loop iteration (radix_wait.glsl): 1, or 64 on lavapipe, which ends every
     * loop of an invocation after 65535 iterations of all its loops together. */
    uint32_t poll_burst;
    uint32_t hist_chunk;           /* least elements per histogram workgroup */
    uint32_t max_tiles;            /* look-back rows of one region (Onesweep) */
    uint32_t onesweep_groups;      /* workgroups of a digit pass, at most (0: one per tile) */
    uint32_t max_blocks;           /* portable blocks */
    /* Portable: the histogram pass writes the block-count table and the first digit pass has no
     * upsweep (RADIX_FLAG_BLOCK_COUNTS); not with the stall emulation, whose stalled block is
     * the upsweep's. */
    int block_counts;
    VkDeviceSize state_offset, hist_offset, lookback_offset, keys_offset, values_offset;
    VkDeviceSize state_bytes, hist_bytes, lookback_bytes;
    VkDeviceSize scratch_size;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipes[RADIX_PIPE_COUNT];
    /* The hybrid path (radix_interface.h, RADIX_FLAG_HYBRID): host counts from hybrid_min_count
     * to hybrid_max_count (0: none); the chunk sort's items per invocation, and above
     * RADIX_HYBRID_LARGE_FROM (a bucket a chunk, ~4096 keys) hybrid_large_items (0: none) in
     * hybrid_large_sort. */
    uint32_t hybrid_min_count, hybrid_max_count;
    uint32_t hybrid_items, hybrid_large_items;
    VkPipeline hybrid_large_sort;
    /* The hybrid recording's last slot: the digit pass with its copy (COPY_SLOT). */
    VkPipeline hybrid_copy_slot;
} vksort_vk_radix;

struct vksort_vk_sorter {
    vksort_vk_device_table vk;
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkPipelineCache pipeline_cache;
    const VkAllocationCallbacks *vk_allocator; /* points at vk_allocator_copy or NULL */
    VkAllocationCallbacks vk_allocator_copy;
    vksort_allocation_callbacks allocator;
    int has_allocator;

    vksort_key_type key_type;
    uint32_t key_size;
    int has_payload;
    uint32_t max_count;
    vksort_vk_algorithm algorithm;
    vksort_vk_create_flags flags;
    int debug_labels;

    /* Device facts. */
    /* minStorageBufferOffsetAlignment, but at least 4: the scratch and its sub-ranges take
     * vkCmdFillBuffer and vkCmdDispatchIndirect, whose offsets must be multiples of 4, and the
     * spec lets the limit be 1 or 2. */
    VkDeviceSize min_storage_align;
    uint32_t max_storage_range;
    uint32_t max_storage_buffers; /* maxPerStageDescriptorStorageBuffers */
    float timestamp_period;

    vksort_vk_tile tile[2];
    /* RANK small sort (shaders/rank_sort.comp): counts in [rank_min_count, rank_capacity];
     * rank_capacity 0 = never. Its staging area is the indices range of the scratch, its
     * control words (VKSORT_RANK_CONTROL_WORDS) the aligned range at rank_control_offset, at
     * the end of the scratch where no other pass writes. */
    vksort_vk_small_sort small_sort;
    uint32_t rank_capacity;
    uint32_t rank_min_count;
    uint32_t rank_workgroup;
    VkDeviceSize rank_staging_bytes;
    VkDeviceSize rank_control_offset;
    int persistent_scratch;        /* VKSORT_VK_CREATE_PERSISTENT_SCRATCH */
    int buffer_robustness_off;     /* VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS */
    /* Scratch layout: state (count + dispatch table) at 0, positions at indices_offset. */
    VkDeviceSize state_bytes;
    VkDeviceSize indices_offset;
    VkDeviceSize indices_bytes;
    VkDeviceSize scratch_size;

    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipelines[PIPE_COUNT];

    vksort_vk_radix radix;
    int auto_algorithm;            /* created with AUTO: bitonic for counts that fit a tile */
    /* VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS (RADIX_FLAG_STALL_FIRST in the shaders). */
    int emulate_no_forward_progress;

    VkResult last_vk_result;
    char message[256];
};

/* --- sorter.c --- */
/* Records an error message (printf-style) and the VkResult on the sorter; returns `result`. */
vksort_result vksort_vk_fail(vksort_vk_sorter *s, vksort_result result, VkResult vk_result,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void vksort_vk_clear_error(vksort_vk_sorter *s);
/* Host memory through the caller's allocator (vksort_vk_sorter_create_info::allocator, kept in
 * the sorter once created), else malloc/free. */
void *vksort_vk_host_alloc(const vksort_vk_sorter_create_info *info, size_t size);
void vksort_vk_host_free(const vksort_vk_sorter *s, void *p);
/* The barrier between two passes of a sort: compute writes before compute reads and writes,
 * and before indirect-command reads when the next pass may be dispatched indirectly. */
void vksort_vk_compute_barrier(const vksort_vk_sorter *s, VkCommandBuffer cmd, int to_indirect);
/* With info->query_pool: resets the sort's pass_count + 1 queries and writes the first; returns
 * whether the sort writes timestamps. */
int vksort_vk_timestamps_begin(const vksort_vk_sorter *s, VkCommandBuffer cmd,
                               const vksort_vk_sort_info *info, uint32_t pass_count);
/* Checks a buffer range: present, offset a multiple of align, size (unless VK_WHOLE_SIZE) at
 * least needed (else too_small). Sets s_msg's message when s_msg is not NULL. */
vksort_result vksort_vk_check_range(vksort_vk_sorter *s_msg, const vksort_vk_buffer_range *range,
                                    VkDeviceSize align, VkDeviceSize needed, const char *name,
                                    vksort_result too_small);
uint32_t vksort_vk_ceil_log2(uint32_t n);
/* The checks every algorithm makes on a sort: info, flags, bit range (resolved into *bit_begin,
 * *bit_end), host count against max_count, keys and values ranges for *count elements (max_count
 * when *indirect). */
vksort_result vksort_vk_check_sort_info(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                        vksort_vk_sorter *s_msg, uint32_t *bit_begin,
                                        uint32_t *bit_end, int *indirect, uint32_t *count); /* n >= 1; 0 for n == 1 */

/* --- pipelines.c --- */
/* DEVICE_LIMITS (with a message naming `what`) when the device has fewer storage buffers per
 * stage than binding_count. */
vksort_result vksort_vk_check_storage_buffers(vksort_vk_sorter *s, uint32_t binding_count,
                                             const char *what);
/* A push-descriptor set layout of binding_count storage buffers (compute) and a pipeline
 * layout with push_bytes of push constants. */
vksort_result vksort_vk_create_push_layout(vksort_vk_sorter *s, uint32_t binding_count,
                                          uint32_t push_bytes, VkDescriptorSetLayout *out_set,
                                          VkPipelineLayout *out_layout);
/* A compute pipeline from an embedded SPIR-V module (by name), named `label` for debug utils.
 * required_subgroup_size: 0, or the subgroup size the pipeline must run with (full subgroups;
 * needs the subgroupSizeControl and computeFullSubgroups features). */
vksort_result vksort_vk_create_compute_pipeline(vksort_vk_sorter *s, const char *module_name,
                                                const VkSpecializationInfo *spec,
                                                uint32_t required_subgroup_size,
                                                VkPipelineLayout layout, const char *label,
                                                VkPipeline *out);
vksort_result vksort_vk_create_pipelines(vksort_vk_sorter *s);
void vksort_vk_destroy_pipelines(vksort_vk_sorter *s);

/* --- bitonic.c --- */
typedef enum vksort_vk_pass_kind {
    PASS_PREPARE,
    PASS_LOCAL_SORT,
    PASS_GLOBAL_MERGE,
    PASS_LOCAL_MERGE,
    PASS_RANK_SORT
} vksort_vk_pass_kind;

typedef struct vksort_vk_pass {
    uint8_t kind;
    uint8_t level;  /* merges: log2 of the merged block size */
    uint8_t bit_hi; /* global merge: highest index bit of its stages */
    uint8_t flip;   /* global merge: the first stage is the level's flip */
} vksort_vk_pass;

#define VKSORT_VK_MAX_PASSES 192
/* Largest radix_items_per_invocation (vksort_vk_sorter_create_info). */
#define VKSORT_VK_RADIX_MAX_ITEMS 32u

/* Everything a sort records, derived from the sort info alone (cmd_sort, the timestamp count
 * and the timestamp helper all use it, so they agree). */
typedef struct vksort_vk_plan {
    int indirect;
    int stable;
    int use_indices;
    int rank;              /* one RANK_SORT pass (shaders/rank_sort.comp) */
    uint32_t rank_own_log2; /* log2 of the elements each RANK workgroup owns */
    uint32_t count;        /* host count, or max_count when indirect */
    uint32_t bit_begin, bit_end;
    const vksort_vk_tile *tile;
    uint32_t table_entries; /* indirect dispatch table entries */
    VkDeviceSize state_bytes; /* scratch state range bound to the passes */
    uint32_t pass_count;
    vksort_vk_pass passes[VKSORT_VK_MAX_PASSES];
} vksort_vk_plan;

/* Checks the sort info against the sorter (setting the sorter's message on error when s_msg is
 * not NULL) and fills the plan. */
vksort_result vksort_vk_bitonic_plan(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                     vksort_vk_plan *plan, vksort_vk_sorter *s_msg);
vksort_result vksort_vk_bitonic_record(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                       const vksort_vk_sort_info *info,
                                       const vksort_vk_plan *plan);
/* Bytes of scratch state (count + dispatch table) for the largest plan. */
VkDeviceSize vksort_vk_bitonic_state_bytes(const vksort_vk_sorter *s);
/* Fills s->tile[] (tile geometry without and with the stable flag) for the device limits and
 * the create-info's max_tile_size and bitonic_elements_per_invocation; needs s->key_size,
 * s->has_payload and s->max_count. Sets the sorter message on failure (INVALID_ARGUMENT for a
 * bad tuning value, DEVICE_LIMITS when no tile fits). */
vksort_result vksort_vk_bitonic_choose_tiles(vksort_vk_sorter *s, const VkPhysicalDeviceLimits *lim,
                                             const vksort_vk_sorter_create_info *info);

/* --- radix.c --- */
/* Chooses the radix configuration for the device (called at creation after the limits are
 * read). requested: ONESWEEP, PORTABLE, or AUTO (pick by vendor). Returns UNSUPPORTED with the
 * sorter message set when the device cannot run them. */
vksort_result vksort_vk_radix_setup(vksort_vk_sorter *s, const vksort_vk_sorter_create_info *info,
                                    vksort_vk_algorithm requested);
vksort_result vksort_vk_radix_create_pipelines(vksort_vk_sorter *s);
/* What a radix pipeline is made of (also for bench/shader_stats.c, which recreates the
 * pipelines with statistics): its SPIR-V module's name and its specialization constants. geo:
 * one of the other Onesweep geometries (rx->small, rx->mid), NULL for the default one. `info`
 * points into the struct itself: fill it in place, do not copy it. */
#define VKSORT_VK_RADIX_SPEC_MAX 15u /* the tile passes' 14, and the copy slot's COPY_SLOT */
typedef struct vksort_vk_radix_spec {
    uint32_t data[VKSORT_VK_RADIX_SPEC_MAX];
    VkSpecializationMapEntry entries[VKSORT_VK_RADIX_SPEC_MAX];
    VkSpecializationInfo info;
} vksort_vk_radix_spec;
/* geo: as for vksort_vk_radix_specialization (the long blocks' downsweep has a module of its
 * own). */
void vksort_vk_radix_module_name(const vksort_vk_sorter *s, vksort_vk_radix_pipe pipe,
                                 const vksort_vk_radix_geometry *geo, char *buf, size_t n);
void vksort_vk_radix_specialization(const vksort_vk_sorter *s, vksort_vk_radix_pipe pipe,
                                    const vksort_vk_radix_geometry *geo, vksort_vk_radix_spec *out);
/* The hybrid chunk sort's module (the large tiles' where large) and its specialization, as the
 * sorter creates the pipeline (also the stats tool's). */
void vksort_vk_radix_chunk_sort_specialization(const vksort_vk_sorter *s, int large, char *name,
                                               size_t name_size, vksort_vk_radix_spec *out);
void vksort_vk_radix_destroy_pipelines(vksort_vk_sorter *s);
/* Whether a sort described by info runs the radix sort (else bitonic). */
int vksort_vk_radix_selected(const vksort_vk_sorter *s, const vksort_vk_sort_info *info);
/* Radix passes of a sort: checks, timestamps, names. */
typedef struct vksort_vk_radix_plan {
    int indirect;
    /* no prepare pass: a host count on a persistent scratch (RADIX_FLAG_HOST_SIZED) */
    int host_sized;
    uint32_t count;          /* host count, or max_count when indirect */
    uint32_t bit_begin, bit_end;
    uint32_t digit_count;
    /* The geometry for this count: NULL for the default one, else &radix.small, &radix.mid,
     * &radix.wave or (portable) &radix.long_blocks. */
    const vksort_vk_radix_geometry *geometry;
    /* The fused pass (of the small geometry) may sort in buckets (RADIX_FLAG_BUCKETS): its
     * dispatch has spare workgroups beside the tiles' (radix.c's bucket_sort_workgroups). */
    int buckets;
    /* The hybrid path is recorded (RADIX_FLAG_HYBRID; the plan may still go digit by digit):
     * the histogram and chunk passes' pc.aux, and whether the chunk sort is the large one. */
    int hybrid;
    uint32_t hybrid_aux;
    int hybrid_large;
    uint32_t pass_count;
    /* vksort_vk_radix_pipe of each pass: at most prepare, histogram, two passes (upsweep and
     * downsweep) for each of 8 digits, copy */
    uint8_t kind[2 + 2 * 8 + 1];
    /* Per scatter pass (onesweep, upsweep, downsweep): its slot, the position among
     * the active digit passes (the GPU's plan maps slot k to the k-th digit that is not
     * constant, radix_interface.h); even slots read A, odd slots B. */
    uint8_t slot[2 + 2 * 8 + 1];
} vksort_vk_radix_plan;
vksort_result vksort_vk_radix_plan_sort(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                        vksort_vk_radix_plan *plan, vksort_vk_sorter *s_msg);
/* Places the radix histograms at `offset` of the scratch, past every other range of every
 * algorithm (what a persistent scratch keeps between radix sorts, radix_interface.h). */
void vksort_vk_radix_place_hist(vksort_vk_sorter *s, VkDeviceSize offset);
vksort_result vksort_vk_radix_record(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                     const vksort_vk_sort_info *info,
                                     const vksort_vk_radix_plan *plan);
/* Whether the create info lists the device extension `name` in enabled_extensions. */
int vksort_vk_extension_listed(const vksort_vk_sorter_create_info *info, const char *name);
const char *vksort_vk_radix_pass_kind(uint32_t pipe);
/* A radix pass's label and timing name: the kind, and "pass k" for a scatter slot. */
void vksort_vk_radix_pass_name(uint32_t pipe, uint32_t slot, char *buf, size_t n);

/* --- labels.c --- */
void vksort_vk_pass_name(const vksort_vk_pass *pass, char *buf, size_t n);
const char *vksort_vk_pass_kind_name(uint32_t kind);
void vksort_vk_label_begin(const vksort_vk_sorter *s, VkCommandBuffer cmd, const char *name);
void vksort_vk_label_end(const vksort_vk_sorter *s, VkCommandBuffer cmd);
void vksort_vk_name_object(const vksort_vk_sorter *s, VkObjectType type, uint64_t handle,
                           const char *name);

#endif
