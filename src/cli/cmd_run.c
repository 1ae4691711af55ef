/* `vksort run`: the end-to-end check and quick benchmark. Generates keys with index payloads,
 * sorts them R times with one backend (fresh data each time, generated outside the timed
 * region), verifies every result and reports the median time per sort. */
#include "args.h"
#include "backend.h"
#include "cmds.h"
#include "err.h"
#include "gen.h"
#include "memory.h"
#include "verify.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cli_usage_run(FILE *f)
{
    fputs("usage: vksort run [options]\n"
          "\n"
          "Generates N random keys with u32 payloads 0..N-1, sorts them with the best available\n"
          "backend (or --backend), checks every result (keys ordered, payload a permutation\n"
          "pointing at equal keys) and reports the median time per sort and the throughput.\n"
          "Exits non-zero if any check fails.\n"
          "\n"
          "options:\n"
          "  --type T        key type (default f32)\n"
          "  --n N           keys per sort (default 16M; also 100000, 64K, 2^20)\n"
          "  --dist D        key distribution as for 'vksort gen' (default uniform)\n"
          "  --backend B     cpu, vulkan or cuda (default: the best available)\n"
          "  --algo A        auto, onesweep, portable, bitonic (the last three: vulkan)\n"
          "  --device N      GPU index for vulkan/cuda (default 0)\n"
          "  --threads N     CPU threads (default: OpenMP's)\n"
          "  --seed S        first seed; repeat r uses seed S + r (default 1)\n"
          "  --repeat R      timed sorts, fresh data each (default 5), after 1 warm-up sort\n"
          "  -h, --help      this text\n",
          f);
}

