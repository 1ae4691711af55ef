/* Per-pass timings: status line and CSV (see timings.h). */
#include "timings.h"

#include "output_file.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

double demo_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int demo_timings_open(demo_timings *t, const char *path)
{
    memset(t, 0, sizeof *t);
    t->second_start = demo_now_seconds();
    if (!path)
        return 0;
    /* A temporary next to the file, renamed by demo_timings_close after a successful run: a
     * failed run leaves neither a half-written CSV nor a clobbered earlier one. */
    if (demo_output_check("--timings", path) != 0)
        return -1;
    t->csv = demo_output_open_tmp(path, "w", t->tmp_path, sizeof t->tmp_path);
    if (!t->csv) {
        fprintf(stderr, "vksort-demo: --timings: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    t->csv_path = path;
    fprintf(t->csv, "frame,sort,particles,pass,ms\n");
    return 0;
}

void demo_timings_frame_begin(demo_timings *t, uint64_t frame, const char *sort, uint32_t particles)
{
    unsigned k = (unsigned)(frame % 16u);
    t->history[k].frame = frame;
    snprintf(t->history[k].sort, sizeof t->history[k].sort, "%s", sort);
    t->history[k].particles = particles;
    t->frames_in_second++;
}

static void accumulate(demo_timings *t, const char *name, double ms)
{
    uint32_t i = 0;
    while (i < t->name_count && strcmp(t->names[i], name) != 0)
        ++i;
    if (i == t->name_count) {
        if (t->name_count == DEMO_TIMING_MAX_PASSES)
            return;
        snprintf(t->names[i], sizeof t->names[i], "%s", name);
        t->name_count++;
    }
    t->sums[i] += ms;
    t->counts[i]++;
}

void demo_timings_add(demo_timings *t, uint64_t frame, const char *pass, double ms)
{
    unsigned k = (unsigned)(frame % 16u);
    const char *sort = t->history[k].frame == frame ? t->history[k].sort : "?";
    uint32_t particles = t->history[k].frame == frame ? t->history[k].particles : 0;
    if (t->csv)
        fprintf(t->csv, "%llu,%s,%u,%s,%.4f\n", (unsigned long long)(frame ? frame - 1 : 0), sort,
                particles, pass, ms);
    accumulate(t, pass, ms);
}

void demo_timings_collect(demo_timings *t, vksort_graph *graph)
{
    vksort_graph_pass_timing pt[DEMO_TIMING_MAX_PASSES];
    uint32_t n = DEMO_TIMING_MAX_PASSES;
    uint64_t frame = 0;
    if (vksort_graph_read_timings(graph, pt, &n, &frame) != VKSORT_SUCCESS)
        return;
    for (uint32_t i = 0; i < n; ++i)
        demo_timings_add(t, frame, pt[i].name, pt[i].ms);
}

int demo_timings_tick(demo_timings *t, double now, const char *sort, uint32_t particles)
{
    double dt = now - t->second_start;
    if (dt < 1.0)
        return 0;
    int len = snprintf(t->line, sizeof t->line, "%.1f fps | %s | %u particles |",
                       t->frames_in_second / dt, sort, particles);
    double total = 0.0;
    for (uint32_t i = 0; i < t->name_count && len > 0 && (size_t)len < sizeof t->line; ++i) {
        double ms = t->counts[i] ? t->sums[i] / t->counts[i] : 0.0;
        total += ms;
        len += snprintf(t->line + len, sizeof t->line - (size_t)len, " %s %.3f ms |", t->names[i], ms);
    }
    if (len > 0 && (size_t)len < sizeof t->line)
        snprintf(t->line + len, sizeof t->line - (size_t)len, " sum %.3f ms", total);
    t->name_count = 0;
    memset(t->sums, 0, sizeof t->sums);
    memset(t->counts, 0, sizeof t->counts);
    t->frames_in_second = 0;
    t->second_start = now;
    return 1;
}

int demo_timings_close(demo_timings *t, int keep)
{
    int rc = 0;
    if (t->csv) {
        if (ferror(t->csv) || fclose(t->csv) != 0) {
            perror(t->csv_path);
            rc = -1;
        }
        t->csv = NULL;
        if (keep && rc == 0 && rename(t->tmp_path, t->csv_path) != 0) {
            fprintf(stderr, "vksort-demo: cannot write %s: %s\n", t->csv_path, strerror(errno));
            rc = -1;
        }
        if (!keep || rc != 0)
            remove(t->tmp_path);
    }
    return rc;
}
