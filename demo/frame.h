/* One frame of the demo as a render graph:
 *   simulate (compute) -> depth_keys (compute) -> sort -> draw (graphics: grid + sprites)
 *   [-> readback (transfer, when a screenshot is due)]
 * The sort is a graph sort node for onesweep/portable/bitonic, an external pass for cpu (host) and
 * cuda (CUB), nothing for none. See docs/demo.md. */
#ifndef VKSORT_DEMO_FRAME_H
#define VKSORT_DEMO_FRAME_H

#include "app_args.h"
#include "pipelines.h"
#include "sort_backends.h"

#include "vksort/graph.h"

typedef struct demo_target {
    const char *name;
    VkImage image;
    VkImageView view;
    VkFormat format;
    VkExtent2D extent;
    vksort_graph_state initial, final;
    VkBuffer readback;              /* VK_NULL_HANDLE: no read-back this frame */
} demo_target;

typedef struct demo_frame {
    /* inputs */
    vk_context *ctx;
    demo_pipelines *pipes;
    demo_sorts *sorts;
    VkBuffer particles;
    demo_sort sort;
    uint32_t count;
    simulate_push sim;
    keys_push keys;
    sprite_push sprite;
    demo_target target;
    uint64_t cuda_wait_value;       /* cuda: the timeline value the Vulkan part signals */
    /* --check-order: host-visible copies of the particles and of the draw order, written at the
     * end of this frame (VK_NULL_HANDLE: no check this frame) */
    VkBuffer check_particles, check_indices;
    /* filled by demo_frame_build */
    vksort_graph_resource r_particles, r_keys, r_indices, r_target, r_depth, r_readback;
    vksort_graph_resource r_check_particles, r_check_indices;
    vksort_graph_pass sort_pass;
    int cuda_enqueued;
} demo_frame;

/* Resets the graph, declares the frame and compiles it. 0 or -1 (message on stderr). */
int demo_frame_build(vksort_graph *graph, demo_frame *f);

/* Dispatch size for `count` invocations of 256: x up to 65535 groups, y the rest. */
void demo_dispatch_size(uint32_t count, uint32_t *gx, uint32_t *gy);

#endif