enum {
    O_TYPE, O_N, O_DIST, O_BACKEND, O_ALGO, O_DEVICE, O_THREADS, O_SEED, O_REPEAT, O_COUNT
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t count)
{
    qsort(v, count, sizeof *v, compare_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

typedef struct run_job {
    cli_sort_request req;
    cli_dist dist;
    uint64_t seed;
    int repeat;
} run_job;

/* One sort of fresh data: generate (seed), copy, sort (timed), verify. */
static int sort_once(run_job *job, void *original, void *keys, uint32_t *values, uint64_t seed,
                     double *ms, double *device_ms, char *err, size_t n)
{
    const size_t count = job->req.count, ks = vksort_key_size(job->req.key_type);
    if (cli_generate_keys(job->req.key_type, job->dist, seed, original, count, err, n) != 0)
        return -1;
    memcpy(keys, original, count * ks);
    cli_fill_iota(values, count);
    job->req.keys = keys;
    job->req.values = values;
    job->req.out_device_ms = device_ms;
    *device_ms = -1.0;
    double t0 = now_ms();
    int r = cli_sort_arrays(&job->req, err, n);
    *ms = now_ms() - t0;
    if (r != 0)
        return -1;
    size_t bad = 0;
    if (!cli_check_order(job->req.key_type, job->req.flags, job->req.bit_begin, job->req.bit_end,
                         keys, count, &bad))
        return cli_fail(err, n,
                        "verification failed (seed %llu): keys %zu and %zu are out of order",
                        (unsigned long long)seed, bad, bad + 1);
    int p = cli_check_payload(job->req.key_type, original, keys, values, count, &bad);
    if (p < 0)
        return cli_fail(err, n, "out of memory verifying the payload");
    if (!p)
        return cli_fail(err, n,
                        "verification failed (seed %llu): payload at %zu is not the index of an "
                        "equal key, or repeats one",
                        (unsigned long long)seed, bad);
    return 0;
}

static int run_benchmark(run_job *job, char *err, size_t n)
{
    const size_t count = job->req.count, ks = vksort_key_size(job->req.key_type);
    void *original = malloc(count * ks), *keys = malloc(count * ks);
    uint32_t *values = malloc(count * sizeof *values);
    double *times = malloc((size_t)job->repeat * sizeof *times);
    double *device_times = malloc((size_t)job->repeat * sizeof *device_times);
    int rc = CLI_EXIT_FAIL;
    if (!original || !keys || !values || !times || !device_times) {
        cli_fail(err, n, "out of memory for %zu keys", count);
        goto done;
    }
    double ms = 0.0, dev = -1.0;
    /* The warm-up pays one-time costs (pages of the arrays and scratch, device set-up). */
    if (sort_once(job, original, keys, values, job->seed, &ms, &dev, err, n) != 0)
        goto done;
    int have_device = 1;
    for (int r = 0; r < job->repeat; ++r) {
        if (sort_once(job, original, keys, values, job->seed + (uint64_t)r, &times[r],
                      &device_times[r], err, n) != 0)
            goto done;
        have_device = have_device && device_times[r] >= 0.0;
    }
    double lo = times[0], hi = times[0];
    for (int r = 1; r < job->repeat; ++r) {
        lo = times[r] < lo ? times[r] : lo;
        hi = times[r] > hi ? times[r] : hi;
    }
    double med = median(times, (size_t)job->repeat);
    char backend[256], dist[32];
    cli_backend_describe(job->req.backend, job->req.threads, backend, sizeof backend);
    cli_dist_format(job->dist, dist, sizeof dist);
    printf("backend:    %s\n", backend);
    if (job->req.backend == CLI_BACKEND_VULKAN)
        printf("algo:       %s\n", cli_algo_name(job->req.algo));
    printf("keys:       %zu %s (%s, seed %llu+r) with u32 payload 0..n-1\n", count,
           vksort_key_type_name(job->req.key_type), dist, (unsigned long long)job->seed);
    printf("time:       %.3f ms per sort, median of %d (min %.3f, max %.3f; after 1 warm-up)\n",
           med, job->repeat, lo, hi);
    if (have_device)
        printf("device:     %.3f ms per sort on the device, median of %d\n",
               median(device_times, (size_t)job->repeat), job->repeat);
    printf("throughput: %.1f M keys/s\n", med > 0.0 ? (double)count / (med * 1e3) : 0.0);
    printf("verified:   %d of %d sorts ordered, payload a permutation of equal keys\n",
           job->repeat, job->repeat);
    rc = CLI_EXIT_OK;
done:
    free(original);
    free(keys);
    free(values);
    free(times);
    free(device_times);
    return rc;
}

int cli_cmd_run(int argc, char **argv, char *err, size_t n)
{
    cli_opt opts[O_COUNT] = {
        [O_TYPE] = {"type", 1, 0, NULL},       [O_N] = {"n", 1, 0, NULL},
        [O_DIST] = {"dist", 1, 0, NULL},       [O_BACKEND] = {"backend", 1, 0, NULL},
        [O_ALGO] = {"algo", 1, 0, NULL},       [O_DEVICE] = {"device", 1, 0, NULL},
        [O_THREADS] = {"threads", 1, 0, NULL}, [O_SEED] = {"seed", 1, 0, NULL},
        [O_REPEAT] = {"repeat", 1, 0, NULL},
    };
    const char *pos[1];
    size_t npos = 0;
    int status = cli_parse_command("run", argc, argv, opts, O_COUNT, pos, 0, &npos, cli_usage_run, err, n);
    if (status != CLI_ARGS_GO_ON)
        return status;
    run_job job;
    memset(&job, 0, sizeof job);
    cli_sort_request *req = &job.req;
    req->key_type = VKSORT_KEY_F32;
    req->flags = VKSORT_FLAG_STABLE;
    req->algo = CLI_ALGO_AUTO;
    job.dist.kind = CLI_DIST_UNIFORM;
    job.seed = 1;
    job.repeat = 5;
    uint64_t count = 16u << 20;
    if (opts[O_TYPE].present && cli_parse_key_type(opts[O_TYPE].value, &req->key_type, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_N].present && cli_parse_count(opts[O_N].value, "--n", &count, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_DIST].present && cli_parse_dist(opts[O_DIST].value, &job.dist, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_ALGO].present && cli_algo_from_name(opts[O_ALGO].value, &req->algo, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_DEVICE].present &&
        cli_parse_int(opts[O_DEVICE].value, "--device", 0, 1023, &req->device, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_THREADS].present &&
        cli_parse_int(opts[O_THREADS].value, "--threads", 0, 4096, &req->threads, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_SEED].present && cli_parse_u64(opts[O_SEED].value, "--seed", &job.seed, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_REPEAT].present &&
        cli_parse_int(opts[O_REPEAT].value, "--repeat", 1, 10000, &job.repeat, err, n) != 0)
        return CLI_EXIT_USAGE;
    /* Payloads are u32 indices, and three arrays of n keys must fit in memory. */
    if (count < 1 || count > (uint64_t)UINT32_MAX + 1u || count > SIZE_MAX / 8u / 4u)
        return cli_fail_usage(err, n, "--n must be between 1 and 2^32, got '%s'",
                              opts[O_N].value);
    req->count = (size_t)count;
    /* The original keys, the keys sorted, the values and (CPU backend) a scratch of keys and
     * values. */
    const uint64_t ks = vksort_key_size(req->key_type);
    if (cli_check_memory(count * (3u * ks + 8u), "run", err, n) != 0)
        return CLI_EXIT_USAGE;
    req->bit_begin = 0;
    req->bit_end = (uint32_t)ks * 8u;
    if (cli_backend_select(opts[O_BACKEND].present ? opts[O_BACKEND].value : NULL, req->algo,
                           req->device, &req->backend, err, n) != 0)
        return CLI_EXIT_USAGE;
    return run_benchmark(&job, err, n);
}
