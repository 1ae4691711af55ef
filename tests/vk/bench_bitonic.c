/*
 * Bitonic sort benchmark: GPU time per sort from the sorter's timestamps (first to last), median
 * of --runs runs, keys only and key + uint32 payload. The sorter is always created with
 * VKSORT_VK_ALGORITHM_BITONIC (AUTO would hand large counts to a radix sort).
 *
 *   vksort_vk_bitonic_bench [--device N] [--min-log2 10] [--max-log2 24] [--sizes 10,12,16]
 *                           [--runs 25] [--large-runs N] [--check-runs N] [--modes keys,pairs]
 *                           [--key u32|i32|f32|u64|i64|f64] [--stable] [--validate]
 *                           [--tile N] [--elems 4|8|16] [--label NAME] [--fresh] [--passes]
 *                           [--small-sort auto|network|rank] [--floor] [--rank-wg N]
 *                           [--persistent]
 *
 *   --sizes       log2 sizes to run (instead of every size from --min-log2 to --max-log2)
 *   --large-runs  runs for sizes of 2^20 and above (default: --runs)
 *   --check-runs  check the result of only the first N runs of each size (default: all)
 *   --tile        cap on the tile size (max_tile_size; --tile-cap is the same)
 *   --elems       bitonic_elements_per_invocation (0: the build's default)
 *   --fresh       new random data before every run (default: one data set per size, uploaded
 *                 again before every run; the network does the same work on any data)
 *   --label       name of this configuration in the RESULT lines
 *   --small-sort  vksort_vk_sorter_create_info::small_sort (default auto)
 *   --rank-wg     rank_workgroup_size (0: the default)
 *   --persistent  VKSORT_VK_CREATE_PERSISTENT_SCRATCH (the scratch prepared once with
 *                 vksort_vk_cmd_init_scratch, so the RANK sort records no fill)
 *   --floor       first measure what the timestamps cost with nothing between them, and with the
 *                 RANK sort's fill (barrier, vkCmdFillBuffer of 4 bytes, barrier) between them
 *
 * Output: one line per (n, mode), a summary table, and one machine-readable line per (n, mode):
 *   RESULT <label> <keys|pairs> <log2 n> <median us> <min us> <passes> <tile> <workgroup>
 * Every checked run must be ordered and (pairs) carry each key's own payload: exit status 1
 * otherwise. Without --validate the validation layer is off (timings).
 */
#include "support/sort_check.h"
#include "support/test_data.h"
#include "support/vk_rig.h"
#include "vksort/vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_opts {
    int device;
    int min_log2, max_log2;
    int sizes[32];
    int size_count;
    int runs, large_runs, check_runs;
    int modes; /* bit 0 keys, bit 1 pairs */
    vksort_key_type key_type;
    int stable;
    int validate;
    uint32_t tile_cap;
    uint32_t elems;
    int passes;
    int fresh;
    int floor;
    vksort_vk_small_sort small_sort;
    uint32_t rank_wg;
    int persistent;
    const char *label;
} bench_opts;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: vksort_vk_bitonic_bench [--device N] [--min-log2 K] [--max-log2 K] "
            "[--sizes K,K,...] [--runs N] [--large-runs N] [--check-runs N] "
            "[--modes keys,pairs] [--key TYPE] [--stable] [--validate] [--tile N] "
            "[--elems 4|8|16] [--label NAME] [--fresh] [--passes] "
            "[--small-sort auto|network|rank] [--floor] [--rank-wg N] [--persistent]\n");
    return 2;
}

/* Order key for checking: encode, then compare as unsigned. */
static uint64_t okey(vksort_key_type t, const void *keys, size_t i)
{
    if (vksort_key_size(t) == 8) {
        uint64_t b;
        memcpy(&b, (const char *)keys + i * 8, 8);
        return vksort_encode_u64_bits(t, b);
    }
    uint32_t b;
    memcpy(&b, (const char *)keys + i * 4, 4);
    return vksort_encode_u32_bits(t, b);
}

