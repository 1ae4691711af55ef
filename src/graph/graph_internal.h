/* Render graph internals shared by graph.c (build, compile, record) and graph_print.c. */
#ifndef VKSORT_GRAPH_INTERNAL_H
#define VKSORT_GRAPH_INTERNAL_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include "vksort/graph.h"

#include <stddef.h>
#include <stdint.h>

#define G_NONE UINT32_MAX
#define G_MAX_FRAMES_IN_FLIGHT 8

#define G_INSTANCE_FUNCTIONS(X)              \
    X(vkGetDeviceProcAddr)                   \
    X(vkGetPhysicalDeviceProperties)         \
    X(vkGetPhysicalDeviceMemoryProperties)

#define G_DEVICE_FUNCTIONS(X)                \
    X(vkCreateBuffer)                        \
    X(vkDestroyBuffer)                       \
    X(vkCreateImage)                         \
    X(vkDestroyImage)                        \
    X(vkCreateImageView)                     \
    X(vkDestroyImageView)                    \
    X(vkGetBufferMemoryRequirements)         \
    X(vkGetImageMemoryRequirements)          \
    X(vkAllocateMemory)                      \
    X(vkFreeMemory)                          \
    X(vkBindBufferMemory)                    \
    X(vkBindImageMemory)                     \
    X(vkCreateQueryPool)                     \
    X(vkDestroyQueryPool)                    \
    X(vkCmdResetQueryPool)                   \
    X(vkCmdWriteTimestamp)                   \
    X(vkGetQueryPoolResults)

typedef struct g_table {
#define G_DECLARE(name) PFN_##name name;
    G_INSTANCE_FUNCTIONS(G_DECLARE)
    G_DEVICE_FUNCTIONS(G_DECLARE)
#undef G_DECLARE
    PFN_vkCmdPipelineBarrier2 vkCmdPipelineBarrier2;    /* core 1.3 or KHR */
    PFN_vkCmdBeginRendering vkCmdBeginRendering;        /* core 1.3 or KHR; optional */
    PFN_vkCmdEndRendering vkCmdEndRendering;
    PFN_vkCmdBeginDebugUtilsLabelEXT vkCmdBeginDebugUtilsLabelEXT; /* optional */
    PFN_vkCmdEndDebugUtilsLabelEXT vkCmdEndDebugUtilsLabelEXT;
    PFN_vkSetDebugUtilsObjectNameEXT vkSetDebugUtilsObjectNameEXT;
} g_table;

/* Synchronization state of one resource while the barriers are computed. */
typedef struct g_sync {
    VkPipelineStageFlags2 write_stage;  /* last write or layout transition not yet waited for by all */
    VkAccessFlags2 write_access;        /* its write accesses (0 for a transition) */
    VkPipelineStageFlags2 read_stage;   /* reads since that write (a later write waits for them) */
    VkPipelineStageFlags2 vis_stage;    /* the write is visible to vis_access at vis_stage */
    VkAccessFlags2 vis_access;
    VkImageLayout layout;
} g_sync;

typedef struct g_resource {
    uint32_t name;                  /* offset in the string arena */
    uint8_t is_image, imported, has_final;
    uint8_t scratch;                /* contents need no initialisation (sort scratch) */
    VkBuffer buffer;
    VkDeviceSize offset, size;
    VkBufferUsageFlags buffer_usage;
    VkImage image;
    VkImageView view;
    VkFormat format;
    VkExtent3D extent;
    uint32_t mip_levels, array_layers;
    VkImageSubresourceRange range;
    VkImageUsageFlags image_usage;
    vksort_graph_state initial, final;
    /* compile */
    uint32_t transient;             /* index in graph->transients or G_NONE */
    uint32_t first_pos, last_pos;   /* lifetime among live passes, G_NONE when unused */
    uint32_t last_writer;           /* declaration scan */
    g_sync sync;
    vksort_graph_state end_state;
} g_resource;

typedef struct g_use {
    uint32_t resource;
    uint32_t next;                  /* next use of the same pass, G_NONE */
    uint32_t producer;              /* pass whose write this use reads, G_NONE */
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;
    uint8_t barrier;                /* a barrier was placed before this use (for printing) */
} g_use;

typedef struct g_pass {
    uint32_t name;
    vksort_graph_pass_type type;
    vksort_graph_pass_flags flags;
    vksort_graph_record_fn record;
    void *user_data;
    uint32_t color_count;
    vksort_graph_attachment color[VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS];
    vksort_graph_attachment depth;
    VkRect2D render_area;
    uint32_t first_use, last_use, use_count;
    uint32_t sort_node;             /* index in graph->sorts or G_NONE */
    uint8_t live;
    uint32_t position;              /* execution order, G_NONE when culled */
    uint32_t indegree;
} g_pass;

typedef struct g_sort_node {
    vksort_vk_sorter *sorter;
    uint32_t keys, values, count_buffer, scratch;  /* resource indices or G_NONE */
    uint32_t count;
    vksort_flags flags;
    uint32_t bit_begin, bit_end;
    VkDeviceSize scratch_size;
} g_sort_node;

