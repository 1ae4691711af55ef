/*
 * vksort Vulkan backend: a sorter that records compute passes into the caller's command buffer.
 *
 * Semantics are those of vksort.h (key types, encodings, payload, stability, descending, bit
 * range). The library never submits, waits or allocates device memory: it creates pipelines at
 * sorter creation, reports how much scratch memory it needs, and vksort_vk_cmd_sort() only
 * records commands.
 *
 * Loader-agnostic: the library has no link-time dependency on Vulkan. Every entry point is
 * loaded through the vkGetInstanceProcAddr (and optionally vkGetDeviceProcAddr) given at creation
 * into a per-sorter table. Include this header with or without VK_NO_PROTOTYPES (volk users
 * include volk.h first).
 *
 * Device requirements (checked at creation, VKSORT_ERROR_DEVICE_LIMITS with a message otherwise):
 *  - Vulkan 1.0 or newer (SPIR-V 1.0 shaders), and the device extension VK_KHR_push_descriptor
 *    enabled on `device` (see vksort_vk_required_device_extensions()).
 *  - A compute queue for the command buffers the sort is recorded into.
 *  - maxComputeSharedMemorySize and maxComputeWorkGroupInvocations large enough for a tile of at
 *    least 256 elements (every conformant device has them), maxStorageBufferRange at least
 *    max_count * key size.
 *  - No subgroup operations and no shaderInt64: 64-bit keys are handled as pairs of 32-bit words.
 *
 * Descriptors: the sorter pushes its buffer bindings with vkCmdPushDescriptorSetKHR, so it owns
 * no descriptor pool and keeps no per-sort state; any number of sorts with any buffers can be
 * recorded, into any number of command buffers, from one sorter. Buffers need only
 * VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, no device addresses; the scratch buffer also needs
 * INDIRECT_BUFFER and TRANSFER_DST (vksort_vk_memory_requirements::scratch_usage: the RANK small
 * sort and vksort_vk_cmd_init_scratch fill it); the count buffer of an indirect count needs
 * count_usage.
 *
 * Thread safety: a sorter may record into different command buffers from one thread at a time
 * (the last error message is per sorter state). Creation and destruction follow the usual Vulkan
 * rules (destroy only when no recorded command buffer using the sorter is pending).
 */
#ifndef VKSORT_VULKAN_H
#define VKSORT_VULKAN_H

#include "vksort/vksort.h"

#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vksort_vk_sorter vksort_vk_sorter;

/* Which sort the sorter runs.
 *  BITONIC   workgroup-local bitonic sort in shared memory plus global merge passes.
 *  ONESWEEP  8-bit LSD radix sort, one histogram pass then one scatter pass per digit with a
 *            decoupled look-back between workgroups. Needs forward progress between workgroups
 *            of a dispatch (a workgroup spins until an earlier one publishes).
 *  PORTABLE  the radix sort that needs no forward progress between workgroups. On GPUs:
 *            ONESWEEP's digit passes with the look-back fallback
 *            (VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK below): a look-back that finds a
 *            predecessor's word empty for long counts that tile's keys itself, so every wait
 *            is bounded (H100, 2^24-2^28, no fallback taken: 0.95-1.01x ONESWEEP's speed,
 *            against 0.74-0.80x for reduce-then-scan; docs/vulkan.md). Its small and mid
 *            counts run digit by digit, not fused. On CPU devices, and with
 *            VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN, reduce-then-scan instead: an upsweep
 *            whose blocks also add their counts to group totals, then a downsweep per digit
 *            whose blocks sum the totals and counts before them (the histogram pass counts
 *            the first digit's blocks and their group totals, so that digit has no upsweep):
 *            no workgroup ever waits for another inside a dispatch, at two passes over the
 *            keys a digit. Same bytes as ONESWEEP.
 *  AUTO      (zero): per sort, BITONIC when the count fits one bitonic tile or the RANK small
 *            sort's range (host counts; an indirect count when max_count does), else the radix
 *            sort of the device: ONESWEEP on
 *            drivers known to schedule workgroups fairly - NVIDIA, AMD, Intel - and PORTABLE
 *            elsewhere (Apple, ARM Mali, Qualcomm Adreno, Imagination, Mesa's lavapipe, others).
 *            On lavapipe a look-back that waits long (several worker threads) can run into
 *            its loop limit and give wrong output (docs/vulkan.md); ask for Onesweep there
 *            only with LP_NUM_THREADS=1 (workgroups one after another: no look-back waits)
 *            or with VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK (bounded waits; what the CLI
 *            does).
 *            Devices without the subgroup operations the radix sorts need (basic, vote, ballot,
 *            arithmetic in compute) get BITONIC for every count.
 * Both radix sorts need subgroup operations and max_count < 2^30. */
typedef enum vksort_vk_algorithm {
    VKSORT_VK_ALGORITHM_AUTO = 0,
    VKSORT_VK_ALGORITHM_BITONIC = 1,
    VKSORT_VK_ALGORITHM_ONESWEEP = 2,
    VKSORT_VK_ALGORITHM_PORTABLE = 3,
    VKSORT_VK_ALGORITHM_COUNT = 4
} vksort_vk_algorithm;

/* How a count of at most vksort_vk_sorter_properties::rank_capacity is sorted when the bitonic
 * sort handles it (ALGORITHM_BITONIC, or AUTO for counts that fit a tile).
 *  NETWORK  one workgroup runs the bitonic network in shared memory (the tile pass).
 *  RANK     one dispatch of ceil(count / 32) workgroups: each loads every key into shared memory
 *           and ranks 32 elements against all of them (count^2 comparisons spread over the
 *           GPU), then writes them in place once every workgroup has read its input, or stages
 *           them in the scratch for the last workgroup to place when it finds some still
 *           reading. No workgroup waits for another, so any device runs it; it pays off on GPUs
 *           with many compute units (4096 pairs on the H200: docs/PERFORMANCE.md). Always
 *           stable. Records a vkCmdFillBuffer of 64 scratch bytes before its dispatch unless
 *           the sorter has VKSORT_VK_CREATE_PERSISTENT_SCRATCH.
 *  AUTO     (zero): on discrete GPUs RANK for counts from rank_min_count (sorter properties;
 *           below it the single workgroup is as fast), NETWORK on other devices. */
