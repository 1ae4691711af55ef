/*
 * The benchmarks' warm-up rule, one copy for vksort-gpu-bench (bench/gpu_bench.c) and the CUB
 * baseline (bench/cub_bench.cu), so that both time their runs with the clocks as warm. C and
 * C++ (nvcc) alike; header-only.
 *
 * Warm-ups go on until the GPU has worked for at least BENCH_WARMUP_MS in counted warm-ups and
 * the fastest of them has not improved by more than BENCH_WARMUP_GAIN over the last
 * BENCH_WARMUP_STABLE_MS of that work (at most BENCH_MAX_WARMUP_MS or BENCH_MAX_WARMUP_RUNS).
 * On the H200 the clocks took ~250-300 ms of GPU work to come back after the host had idled the
 * GPU (2026-12-05, --print-runs: u32 pairs 2^28 runs of 44-51 ms instead of 8.4-10.7, every
 * pass ~5x slower); with 100 ms, half or more of a cell's timed runs could be slow (a median of
 * 10.7 ms read 14.4). A fixed 400 ms still left cells whose first timed runs were slow (H200
 * and H100, 2026-12-05: u32 keys 2^24 1.13 ms instead of 0.45, u32 pairs 0.98 instead of 0.71,
 * the last run at full speed), hence the stability rule.
 *
 * Each warm-up after the first should record bench_warmup::batch sorts (or frames) in one
 * submission, about BENCH_WARMUP_BATCH_MS of GPU time, so that the GPU stays busy between the
 * host's submits (one sort a submit at 2^16-2^20 leaves it idle most of the time).
 */
#ifndef VKSORT_BENCH_WARMUP_H
#define VKSORT_BENCH_WARMUP_H

#define BENCH_WARMUP_MS 400.0
#define BENCH_WARMUP_STABLE_MS 200.0
#define BENCH_WARMUP_GAIN 0.02
#define BENCH_MAX_WARMUP_MS 3000.0
#define BENCH_MAX_WARMUP_RUNS 1000
#define BENCH_WARMUP_BATCH_MS 5.0
#define BENCH_MAX_WARMUP_BATCH 256

typedef struct bench_warmup {
    int runs;          /* warm-ups so far, counted or not */
    int batch;         /* sorts (or frames) the next warm-up records */
    double busy_ms;    /* GPU time of the counted warm-ups */
    double best_ms;    /* the fastest single sort (or copy) of those */
    double settled_ms; /* busy_ms when best_ms last dropped by more than BENCH_WARMUP_GAIN */
} bench_warmup;

static inline void bench_warmup_init(bench_warmup *w)
{
    w->runs = 0;
    w->batch = 1;
    w->busy_ms = 0;
    w->best_ms = 1e30;
    w->settled_ms = 0;
}

/* After a warm-up of `reps` sorts (or frames), the last of which took one_ms; counted: whether
 * its time counts (a caller's first warm-up, checked on the host, need not). Sets the next
 * batch; returns whether the GPU is warm by the rule above (or a bound is reached). */
static inline int bench_warmup_step(bench_warmup *w, double one_ms, int reps, int counted)
{
    ++w->runs;
    if (counted) {
        w->busy_ms += one_ms * reps;
        if (one_ms < w->best_ms * (1.0 - BENCH_WARMUP_GAIN))
            w->settled_ms = w->busy_ms;
        if (one_ms < w->best_ms)
            w->best_ms = one_ms;
    }
    const double b = one_ms > 0 ? BENCH_WARMUP_BATCH_MS / one_ms : 1;
    w->batch = b < 1 ? 1 : b > BENCH_MAX_WARMUP_BATCH ? BENCH_MAX_WARMUP_BATCH : (int)b;
    const int settled = w->busy_ms - w->settled_ms >= BENCH_WARMUP_STABLE_MS;
    return (w->busy_ms >= BENCH_WARMUP_MS && settled) || w->busy_ms >= BENCH_MAX_WARMUP_MS ||
           w->runs >= BENCH_MAX_WARMUP_RUNS;
}

#endif
