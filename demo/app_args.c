/* Command-line parsing of the particle demo: every bad input is a message and -1. */
#include "app_args.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sort_names[DEMO_SORT_COUNT] = {"onesweep", "portable", "bitonic", "cuda",
                                                        "cpu",      "none",     "reference"};

const char *demo_sort_name(demo_sort sort)
{
    return (unsigned)sort < DEMO_SORT_COUNT ? sort_names[sort] : "?";
}

int demo_sort_from_name(const char *name)
{
    for (int i = 0; i < DEMO_SORT_COUNT; ++i)
        if (strcmp(name, sort_names[i]) == 0)
            return i;
    return -1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vksort-demo [options]\n"
            "  --headless             offscreen rendering, no window (automatic without a display)\n"
            "  --frames N             stop after N frames (headless default 300)\n"
            "  --particles N          particle count, K/M suffix = 2^10/2^20 (default: 1M on a GPU,\n"
            "                         20000 on a CPU device; at most maxStorageBufferRange / 64)\n"
            "  --sort NAME            onesweep | portable | bitonic | cuda | cpu | none | reference\n"
            "                         (reference: libc qsort on the host, for tests)\n"
            "  --size WxH             framebuffer size (default 1280x720)\n"
            "  --screenshot FILE.png  write the last frame as PNG\n"
            "  --timings FILE.csv     per-frame, per-pass GPU milliseconds\n"
            "  --renderdoc-capture N  capture frame N when running under RenderDoc\n"
            "  --seed S               random seed (default 1)\n"
            "  --key-bits 16|24|32    sort key: 32 = float view depth (default), 16/24 = view depth\n"
            "                         quantized to that many bits (fewer radix passes)\n"
            "  --scene NAME           fountains (default) | overlap (order test scene)\n"
            "  --fixed-dt             1/60 s per frame also in a window (always in headless)\n"
            "  --validation           Khronos validation + synchronization validation; exit 1\n"
            "                         if any warning or error message appeared\n"
            "  --print-graph          print the compiled render graph of the first frame\n"
            "  --check-order          read the last frame's particles and draw order back and check\n"
            "                         on the host that it was drawn back to front (exit 1 if not)\n"
            "  --quiet                no once-per-second status line\n"
            "keys (window): 1-6 sort backend, +/- particle count x2 / /2, space pause, R reset,\n"
            "mouse drag orbit, wheel zoom, Esc quit\n");
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+') {
        fprintf(stderr, "vksort-demo: %s needs a non-negative integer, got '%s'\n", opt, s ? s : "");
        return -1;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max) {
        fprintf(stderr, "vksort-demo: %s: '%s' is not an integer in [%" PRIu64 ", %" PRIu64 "]\n",
                opt, s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    uint64_t a = 0, b = 0;
    const char *x = s ? strchr(s, 'x') : NULL;
    char first[32];
    if (!x || (size_t)(x - s) >= sizeof first) {
        fprintf(stderr, "vksort-demo: --size needs WxH (e.g. 1280x720), got '%s'\n", s ? s : "");
        return -1;
    }
    memcpy(first, s, (size_t)(x - s));
    first[x - s] = 0;
    if (parse_u64("--size (width)", first, 16, 16384, &a) || parse_u64("--size (height)", x + 1, 16, 16384, &b))
        return -1;
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return 0;
}

/* The options followed by a value (for "needs a value" rather than "unknown option"). */
static int takes_value(const char *option)
{
    static const char *const with_value[] = {"--frames", "--particles", "--sort", "--size",
                                             "--screenshot", "--timings", "--renderdoc-capture",
                                             "--seed", "--key-bits", "--scene"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; ++i)
        if (!strcmp(option, with_value[i]))
            return 1;
    return 0;
}

int demo_args_parse(int argc, char **argv, demo_args *a)
{
    memset(a, 0, sizeof *a);
    a->width = 1280;
    a->height = 720;
    a->seed = 1;
    a->key_bits = 32;
    a->renderdoc_frame = -1;
    a->sort = DEMO_SORT_ONESWEEP;
    for (int i = 1; i < argc; ++i) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        int takes = 1;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(o, "--headless")) {
            a->headless = 1;
            takes = 0;
        } else if (!strcmp(o, "--validation")) {
            a->validation = 1;
            takes = 0;
        } else if (!strcmp(o, "--fixed-dt")) {
            a->fixed_dt = 1;
            takes = 0;
        } else if (!strcmp(o, "--quiet")) {
            a->quiet = 1;
            takes = 0;
        } else if (!strcmp(o, "--print-graph")) {
            a->print_graph = 1;
            takes = 0;
        } else if (!strcmp(o, "--check-order")) {
            a->check_order = 1;
            takes = 0;
        } else if (!v) {
            if (takes_value(o))
                fprintf(stderr, "vksort-demo: %s needs a value\n", o);
            else
                fprintf(stderr, "vksort-demo: unknown option '%s' (see --help)\n", o);
            return -1;
        } else if (!strcmp(o, "--frames")) {
            if (parse_u64(o, v, 1, UINT64_MAX / 2, &n))
                return -1;
            a->frames = n;
        } else if (!strcmp(o, "--particles")) {
            /* K and M suffixes as in the CLI: 2^10 and 2^20 (16M = 16777216). */
            char num[32];
            size_t len = strlen(v);
            unsigned shift = 0;
            if (len > 1 && len < sizeof num && strchr("kKmM", v[len - 1])) {
                shift = (v[len - 1] == 'k' || v[len - 1] == 'K') ? 10u : 20u;
                memcpy(num, v, len - 1);
                num[len - 1] = 0;
                v = num;
            }
            /* The message names the unit the number was read in (600M: "[1, 512]" of M). */
            const char *label = shift == 20u ? "--particles (in M = 2^20)"
                                : shift == 10u ? "--particles (in K = 2^10)"
                                               : o;
            if (parse_u64(label, v, 1, (1u << 29) >> shift, &n))
                return -1;
            n <<= shift;
            a->particles = (uint32_t)n;
        } else if (!strcmp(o, "--sort")) {
            int s = demo_sort_from_name(v);
            if (s < 0) {
                fprintf(stderr,
                        "vksort-demo: unknown sort '%s' (onesweep, portable, bitonic, cuda, cpu, none, "
                        "reference)\n", v);
                return -1;
            }
            a->sort = (demo_sort)s;
            a->sort_given = 1;
        } else if (!strcmp(o, "--size")) {
            if (parse_size(v, &a->width, &a->height))
                return -1;
        } else if (!strcmp(o, "--screenshot")) {
            size_t len = strlen(v);
            if (len < 5 || strcmp(v + len - 4, ".png") != 0) {
                fprintf(stderr, "vksort-demo: --screenshot needs a file name ending in .png, got '%s'\n", v);
                return -1;
            }
            a->screenshot = v;
        } else if (!strcmp(o, "--timings")) {
            a->timings = v;
        } else if (!strcmp(o, "--renderdoc-capture")) {
            if (parse_u64(o, v, 0, UINT32_MAX, &n))
                return -1;
            a->renderdoc_frame = (int64_t)n;
        } else if (!strcmp(o, "--key-bits")) {
            if (parse_u64(o, v, 16, 32, &n))
                return -1;
            if (n != 16 && n != 24 && n != 32) {
                fprintf(stderr, "vksort-demo: --key-bits must be 16, 24 or 32, got '%s'\n", v);
                return -1;
            }
            a->key_bits = (uint32_t)n;
        } else if (!strcmp(o, "--seed")) {
            if (parse_u64(o, v, 0, UINT32_MAX, &n))
                return -1;
            a->seed = (uint32_t)n;
        } else if (!strcmp(o, "--scene")) {
            if (!strcmp(v, "fountains"))
                a->scene = DEMO_SCENE_FOUNTAINS;
            else if (!strcmp(v, "overlap"))
                a->scene = DEMO_SCENE_OVERLAP;
            else {
                fprintf(stderr, "vksort-demo: unknown scene '%s' (fountains, overlap)\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "vksort-demo: unknown option '%s' (see --help)\n", o);
            return -1;
        }
        i += takes;
    }
    const uint64_t frames = a->frames ? a->frames : a->headless ? DEMO_HEADLESS_FRAMES : 0u;
    if (a->renderdoc_frame >= 0 && frames && (uint64_t)a->renderdoc_frame >= frames) {
        fprintf(stderr, "vksort-demo: --renderdoc-capture %lld is past the last frame (%llu "
                        "frames run, 0..%llu)\n", (long long)a->renderdoc_frame,
                (unsigned long long)frames, (unsigned long long)frames - 1u);
        return -1;
    }
    return 0;
}