typedef enum vksort_vk_small_sort {
    VKSORT_VK_SMALL_SORT_AUTO = 0,
    VKSORT_VK_SMALL_SORT_NETWORK = 1,
    VKSORT_VK_SMALL_SORT_RANK = 2
} vksort_vk_small_sort;

/* Whether Onesweep's small fused sorts may sort in buckets (vksort_vk_sorter_properties::
 * radix_small_buckets: one pass over the top digit, then each bucket sorted in a workgroup):
 *  AUTO (zero): on GPUs; not on CPU devices (lavapipe), where the extra workgroups run one
 *       after another and the bigger pipelines take much longer to compile (2^14 u32 pairs on
 *       lavapipe: 270 ms against 16 ms digit by digit).
 *  ON:  wherever the small tiles allow it (for testing the path on a CPU device).
 *  OFF: never: every digit costs a pass over the keys (for measuring that path). */
typedef enum vksort_vk_radix_buckets {
    VKSORT_VK_RADIX_BUCKETS_AUTO = 0,
    VKSORT_VK_RADIX_BUCKETS_ON = 1,
    VKSORT_VK_RADIX_BUCKETS_OFF = 2
} vksort_vk_radix_buckets;

/* Whether Onesweep sorts of 32-bit keys may take the hybrid path (vksort_vk_sorter_properties::
 * radix_hybrid_min_count): the top 16 bits by two digit passes, then every group of keys with
 * the same top 16 bits sorted by the low 16 bits inside one workgroup - one read and one write
 * of the keys (and payloads) in place of two digit passes.
 *  AUTO (zero): on GPUs with 32-lane subgroups, for u32 and i32 keys, at the counts where it
 *       was measured faster (pairs from 2^22 to 2^28, keys from 2^24 to 2^27); not for f32
 *       keys, which in a renderer are depths that the plan would send digit by digit anyway
 *       (the hybrid recording costs those a few percent).
 *  ON:  for every count it can take (for testing the path on a CPU device).
 *  OFF: never (for measuring the digit-by-digit path). */
typedef enum vksort_vk_radix_hybrid {
    VKSORT_VK_RADIX_HYBRID_AUTO = 0,
    VKSORT_VK_RADIX_HYBRID_ON = 1,
    VKSORT_VK_RADIX_HYBRID_OFF = 2
} vksort_vk_radix_hybrid;

/* "auto", "bitonic", "onesweep", "portable"; NULL for an unknown value. */
const char *vksort_vk_algorithm_name(vksort_vk_algorithm algorithm);

