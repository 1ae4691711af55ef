/*
 * GPU sort benchmark: vksort (bitonic, onesweep, portable) and CUB DeviceRadixSort on the same
 * GPU, same sizes, one run. u32 keys, u32 pairs, f32 pairs, u64 keys, u64 pairs; n = 2^lo ..
 * 2^hi; optional bit range (e.g. --bits 0:16).
 *
 * vksort: device-local buffers; before every run fresh random input is generated on the GPU
 * (bench/gpu_fill.h: a new seed every run, outside the timed region but in the same command
 * buffer, so the GPU never waits for the host between runs: host work between runs let the
 * H200 drop its clocks to 345 MHz, and the next sorts ran 2-5x slower - docs/perf-notes.md,
 * ninth session); GPU time from the sort's own first/last timestamps; median of --runs (>= 20)
 * after warm-ups that keep the GPU busy until its clocks have settled (bench/bench_warmup.h);
 * every run (warm-ups too) is checked on the GPU after its sort (bench/shaders/check_sorted.comp:
 * order in the bit range, each payload's key, stability, and the input's multiset through two
 * order-independent sums), the results read once after the last run.
 * CUB: bench/cub_bench.h (cudaEvents, the same generator and the same check on every run) when
 * built with CUDA; a CUB failure fails the benchmark.
 * Also measures the copy rate (vkCmdCopyBuffer, read + write bytes) for the bandwidth floor:
 * bytes a radix sort must move = key (+payload) bytes x (1 histogram read of keys + 2 per
 * active digit pass), over the copy rate.
 *
 *   vksort-gpu-bench [--min-log2 10] [--max-log2 24] [--runs 20] [--bits LO:HI]
 *                    [--only u32keys,u32pairs,f32pairs,u64keys,u64pairs]
 *                    [--sorters bitonic,onesweep,...]
 *                    [--csv FILE] [--copy-tbps 4.2] [--radix-items N]
 *                    [--radix-wg N] [--radix-groups N] [--radix-compact] [--radix-fallback]
 *                    [--persistent-scratch]
 *                    [--frame SORTS] [--count N]
 *   --count N: one count, any value from 2 to 2^30 (e.g. 1000000), instead of the powers of two
 *   --radix-items: vksort_vk_sorter_create_info::radix_items_per_invocation (tuning)
 *   --radix-wg: vksort_vk_sorter_create_info::radix_workgroup_size (tuning)
 *   --radix-groups: vksort_vk_sorter_create_info::radix_onesweep_workgroups (tuning; a
 *                   --radix-wg geometry otherwise runs a workgroup per tile)
 *   --radix-partitioned: VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING
 *   --no-skew: VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING (Onesweep's digit passes never rank
 *              skew-proof and are compiled without that code: the per-pass skew choice
 *              measured against its absence)
 *   --radix-compact: VKSORT_VK_CREATE_RADIX_COMPACT_TILES (tuning)
 *   --radix-fallback: VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK (Onesweep without forward
 *                     progress, what the portable sorter runs on GPUs); the pass list of every
 *                     sort with the fallback ends with the last run's look-back fallbacks
 *                     (vksort_vk_debug_fallback_counter_offset)
 *   --radix-reduce-then-scan: VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN (the portable sorter
 *                     sorts by reduce-then-scan, its implementation before the fallback)
 *   --frame SORTS: per-frame mode: SORTS sorts of n keys each recorded in one command buffer
 *                 (one scratch, a barrier between sorts; CUB: SORTS sorts on one stream), time
 *                 per sort for n = 2^min-log2 .. 2^max-log2 (at least 2^10); --sorters may list
 *                 auto, bitonic, onesweep, portable, cub (default auto,cub)
 *   --validate: the validation layer (with synchronization validation) on; any message fails
 *               (either mode; timings are then meaningless)
 *   --persistent-scratch: VKSORT_VK_CREATE_PERSISTENT_SCRATCH (scratch prepared once with
 *                         vksort_vk_cmd_init_scratch; the RANK small sort records no fill)
 *   --no-buckets: radix_buckets OFF (small sorts digit by digit)
 *   --hybrid auto|on|off: radix_hybrid (default auto; off: 32-bit keys digit by digit, on: the
 *                 hybrid path for every count it can take)
 *   --total-timestamps: a vksort sort's time from two timestamps the bench writes around it
 *                 (at the sort's first and last timestamps' places), the sort recording none -
 *                 as CUB's events bracket its call; the per-pass breakdown then comes from one
 *                 more run, not counted. Default: the sort's own per-pass timestamps, whose
 *                 writes between the passes count in its time
 *   --print-runs: one line per run of a vksort sorter (warm-ups included): its GPU time and
 *                 each pass's, in the order of the pass list under the table (which is the
 *                 last run's) - to see which runs and passes make a median
 *   --dist depth: the keys are f32 bits of depths uniform in [1, 100) - a renderer's depth
 *                 keys, whose top digit has four values - instead of uniform random words
 *                 (32-bit keys only)
 *   --dist top:S: uniform random words, but S sixteenths of them (S 0..16) have the top byte
 *                 0x80 - the top digit as skewed as asked (32-bit keys only)
 *   --dist distinct:D: 2^D distinct random words (D 0..30), each about n / 2^D times - keys
 *                 with many duplicates, which the hybrid path's chunk sort sorts with its
 *                 stable radix sort and splits (32-bit keys only)
 *   --corrupt-keys, --corrupt-values: test hooks; after every sort the first key word (or
 *                 payload) is overwritten, so that the check must fail the run
 * A listed sorter without a time (a "-" cell) gets a line under its row saying why, once per
 * reason; where that is a vksort radix sorter refusing the --radix-* tuning, the exit status is 1.
 */