static int parse_sizes(const char *s, bench_opts *o)
{
    o->size_count = 0;
    while (*s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 30 || o->size_count == 32)
            return -1;
        o->sizes[o->size_count++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return o->size_count ? 0 : -1;
}

static int parse_modes(const char *s, bench_opts *o)
{
    o->modes = 0;
    if (strstr(s, "keys"))
        o->modes |= 1;
    if (strstr(s, "pairs"))
        o->modes |= 2;
    return o->modes ? 0 : -1;
}

/* Median GPU time of two timestamps with nothing between them (fill = 0) or with the RANK
 * sort's ticket fill between them (fill = 1): the fixed costs a one-dispatch sort sits on. */
static int measure_floor(vk_rig *rig, VkQueryPool pool, int runs)
{
    vk_rig_buffer buf;
    if (vk_rig_buffer_create(rig, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &buf))
        return -1;
    const double tick_us = rig->props.limits.timestampPeriod * 1e-3;
    for (int fill = 0; fill < 2; ++fill) {
        double t[1024];
        for (int run = -2; run < runs; ++run) {
            VkCommandBuffer cmd = vk_rig_begin(rig);
            vkCmdResetQueryPool(cmd, pool, 0, 2);
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 0);
            if (fill) {
                vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
                vkCmdFillBuffer(cmd, buf.buffer, 4, 4, 0);
                vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            }
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, 1);
            if (vk_rig_submit_wait(rig, cmd) != 0)
                return -1;
            uint64_t ts[2];
            vkGetQueryPoolResults(rig->device, pool, 0, 2, sizeof ts, ts, 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
            if (run >= 0)
                t[run] = (double)(ts[1] - ts[0]) * tick_us;
        }
        qsort(t, (size_t)runs, sizeof(double), cmp_double);
        printf("floor: timestamp, %s, timestamp: median %.2f us, min %.2f us\n",
               fill ? "barrier + 4-byte vkCmdFillBuffer + barrier" : "nothing", t[runs / 2], t[0]);
    }
    vk_rig_buffer_destroy(rig, &buf);
    return 0;
}

/* A RANK sort of an indirect count of 0: the ticket fill and one dispatch whose workgroups all
 * return at once - the fixed cost under every RANK sort. */