typedef enum vksort_vk_create_flag_bits {
    /* VK_EXT_debug_utils is enabled on the instance: wrap the sort and each of its passes in
     * vkCmdBeginDebugUtilsLabelEXT/vkCmdEndDebugUtilsLabelEXT and name the sorter's pipelines.
     * Without this flag the library never touches debug utils. */
    VKSORT_VK_CREATE_DEBUG_LABELS = 1u << 0,
    /* The device was created with the subgroupSizeControl and computeFullSubgroups features
     * (Vulkan 1.3, or VK_EXT_subgroup_size_control). The radix pipelines then pin the subgroup
     * size they were tuned for - 32 when the device offers it (NVIDIA, AMD RDNA, Intel), else
     * the device's default size - with full subgroups. Without this flag the radix sorts work
     * with whatever size the driver picks: they size their shared memory for the device's
     * minSubgroupSize (when known), at the cost of smaller workgroups on devices whose size
     * varies. */
    VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL = 1u << 1,
    /* Test mode, for the radix sorts: emulate a GPU that gives no forward progress between the
     * workgroups of a dispatch. In every digit pass the first workgroup (portable: block 0 of
     * the upsweep; Onesweep: partition 0) waits, before it does its work, until every other
     * workgroup of the dispatch has finished - as if the GPU ran it last. The wait is a bounded
     * spin (about 2^24 polls for the portable sort, 2^20 for Onesweep); when the bound runs out
     * the workgroup goes on and the sort counts it (vksort_vk_debug_stall_counter_offset).
     *  - PORTABLE: nothing waits on block 0, so the others finish, block 0 goes on, the output is
     *    correct and the counter stays 0 (when the device runs workgroups concurrently).
     *  - ONESWEEP: every later partition waits on partition 0's look-back word, so the others
     *    cannot finish: on a real GPU without forward progress this is the deadlock. Here the
     *    bounded spin breaks it, the output is still correct, and the counter is non-zero (one
     *    per digit pass). Much slower; never use outside tests. Sorters without this flag
     *    carry none of the emulation's code in their Onesweep pipelines (a specialisation
     *    constant: on the H200 the code alone cost 2 % of every digit pass).
     *  - ONESWEEP with VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK: the even partitions also never
     *    publish; the others finish by counting those tiles themselves, so on a GPU partition
     *    0's wait does not run out (counter 0). */
    VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS = 1u << 2,
    /* Rank radix tiles with subgroupPartitionNV (VK_NV_shader_subgroup_partitioned must be
     * listed in enabled_extensions, else ignored) instead of one ballot per digit bit. Off by
     * default: on the H200 the ballots are faster (2^24 u32 keys: 1.10 ms against 1.34 ms,
     * docs/perf-notes.md). For measuring other NVIDIA GPUs. */
    VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING = 1u << 3,
    /* A promise about every scratch range this sorter's sorts use: it was prepared once with
     * vksort_vk_cmd_init_scratch, and since then nothing but this sorter's sorts has written it
     * (its contents are kept from one sort to the next). The RANK small sort then skips the
     * vkCmdFillBuffer and the two barriers it otherwise records before its dispatch (about 3 us
     * of a 4096-element sort on the H200): every sort leaves its control words zero. A radix
     * sort with a host count (no count_buffer) skips its first pass, which clears the
     * histograms and sizes the sort (one dispatch and barrier, about 5 us on the H200): every
     * radix sort leaves its histogram counts zero (and, below
     * radix_fused_histogram_max_count, sorts in one dispatch). Breaking the promise (a scratch
     * never prepared, or written by anything else) is invalid usage, like a missing barrier:
     * the sorts read whatever the scratch holds as their counts, tickets and dispatch sizes,
     * and may then write keys out of place or outside the buffers, dispatch more workgroups
     * than the device allows or not finish, for as long as the scratch stays so. A scratch
     * that only held another of this sorter's persistent sorts is fine. The bitonic network
     * sorts are unaffected. */
    VKSORT_VK_CREATE_PERSISTENT_SCRATCH = 1u << 4,
    /* Radix tiles in their compact form (radix_scatter_rounds 2: staged half a tile at a time,
     * 16-bit per-subgroup counters, about half the shared memory, so that two workgroups share
     * a multiprocessor on drivers that keep little shared memory per multiprocessor), with a
     * one-round geometry for counts up to 2^20 where one fits (radix_mid_*). The default for
     * u32 keys (and Onesweep's u32 pairs, 384 x 19) on devices whose radix pipelines all run
     * 32 lanes; this flag asks for it everywhere. */
    VKSORT_VK_CREATE_RADIX_COMPACT_TILES = 1u << 5,
    /* A promise: the device was created with the pipelineRobustness feature enabled
     * (VK_EXT_pipeline_robustness, which must then be listed in enabled_extensions, or Vulkan
     * 1.4 core; the library cannot check the feature itself). The sorter's pipelines then turn
     * off the robustness of their storage buffers (VkPipelineRobustnessCreateInfo, DISABLED).
     * Some drivers bounds-check every storage-buffer access unless told not to, even without
     * robustBufferAccess: NVIDIA's compare each address with the binding's size and skip the
     * access outside it (H200: 1.5-7 % of a radix sort, docs/perf-notes.md). The shaders never
     * access outside the ranges they bind, so this changes speed only. Creation fails with
     * INVALID_ARGUMENT when the extension is not listed and the device is below Vulkan 1.4. */
    VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS = 1u << 6,
    /* Onesweep without forward progress (the "decoupled fallback" of Smith, Levien and Owens,
     * SPAA 2025): a digit pass's look-back that has found a predecessor tile's word empty for
     * radix_lookback_fallback_polls steps in a row (sorter properties) stops waiting for it; at
     * the barrier ending the look-back its workgroup counts that tile's keys itself (one read
     * of the tile), publishes the counts where the words are still empty, and the look-backs
     * walk on. No workgroup then waits on another for
     * long, so the Onesweep sort finishes on GPUs that do not schedule workgroups fairly, at
     * the cost of those re-read tiles where waits run long. Onesweep sorts only (others ignore
     * the flag); their small and mid counts then run digit by digit, not fused (the fused
     * pass waits between digits). With VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS the even
     * partitions of every pass also withhold their look-back words, so the others must count
     * them (vksort_vk_debug_fallback_counter_offset). On 32-lane devices u32 pairs then take
     * tiles of 384 x 17 (Onesweep: 384 x 19), where the pass keeps its registers. This is
     * what PORTABLE runs on GPUs (and so AUTO on GPUs not known to schedule fairly). Measured
     * on GPUs that schedule fairly only (H100, no fallback taken: u32 keys 2^28 0.6 % slower
     * than Onesweep, u32 pairs 4-5 %; docs/vulkan.md), not on one without forward progress. */
    VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK = 1u << 7,
    /* PORTABLE sorts with reduce-then-scan on every device, not Onesweep with the look-back
     * fallback: for a device where fallbacks turn out frequent (each re-reads a tile), or
     * where a bounded wait is not enough. Other algorithms ignore the flag. */
    VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN = 1u << 8,
    /* Onesweep digit passes without the skew-proof ranking (radix_skew_ranking in the sorter
     * properties): every pass ranks its tiles with the default ranking even where one digit
     * holds most keys, and the passes' pipelines are compiled without that ranking's code,
     * whose presence alone slows the default path. For keys known not to be skewed: uniform
     * sorts then run up to 3 % faster (H100, 2026-12-06: u32 keys 2^24 -1.3 %, 2^28 -1.0 %,
     * u32 pairs 2^24 -1.5 %, 2^28 +0.6 %; H200, the same code: keys 2^24 -0.9 %, pairs
     * -3.1 %), but keys with one dominant digit, such as f32 depths in a narrow range, run
     * slower (H100 depth keys 2^24 0.450 -> 0.503 ms; docs/PERFORMANCE.md, fifty-second
     * round). Sorts are correct either way. */
    VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING = 1u << 9
} vksort_vk_create_flag_bits;
typedef uint32_t vksort_vk_create_flags;

/* Why a creation failed: the VkResult of the failing call (VK_SUCCESS when the failure was not a
 * Vulkan call) and an English sentence. */
typedef struct vksort_vk_diagnostics {
    VkResult vk_result;
    char message[256];
} vksort_vk_diagnostics;