typedef struct g_batch {            /* one vkCmdPipelineBarrier2 */
    uint32_t first_buffer, buffer_count;
    uint32_t first_image, image_count;
} g_batch;

typedef struct g_segment {
    uint32_t first, count;          /* positions */
    uint32_t external;              /* pass index or G_NONE */
} g_segment;

/* A transient object the graph created; kept across builds while the next compile asks for the
 * same set of transients. */
typedef struct g_transient {
    uint8_t is_image;
    VkDeviceSize size;
    VkBufferUsageFlags buffer_usage;
    VkFormat format;
    VkExtent3D extent;
    uint32_t mip_levels, array_layers;
    VkImageUsageFlags image_usage;
    uint32_t first_pos, last_pos;   /* part of the signature when aliasing */
    VkBuffer buffer;
    VkImage image;
    VkImageView view;
    VkMemoryRequirements req;
    VkDeviceSize offset;            /* in the transient allocation */
    /* Every stage / write access this memory was ever used with (the first use of a frame waits
     * for all of them: earlier frames and aliased transients). */
    VkPipelineStageFlags2 hist_stage;
    VkAccessFlags2 hist_write;
    uint32_t resource;              /* resource index of the current build */
} g_transient;

typedef struct g_retired {
    VkBuffer buffer;
    VkImage image;
    VkImageView view;
    VkDeviceMemory memory;
    VkQueryPool query_pool;
    uint64_t frame;
} g_retired;

typedef struct g_timing_slot {
    uint64_t frame;                 /* the graph's frame (reset count) it timed */
    uint64_t tick;                  /* its timing tick (see vksort_graph::timing_tick) */
    uint32_t count;                 /* passes timed */
    uint32_t first_name;            /* index in graph->timing_names (count entries) */
    uint8_t recorded;
} g_timing_slot;

#define G_NAME_LEN 48

struct vksort_graph {
    vksort_allocation_callbacks alloc;
    const VkAllocationCallbacks *vk_alloc;
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    g_table vk;
    vksort_graph_create_flags flags;
    uint32_t frames_in_flight;
    VkPhysicalDeviceLimits limits;
    VkPhysicalDeviceMemoryProperties memory_props;

    uint64_t frame;                 /* vksort_graph_reset count */
    /* Recordings of segment 0 that own a timestamp slot: one per reset, plus one for each
     * further recording of the same build (a compiled graph recorded again), so a recording
     * never resets the queries of one still in flight. Equals frame while each build is
     * recorded once. */
    uint64_t timing_tick;
    int segment0_recorded;          /* segment 0 recorded since the last reset */
    uint32_t generation;            /* handle generation (12 bits) */
    vksort_result error;            /* first declaration error of this build */
    int compiled;
    char message[512];

    char *strings; size_t strings_len, strings_cap;
    g_resource *resources; uint32_t resource_count, resource_cap;
    g_pass *passes; uint32_t pass_count, pass_cap;
    g_use *uses; uint32_t use_count, use_cap;
    uint32_t *deps; uint32_t dep_count, dep_cap;      /* pairs (before, after) */
    g_sort_node *sorts; uint32_t sort_count, sort_cap;

    /* compile */
    uint32_t *order; uint32_t order_count, order_cap;
    uint32_t *edge_from, *edge_to, *edge_start, *edge_list; uint32_t edge_count, edge_cap, node_cap;
    g_batch *batches; uint32_t batch_cap;                 /* order_count + 1 (final) */
    VkBufferMemoryBarrier2 *buffer_barriers; uint32_t buffer_barrier_count, buffer_barrier_cap;
    VkImageMemoryBarrier2 *image_barriers; uint32_t image_barrier_count, image_barrier_cap;
    uint32_t *buffer_barrier_res, *image_barrier_res;
    g_segment *segments; uint32_t segment_count, segment_cap;
    vksort_graph_resolved_use *resolved; uint32_t resolved_cap;

    /* transients */
    g_transient *transients; uint32_t transient_count, transient_cap;
    VkDeviceSize transient_size, transient_size_unaliased;
    uint32_t transient_memory_bits;
    VkDeviceSize transient_alignment;
    VkDeviceMemory bound_memory;    /* caller's or own */
    VkDeviceSize bound_offset;
    int memory_owned, memory_bound;
    g_retired *retired; uint32_t retired_count, retired_cap;

    /* timestamps */
    VkQueryPool query_pool;
    uint32_t queries_per_slot;
    g_timing_slot slots[G_MAX_FRAMES_IN_FLIGHT + 1];
    char (*timing_names)[G_NAME_LEN]; uint32_t timing_name_cap;  /* slots * queries_per_slot / 2 */
    vksort_graph_pass_timing *timing_out; uint32_t timing_out_cap;
};

const char *g_str(const vksort_graph *g, uint32_t offset);
int g_is_write(VkAccessFlags2 access);
int g_is_read(VkAccessFlags2 access);
void g_stage_names(VkPipelineStageFlags2 stage, char *out, size_t cap);
void g_access_names(VkAccessFlags2 access, char *out, size_t cap);
const char *g_layout_name(VkImageLayout layout);
const char *g_pass_type_name(vksort_graph_pass_type type);

#endif
