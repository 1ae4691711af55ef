/* Per-pass GPU milliseconds from the graph's timestamps: a once-per-second status line (stdout
 * and window title) and an optional CSV with one row per frame and pass:
 *   frame,sort,particles,pass,ms
 * `frame` counts the frames built from 0 (the graph's frame number minus one).
 * Host-timed work (the CPU sort) and CUDA-timed work (the CUB sort, CUDA events) get rows of
 * their own ("sort cpu (host ms)", "sort cuda (cuda events ms)"); the graph's own row for such an
 * external pass ("sort cpu (host)") only spans the empty place between two submits. */
#ifndef VKSORT_DEMO_TIMINGS_H
#define VKSORT_DEMO_TIMINGS_H

#include "vksort/graph.h"

#include <stdint.h>
#include <stdio.h>

#define DEMO_TIMING_MAX_PASSES 16

typedef struct demo_timings {
    FILE *csv;
    const char *csv_path;
    char tmp_path[4096];       /* next to csv_path (output_file.h), renamed on success */
    /* what each recent frame was (timestamps arrive frames_in_flight frames later) */
    struct { uint64_t frame; char sort[40]; uint32_t particles; } history[16];
    /* per-second accumulation */
    char names[DEMO_TIMING_MAX_PASSES][48];
    double sums[DEMO_TIMING_MAX_PASSES];
    uint32_t counts[DEMO_TIMING_MAX_PASSES];
    uint32_t name_count;
    double second_start;
    uint32_t frames_in_second;
    char line[512];
} demo_timings;

/* path NULL: no CSV. -1 when the file cannot be created. */
int demo_timings_open(demo_timings *t, const char *path);
/* frame: the graph's frame number (vksort_graph_reset count, 1-based) of the frame just built. */
void demo_timings_frame_begin(demo_timings *t, uint64_t frame, const char *sort, uint32_t particles);
/* After the frame was built: reads what the graph has (non-blocking). */
void demo_timings_collect(demo_timings *t, vksort_graph *graph);
/* A time measured outside the graph for `frame`. */
void demo_timings_add(demo_timings *t, uint64_t frame, const char *pass, double ms);
/* Once a second (now: seconds, monotonic): fills t->line and returns 1. */
int demo_timings_tick(demo_timings *t, double now, const char *sort, uint32_t particles);
/* keep: the run succeeded - the CSV is renamed into place; otherwise it is removed (an earlier
 * file of that name stays). 0, or -1 when writing the CSV failed. */
int demo_timings_close(demo_timings *t, int keep);

double demo_now_seconds(void);

#endif