/* Zero-initialise, then fill what you need. Zero means default everywhere. */
typedef struct vksort_vk_sorter_create_info {
    /* Required: the instance, physical device and device the sorter is made for. */
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    /* Required: the loader entry point (e.g. vkGetInstanceProcAddr, volk's, or a layer's). */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Optional: defaults to vkGetDeviceProcAddr loaded through get_instance_proc_addr. */
    PFN_vkGetDeviceProcAddr get_device_proc_addr;
    /* Optional: used for every pipeline the sorter creates. */
    VkPipelineCache pipeline_cache;
    /* Optional: passed to every vkCreate and vkDestroy call of the sorter. */
    const VkAllocationCallbacks *vk_allocator;
    /* Optional: host memory of the sorter itself (a few kilobytes, allocated once). */
    const vksort_allocation_callbacks *allocator;

    vksort_key_type key_type;       /* default u32 */
    VkBool32 has_payload;           /* sort (key, uint32 payload) pairs instead of keys only */
    /* Required (> 0, at most 2^31): the largest count one sort handles. It sizes the scratch
     * memory and the passes recorded for an indirect count. */
    uint32_t max_count;
    vksort_vk_algorithm algorithm;  /* default AUTO */
    vksort_vk_create_flags flags;
    /* Optional cap on the number of elements one workgroup sorts in shared memory (a power of
     * two, at least 256, at most 8192). 0: 4096, or less when the device's shared memory
     * or max_count asks for less (measured fastest on the H200). Mostly for tests and tuning. */
    uint32_t max_tile_size;
    /* Optional: receives the reason when creation fails. */
    vksort_vk_diagnostics *diagnostics;
    /* Optional: the device extensions enabled on `device` (Vulkan cannot be asked). The sorter
     * uses VK_NV_shader_subgroup_partitioned, when listed here, for the Onesweep digit passes'
     * skew-proof ranking (radix_skew_partitioned in the sorter properties) and, when asked for
     * (VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING), for all radix ranking. */
    uint32_t enabled_extension_count;
    const char *const *enabled_extensions;
    /* Optional tuning of the bitonic tile passes: elements E each invocation holds in registers,
     * 4, 8, 16 or 32 (0: 16 for keys alone, 8 when a payload or the stable position travels
     * with each key - measured on the H200; 32 applies to 32-bit keys without
     * VKSORT_FLAG_STABLE, the others then use 16). A tile of T elements runs T / E invocations
     * per workgroup (the tile shrinks when that exceeds the device's workgroup limit), and every
     * trip through shared memory applies log2(E) comparator stages. Same results for any value
     * (bitwise for stable sorts); only speed differs. Mostly for benchmarks. */
    uint32_t bitonic_elements_per_invocation;
    /* Optional tuning of the radix scatter passes: keys each invocation ranks per tile, 1..32
     * (0: by key type, payload and algorithm where every pipeline runs 32-lane subgroups -
     * measured on the H200: 384 x 26 for u32 keys, 384 x 19 for Onesweep's u32 pairs (384 x 17
     * with the look-back fallback, which the portable sort uses on GPUs), 512 x 21 for
     * reduce-then-scan's, 512 x 17 for 64-bit keys - and 8 on smaller subgroups; the
     * properties' radix_tile_size and radix_workgroup_size say what was chosen). Fewer when
     * shared memory cannot hold the tile. Same results for any value. For benchmarks. */
    uint32_t radix_items_per_invocation;
    /* Optional: how the bitonic sort handles small counts (default AUTO, see
     * vksort_vk_small_sort). */
    vksort_vk_small_sort small_sort;
    /* Optional tuning of the radix scatter passes: invocations per workgroup, 0 (default), 64,
     * 128, or a multiple of 32 from 256 to 1024. Default: 384 or 512 (see
     * radix_items_per_invocation; measured best on the H200) where every radix pipeline runs
     * 32-lane subgroups and shared memory holds that tile, else at most 256 (16 subgroups of the
     * smallest size). A size the device cannot run (not whole subgroups, over its invocation
     * limits, or the subgroups' per-digit counters do not fit in shared memory) falls back to
     * the default.
     * vksort_vk_sorter_properties::radix_workgroup_size says what was chosen. Same results for
     * any value. For benchmarks. */
    uint32_t radix_workgroup_size;
    /* Optional tuning of the RANK small sort: invocations per workgroup, 0 (default: 512,
     * measured fastest on the H200) or a power of two from 32 to 1024; halved until the device
     * runs it. Each workgroup ranks 32 elements, so more invocations split the comparisons of
     * each finer. vksort_vk_sorter_properties::rank_workgroup_size says what was chosen. Same
     * results for any value. For benchmarks. */
    uint32_t rank_workgroup_size;
    /* Optional tuning of Onesweep's digit passes: workgroups per dispatch, each running tiles
     * until none is left (it takes its next tile's ticket while it writes the current one, so
     * no workgroup is launched per tile). 0 (default): two per multiprocessor where the driver
     * reports the multiprocessor count (VK_NV_shader_sm_builtins) and the 32-lane default tile
     * shapes are used (on the H200, 264: 3-5 % faster at 2^24-2^28, docs/vulkan.md), else one
     * per tile. Same results for any value; fewer workgroups than the GPU holds at once only
     * run slower (above 32768, a 2D grid may add up to a row's rounding).
     * vksort_vk_sorter_properties::radix_onesweep_workgroups says what was chosen. For
     * benchmarks and tests. */
    uint32_t radix_onesweep_workgroups;
    /* Optional: whether small fused Onesweep sorts may sort in buckets (default AUTO, see
     * vksort_vk_radix_buckets). Same results either way. */
    vksort_vk_radix_buckets radix_buckets;
    /* Optional: whether Onesweep sorts of 32-bit keys may take the hybrid path (default AUTO,
     * see vksort_vk_radix_hybrid). Same results either way. */
    vksort_vk_radix_hybrid radix_hybrid;
} vksort_vk_sorter_create_info;

/* The device extensions a sorter needs enabled on its VkDevice (today: VK_KHR_push_descriptor).
 * Returns a static array and stores its length in *out_count. */
const char *const *vksort_vk_required_device_extensions(uint32_t *out_count);

/* Creates pipelines for the device and checks its limits. Errors:
 * VKSORT_ERROR_INVALID_ARGUMENT (missing handle or loader, bad enum, max_count 0 or > 2^31,
 * max_tile_size not a power of two >= 256), VKSORT_ERROR_UNSUPPORTED (ONESWEEP or PORTABLE asked
 * for on a device without the subgroup operations they need, or with max_count >= 2^30),
 * VKSORT_ERROR_DEVICE_LIMITS (extension, limit or feature missing; see diagnostics),
 * VKSORT_ERROR_VULKAN (a Vulkan call failed), VKSORT_ERROR_OUT_OF_HOST_MEMORY. */
vksort_result vksort_vk_sorter_create(const vksort_vk_sorter_create_info *info,
                                      vksort_vk_sorter **out_sorter);

/* Destroys the pipelines and frees the sorter. NULL is ignored. */
void vksort_vk_sorter_destroy(vksort_vk_sorter *sorter);

