/* Vulkan sorter internals shared by sorter.c, pipelines.c, bitonic.c and labels.c. */
#ifndef VKSORT_VK_SORTER_INTERNAL_H
#define VKSORT_VK_SORTER_INTERNAL_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include "vksort/vulkan.h"

#include "device_table.h"
#include "vksort_shader_interface.h"

#include <stdarg.h>

/* Pipelines of the bitonic sorter. NS: not stable; S1: stable, one tile (positions generated
 * and dropped in the pass); SI: stable with the positions stored in the scratch indices. */
typedef enum vksort_vk_pipeline_id {
    PIPE_LOCAL_SORT_NS,
    PIPE_LOCAL_SORT_S1,
    PIPE_LOCAL_SORT_SI,
    PIPE_LOCAL_MERGE_NS,
    PIPE_LOCAL_MERGE_SI,
    PIPE_GLOBAL_MERGE_NS,
    PIPE_GLOBAL_MERGE_SI,
    PIPE_PREPARE,
    PIPE_COUNT
} vksort_vk_pipeline_id;

/* Push constants of every pass (mirrors `Push` in shaders/include/bitonic_common.glsl). */
typedef struct vksort_vk_push {
    uint32_t count;
    uint32_t flags;
    uint32_t mask_lo;
    uint32_t mask_hi;
    uint32_t level;
    uint32_t bit_hi;
    uint32_t aux0;
    uint32_t aux1;
} vksort_vk_push;

/* Tile geometry of one flavour (index 0: not stable, 1: stable). */
typedef struct vksort_vk_tile {
    uint32_t size;       /* elements per workgroup */
    uint32_t log_size;
    uint32_t workgroup;  /* invocations: size >> VKSORT_BITONIC_LOCAL_LOG */
} vksort_vk_tile;

struct vksort_vk_sorter {
    vksort_vk_device_table vk;
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkPipelineCache pipeline_cache;
    const VkAllocationCallbacks *vk_allocator; /* points at vk_allocator_copy or NULL */
    VkAllocationCallbacks vk_allocator_copy;
    vksort_allocation_callbacks allocator;
    int has_allocator;

    vksort_key_type key_type;
    uint32_t key_size;
    int has_payload;
    uint32_t max_count;
    vksort_vk_algorithm algorithm;
    vksort_vk_create_flags flags;
    int debug_labels;

    /* Device facts. */
    VkDeviceSize min_storage_align;
    uint32_t max_storage_range;
    float timestamp_period;

    vksort_vk_tile tile[2];
    /* Scratch layout: state (count + dispatch table) at 0, positions at indices_offset. */
    VkDeviceSize state_bytes;
    VkDeviceSize indices_offset;
    VkDeviceSize indices_bytes;
    VkDeviceSize scratch_size;

    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipelines[PIPE_COUNT];

    VkResult last_vk_result;
    char message[256];
};

/* --- sorter.c --- */
/* Records an error message (printf-style) and the VkResult on the sorter; returns `result`. */
vksort_result vksort_vk_fail(vksort_vk_sorter *s, vksort_result result, VkResult vk_result,
                             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void vksort_vk_clear_error(vksort_vk_sorter *s);
uint32_t vksort_vk_ceil_log2(uint32_t n); /* n >= 1; 0 for n == 1 */

/* --- pipelines.c --- */
vksort_result vksort_vk_create_pipelines(vksort_vk_sorter *s);
void vksort_vk_destroy_pipelines(vksort_vk_sorter *s);

/* --- bitonic.c --- */
typedef enum vksort_vk_pass_kind {
    PASS_PREPARE,
    PASS_LOCAL_SORT,
    PASS_GLOBAL_MERGE,
    PASS_LOCAL_MERGE
} vksort_vk_pass_kind;

typedef struct vksort_vk_pass {
    uint8_t kind;
    uint8_t level;  /* merges: log2 of the merged block size */
    uint8_t bit_hi; /* global merge: highest index bit of its stages */
    uint8_t flip;   /* global merge: the first stage is the level's flip */
} vksort_vk_pass;

#define VKSORT_VK_MAX_PASSES 192

/* Everything a sort records, derived from the sort info alone (cmd_sort, the timestamp count
 * and the timestamp helper all use it, so they agree). */
typedef struct vksort_vk_plan {
    int indirect;
    int stable;
    int use_indices;
    uint32_t count;        /* host count, or max_count when indirect */
    uint32_t bit_begin, bit_end;
    const vksort_vk_tile *tile;
    uint32_t table_entries; /* indirect dispatch table entries */
    VkDeviceSize state_bytes; /* scratch state range bound to the passes */
    uint32_t pass_count;
    vksort_vk_pass passes[VKSORT_VK_MAX_PASSES];
} vksort_vk_plan;

/* Checks the sort info against the sorter (setting the sorter's message on error when s_msg is
 * not NULL) and fills the plan. */
vksort_result vksort_vk_bitonic_plan(const vksort_vk_sorter *s, const vksort_vk_sort_info *info,
                                     vksort_vk_plan *plan, vksort_vk_sorter *s_msg);
vksort_result vksort_vk_bitonic_record(vksort_vk_sorter *s, VkCommandBuffer cmd,
                                       const vksort_vk_sort_info *info,
                                       const vksort_vk_plan *plan);
/* Bytes of scratch state (count + dispatch table) for the largest plan. */
VkDeviceSize vksort_vk_bitonic_state_bytes(const vksort_vk_sorter *s);

/* --- labels.c --- */
void vksort_vk_pass_name(const vksort_vk_pass *pass, char *buf, size_t n);
const char *vksort_vk_pass_kind_name(uint32_t kind);
void vksort_vk_label_begin(const vksort_vk_sorter *s, VkCommandBuffer cmd, const char *name);
void vksort_vk_label_end(const vksort_vk_sorter *s, VkCommandBuffer cmd);
void vksort_vk_name_object(const vksort_vk_sorter *s, VkObjectType type, uint64_t handle,
                           const char *name);

#endif
