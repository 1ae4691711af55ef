/* The demo's own pipelines (the sorts are the library's): simulate and depth_keys (compute), grid
 * and sprites (graphics, dynamic rendering). Descriptors are pushed (VK_KHR_push_descriptor). */
#ifndef VKSORT_DEMO_PIPELINES_H
#define VKSORT_DEMO_PIPELINES_H

#include "vk_context.h"

#define DEMO_DEPTH_FORMAT VK_FORMAT_D32_SFLOAT

typedef struct demo_pipelines {
    VkDescriptorSetLayout simulate_set, keys_set, sprite_set;
    VkPipelineLayout simulate_layout, keys_layout, sprite_layout, grid_layout;
    VkPipeline simulate, keys, sprite, grid;
    VkFormat color_format;
} demo_pipelines;

/* Push-constant blocks (match the shaders). */
typedef struct simulate_push {
    uint32_t count, seed, scene, reset;
    float dt, time;
} simulate_push;

typedef struct keys_push {
    float eye[4];
    float forward[4];
    uint32_t count;
    uint32_t key_bits;  /* 32: float depth bits; 16/24: view depth quantized over [0, max_depth] */
    float max_depth;
} keys_push;

typedef struct sprite_push {
    float view_proj[16];
    float right[4];
    float up[4];
} sprite_push;

int demo_pipelines_create(vk_context *ctx, VkFormat color_format, demo_pipelines *out);
void demo_pipelines_destroy(vk_context *ctx, demo_pipelines *p);

#endif