/* What a sorter was created with and what it chose. */
typedef struct vksort_vk_sorter_properties {
    vksort_vk_algorithm algorithm;  /* never AUTO */
    vksort_key_type key_type;
    VkBool32 has_payload;
    uint32_t max_count;
    /* Elements sorted by one workgroup in shared memory, without and with VKSORT_FLAG_STABLE
     * (the stable sort carries each element's input position, so its tiles may be smaller).
     * A count up to the tile size is sorted by one dispatch. */
    uint32_t tile_size;
    uint32_t stable_tile_size;
    uint32_t workgroup_size;        /* invocations per workgroup of the tile passes */
    /* Radix sorts (zero when the sorter has none): the radix implementation used for large
     * counts (ONESWEEP, with radix_lookback_fallback_polls > 0 where it needs no forward
     * progress - what PORTABLE runs on GPUs -, or PORTABLE: reduce-then-scan), elements per
     * scatter tile, invocations per scatter workgroup, the device subgroup size the pipelines
     * were built for, and whether ranking uses subgroupPartitionNV. */
    vksort_vk_algorithm radix_algorithm;
    uint32_t radix_tile_size;
    uint32_t radix_workgroup_size;
    uint32_t subgroup_size;
    VkBool32 radix_partitioned;
    /* Workgroups of an Onesweep digit pass when it has more tiles (0: one per tile; see
     * vksort_vk_sorter_create_info::radix_onesweep_workgroups). Fused passes always start one
     * per tile. */
    uint32_t radix_onesweep_workgroups;
    /* Onesweep's geometry for small counts (all zero when it has none): counts up to
     * radix_small_max_count (an indirect count: when max_count is) are sorted with tiles of
     * radix_small_tile_size elements on radix_small_workgroup_size invocations - more, smaller
     * tiles spread a small sort over more of the GPU. Chosen where the default tile is larger
     * than 2048 elements (docs/vulkan.md). */
    uint32_t radix_small_tile_size;
    uint32_t radix_small_workgroup_size;
    uint32_t radix_small_max_count;
    /* Those small counts run every digit pass (and the copy back) in one dispatch whose
     * workgroups take (pass, tile) tasks from one ticket - three dispatches per sort instead of
     * seven or more. Not with VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS or
     * VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING. */
    VkBool32 radix_small_fused;
    /* With VKSORT_VK_CREATE_PERSISTENT_SCRATCH, a host count up to this (0: none) is sorted by
     * that fused dispatch alone: its workgroups build the histogram and plan first (no prepare
     * or histogram pass; "onesweep_fused_histogram" in the timestamps). 32-bit keys where the
     * small tiles have 256 invocations, up to 32 of those tiles (65536 elements on the H200:
     * 8-9 % faster at 2^12-2^14 pairs, 1-3 % at 2^16; more tiles were slower; docs/vulkan.md). */
    uint32_t radix_fused_histogram_max_count;
    /* Those fused small sorts of more than 4 and at most 128 small tiles (8193 to 262144 keys
     * on the H200) sort in buckets where the keys allow it: one Onesweep pass over the most
     * significant digit that is not constant, then each of its buckets (the keys of one value
     * of that digit) sorted by the lower digits in one workgroup's registers and shared memory
     * - one pass over the keys in memory instead of one per digit (H200: 2^16 u32 pairs 18 %
     * faster, 2^18 20 %). The GPU's plan chooses it per sort, where no bucket holds more than
     * radix_small_tile_size keys (uniform keys do; f32 depths in a narrow range, whose top
     * digit has a few values, do not), else every digit gets its pass. Stable, as every radix
     * sort here. Where vksort_vk_sorter_create_info::radix_buckets allows it (AUTO: GPUs). */
    VkBool32 radix_small_buckets;
    /* The mid geometry (0: none): counts above radix_small_max_count up to
     * radix_mid_max_count take tiles of radix_mid_tile_size on radix_mid_workgroup_size
     * invocations (Onesweep's: in one scatter round). Where the default tiles are compact, up to 2^20: 512 x
     * 17 on 32-lane devices where one round holds it (u32 keys and pairs; not u64 keys),
     * elsewhere the one-round geometry the compact one replaced. For Onesweep's u32 pairs on
     * 32-lane devices (default 384 x 19 compact), up to 2^22: 256 x 16, two workgroups per
     * multiprocessor (docs/vulkan.md). Reduce-then-scan's u32 keys on 32-lane devices (default
     * 384 x 26 compact): 384 x 22 compact up to 2^23. */
    uint32_t radix_mid_tile_size;
    uint32_t radix_mid_workgroup_size;
    uint32_t radix_mid_max_count;
    /* Mid counts up to radix_fused_max_count run fused too (as radix_small_fused). */
    VkBool32 radix_mid_fused;
    /* Onesweep sorts of counts up to this run fused (0: none): the small counts, and the mid
     * and default counts whose tiles fit about two waves of the GPU where the 32-lane default
     * shapes are used (u32 keys up to 2^22, u32 pairs up to 2621440, u64 keys up to 2228224
     * on the H100 and H200), every mid count elsewhere. Larger counts keep a dispatch per
     * digit: fused, their tiles' coherent loads and the waits between digits cost more than
     * the dispatches (H100: u32 keys 2^23 0.376 ms fused against 0.261, pairs 2^22 0.256
     * against 0.246; docs/perf-notes.md, forty-seventh session). */
    uint32_t radix_fused_max_count;
    /* Counts in (radix_wave_min_count, radix_wave_max_count] (0, 0: none) take tiles of
     * radix_wave_tile_size on radix_wave_workgroup_size invocations, fused. Onesweep's u32
     * pairs on 32-lane devices whose driver gives the SM count (VK_NV_shader_sm_builtins): 512 x
     * 17 in one round, from 5/8 of one wave of them (one per SM) to one wave, inside the mid
     * range - there the wave beats the 256 x 16 mid tiles (H200: 2^20 pairs 6 % faster; on
     * either side of the band the mid tiles win, docs/vulkan.md). Onesweep's u32 keys on 32-lane
     * devices: 384 x 22 compact from radix_mid_max_count to 2^22, where the default 384 x 26
     * tiles fused are slower. */
    uint32_t radix_wave_min_count;
    uint32_t radix_wave_max_count;
    uint32_t radix_wave_tile_size;
    uint32_t radix_wave_workgroup_size;
    /* Reduce-then-scan sorts (the portable sort on CPU devices or with
     * VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN) of pairs with 32-bit keys: counts from this on (an indirect count: by
     * max_count) run a downsweep in which blocks of at least 4 tiles sort their full tiles
     * without per-element bounds tests - from 4 x 1024 tiles, where every block is that long
     * (H200, u32 pairs 2^28: 12.56 -> 11.49 ms; below, the sorts keep the other downsweep, which
     * its extra code would slow). 0: none (other sorts, or max_count below it). */
    uint32_t radix_long_blocks_min_count;
    /* Radix tiles rank with one shared-memory atomicOr per element (lanes of a digit find each
     * other in a per-subgroup match word) instead of eight subgroup ballots: where subgroups
     * have at most 32 lanes and shared memory holds the match words of the default tile
     * (radix_small_atomic_or: of the small-count tile). */
    VkBool32 radix_atomic_or;
    VkBool32 radix_small_atomic_or;
    /* 1: a radix tile is staged whole in shared memory for its scatter; 2: in two halves with
     * 16-bit per-subgroup counters ("compact"), where one round does not fit
     * maxComputeSharedMemorySize (the tile or the per-subgroup counters), for u32 keys and
     * Onesweep's u32 pairs on 32-lane devices (384 x 26 and 384 x 19 in 22-23 KiB, so that two
     * workgroups share a multiprocessor on drivers that give the workgroups of one
     * multiprocessor 48 KiB of shared memory together, as NVIDIA's), or when asked for
     * (VKSORT_VK_CREATE_RADIX_COMPACT_TILES). */
    uint32_t radix_scatter_rounds;
    /* The radix pipelines require subgroup_size with full subgroups
     * (VKSORT_VK_CREATE_SUBGROUP_SIZE_CONTROL on a device that offers the size). */
    VkBool32 subgroup_size_pinned;
    /* Small sorts: NETWORK or RANK as asked for (AUTO resolved), and the largest count the RANK
     * sort takes (0 when it is not used): min(max_count, 8192, what the device's shared memory
     * holds). Counts from rank_min_count to rank_capacity are RANK sorts (an indirect count:
     * when max_count is in that range). */
    vksort_vk_small_sort small_sort;
    uint32_t rank_capacity;
    uint32_t rank_min_count;
    uint32_t rank_workgroup_size;   /* invocations per RANK workgroup (0 when not used) */
    VkBool32 persistent_scratch;    /* created with VKSORT_VK_CREATE_PERSISTENT_SCRATCH */
    /* created with VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS: storage-buffer robustness off */
    VkBool32 buffer_robustness_off;
    /* Onesweep with the look-back fallback (VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, or
     * PORTABLE on a GPU): the empty-word steps after which a look-back counts the
     * predecessor's tile itself (0: no fallback). */
    uint32_t radix_lookback_fallback_polls;
    /* Onesweep's digit passes (not the fused ones) choose their ranking per digit position on
     * the GPU: where the plan finds one digit value in more than half of the keys - the top
     * digit of f32 depths in a narrow range, say - that pass ranks its full tiles with subgroup
     * peer masks and counts their digits after ranking, instead of the default per-key
     * shared-memory atomics, which serialise over the lanes that share a digit (H100,
     * 2026-12-06, f32 depth keys 2^24: 0.505 -> 0.450 ms, pairs 0.741 -> 0.694; uniform keys
     * 2^24 0.452 -> 0.458; docs/vulkan.md). Peer masks from subgroupPartitionNV where
     * VK_NV_shader_subgroup_partitioned is listed in enabled_extensions and the device has it
     * (radix_skew_partitioned), else from ballots. VK_FALSE with
     * VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING, with the look-back fallback
     * (radix_lookback_fallback_polls > 0) and for reduce-then-scan sorts. */
    VkBool32 radix_skew_ranking;
    VkBool32 radix_skew_partitioned;
    /* The hybrid path (0, 0: none): Onesweep sorts of 32-bit keys (u32, i32, f32; with or
     * without payloads, either direction) over the whole 32 bits, of a host count from
     * radix_hybrid_min_count to radix_hybrid_max_count (at most 2^28), where
     * vksort_vk_sorter_create_info::radix_hybrid allows it. Such a sort runs the histogram, the
     * digit passes of the top two digits (the keys sorted by their top 16 bits), then a chunk
     * bounds pass and a chunk sort: each chunk of k consecutive values of the top 16 bits (k a
     * power of two, about 2048 keys a chunk for uniform keys) is sorted by the low 16 bits in one
     * workgroup of radix_hybrid_workgroup_size invocations, at most radix_hybrid_tile_size keys
     * (radix_hybrid_large_tile_size above 2^27 keys) - stable, in place. The GPU's plan chooses
     * it per sort: where its estimate of the largest chunk (from the top two digits' largest
     * counts) does not fit, the sort goes digit by digit (f32 depths in a narrow range, say);
     * a chunk that still does not fit is sorted in parts of fewer buckets, and chunks of
     * duplicate keys by a stable radix sort in the workgroup; only one value of the top 16 bits
     * with more keys than the tile (up to 2^20 keys: a crowded run of k / 64 values) makes four
     * more digit passes sort every digit over the result (right and stable, two passes dearer
     * than digit by digit). Indirect counts and bit ranges go digit by digit. */
    uint32_t radix_hybrid_min_count;
    uint32_t radix_hybrid_max_count;
    uint32_t radix_hybrid_workgroup_size;
    uint32_t radix_hybrid_tile_size;
    uint32_t radix_hybrid_large_tile_size;
} vksort_vk_sorter_properties;

