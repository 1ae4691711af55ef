/*
 * The GPU benchmark's input generator and result check: two compute pipelines
 * (bench/shaders/fill_random.comp, check_sorted.comp; their data in bench/shaders/bench_data.h).
 * The generator writes random 32-bit words, each word's index, or random f32 depths into a
 * storage buffer; the check adds one sort's errors and multiset sums into a result buffer.
 * Recording only; the caller orders the writes with barriers.
 */
#ifndef VKSORT_BENCH_GPU_FILL_H
#define VKSORT_BENCH_GPU_FILL_H

#include <vulkan/vulkan.h>
#include <stdint.h>

typedef struct gpu_fill {
    VkDevice device;
    VkDescriptorSetLayout set_layout, check_set_layout;
    VkPipelineLayout layout, check_layout;
    VkPipeline pipeline, check_pipeline;
    VkDescriptorPool pool;
} gpu_fill;

/* RANDOM: uniform random words; INDEX: each word's index; DEPTH: f32 bits of depths uniform in
 * [1, 100) (bench_data.h's BENCH_FILL_*). */
typedef enum gpu_fill_mode { GPU_FILL_RANDOM = 0, GPU_FILL_INDEX = 1, GPU_FILL_DEPTH = 2 } gpu_fill_mode;

/* 0, or -1 with a message on stderr (nothing left to destroy). */
int gpu_fill_create(gpu_fill *f, VkDevice device);
void gpu_fill_destroy(gpu_fill *f);
/* A descriptor set for buffer (whole range), from the generator's pool (at most 8 sets live at
 * once, all of them together at most 16 buffers); VK_NULL_HANDLE on failure. gpu_fill_release
 * gives it back. */
VkDescriptorSet gpu_fill_bind(gpu_fill *f, VkBuffer buffer);
void gpu_fill_release(gpu_fill *f, VkDescriptorSet set);
/* Records the fill of the first `words` 32-bit words of set's buffer. */
void gpu_fill_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set, uint64_t words,
                     uint32_t seed, gpu_fill_mode mode);

/* What one check compares: elements [base, base + n) of keys generated with (seed, mode),
 * `key_words` 32-bit words each, encoded (BENCH_ENC_*) and masked to mask_lo/mask_hi; with
 * payloads (each element's index when generated), and stable or not. */
typedef struct gpu_check_info {
    uint32_t base, n, seed, mode, key_words, encoding, mask_lo, mask_hi, flags;
} gpu_check_info;
#define GPU_CHECK_PAIRS 1u
#define GPU_CHECK_STABLE 2u

/* The check's descriptor set: keys, payloads (VK_NULL_HANDLE: none) and the result buffer
 * (BENCH_CHECK_WORDS words at offset 0, zeroed by the caller before the first check). */
VkDescriptorSet gpu_check_bind(gpu_fill *f, VkBuffer keys, VkBuffer values, VkBuffer result);
/* Records one check; it reads the keys and payloads and adds into the result with compute
 * shader reads and atomics. */
void gpu_check_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set,
                      const gpu_check_info *info);

#endif
