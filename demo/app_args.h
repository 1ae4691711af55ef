/* Command-line options of the particle demo (see docs/demo.md). */
#ifndef VKSORT_DEMO_APP_ARGS_H
#define VKSORT_DEMO_APP_ARGS_H

/* Frames a headless run renders without --frames. */
#define DEMO_HEADLESS_FRAMES 300u

#include <stdint.h>

typedef enum demo_sort {
    DEMO_SORT_ONESWEEP = 0,
    DEMO_SORT_PORTABLE,
    DEMO_SORT_BITONIC,
    DEMO_SORT_CUDA,
    DEMO_SORT_CPU,
    DEMO_SORT_NONE,
    /* Test reference: like cpu, but libc qsort over (key, index) pairs instead of the library. */
    DEMO_SORT_REFERENCE,
    DEMO_SORT_COUNT
} demo_sort;

typedef enum demo_scene {
    DEMO_SCENE_FOUNTAINS = 0,
    DEMO_SCENE_OVERLAP = 1   /* static overlapping sprites of four colours (order tests) */
} demo_scene;

typedef struct demo_args {
    int headless;              /* --headless (also chosen when no display works) */
    int validation;            /* --validation */
    uint64_t frames;           /* --frames N, 0: until the window closes (headless:
                                  DEMO_HEADLESS_FRAMES) */
    uint32_t particles;        /* --particles N, 0: device default */
    demo_sort sort;            /* --sort NAME */
    int sort_given;
    uint32_t width, height;    /* --size WxH */
    const char *screenshot;    /* --screenshot FILE.png: the last frame */
    const char *timings;       /* --timings FILE.csv */
    int64_t renderdoc_frame;   /* --renderdoc-capture N, -1: none */
    uint32_t seed;             /* --seed S */
    uint32_t key_bits;         /* --key-bits 16|24|32 (default 32) */
    demo_scene scene;          /* --scene fountains|overlap */
    int fixed_dt;              /* deterministic 1/60 s steps (headless always) */
    int quiet;                 /* --quiet: no per-second line */
    int print_graph;           /* --print-graph: the compiled graph of frame 0 as text */
    int check_order;           /* --check-order: check the last frame's draw order on the host */
} demo_args;

/* Parses argv. Returns 0 on success, 1 when --help was printed (exit 0), -1 on bad input (the
 * message is already on stderr). */
int demo_args_parse(int argc, char **argv, demo_args *out);

const char *demo_sort_name(demo_sort sort);
/* -1 for an unknown name. */
int demo_sort_from_name(const char *name);

#endif