void vksort_vk_get_sorter_properties(const vksort_vk_sorter *sorter,
                                     vksort_vk_sorter_properties *out_properties);

/* The last error of a vksort_vk_* call on this sorter: its message ("" after success) and the
 * VkResult of the failing Vulkan call (VK_SUCCESS when the error did not come from Vulkan). */
const char *vksort_vk_sorter_last_message(const vksort_vk_sorter *sorter);
VkResult vksort_vk_sorter_last_vk_result(const vksort_vk_sorter *sorter);

/* Memory the caller provides. Sizes in bytes. */
typedef struct vksort_vk_memory_requirements {
    /* Scratch buffer range: at least scratch_size bytes at an offset that is a multiple of
     * scratch_alignment, created with scratch_usage. Never zero: even a host-count sort keeps
     * a few words of state there. The contents need no initialisation and may be discarded after
     * the sort, unless the sorter has VKSORT_VK_CREATE_PERSISTENT_SCRATCH (prepared once with
     * vksort_vk_cmd_init_scratch, then kept between its sorts). One scratch range serves one
     * sort at a time (see vksort_vk_cmd_sort). */
    VkDeviceSize scratch_size;
    VkDeviceSize scratch_alignment; /* minStorageBufferOffsetAlignment, at least 4 */
    VkBufferUsageFlags scratch_usage;   /* STORAGE_BUFFER | INDIRECT_BUFFER | TRANSFER_DST */
    /* Keys, payload and count buffers: the usage bits they need and the alignment of their
     * offsets (keys and payload: minStorageBufferOffsetAlignment, and the element size; count: 4). */
    VkBufferUsageFlags keys_usage;      /* STORAGE_BUFFER */
    VkBufferUsageFlags values_usage;    /* STORAGE_BUFFER */
    VkBufferUsageFlags count_usage;     /* STORAGE_BUFFER */
    VkDeviceSize keys_alignment;
    VkDeviceSize values_alignment;
    VkDeviceSize count_alignment;
} vksort_vk_memory_requirements;

