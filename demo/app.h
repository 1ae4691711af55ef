/* The demo application state shared by main.c (set-up, loop), submit.c (segments),
 * app_resources.c (particle buffer, sort backend) and controls.c (window input). */
#ifndef VKSORT_DEMO_APP_H
#define VKSORT_DEMO_APP_H

#include "app_args.h"
#include "camera.h"
#include "frame.h"
#include "headless.h"
#include "pipelines.h"
#include "sort_backends.h"
#include "timings.h"
#include "vk_context.h"
#include "window.h"

#include "vksort/graph.h"

typedef struct demo_app {
    demo_args args;
    vk_context ctx;
    int windowed;
    demo_window win;
    demo_headless headless;
    demo_pipelines pipes;
    demo_sorts sorts;
    vksort_graph *graph;
    vk_buffer particles;
    uint32_t count;
    demo_sort sort;
    demo_camera camera;
    demo_timings timings;
    demo_frame frame;
    VkCommandBuffer cmds[4];
    VkFence fence, mid_fence;
    int fence_pending;
    uint64_t frame_index;
    uint64_t graph_frame;           /* frames built (vksort_graph_reset count, 1-based) */
    double sim_time;
    int paused, need_reset;
    int cuda_pending;               /* the previous frame ran the CUDA sort */
    uint64_t cuda_frame;
} demo_app;

/* app_resources.c: (re)creates the particle buffer for `count` (when it changed; the old one
 * stays on failure) and prepares `sort`. 0, or -1 with the reason on stderr. */
int demo_set_count(demo_app *app, uint32_t count, demo_sort sort);

/* controls.c: polls the window's events and applies them (orbit, zoom, pause, respawn, count,
 * sort; a refused change keeps the previous state). Returns 1 to quit. */
int demo_handle_input(demo_app *app);

/* Records and submits every segment of the built frame: host waits for the cpu sort, timeline
 * semaphores around the CUDA sort, the swapchain semaphores in window mode. 0 or -1. */
int demo_submit_frame(demo_app *app);

#endif
