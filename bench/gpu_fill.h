/*
 * The GPU benchmark's input generator: one compute pipeline (bench/shaders/fill_random.comp)
 * that writes random 32-bit words, each word's index, or random f32 depths into a storage
 * buffer. Recording
 * only; the caller orders the writes before the sort with a barrier.
 */
#ifndef VKSORT_BENCH_GPU_FILL_H
#define VKSORT_BENCH_GPU_FILL_H

#include <vulkan/vulkan.h>

typedef struct gpu_fill {
    VkDevice device;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
} gpu_fill;

/* RANDOM: uniform random words; INDEX: each word's index; DEPTH: f32 bits of depths uniform in
 * [1, 100). */
typedef enum gpu_fill_mode { GPU_FILL_RANDOM = 0, GPU_FILL_INDEX = 1, GPU_FILL_DEPTH = 2 } gpu_fill_mode;

/* 0, or -1 with a message on stderr (nothing left to destroy). */
int gpu_fill_create(gpu_fill *f, VkDevice device);
void gpu_fill_destroy(gpu_fill *f);
/* A descriptor set for buffer (whole range), from the generator's pool (at most 8 live at
 * once); VK_NULL_HANDLE on failure. gpu_fill_release gives it back. */
VkDescriptorSet gpu_fill_bind(gpu_fill *f, VkBuffer buffer);
void gpu_fill_release(gpu_fill *f, VkDescriptorSet set);
/* Records the fill of the first `words` 32-bit words of set's buffer. */
void gpu_fill_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set, uint64_t words,
                     uint32_t seed, gpu_fill_mode mode);

#endif