vksort_result vksort_vk_get_memory_requirements(const vksort_vk_sorter *sorter,
                                                vksort_vk_memory_requirements *out_requirements);

/* A range of a buffer. size: the bytes usable from offset (checked against what the sort
 * accesses; VK_WHOLE_SIZE means "to the end of the buffer", unchecked: the caller vouches). */
typedef struct vksort_vk_buffer_range {
    VkBuffer buffer;
    VkDeviceSize offset;
    VkDeviceSize size;
} vksort_vk_buffer_range;

/* Zero-initialise, then fill what you need. */
typedef struct vksort_vk_sort_info {
    /* Required: the keys, sorted in place. Holds `count` keys of the sorter's type (max_count
     * keys when the count is indirect). */
    vksort_vk_buffer_range keys;
    /* Payload (uint32 per key), sorted in place with the keys. Required when the sorter was
     * created with has_payload, ignored otherwise. */
    vksort_vk_buffer_range values;
    /* Required: scratch memory (vksort_vk_get_memory_requirements). */
    vksort_vk_buffer_range scratch;
    /* Number of keys, when count_buffer.buffer is VK_NULL_HANDLE. Must not exceed max_count
     * (VKSORT_ERROR_COUNT_TOO_LARGE). */
    uint32_t count;
    /* Indirect count: a uint32 read by the GPU at count_buffer.offset (a multiple of 4) when the
     * sort runs, clamped to max_count on the GPU. The sort then handles exactly the first
     * min(count, max_count) elements and never touches the rest. (The count binding starts at
     * the offset rounded down to minStorageBufferOffsetAlignment.) */
    vksort_vk_buffer_range count_buffer;
    vksort_flags flags;                 /* VKSORT_FLAG_DESCENDING, VKSORT_FLAG_STABLE */
    uint32_t bit_begin;                 /* bit range of the encoding; [0, 0) = every bit */
    uint32_t bit_end;
    /* Optional timestamps: when query_pool is not VK_NULL_HANDLE the sort resets and writes
     * vksort_vk_timestamp_query_count() timestamp queries starting at first_query (the queue
     * family needs timestampValidBits > 0). */
    VkQueryPool query_pool;
    uint32_t first_query;
} vksort_vk_sort_info;

/*
 * Records the sort into `cmd` (a command buffer in the recording state, outside a render pass,
 * of a queue family with compute). Records nothing and returns an error when the arguments are
 * wrong: VKSORT_ERROR_INVALID_ARGUMENT, VKSORT_ERROR_BIT_RANGE, VKSORT_ERROR_COUNT_TOO_LARGE,
 * VKSORT_ERROR_BUFFER_TOO_SMALL (a range smaller than what the sort accesses),
 * VKSORT_ERROR_SCRATCH_TOO_SMALL, VKSORT_ERROR_MISALIGNED (an offset breaking the alignments of
 * vksort_vk_memory_requirements).
 *
 * Synchronization scopes (the caller orders these against the work before and after the sort;
 * every barrier between the sort's own passes is recorded inside):
 *
 *   buffer    first access                                last access
 *   keys      COMPUTE_SHADER, SHADER_READ|SHADER_WRITE    COMPUTE_SHADER, SHADER_WRITE
 *   values    COMPUTE_SHADER, SHADER_READ|SHADER_WRITE    COMPUTE_SHADER, SHADER_WRITE
 *   count     COMPUTE_SHADER, SHADER_READ                 COMPUTE_SHADER, SHADER_READ
 *   scratch   COMPUTE_SHADER, SHADER_READ|SHADER_WRITE    COMPUTE_SHADER, SHADER_READ|WRITE and
 *                                                         DRAW_INDIRECT, INDIRECT_COMMAND_READ
 *   queries   vkCmdResetQueryPool, then vkCmdWriteTimestamp (COMPUTE_SHADER stage)
 *
 * A RANK small sort (vksort_vk_small_sort) also clears 64 bytes of the scratch with
 * vkCmdFillBuffer (unless the sorter has VKSORT_VK_CREATE_PERSISTENT_SCRATCH): it records its own
 * barrier from COMPUTE_SHADER (SHADER_READ|SHADER_WRITE) to TRANSFER before the fill and from
 * TRANSFER to COMPUTE_SHADER after it, so the scopes above still hold for the caller.
 *
 * So before the sort: a barrier from the producer of the keys/values/count (e.g. a compute or
 * transfer write) to COMPUTE_SHADER with SHADER_READ|SHADER_WRITE, and from the previous user of
 * the scratch range (e.g. the previous sort: COMPUTE_SHADER|DRAW_INDIRECT, SHADER_WRITE) to
 * COMPUTE_SHADER with SHADER_READ|SHADER_WRITE - a memory dependency, not only an execution one:
 * both sorts write the same scratch words (write-after-write), persistent scratch or not.
 * After the sort: a barrier from COMPUTE_SHADER/SHADER_WRITE to the consumer (e.g. VERTEX_SHADER
 * or VERTEX_INPUT, HOST for a read-back). A count below 2 from the host records no dispatch at
 * all (only the timestamps, when asked for).
 *
 * Disturbed state: the compute pipeline, the descriptor set 0 binding and the push constants of
 * VK_PIPELINE_BIND_POINT_COMPUTE are left undefined; rebind them before your next dispatch.
 * Graphics state is untouched.
 */