#include "bench_warmup.h"
#include "gpu_fill.h"
#include "shaders/bench_data.h"
#include "support/sort_check.h"
#include "support/test_data.h"
#include "support/vk_rig.h"
#include "vksort/vulkan.h"
#if VKSORT_HAVE_CUB_BENCH
#include "cub_bench.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warm-up bookkeeping of a timing loop (the rule: bench_warmup.h): after the run numbered r
 * (negative: a warm-up of `reps` sorts, the last of which took one_ms) returns the next r -
 * another warm-up (-1) until the GPU is warm. The first warm-up does not count: it runs from cold
 * (pipelines, caches, the persistent scratch's preparation). */
static int bench_next_run(int r, double one_ms, int reps, bench_warmup *w)
{
    if (r >= 0)
        return r + 1;
    const int warm = bench_warmup_step(w, one_ms, reps, w->runs > 0);
    if (r == -1 && !warm)
        return -1;
    return r + 1;
}

typedef struct workload {
    const char *name;
    vksort_key_type type;
    int payload;
    int cub_kind;
} workload;

static const workload workloads[] = {
    {"u32keys", VKSORT_KEY_U32, 0, 0},
    {"u32pairs", VKSORT_KEY_U32, 1, 1},
    {"f32pairs", VKSORT_KEY_F32, 1, 2},
    {"u64keys", VKSORT_KEY_U64, 0, 3},
    {"u64pairs", VKSORT_KEY_U64, 1, 4},
};
static const char *const sorter_names[] = {"bitonic", "onesweep", "portable", "cub"};

static vk_rig rig;
static gpu_fill fill; /* the input generator (bench/gpu_fill.h) */
static uint32_t radix_items; /* --radix-items (0: the sorter default) */
static uint32_t radix_wg;    /* --radix-wg (0: the sorter default) */
static uint32_t radix_groups; /* --radix-groups (0: the sorter default) */
static int radix_partitioned; /* --radix-partitioned */
static int radix_no_skew;     /* --no-skew */
static int persistent_scratch; /* --persistent-scratch */
static int radix_compact;      /* --radix-compact */
static int radix_fallback;     /* --radix-fallback */
static int radix_rts;          /* --radix-reduce-then-scan */
static int radix_no_buckets;   /* --no-buckets */
static vksort_vk_radix_hybrid radix_hybrid; /* --hybrid */
static int print_runs;         /* --print-runs */
static int total_timestamps;   /* --total-timestamps */
static gpu_fill_mode key_fill = GPU_FILL_RANDOM; /* --dist uniform|depth|top:S|distinct:D */
static int corrupt;            /* --corrupt-keys (1), --corrupt-values (2): test hooks */

/* The CSV's dist column. */
static const char *dist_name(void)
{
    static char top[24];
    if ((uint32_t)key_fill >= BENCH_FILL_DISTINCT_LOG2) {
        snprintf(top, sizeof top, "distinct:%u", (unsigned)key_fill - BENCH_FILL_DISTINCT_LOG2);
        return top;
    }
    if ((uint32_t)key_fill >= BENCH_FILL_TOP_SHARE) {
        snprintf(top, sizeof top, "top:%u", (unsigned)key_fill - BENCH_FILL_TOP_SHARE);
        return top;
    }
    return key_fill == GPU_FILL_DEPTH ? "depth" : "uniform";
}

/* The distributions other than uniform words are of 32-bit keys. */
static int dist_skips(vksort_key_type type)
{
    return key_fill != GPU_FILL_RANDOM && vksort_key_size(type) != 4;
}

/* The generator (when created) and the rig. */
static void bench_shutdown(void)
{
    gpu_fill_destroy(&fill);
    vk_rig_destroy(&rig);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v), the mean of the middle two for even n, as cub_bench.cu's;
 * -1 for none. */
static double median_of(double *v, int n)
{
    if (n <= 0)
        return -1;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int listed(const char *list, const char *name)
{
    if (!list)
        return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        if (strcmp(t, name) == 0)
            return 1;
    return 0;
}

/* Why CUB cannot run here ("" when it can): not in `sorters`, not built, or no CUDA device.
 * CUDA is asked only where CUB is listed (the question starts it). */
static void cub_unavailable(const char *sorters, char *why, size_t n)
{
    if (!listed(sorters, "cub")) {
        snprintf(why, n, "not listed");
        return;
    }
#if VKSORT_HAVE_CUB_BENCH
    if (cub_bench_available() == 0)
        why[0] = '\0';
    else
        snprintf(why, n, "%s", cub_bench_last_error());
#else
    snprintf(why, n, "not built (no CUDA)");
#endif
}

/* Copy rate in bytes/s (read + write) from a large device-to-device copy. */
static double measure_copy_rate(void)
{
    const VkDeviceSize bytes = (VkDeviceSize)1 << 30;
    vk_rig_buffer a, b;
    if (vk_rig_buffer_create(&rig, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, &a) ||
        vk_rig_buffer_create(&rig, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &b))
        return 0;
    VkQueryPool pool;
    VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qp.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qp.queryCount = 2;
    vkCreateQueryPool(rig.device, &qp, NULL, &pool);
    double best = 1e30;
    bench_warmup warm;
    bench_warmup_init(&warm);
    /* Warm-up copies as the sorts' warm-ups (clocks up), then 5 timed. */
    for (int r = -2; r < 5;) {
        VkCommandBuffer cmd = vk_rig_begin(&rig);
        vkCmdResetQueryPool(cmd, pool, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
        VkBufferCopy region = {0, 0, bytes};
        vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &region);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
        vk_rig_submit_wait(&rig, cmd);
        uint64_t ts[2];
        vkGetQueryPoolResults(rig.device, pool, 0, 2, sizeof ts, ts, 8,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        double ms = (double)(ts[1] - ts[0]) * rig.props.limits.timestampPeriod * 1e-6;
        if (r >= 0 && ms < best)
            best = ms;
        r = bench_next_run(r, ms, 1, &warm);
    }
    vkDestroyQueryPool(rig.device, pool, NULL);
    vk_rig_buffer_destroy(&rig, &a);
    vk_rig_buffer_destroy(&rig, &b);
    return 2.0 * (double)bytes / (best * 1e-3);
}

/* The "[x CUB]" cell of a table row: CUB's time over this one (ratio), or "[  - ]" where there
 * is no CUB time (ratio 0: not built, or not asked for). */
static const char *ratio_cell(double ratio, char cell[16])
{
    if (ratio > 0)
        snprintf(cell, 16, "[%4.2f]", ratio);
    else
        snprintf(cell, 16, "[  - ]");
    return cell;
}

/* A sorter of `algo` for the workload and up to n keys with the command line's tuning, or NULL
 * with the reason in detail. */
static vksort_vk_sorter *bench_sorter(vksort_vk_algorithm algo, const workload *w, uint32_t n,
                                      char *detail, size_t detail_len)
{
    vksort_vk_sorter_create_info ci;
    sort_check_create_info(&rig, &ci);
    ci.key_type = w->type;
    ci.has_payload = w->payload ? VK_TRUE : VK_FALSE;
    ci.max_count = n;
    ci.algorithm = algo;
    ci.radix_items_per_invocation = radix_items;
    ci.radix_workgroup_size = radix_wg;
    ci.radix_onesweep_workgroups = radix_groups;
    ci.radix_buckets = radix_no_buckets ? VKSORT_VK_RADIX_BUCKETS_OFF : VKSORT_VK_RADIX_BUCKETS_AUTO;
    ci.radix_hybrid = radix_hybrid;
    ci.flags = (radix_partitioned ? VKSORT_VK_CREATE_RADIX_PARTITIONED_RANKING : 0u) |
               (radix_no_skew ? VKSORT_VK_CREATE_RADIX_NO_SKEW_RANKING : 0u) |
               (persistent_scratch ? VKSORT_VK_CREATE_PERSISTENT_SCRATCH : 0u) |
               (radix_compact ? VKSORT_VK_CREATE_RADIX_COMPACT_TILES : 0u) |
               (radix_fallback ? VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK : 0u) |
               (radix_rts ? VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN : 0u) |
               (rig.pipeline_robustness ? VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS : 0u);
    ci.enabled_extension_count = rig.enabled_extension_count;
    ci.enabled_extensions = rig.enabled_extensions;
    vksort_vk_diagnostics diag;
    ci.diagnostics = &diag;
    vksort_vk_sorter *s = NULL;
    if (vksort_vk_sorter_create(&ci, &s) != VKSORT_SUCCESS) {
        snprintf(detail, detail_len, "%s", diag.message);
        return NULL;
    }
    return s;
}

/* The buffers of one timed configuration: device-local keys (+ payload) and scratch, the
 * check's result words, their descriptor sets for the generator and the check, and a small
 * host-visible read-back (the check's words, the fallback counter). */
typedef struct bench_buffers {
    vk_rig_buffer keys, vals, scratch, check, back;
    VkDescriptorSet fill_keys, fill_vals, check_set;
    VkDeviceSize key_bytes, value_bytes; /* value_bytes 0: no payload */
} bench_buffers;

static void bench_buffers_destroy(bench_buffers *b)
{
    gpu_fill_release(&fill, b->fill_keys);
    gpu_fill_release(&fill, b->fill_vals);
    gpu_fill_release(&fill, b->check_set);
    vk_rig_buffer_destroy(&rig, &b->keys);
    vk_rig_buffer_destroy(&rig, &b->vals);
    vk_rig_buffer_destroy(&rig, &b->scratch);
    vk_rig_buffer_destroy(&rig, &b->check);
    vk_rig_buffer_destroy(&rig, &b->back);
    b->fill_keys = b->fill_vals = b->check_set = VK_NULL_HANDLE;
}

/* For `elements` keys of the workload (and their payloads); 0, or -1 with nothing left. */
static int bench_buffers_create(bench_buffers *b, const workload *w, VkDeviceSize elements,
                                const vksort_vk_memory_requirements *req)
{
    memset(b, 0, sizeof *b);
    const VkDeviceSize kb = elements * vksort_key_size(w->type), vb = elements * 4;
    if (kb / 4 > UINT32_MAX) /* the generator counts 32-bit words in 32 bits */
        return -1;
    const VkBufferUsageFlags st = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    int err = vk_rig_buffer_create(&rig, kb, st, 0, &b->keys) ||
              /* (a transfer source too: --radix-fallback reads its fallback counter) */
              vk_rig_buffer_create(&rig, req->scratch_size,
                                   req->scratch_usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
                                   &b->scratch) ||
              vk_rig_buffer_create(&rig, BENCH_CHECK_WORDS * 4, st, 0, &b->check) ||
              vk_rig_buffer_create(&rig, BENCH_CHECK_WORDS * 4, st, 1, &b->back);
    if (w->payload)
        err = err || vk_rig_buffer_create(&rig, vb, st, 0, &b->vals);
    if (!err) {
        b->fill_keys = gpu_fill_bind(&fill, b->keys.buffer);
        b->fill_vals = w->payload ? gpu_fill_bind(&fill, b->vals.buffer) : VK_NULL_HANDLE;
        b->check_set = gpu_check_bind(&fill, b->keys.buffer, w->payload ? b->vals.buffer : VK_NULL_HANDLE,
                                      b->check.buffer);
        err = !b->fill_keys || (w->payload && !b->fill_vals) || !b->check_set;
    }
    if (err)
        bench_buffers_destroy(b);
    b->key_bytes = kb;
    b->value_bytes = w->payload ? vb : 0;
    return err ? -1 : 0;
}

/* Zeroes the check's result words (before the configuration's first check). */
static void bench_record_check_reset(const bench_buffers *b, VkCommandBuffer cmd)
{
    vkCmdFillBuffer(cmd, b->check.buffer, 0, BENCH_CHECK_WORDS * 4, 0);
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

/* A run's input, generated on the GPU: fresh random keys (a new seed every run) and payloads
 * 0, 1, ..., then a barrier that makes them visible to the sort. The first barrier orders the
 * generator's writes after the previous run's sort and check (earlier in the command buffer or
 * in earlier submissions), and makes a persistent scratch's fill (vksort_vk_cmd_init_scratch,
 * recorded before) available to the compute stage: the barrier chain carries it to the sort. */
static void bench_record_input(const bench_buffers *b, VkCommandBuffer cmd, uint32_t seed)
{
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    gpu_fill_record(&fill, cmd, b->fill_keys, b->key_bytes / 4u, seed, key_fill);
    if (b->value_bytes)
        gpu_fill_record(&fill, cmd, b->fill_vals, b->value_bytes / 4u, 0u, GPU_FILL_INDEX);
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

/* The check of `sorts` sorts of n elements each (sort i: elements [i n, (i + 1) n)) after their
 * last writes; with --corrupt-*, the first key word or payload overwritten first. */
static void bench_record_check(const bench_buffers *b, VkCommandBuffer cmd, const workload *w,
                               uint32_t n, int sorts, uint32_t seed, uint32_t bit_lo,
                               uint32_t bit_hi, int stable)
{
    if (corrupt) {
        vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        const int keys = corrupt == 1 || !w->payload;
        vkCmdFillBuffer(cmd, keys ? b->keys.buffer : b->vals.buffer, 0, 4, keys ? 0u : 7u);
        vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    gpu_check_info ci;
    memset(&ci, 0, sizeof ci);
    ci.n = n;
    ci.seed = seed;
    ci.mode = (uint32_t)key_fill;
    ci.key_words = (uint32_t)vksort_key_size(w->type) / 4u;
    ci.encoding = w->type == VKSORT_KEY_F32 || w->type == VKSORT_KEY_F64   ? BENCH_ENC_FLOAT
                  : w->type == VKSORT_KEY_I32 || w->type == VKSORT_KEY_I64 ? BENCH_ENC_SIGNED
                                                                           : BENCH_ENC_UNSIGNED;
    bench_range_masks(ci.key_words, bit_lo, bit_hi, &ci.mask_lo, &ci.mask_hi);
    ci.flags = (w->payload ? GPU_CHECK_PAIRS : 0u) | (stable ? GPU_CHECK_STABLE : 0u);
    for (int i = 0; i < sorts; ++i) {
        ci.base = n * (uint32_t)i;
        gpu_check_record(&fill, cmd, b->check_set, &ci);
    }
}

/* Reads the check's result words back (a submission of its own, after the last run): 0 when
 * every check passed, else 1 with what failed on stderr. */
static int bench_check_result(const bench_buffers *b, const char *what, uint32_t n)
{
    VkCommandBuffer cmd = vk_rig_begin(&rig);
    if (!cmd)
        return 1;
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy c = {0, 0, BENCH_CHECK_WORDS * 4};
    vkCmdCopyBuffer(cmd, b->check.buffer, b->back.buffer, 1, &c);
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (vk_rig_submit_wait(&rig, cmd) != 0) {
        fprintf(stderr, "vksort-gpu-bench: %s n=%u: the check's read-back failed\n", what, n);
        return 1;
    }
    uint32_t r[BENCH_CHECK_WORDS];
    memcpy(r, b->back.mapped, sizeof r);
    char why[160];
    if (!bench_check_failed(r, why, sizeof why))
        return 0;
    fprintf(stderr, "vksort-gpu-bench: %s n=%u: %s\n", what, n, why);
    return 1;
}

/* Median GPU ms of a vksort algorithm, or a negative value when it cannot run. */
static double time_vksort(vksort_vk_algorithm algo, const workload *w, uint32_t n, int runs,
                          uint32_t bit_lo, uint32_t bit_hi, int *check_failed, char *detail,
                          size_t detail_len)
{
    vksort_vk_sorter *s = bench_sorter(algo, w, n, detail, detail_len);
    if (!s)
        return -1;
    vksort_vk_memory_requirements req;
    vksort_vk_get_memory_requirements(s, &req);
    const size_t ks = vksort_key_size(w->type);
    bench_buffers bb;
    if (bench_buffers_create(&bb, w, n, &req) != 0) {
        vksort_vk_sorter_destroy(s);
        snprintf(detail, detail_len, "buffer allocation failed");
        return -1;
    }
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){bb.keys.buffer, 0, (VkDeviceSize)n * ks};
    if (w->payload)
        si.values = (vksort_vk_buffer_range){bb.vals.buffer, 0, (VkDeviceSize)n * 4};
    si.scratch = (vksort_vk_buffer_range){bb.scratch.buffer, 0, req.scratch_size};
    si.count = n;
    si.bit_begin = bit_lo;
    si.bit_end = bit_hi;
    si.flags = algo == VKSORT_VK_ALGORITHM_BITONIC ? 0 : VKSORT_FLAG_STABLE;
    const uint32_t nts = vksort_vk_timestamp_query_count(s, &si);
    VkQueryPool pool = VK_NULL_HANDLE;
    VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qp.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qp.queryCount = nts;
    double *times = calloc((size_t)runs, sizeof *times);
    uint64_t *ts = calloc(nts ? nts : 1, sizeof *ts);
    int err = 0;
    if (nts < 2) {
        snprintf(detail, detail_len, "%s", vksort_vk_sorter_last_message(s));
        err = 1;
    } else if (!times || !ts || vkCreateQueryPool(rig.device, &qp, NULL, &pool) != VK_SUCCESS) {
        snprintf(detail, detail_len, "allocation failed");
        err = 1;
    }
    si.query_pool = pool;
    int measured = 0;
    uint32_t seed = 7919u;
    bench_warmup warm;
    bench_warmup_init(&warm);
    /* --total-timestamps: run `runs` (the measured one) takes the per-pass timestamps for the
     * breakdown and is not counted. */
    const int last_run = runs + (total_timestamps ? 1 : 0);
    for (int r = -2; !err && r < last_run;) {
        const int first = r < 0 && warm.runs == 0;
        const int reps = r < 0 && !first ? warm.batch : 1;
        const int pass_stamps = !total_timestamps || r == runs;
        const uint32_t stamps = pass_stamps ? nts : 2u;
        si.query_pool = pass_stamps ? pool : VK_NULL_HANDLE;
        VkCommandBuffer cmd = vk_rig_begin(&rig);
        if (!cmd) {
            err = 1;
            break;
        }
        /* A persistent scratch is prepared once, in the first warm-up run (the input's first
         * barrier covers its fill too); the check's words are zeroed then. */
        if (first) {
            bench_record_check_reset(&bb, cmd);
            if (persistent_scratch && vksort_vk_cmd_init_scratch(s, cmd, &si.scratch) != VKSORT_SUCCESS)
                err = 1;
        }
        /* The sort resets its own queries (with --total-timestamps the bench resets and writes
         * its two around the sort, but for the breakdown's run): the timestamps are the last
         * repetition's. Every sort is checked on the GPU after it, outside its timestamps. */
        for (int rep = 0; !err && rep < reps; ++rep) {
            const uint32_t run_seed = seed++;
            if (!pass_stamps)
                vkCmdResetQueryPool(cmd, pool, 0, 2);
            bench_record_input(&bb, cmd, run_seed);
            if (!pass_stamps)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 0);
            if (vksort_vk_cmd_sort(s, cmd, &si) != VKSORT_SUCCESS) {
                snprintf(detail, detail_len, "%s", vksort_vk_sorter_last_message(s));
                err = 1;
            }
            if (!pass_stamps)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 1);
            bench_record_check(&bb, cmd, w, n, 1, run_seed, bit_lo, bit_hi,
                               algo != VKSORT_VK_ALGORITHM_BITONIC);
        }
        if (vk_rig_submit_wait(&rig, cmd) != 0 ||
            vkGetQueryPoolResults(rig.device, pool, 0, stamps, stamps * 8, ts, 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
            err = 1;
        if (err)
            break;
        const double ms = (double)(ts[stamps - 1] - ts[0]) * rig.props.limits.timestampPeriod * 1e-6;
        if (print_runs && !pass_stamps) {
            printf("      run %s%d: %.4f ms (total timestamps)\n", r < 0 ? "warm-up " : "",
                   r < 0 ? warm.runs : r, ms);
        } else if (print_runs) {
            vksort_vk_pass_time run_passes[64];
            uint32_t run_np = 64;
            double run_total = 0;
            printf("      run %s%d%s: %.4f ms:", r < 0 ? "warm-up " : "", r < 0 ? warm.runs : r,
                   r >= runs ? " (breakdown, not counted)" : "", ms);
            if (vksort_vk_timestamps_to_ms(s, &si, ts, nts, run_passes, &run_np, &run_total) ==
                VKSORT_SUCCESS)
                for (uint32_t i = 0; i < run_np && i < 64; ++i)
                    printf(" %.1f", run_passes[i].ms * 1e3);
            printf(" us\n");
        }
        if (r >= 0 && r < runs)
            times[measured++] = ms;
        r = bench_next_run(r, ms, reps, &warm);
    }
    double med = -1;
    if (err) {
        /* A sort that could not be recorded or run: a failed cell, with its reason. */
        *check_failed = 1;
        if (!detail[0])
            snprintf(detail, detail_len, "the run failed (submission or query read-back)");
    } else {
        if (bench_check_result(&bb, w->name, n))
            *check_failed = 1;
        med = median_of(times, measured);
        /* Per-pass breakdown of the last run for the detail column. */
        vksort_vk_pass_time passes[64];
        uint32_t np = 64;
        double total = 0;
        detail[0] = '\0';
        vksort_vk_sorter_properties props;
        vksort_vk_get_sorter_properties(s, &props);
        if (vksort_vk_timestamps_to_ms(s, &si, ts, nts, passes, &np, &total) == VKSORT_SUCCESS) {
            size_t used = 0;
            /* The geometry this count took: small, the wave band's, mid or the default tiles. */
            uint32_t tile, workgroup;
            sort_check_radix_geometry(&props, n, &tile, &workgroup);
            const int long_blocks =
                props.radix_long_blocks_min_count && n >= props.radix_long_blocks_min_count;
            if (props.radix_tile_size)
                used += (size_t)snprintf(detail, detail_len, "[wg %u tile %u%s] ", workgroup, tile,
                                         long_blocks ? ", long blocks" : "");
            for (uint32_t i = 0; i < np && i < 64 && used + 32 < detail_len; ++i)
                used += (size_t)snprintf(detail + used, detail_len - used, "%s%s=%.1fus",
                                         i ? " " : "", passes[i].name, passes[i].ms * 1e3);
        }
        if (props.radix_lookback_fallback_polls) {
            /* The last run's fallbacks: its counter word, read back through the check buffer. */
            VkCommandBuffer cmd = vk_rig_begin(&rig);
            vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            VkBufferCopy cc = {vksort_vk_debug_fallback_counter_offset(s), 0, 4};
            vkCmdCopyBuffer(cmd, bb.scratch.buffer, bb.back.buffer, 1, &cc);
            vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
            vk_rig_submit_wait(&rig, cmd);
            uint32_t fallbacks;
            memcpy(&fallbacks, bb.back.mapped, sizeof fallbacks);
            const size_t used = strlen(detail);
            snprintf(detail + used, detail_len - used, " fallbacks=%u", fallbacks);
        }
    }
    free(times);
    free(ts);
    if (pool)
        vkDestroyQueryPool(rig.device, pool, NULL);
    bench_buffers_destroy(&bb);
    vksort_vk_sorter_destroy(s);
    return med;
}

/* Frame mode (--frame SORTS): SORTS sorts of n elements each - their own key and payload ranges,
 * one scratch reused with a barrier between sorts, as an engine sorting several emitters -
 * recorded in one command buffer. GPU time from a timestamp before the first sort to one after
 * the last, divided by SORTS; median of `runs` after the warm-ups (bench_warmup.h); fresh input
 * generated in every run; every sort of every run checked on the GPU (bench_record_check).
 * Returns ms per sort, or a negative value. */
static double time_vksort_frame(vksort_vk_algorithm algo, const workload *w, uint32_t n, int sorts,
                                int runs, int *check_failed, char *detail, size_t detail_len)
{
    vksort_vk_sorter *s = bench_sorter(algo, w, n, detail, detail_len);
    if (!s)
        return -1;
    vksort_vk_memory_requirements req;
    vksort_vk_get_memory_requirements(s, &req);
    const size_t ks = vksort_key_size(w->type);
    const VkDeviceSize key_bytes = (VkDeviceSize)n * ks, val_bytes = (VkDeviceSize)n * 4;
    if (key_bytes % req.keys_alignment || val_bytes % req.values_alignment) {
        vksort_vk_sorter_destroy(s);
        snprintf(detail, detail_len, "ranges of %u keys break the offset alignment", n);
        return -1;
    }
    bench_buffers bb;
    int err = bench_buffers_create(&bb, w, (VkDeviceSize)n * (VkDeviceSize)sorts, &req) != 0;
    VkQueryPool pool = VK_NULL_HANDLE;
    VkQueryPoolCreateInfo qp = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qp.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qp.queryCount = 2;
    double *times = calloc((size_t)runs, sizeof *times);
    if (err || !times || vkCreateQueryPool(rig.device, &qp, NULL, &pool) != VK_SUCCESS) {
        snprintf(detail, detail_len, "allocation failed");
        err = 1;
    }
    int measured = 0;
    uint32_t seed = 104729u;
    bench_warmup warm;
    bench_warmup_init(&warm);
    for (int r = -2; !err && r < runs;) {
        const int first = r < 0 && warm.runs == 0;
        const int reps = r < 0 && !first ? warm.batch : 1;
        VkCommandBuffer cmd = vk_rig_begin(&rig);
        if (!cmd) {
            *check_failed = 1;
            break;
        }
        vksort_vk_buffer_range sr = {bb.scratch.buffer, 0, req.scratch_size};
        if (first)
            bench_record_check_reset(&bb, cmd);
        if (persistent_scratch && first && vksort_vk_cmd_init_scratch(s, cmd, &sr) != VKSORT_SUCCESS)
            *check_failed = 1;
        vkCmdResetQueryPool(cmd, pool, 0, 2);
        /* A warm-up records `reps` frames; the timestamps are the last one's. */
        for (int rep = 0; rep < reps; ++rep) {
            const uint32_t run_seed = seed++;
            bench_record_input(&bb, cmd, run_seed);
            if (rep == reps - 1)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 0);
            for (int i = 0; i < sorts; ++i) {
                vksort_vk_sort_info si;
                memset(&si, 0, sizeof si);
                si.keys = (vksort_vk_buffer_range){bb.keys.buffer, key_bytes * (VkDeviceSize)i, key_bytes};
                if (w->payload)
                    si.values = (vksort_vk_buffer_range){bb.vals.buffer, val_bytes * (VkDeviceSize)i, val_bytes};
                si.scratch = sr;
                si.count = n;
                si.flags = VKSORT_FLAG_STABLE;
                if (i > 0) /* the scratch's previous user: the sort before */
                    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                                   VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
                if (vksort_vk_cmd_sort(s, cmd, &si) != VKSORT_SUCCESS)
                    *check_failed = 1;
            }
            /* The last frame's end stamp before its checks (the checks are not the frame's). */
            if (rep == reps - 1)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 1);
            bench_record_check(&bb, cmd, w, n, sorts, run_seed, 0, 0, 1);
        }
        uint64_t ts[2];
        if (vk_rig_submit_wait(&rig, cmd) != 0 ||
            vkGetQueryPoolResults(rig.device, pool, 0, 2, sizeof ts, ts, 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS) {
            *check_failed = 1;
            break;
        }
        const double ms = (double)(ts[1] - ts[0]) * rig.props.limits.timestampPeriod * 1e-6;
        if (r >= 0)
            times[measured++] = ms / sorts;
        r = bench_next_run(r, ms, reps, &warm);
    }
    double med = median_of(times, measured);
    if (!err && measured && bench_check_result(&bb, w->name, n))
        *check_failed = 1;
    free(times);
    if (pool)
        vkDestroyQueryPool(rig.device, pool, NULL);
    bench_buffers_destroy(&bb); /* zeroed when its creation failed */
    vksort_vk_sorter_destroy(s);
    return med;
}

/* Frame mode's table: per workload and n, the time per sort of each listed sorter (AUTO
 * included) and CUB; CSV rows workload,n,sorts,sorter,us_per_sort,ratio_to_cub. */
static int run_frames(int lo, int hi, int sorts, int runs, const char *only, const char *sorters,
                      const char *cub_missing, FILE *csv)
{
    static const char *const names[] = {"auto", "bitonic", "onesweep", "portable", "cub"};
    int failed = 0;
    if (csv)
        fprintf(csv, "workload,n,sorts,sorter,us_per_sort,ratio_to_cub,dist,ok\n");
    for (size_t wi = 0; wi < sizeof workloads / sizeof workloads[0]; ++wi) {
        const workload *w = &workloads[wi];
        if (!listed(only, w->name) || dist_skips(w->type))
            continue;
        printf("\n%s, %d sorts per command buffer: median us per sort [x CUB]\n", w->name, sorts);
        for (int lg = lo; lg <= hi; ++lg) {
            const uint32_t n = 1u << lg;
            double us[5] = {-1, -1, -1, -1, -1};
            char detail[5][256];
            int bad[5] = {0, 0, 0, 0, 0};
            for (int k = 0; k < 5; ++k) {
                detail[k][0] = '\0';
                if (!listed(sorters, names[k]))
                    continue;
                if (k < 4) {
                    double ms = time_vksort_frame((vksort_vk_algorithm)k, w, n, sorts, runs, &bad[k],
                                                  detail[k], sizeof detail[k]);
                    us[k] = ms >= 0 ? ms * 1e3 : -1;
                } else {
                    snprintf(detail[k], sizeof detail[k], "%s", cub_missing);
#if VKSORT_HAVE_CUB_BENCH
                    double ms;
                    if (!cub_missing[0]) {
                        if (cub_bench_time_frame(w->cub_kind, n, 0, 0, runs, sorts, (int)key_fill,
                                                 &ms) == 0)
                            us[k] = ms * 1e3;
                        else {
                            snprintf(detail[k], sizeof detail[k], "%s", cub_bench_last_error());
                            bad[k] = 1;
                        }
                    }
#endif
                }
                failed |= bad[k];
            }
            printf("2^%-3d", lg);
            for (int k = 0; k < 5; ++k) {
                if (us[k] < 0) {
                    printf(" | %-8s %15s", names[k], "-");
                    continue;
                }
                double ratio = us[4] > 0 ? us[4] / us[k] : 0;
                char cell[16];
                printf(" | %-8s %8.2f %s%s", names[k], us[k], ratio_cell(ratio, cell),
                       bad[k] ? " UNSORTED" : "");
                if (csv)
                    fprintf(csv, "%s,%u,%d,%s,%.3f,%.4f,%s,%d\n", w->name, n, sorts, names[k], us[k],
                            ratio, dist_name(), !bad[k]);
            }
            printf("\n");
            for (int k = 0; k < 5; ++k)
                if (listed(sorters, names[k]) && us[k] < 0 && detail[k][0])
                    printf("      %s: %s\n", names[k], detail[k]);
            fflush(stdout);
        }
    }
    return failed;
}

int main(int argc, char **argv)
{
    int lo = 10, hi = 24, runs = 20;
    uint32_t bit_lo = 0, bit_hi = 0;
    const char *only = NULL, *sorters = NULL, *csv_path = NULL;
    double copy_tbps = 0;
    int frame_sorts = 0, validate = 0;
    long long one_count = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--min-log2") && v) lo = atoi(argv[++i]);
        else if (!strcmp(a, "--max-log2") && v) hi = atoi(argv[++i]);
        else if (!strcmp(a, "--runs") && v) runs = atoi(argv[++i]);
        else if (!strcmp(a, "--only") && v) only = argv[++i];
        else if (!strcmp(a, "--sorters") && v) sorters = argv[++i];
        else if (!strcmp(a, "--csv") && v) csv_path = argv[++i];
        else if (!strcmp(a, "--copy-tbps") && v) copy_tbps = atof(argv[++i]);
        else if (!strcmp(a, "--radix-items") && v) radix_items = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--radix-wg") && v) radix_wg = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--radix-groups") && v) radix_groups = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(a, "--persistent-scratch")) persistent_scratch = 1;
        else if (!strcmp(a, "--radix-compact")) radix_compact = 1;
        else if (!strcmp(a, "--radix-fallback")) radix_fallback = 1;
        else if (!strcmp(a, "--radix-reduce-then-scan")) radix_rts = 1;
        else if (!strcmp(a, "--frame") && v) frame_sorts = atoi(argv[++i]);
        else if (!strcmp(a, "--count") && v) one_count = atoll(argv[++i]);
        else if (!strcmp(a, "--validate")) validate = 1;
        else if (!strcmp(a, "--radix-partitioned")) radix_partitioned = 1;
        else if (!strcmp(a, "--no-skew")) radix_no_skew = 1;
        else if (!strcmp(a, "--no-buckets")) radix_no_buckets = 1;
        else if (!strcmp(a, "--hybrid") && v && !strcmp(v, "auto")) { radix_hybrid = VKSORT_VK_RADIX_HYBRID_AUTO; ++i; }
        else if (!strcmp(a, "--hybrid") && v && !strcmp(v, "on")) { radix_hybrid = VKSORT_VK_RADIX_HYBRID_ON; ++i; }
        else if (!strcmp(a, "--hybrid") && v && !strcmp(v, "off")) { radix_hybrid = VKSORT_VK_RADIX_HYBRID_OFF; ++i; }
        else if (!strcmp(a, "--print-runs")) print_runs = 1;
        else if (!strcmp(a, "--total-timestamps")) total_timestamps = 1;
        else if (!strcmp(a, "--corrupt-keys")) corrupt = 1;
        else if (!strcmp(a, "--corrupt-values")) corrupt = 2;
        else if (!strcmp(a, "--dist") && v && !strcmp(v, "uniform")) { key_fill = GPU_FILL_RANDOM; ++i; }
        else if (!strcmp(a, "--dist") && v && !strcmp(v, "depth")) { key_fill = GPU_FILL_DEPTH; ++i; }
        else if (!strcmp(a, "--dist") && v && !strncmp(v, "top:", 4) && atoi(v + 4) >= 0 && atoi(v + 4) <= 16) {
            key_fill = (gpu_fill_mode)(BENCH_FILL_TOP_SHARE + (uint32_t)atoi(v + 4));
            ++i;
        }
        else if (!strcmp(a, "--dist") && v && !strncmp(v, "distinct:", 9) && atoi(v + 9) >= 0 &&
                 atoi(v + 9) <= (int)BENCH_FILL_DISTINCT_MAX_LOG2) {
            key_fill = (gpu_fill_mode)(BENCH_FILL_DISTINCT_LOG2 + (uint32_t)atoi(v + 9));
            ++i;
        }
        else if (!strcmp(a, "--bits") && v && sscanf(argv[++i], "%u:%u", &bit_lo, &bit_hi) == 2) {}
        else {
            fprintf(stderr, "usage: vksort-gpu-bench [--min-log2 K] [--max-log2 K] [--runs R] "
                            "[--bits LO:HI] [--only LIST] [--sorters LIST] [--csv FILE] "
                            "[--copy-tbps X] [--radix-items N] [--radix-wg N] [--radix-groups N] "
                            "[--radix-compact] [--radix-partitioned] [--no-skew] "
                            "[--radix-fallback] [--radix-reduce-then-scan] "
                            "[--persistent-scratch] [--no-buckets] [--hybrid auto|on|off] "
                            "[--dist uniform|depth|top:S|distinct:D] "
                            "[--frame SORTS] [--count N] [--validate] [--print-runs] "
                            "[--total-timestamps]\n");
            return 2;
        }
    }
    if (frame_sorts < 0 || frame_sorts > 256) {
        fprintf(stderr, "vksort-gpu-bench: --frame takes 1 .. 256 sorts\n");
        return 2;
    }
    if (frame_sorts && (bit_lo || bit_hi)) {
        fprintf(stderr, "vksort-gpu-bench: --frame sorts every bit (no --bits)\n");
        return 2;
    }
    if (runs < 20)
        runs = 20;
    if (lo < 1 || hi > 30 || lo > hi) {
        fprintf(stderr, "vksort-gpu-bench: --min-log2 and --max-log2 take 1 <= lo <= hi <= 30\n");
        return 2;
    }
    if (one_count && (one_count < 2 || one_count > (1ll << 30) || frame_sorts)) {
        fprintf(stderr, "vksort-gpu-bench: --count takes 2 .. 2^30 (and no --frame)\n");
        return 2;
    }
    vk_rig_options opt = {validate, -1, 0};
    if (vk_rig_create(&rig, &opt) != 0)
        return 1;
    if (gpu_fill_create(&fill, rig.device) != 0) {
        bench_shutdown();
        return 1;
    }
    if (frame_sorts && (lo < 10 || (uint64_t)frame_sorts << hi > (1ull << 28))) {
        fprintf(stderr, "vksort-gpu-bench: --frame needs n >= 2^10 and SORTS x 2^max-log2 <= 2^28\n");
        bench_shutdown();
        return 2;
    }
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv_path && !csv) {
        fprintf(stderr, "vksort-gpu-bench: cannot write %s\n", csv_path);
        bench_shutdown();
        return 1;
    }
    /* What the sorters were created with, for the record. */
    const char *scratch_mode = persistent_scratch ? "; persistent scratch" : "";
    const char *bounds_mode = rig.pipeline_robustness ? "; no buffer bounds checks" : "";
    /* CUB: where it is built and a CUDA device is present, any failure of its cells fails the
     * run (its check included); without a device its cells say why. */
    if (frame_sorts && !sorters)
        sorters = "auto,cub";
    char cub_missing[256];
    cub_unavailable(sorters, cub_missing, sizeof cub_missing);
    if (frame_sorts) {
        printf("device: %s, subgroup %u%s%s; %d runs per cell\n", rig.props.deviceName,
               rig.subgroup_size, scratch_mode, bounds_mode, runs);
        int bad = run_frames(lo, hi, frame_sorts, runs, only, sorters, cub_missing, csv);
        if (csv)
            fclose(csv);
        if (validate && rig.messages) {
            fprintf(stderr, "vksort-gpu-bench: %d validation messages\n", (int)rig.messages);
            bad = 1;
        }
        bench_shutdown();
        return bad ? 1 : 0;
    }
    if (csv)
        fprintf(csv, "workload,n,bits,sorter,median_ms,gkeys_per_s,ratio_to_cub,floor_fraction,"
                     "dist,ok\n");
    /* vkCmdCopyBuffer may run on a copy engine slower than the SMs: --copy-tbps gives the
     * device-to-device rate measured with compute (e.g. CUDA/PyTorch) for the floor instead. */
    double measured = measure_copy_rate();
    double copy_rate = copy_tbps > 0 ? copy_tbps * 1e12 : measured;
    printf("device: %s, subgroup %u%s%s; vkCmdCopyBuffer %.2f TB/s (read+write); floor uses "
           "%.2f TB/s; %d runs per cell\n",
           rig.props.deviceName, rig.subgroup_size, scratch_mode, bounds_mode, measured / 1e12,
           copy_rate / 1e12, runs);
    int failed = 0;
    char said[4][1024] = {{0}}; /* the last reason printed for each sorter without a time */
    for (size_t wi = 0; wi < sizeof workloads / sizeof workloads[0]; ++wi) {
        const workload *w = &workloads[wi];
        if (!listed(only, w->name) || dist_skips(w->type))
            continue;
        uint32_t rb, re;
        if (vksort_resolve_bit_range(w->type, bit_lo, bit_hi, &rb, &re) != VKSORT_SUCCESS) {
            printf("\n%s: --bits %u:%u is not a bit range of its keys: not run\n", w->name, bit_lo,
                   bit_hi);
            failed = 1;
            continue;
        }
        char bits_note[32] = "", dist_note[32];
        snprintf(dist_note, sizeof dist_note, " %s keys", dist_name());
        if (bit_lo || bit_hi)
            snprintf(bits_note, sizeof bits_note, " bits [%u, %u)", rb, re);
        printf("\n%s%s%s: median ms (G keys/s) [x CUB] {fraction of the bandwidth floor}\n",
               w->name, bits_note, key_fill == GPU_FILL_RANDOM ? "" : dist_note);
        /* --count: one row of that count, limited as its power of two rounded up. */
        int count_lg = 0;
        while (one_count && (1ll << count_lg) < one_count)
            ++count_lg;
        const int first = one_count ? count_lg : lo, last = one_count ? count_lg : hi;
        for (int lg = first; lg <= last; ++lg) {
            const uint32_t n = one_count ? (uint32_t)one_count : 1u << lg;
            double ms[4] = {-1, -1, -1, -1};
            char detail[4][1024];
            int bad[4] = {0, 0, 0, 0};
            for (int k = 0; k < 4; ++k) {
                detail[k][0] = '\0';
                if (!listed(sorters, sorter_names[k]))
                    continue;
                if (k == 0 && lg > 24) { /* bitonic: O(n log^2 n), minutes at 2^28 */
                    snprintf(detail[k], sizeof detail[k], "not run above 2^24 (O(n log^2 n))");
                    continue;
                }
                if (k < 3) {
                    ms[k] = time_vksort((vksort_vk_algorithm)(k + 1), w, n, runs, bit_lo, bit_hi,
                                        &bad[k], detail[k], sizeof detail[k]);
                } else {
                    snprintf(detail[k], sizeof detail[k], "%s", cub_missing);
#if VKSORT_HAVE_CUB_BENCH
                    double m;
                    if (!cub_missing[0]) {
                        if (w->type == VKSORT_KEY_F32 && (bit_lo || bit_hi))
                            snprintf(detail[k], sizeof detail[k], "CUB sorts float keys on every bit only");
                        else if (cub_bench_time(w->cub_kind, n, (int)bit_lo, (int)bit_hi, runs,
                                                (int)key_fill, &m) == 0)
                            ms[k] = m;
                        else {
                            snprintf(detail[k], sizeof detail[k], "%s", cub_bench_last_error());
                            bad[k] = 1;
                        }
                    }
#endif
                }
                failed |= bad[k];
            }
            /* Floor: keys (+payload) read once for the histogram, read and written per pass. */
            uint32_t bits = (bit_hi ? bit_hi : (uint32_t)vksort_key_size(w->type) * 8u) - bit_lo;
            uint32_t passes = (bits + 7u) / 8u;
            double per_key = (double)vksort_key_size(w->type) * (1 + 2 * passes) +
                             (w->payload ? 4.0 * 2 * passes : 0);
            double floor_ms = copy_rate > 0 ? per_key * n / copy_rate * 1e3 : 0;
            if (n == 1u << lg)
                printf("2^%-3d", lg);
            else
                printf("%-5u", n);
            for (int k = 0; k < 4; ++k) {
                if (ms[k] < 0) {
                    printf(" | %-8s %28s", sorter_names[k], "-");
                    continue;
                }
                double ratio = ms[3] > 0 ? ms[3] / ms[k] : 0;
                char cell[16];
                printf(" | %-8s %8.4f (%6.2f) %s {%3.0f%%}%s", sorter_names[k], ms[k],
                       n / ms[k] / 1e6, ratio_cell(ratio, cell), floor_ms / ms[k] * 100,
                       bad[k] ? " UNSORTED" : "");
                if (csv)
                    fprintf(csv, "%s,%u,%u:%u,%s,%.5f,%.4f,%.4f,%.4f,%s,%d\n", w->name, n, bit_lo,
                            bit_hi, sorter_names[k], ms[k], n / ms[k] / 1e6, ratio,
                            floor_ms / ms[k], dist_name(), !bad[k]);
            }
            printf("\n");
            for (int k = 1; k < 3; ++k)
                if (ms[k] >= 0 && (lg == 16 || lg == 24 || lg == hi || one_count))
                    printf("      %s passes: %s\n", sorter_names[k], detail[k]);
            /* A listed sorter without a time says why (e.g. a --radix-wg / --radix-items shape the
             * device cannot run); with tuning asked for, that is a failed run. */
            for (int k = 0; k < 4; ++k)
                if (listed(sorters, sorter_names[k]) && ms[k] < 0 && detail[k][0]) {
                    if (strcmp(said[k], detail[k]) != 0) /* once per reason */
                        printf("      %s: %s\n", sorter_names[k], detail[k]);
                    memcpy(said[k], detail[k], sizeof said[k]); /* both 1024 bytes */
                    if (k > 0 && k < 3 && (radix_wg || radix_items || radix_groups))
                        failed = 1;
                }
            fflush(stdout);
        }
    }
    if (csv)
        fclose(csv);
    if (validate && rig.messages) {
        fprintf(stderr, "vksort-gpu-bench: %d validation messages\n", (int)rig.messages);
        failed = 1;
    }
    bench_shutdown();
    return failed ? 1 : 0;
}