static int measure_empty_rank(vk_rig *rig, VkQueryPool pool, vksort_vk_sorter *sorter,
                              const vk_rig_buffer *keys, const vk_rig_buffer *vals,
                              const vk_rig_buffer *scratch, const vksort_vk_memory_requirements *req,
                              int pairs, int runs)
{
    vk_rig_buffer count;
    if (vk_rig_buffer_create(rig, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 1, &count))
        return -1;
    memset(count.mapped, 0, 256);
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){keys->buffer, 0, VK_WHOLE_SIZE};
    if (pairs)
        si.values = (vksort_vk_buffer_range){vals->buffer, 0, VK_WHOLE_SIZE};
    si.scratch = (vksort_vk_buffer_range){scratch->buffer, 0, req->scratch_size};
    si.count_buffer = (vksort_vk_buffer_range){count.buffer, 0, 4};
    si.query_pool = pool;
    const uint32_t nq = vksort_vk_timestamp_query_count(sorter, &si);
    double t[1024];
    for (int run = -2; run < runs; ++run) {
        VkCommandBuffer cmd = vk_rig_begin(rig);
        if (vksort_vk_cmd_sort(sorter, cmd, &si) != VKSORT_SUCCESS || vk_rig_submit_wait(rig, cmd))
            return -1;
        uint64_t ts[8];
        vkGetQueryPoolResults(rig->device, pool, 0, nq, sizeof ts, ts, 8,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        double total = 0;
        uint32_t np = 0;
        vksort_vk_timestamps_to_ms(sorter, &si, ts, nq, NULL, &np, &total);
        if (run >= 0)
            t[run] = total * 1e3;
    }
    qsort(t, (size_t)runs, sizeof(double), cmp_double);
    printf("floor: RANK sort of an indirect count 0 (%s; the control-word fill, unless the "
           "scratch is persistent, and a dispatch that exits at once): median %.2f us, min %.2f us\n",
           pairs ? "pairs" : "keys", t[runs / 2], t[0]);
    vk_rig_buffer_destroy(rig, &count);
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.device = -1;
    o.min_log2 = 10;
    o.max_log2 = 24;
    o.runs = 25;
    o.large_runs = 0;
    o.check_runs = -1;
    o.modes = 3;
    o.key_type = VKSORT_KEY_U32;
    o.label = "default";
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--device") && v) o.device = atoi(v), ++i;
        else if (!strcmp(a, "--min-log2") && v) o.min_log2 = atoi(v), ++i;
        else if (!strcmp(a, "--max-log2") && v) o.max_log2 = atoi(v), ++i;
        else if (!strcmp(a, "--runs") && v) o.runs = atoi(v), ++i;
        else if (!strcmp(a, "--large-runs") && v) o.large_runs = atoi(v), ++i;
        else if (!strcmp(a, "--check-runs") && v) o.check_runs = atoi(v), ++i;
        else if ((!strcmp(a, "--tile-cap") || !strcmp(a, "--tile")) && v)
            o.tile_cap = (uint32_t)atoi(v), ++i;
        else if (!strcmp(a, "--elems") && v) o.elems = (uint32_t)atoi(v), ++i;
        else if (!strcmp(a, "--label") && v) o.label = v, ++i;
        else if (!strcmp(a, "--sizes") && v) {
            if (parse_sizes(v, &o) != 0)
                return usage();
            ++i;
        } else if (!strcmp(a, "--modes") && v) {
            if (parse_modes(v, &o) != 0)
                return usage();
            ++i;
        } else if (!strcmp(a, "--key") && v) {
            if (vksort_key_type_from_name(v, &o.key_type) != VKSORT_SUCCESS)
                return usage();
            ++i;
        } else if (!strcmp(a, "--stable")) o.stable = 1;
        else if (!strcmp(a, "--validate")) o.validate = 1;
        else if (!strcmp(a, "--passes")) o.passes = 1;
        else if (!strcmp(a, "--fresh")) o.fresh = 1;
        else if (!strcmp(a, "--floor")) o.floor = 1;
        else if (!strcmp(a, "--persistent")) o.persistent = 1;
        else if (!strcmp(a, "--rank-wg") && v) o.rank_wg = (uint32_t)atoi(v), ++i;
        else if (!strcmp(a, "--small-sort") && v) {
            if (!strcmp(v, "auto")) o.small_sort = VKSORT_VK_SMALL_SORT_AUTO;
            else if (!strcmp(v, "network")) o.small_sort = VKSORT_VK_SMALL_SORT_NETWORK;
            else if (!strcmp(v, "rank")) o.small_sort = VKSORT_VK_SMALL_SORT_RANK;
            else return usage();
            ++i;
        } else return usage();
    }
    if (!o.size_count) {
        if (o.min_log2 < 1 || o.max_log2 > 30 || o.min_log2 > o.max_log2)
            return usage();
        for (int lg = o.min_log2; lg <= o.max_log2 && o.size_count < 32; ++lg)
            o.sizes[o.size_count++] = lg;
    }
    if (o.runs < 1 || o.runs > 1024 || o.large_runs < 0 || o.large_runs > 1024)
        return usage();
    int top = 0;
    for (int i = 0; i < o.size_count; ++i)
        if (o.sizes[i] > top)
            top = o.sizes[i];

    vk_rig rig;
    vk_rig_options ro = {o.validate, o.device, 0};
    if (vk_rig_create(&rig, &ro) != 0)
        return 1;
    if (rig.timestamp_valid_bits == 0) {
        fprintf(stderr, "no timestamps on the compute queue\n");
        return 1;
    }
    const uint32_t max_n = 1u << top;
    const size_t ks = vksort_key_size(o.key_type);
    printf("device: %s, driver 0x%x, api %u.%u.%u\n", rig.props.deviceName, rig.props.driverVersion,
           VK_API_VERSION_MAJOR(rig.props.apiVersion), VK_API_VERSION_MINOR(rig.props.apiVersion),
           VK_API_VERSION_PATCH(rig.props.apiVersion));
    printf("key %s, %s, median of %d runs (%d from 2^20), GPU time from timestamps (first to "
           "last), elements per invocation %u (0 = default), tile cap %u, label %s\n",
           vksort_key_type_name(o.key_type), o.stable ? "stable" : "not stable", o.runs,
           o.large_runs ? o.large_runs : o.runs, o.elems, o.tile_cap, o.label);

    const VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    vk_rig_buffer keys, vals, up_k, up_v, down_k, down_v, scratch;
    int fail = vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * ks, su, 0, &keys) ||
               vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * 4, su, 0, &vals) ||
               vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * ks, su, 1, &up_k) ||
               vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * 4, su, 1, &up_v) ||
               vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * ks, su, 1, &down_k) ||
               vk_rig_buffer_create(&rig, (VkDeviceSize)max_n * 4, su, 1, &down_v);
    if (fail) {
        fprintf(stderr, "buffer allocation failed\n");
        return 1;
    }
    VkQueryPool pool;
    VkQueryPoolCreateInfo qpci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 256;
    vkCreateQueryPool(rig.device, &qpci, NULL, &pool);

    if (o.floor && measure_floor(&rig, pool, o.runs) != 0)
        return 1;

    double table[31][2];
    memset(table, 0, sizeof table);
    int bad = 0;
    unsigned char *orig = malloc((size_t)max_n * ks);
    double *times = malloc(sizeof(double) * (size_t)(o.runs > o.large_runs ? o.runs : o.large_runs));
    const int max_runs = o.runs > o.large_runs ? o.runs : o.large_runs;
    vksort_vk_pass_time *pass_sets = malloc(sizeof(vksort_vk_pass_time) * 256 * (size_t)max_runs);
    for (uint32_t i = 0; i < max_n; ++i)
        ((uint32_t *)up_v.mapped)[i] = i;

    for (int mode = 0; mode < 2; ++mode) {
        if (!(o.modes & (1 << mode)))
            continue;
        vksort_vk_sorter_create_info ci;
        sort_check_create_info(&rig, &ci);
        ci.key_type = o.key_type;
        ci.has_payload = mode ? VK_TRUE : VK_FALSE;
        ci.max_count = max_n;
        ci.max_tile_size = o.tile_cap;
        ci.algorithm = VKSORT_VK_ALGORITHM_BITONIC;
        ci.bitonic_elements_per_invocation = o.elems;
        ci.small_sort = o.small_sort;
        ci.rank_workgroup_size = o.rank_wg;
        ci.flags = o.persistent ? VKSORT_VK_CREATE_PERSISTENT_SCRATCH : 0;
        vksort_vk_diagnostics diag;
        ci.diagnostics = &diag;
        vksort_vk_sorter *sorter;
        vksort_result r = vksort_vk_sorter_create(&ci, &sorter);
        if (r != VKSORT_SUCCESS) {
            fprintf(stderr, "sorter: %s: %s\n", vksort_result_string(r), diag.message);
            return 1;
        }
        vksort_vk_sorter_properties props;
        vksort_vk_get_sorter_properties(sorter, &props);
        vksort_vk_memory_requirements req;
        vksort_vk_get_memory_requirements(sorter, &req);
        if (vk_rig_buffer_create(&rig, req.scratch_size, req.scratch_usage | su, 0, &scratch)) {
            fprintf(stderr, "scratch allocation failed\n");
            return 1;
        }
        if (o.persistent) {
            VkCommandBuffer cmd = vk_rig_begin(&rig);
            vksort_vk_buffer_range sr = {scratch.buffer, 0, req.scratch_size};
            if (vksort_vk_cmd_init_scratch(sorter, cmd, &sr) != VKSORT_SUCCESS ||
                vk_rig_submit_wait(&rig, cmd) != 0) {
                fprintf(stderr, "scratch preparation failed\n");
                return 1;
            }
        }
        if (o.floor && props.rank_capacity &&
            measure_empty_rank(&rig, pool, sorter, &keys, &vals, &scratch, &req, mode, o.runs) != 0)
            return 1;
        const uint32_t tile = o.stable ? props.stable_tile_size : props.tile_size;
        const uint32_t wg = props.workgroup_size * (o.stable ? props.stable_tile_size : props.tile_size) /
                            props.tile_size;
        printf("%s: tile %u (stable %u), %u invocations per workgroup; small sort %s, rank "
               "counts %u..%u, %u invocations per rank workgroup%s\n", mode ? "pairs" : "keys",
               props.tile_size, props.stable_tile_size, props.workgroup_size,
               props.small_sort == VKSORT_VK_SMALL_SORT_RANK ? "rank" : "network",
               props.rank_min_count, props.rank_capacity, props.rank_workgroup_size,
               o.persistent ? ", persistent scratch" : "");

        for (int si_ = 0; si_ < o.size_count; ++si_) {
            const int lg = o.sizes[si_];
            const uint32_t n = 1u << lg;
            const int runs = (lg >= 20 && o.large_runs) ? o.large_runs : o.runs;
            vksort_vk_sort_info si;
            memset(&si, 0, sizeof si);
            si.keys = (vksort_vk_buffer_range){keys.buffer, 0, (VkDeviceSize)n * ks};
            if (mode)
                si.values = (vksort_vk_buffer_range){vals.buffer, 0, (VkDeviceSize)n * 4};
            si.scratch = (vksort_vk_buffer_range){scratch.buffer, 0, req.scratch_size};
            si.count = n;
            si.flags = o.stable ? VKSORT_FLAG_STABLE : 0;
            si.query_pool = pool;
            const uint32_t nq = vksort_vk_timestamp_query_count(sorter, &si);
            if (nq == 0 || nq > 256) {
                fprintf(stderr, "unexpected timestamp count %u\n", nq);
                return 1;
            }
            uint32_t np_last = 0;
            const int warmup = 2;
            for (int run = -warmup; run < runs; ++run) {
                if (run == -warmup || o.fresh) {
                    test_fill_keys(o.key_type, DIST_UNIFORM, up_k.mapped, n,
                                   (uint64_t)(lg * 1000 + (o.fresh ? run : 0) + 17));
                    memcpy(orig, up_k.mapped, (size_t)n * ks);
                }
                VkCommandBuffer cmd = vk_rig_begin(&rig);
                VkBufferCopy ck = {0, 0, (VkDeviceSize)n * ks}, cv = {0, 0, (VkDeviceSize)n * 4};
                vkCmdCopyBuffer(cmd, up_k.buffer, keys.buffer, 1, &ck);
                if (mode)
                    vkCmdCopyBuffer(cmd, up_v.buffer, vals.buffer, 1, &cv);
                vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                        VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                               VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
                r = vksort_vk_cmd_sort(sorter, cmd, &si);
                const int check = o.check_runs < 0 || run < o.check_runs;
                if (check) {
                    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
                    vkCmdCopyBuffer(cmd, keys.buffer, down_k.buffer, 1, &ck);
                    if (mode)
                        vkCmdCopyBuffer(cmd, vals.buffer, down_v.buffer, 1, &cv);
                    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
                }
                if (r != VKSORT_SUCCESS || vk_rig_submit_wait(&rig, cmd) != 0) {
                    fprintf(stderr, "sort failed: %s %s\n", vksort_result_string(r),
                            vksort_vk_sorter_last_message(sorter));
                    return 1;
                }
                uint64_t ts[256];
                vkGetQueryPoolResults(rig.device, pool, 0, nq, sizeof ts, ts, 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
                double total = 0;
                uint32_t np = 256;
                vksort_vk_pass_time *ps = pass_sets + 256 * (size_t)(run < 0 ? 0 : run);
                vksort_vk_timestamps_to_ms(sorter, &si, ts, nq, ps, &np, &total);
                np_last = np;
                if (check) {
                    /* Ordered, and (pairs) every key is the input key its payload names. */
                    const unsigned char *out = down_k.mapped;
                    const uint32_t *ov = down_v.mapped;
                    int ok = 1;
                    for (uint32_t i = 1; i < n && ok; ++i)
                        if (okey(o.key_type, out, i - 1) > okey(o.key_type, out, i))
                            ok = 0;
                    for (uint32_t i = 0; mode && i < n && ok; ++i)
                        if (ov[i] >= n ||
                            memcmp(out + (size_t)i * ks, orig + (size_t)ov[i] * ks, ks) != 0)
                            ok = 0;
                    if (!ok) {
                        fprintf(stderr, "WRONG RESULT n=%u mode=%s run=%d\n", n,
                                mode ? "pairs" : "keys", run);
                        bad = 1;
                    }
                }
                if (run >= 0)
                    times[run] = total;
            }
            double sorted_t[1024];
            memcpy(sorted_t, times, sizeof(double) * (size_t)runs);
            qsort(sorted_t, (size_t)runs, sizeof(double), cmp_double);
            double med = runs % 2 ? sorted_t[runs / 2]
                                  : 0.5 * (sorted_t[runs / 2 - 1] + sorted_t[runs / 2]);
            table[lg][mode] = med;
            printf("n=2^%-2d %-5s median %10.2f us  min %10.2f us  %9.1f Mkeys/s  %u passes\n", lg,
                   mode ? "pairs" : "keys", med * 1e3, sorted_t[0] * 1e3,
                   med > 0 ? n / (med * 1e3) : 0.0, np_last);
            if (o.passes) {
                /* Breakdown of the run closest to the median. */
                int best = 0;
                for (int i = 1; i < runs; ++i)
                    if ((times[i] - med) * (times[i] - med) < (times[best] - med) * (times[best] - med))
                        best = i;
                const vksort_vk_pass_time *ps = pass_sets + 256 * (size_t)best;
                for (uint32_t i = 0; i < np_last; ++i)
                    printf("    %-44s %9.2f us\n", ps[i].name, ps[i].ms * 1e3);
            }
            printf("RESULT %s %s %d %.2f %.2f %u %u %u\n", o.label, mode ? "pairs" : "keys", lg,
                   med * 1e3, sorted_t[0] * 1e3, np_last, tile, wg);
            fflush(stdout);
        }
        vk_rig_buffer_destroy(&rig, &scratch);
        vksort_vk_sorter_destroy(sorter);
    }

    printf("\n| n | keys (us) | pairs (us) |\n| --- | ---: | ---: |\n");
    for (int i = 0; i < o.size_count; ++i)
        printf("| 2^%d | %.2f | %.2f |\n", o.sizes[i], table[o.sizes[i]][0] * 1e3,
               table[o.sizes[i]][1] * 1e3);

    free(orig);
    free(times);
    free(pass_sets);
    vkDestroyQueryPool(rig.device, pool, NULL);
    vk_rig_buffer *all[] = {&keys, &vals, &up_k, &up_v, &down_k, &down_v};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        vk_rig_buffer_destroy(&rig, all[i]);
    int messages = rig.messages;
    vk_rig_destroy(&rig);
    if (o.validate && messages) {
        fprintf(stderr, "%d validation messages\n", messages);
        return 1;
    }
    return bad;
}