vksort_result vksort_vk_cmd_sort(vksort_vk_sorter *sorter, VkCommandBuffer cmd,
                                 const vksort_vk_sort_info *info);

/*
 * Prepares a scratch range for a sorter created with VKSORT_VK_CREATE_PERSISTENT_SCRATCH: records
 * vkCmdFillBuffer commands that zero the words the sorts keep between them (the RANK small
 * sort's control words, the radix sorts' histograms; nothing for a bitonic-only sorter without
 * RANK). Record it once after binding the scratch memory, followed by a barrier
 * from TRANSFER (TRANSFER_WRITE) to COMPUTE_SHADER (SHADER_READ|SHADER_WRITE) before the first
 * sort. Errors: VKSORT_ERROR_INVALID_ARGUMENT (NULL or VK_NULL_HANDLE argument),
 * VKSORT_ERROR_MISALIGNED, VKSORT_ERROR_SCRATCH_TOO_SMALL (smaller than scratch_size); nothing
 * is recorded then. Harmless without the flag.
 */
vksort_result vksort_vk_cmd_init_scratch(vksort_vk_sorter *sorter, VkCommandBuffer cmd,
                                         const vksort_vk_buffer_range *scratch);

/* Timestamps written by a sort recorded with `info` (query_pool ignored here): one before the
 * first pass and one after each pass. 0 when info is invalid. */
uint32_t vksort_vk_timestamp_query_count(const vksort_vk_sorter *sorter,
                                         const vksort_vk_sort_info *info);

/* One pass of a recorded sort and the GPU time it took. */
typedef struct vksort_vk_pass_time {
    /* static: bitonic "prepare", "local_sort", "global_merge", "local_merge", "rank_sort"; radix
     * "radix_prepare", "histogram", "onesweep", "upsweep", "downsweep",
     * "copy", "onesweep_fused", "onesweep_fused_histogram" */
    const char *kind;
    uint32_t level;      /* bitonic: merge level (log2 of the block size it produces); radix:
                          * a scatter pass's position k among the sort's digit passes (it sorts
                          * the k-th digit that is not the same for every key) */
    char name[48];       /* e.g. "global_merge 2^14 strides 2^13..2^10" */
    double ms;
} vksort_vk_pass_time;

/* Turns the timestamps read back from the queries of a sort recorded with `info` (uint64 values,
 * as vkGetQueryPoolResults returns with VK_QUERY_RESULT_64_BIT) into per-pass milliseconds
 * using the device's timestampPeriod. *inout_pass_count: in, the capacity of out_passes (may be 0
 * with out_passes NULL); out, the number of passes. out_total_ms (optional): first to last
 * timestamp. Returns VKSORT_ERROR_INVALID_ARGUMENT when timestamp_count does not match
 * vksort_vk_timestamp_query_count(); passes beyond the capacity are dropped silently. */
vksort_result vksort_vk_timestamps_to_ms(const vksort_vk_sorter *sorter,
                                         const vksort_vk_sort_info *info,
                                         const uint64_t *timestamps, uint32_t timestamp_count,
                                         vksort_vk_pass_time *out_passes,
                                         uint32_t *inout_pass_count, double *out_total_ms);

/* Test mode (VKSORT_VK_CREATE_EMULATE_NO_FORWARD_PROGRESS): byte offset, from the scratch
 * range's offset, of a uint32 that a radix sort resets at its start and increments each time a
 * stalled workgroup stopped waiting because its bounded spin ran out. Read it after the sort
 * (before the scratch is reused). 0 after a radix sort without the flag; meaningless after a bitonic sort (AUTO may pick one for
 * small counts). */
VkDeviceSize vksort_vk_debug_stall_counter_offset(const vksort_vk_sorter *sorter);

/* VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK: byte offset, from the scratch range's offset, of a
 * uint32 that a radix sort with digit passes resets at its start and increments each time a
 * workgroup counted a predecessor's tile itself for its look-back (the number of fallbacks; on a GPU
 * that schedules fairly, rarely more than 0). Read it after the sort (before the scratch is
 * reused); meaningful after sorts of sorters with the flag. */
VkDeviceSize vksort_vk_debug_fallback_counter_offset(const vksort_vk_sorter *sorter);

/* radix_skew_ranking: byte offset, from the scratch range's offset, of a uint32 that a radix
 * sort with digit passes resets at its start and increments for each tile a digit pass ranked
 * skew-proof (a skewed pass adds its tile count). Read it after the sort (before the scratch is
 * reused); 0 after fused sorts and after sorts without a skewed digit position. */
VkDeviceSize vksort_vk_debug_skew_tile_counter_offset(const vksort_vk_sorter *sorter);

/* The hybrid path: byte offset, from the scratch range's offset, of a uint32 that a radix sort
 * that may take it (a host count in [radix_hybrid_min_count, radix_hybrid_max_count], the whole
 * 32 bits) sets to what it did: 0 digit by digit, 1 the hybrid path, 2 the hybrid path with
 * some chunks (long runs of duplicate keys) sorted by the chunk sort's stable radix sort, 3 the
 * hybrid path whose chunk sort found a chunk too large and ran the fallback's four digit
 * passes. Other sorts may leave it as it was. Read it after the sort (before the scratch is
 * reused). */
VkDeviceSize vksort_vk_debug_hybrid_status_offset(const vksort_vk_sorter *sorter);

#ifdef __cplusplus
}
#endif

#endif /* VKSORT_VULKAN_H */
