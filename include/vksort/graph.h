/*
 * vksort render graph: record the sort with the rest of the frame.
 *
 * Passes declare how they use each resource as (pipeline stage, access) pairs of
 * synchronization2 (VkPipelineStageFlags2 / VkAccessFlags2), plus a layout for images. From those
 * declarations alone the graph
 *   - orders the passes (declaration order is the program order: a read sees the latest write
 *     declared before it; explicit dependencies may be added),
 *   - culls passes whose results nobody reads (never-cull passes and passes writing imported
 *     resources are kept),
 *   - records one vkCmdPipelineBarrier2 per pass boundary with every buffer and image barrier the
 *     boundary needs (merged per resource, none when the previous barrier already covers it),
 *     image layout transitions included,
 *   - creates transient buffers and images, optionally aliasing the memory of transients whose
 *     lifetimes do not overlap,
 *   - wraps each pass in a VK_EXT_debug_utils label and optionally times it with timestamps read
 *     back a few frames later without waiting,
 *   - prints the compiled graph as text and as Graphviz DOT.
 *
 * A pass must declare every access its record callback makes. An access that is not declared is
 * the caller's bug: the graph cannot see it and places no barrier for it (synchronization
 * validation will usually report the hazard). See docs/graph.md.
 *
 * Conventions (the library's, as in vulkan.h): opaque handle, zero-initialisable info structs (zero means
 * default), vksort_result codes plus a per-graph message (vksort_graph_last_message), no global
 * state, loader-agnostic (every entry point is loaded through the caller's vkGetInstanceProcAddr
 * into a per-graph table), host memory through the optional allocator, reused across frames: after
 * a few frames of the same shape, building, compiling and recording a frame allocates nothing.
 *
 * Device requirements: Vulkan 1.3, or 1.1+ with VK_KHR_synchronization2 (and
 * VK_KHR_dynamic_rendering for graphics passes), with the synchronization2 feature enabled (and
 * dynamicRendering for graphics passes). Sort nodes need what the sorter needs
 * (VK_KHR_push_descriptor).
 *
 * Thread safety: one graph is used from one thread at a time.
 */
#ifndef VKSORT_GRAPH_H
#define VKSORT_GRAPH_H

#include "vksort/vksort.h"
#include "vksort/vulkan.h"

#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes: vksort_result (vksort.h), including the graph's VKSORT_ERROR_GRAPH_* codes.
 * Every failing call also leaves a sentence naming the pass and resource in
 * vksort_graph_last_message(). */

/* The same as vksort_result_string() (kept for callers of earlier versions). Never NULL. */
const char *vksort_graph_result_string(vksort_result result);

typedef struct vksort_graph vksort_graph;

/* Handles of one build of the graph (between two vksort_graph_reset calls). 0 is "none". A
 * handle of an earlier build is rejected with VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE/PASS (a
 * debugging aid, not a guarantee: the build number in a handle has 12 bits, so a handle kept
 * exactly a multiple of 4095 builds is taken for the current build's). */
typedef uint32_t vksort_graph_resource;
typedef uint32_t vksort_graph_pass;

typedef enum vksort_graph_create_flag_bits {
    /* VK_EXT_debug_utils is enabled on the instance: label every pass and name transients. */
    VKSORT_GRAPH_CREATE_DEBUG_LABELS = 1u << 0,
    /* Transients whose lifetimes (first to last pass using them, in execution order) do not
     * overlap may share memory. Off by default. */
    VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS = 1u << 1,
    /* Write a timestamp before and after every pass (see vksort_graph_read_timings). The queue
     * family needs timestampValidBits > 0. */
    VKSORT_GRAPH_CREATE_TIMESTAMPS = 1u << 2
} vksort_graph_create_flag_bits;
typedef uint32_t vksort_graph_create_flags;

typedef struct vksort_graph_create_info {
    /* Required. */
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Optional: defaults to vkGetDeviceProcAddr loaded through get_instance_proc_addr. */
    PFN_vkGetDeviceProcAddr get_device_proc_addr;
    /* Optional: for every vkCreate/vkAllocate/vkDestroy/vkFree call of the graph. */
    const VkAllocationCallbacks *vk_allocator;
    /* Optional: host memory of the graph (grows to the largest frame, then stays). */
    const vksort_allocation_callbacks *allocator;
    vksort_graph_create_flags flags;
    /* Frames the GPU may still be working on when the next one is built (default 2, at most 8):
     * transient objects replaced by a rebuild are destroyed that many resets later, and the
     * timestamps of a frame are read back that many frames later. */
    uint32_t frames_in_flight;
} vksort_graph_create_info;

vksort_result vksort_graph_create(const vksort_graph_create_info *info, vksort_graph **out_graph);
/* Destroys every object the graph created. The GPU must be done with every recorded frame. */
void vksort_graph_destroy(vksort_graph *graph);

/* The message of the last failing call ("" after success): names the pass and the resource. */
const char *vksort_graph_last_message(const vksort_graph *graph);

/* Starts a new build: forgets every pass and resource (their handles become invalid) but keeps
 * the memory of the arrays, the transient objects (reused when the next compile asks for the same
 * ones) and the timestamp ring. Call once per frame before declaring it. */
void vksort_graph_reset(vksort_graph *graph);

/* ---- resources ------------------------------------------------------------------------- */

/* The state a resource is in when the graph starts (imported) or must be left in (final).
 * stage NONE and access 0: nothing to wait for / nothing to make visible. */
typedef struct vksort_graph_state {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;   /* images only */
} vksort_graph_state;

typedef struct vksort_graph_buffer_import {
    const char *name;           /* debug name (copied); NULL: "buffer<N>" */
    VkBuffer buffer;            /* required */
    VkDeviceSize offset;
    VkDeviceSize size;          /* 0 or VK_WHOLE_SIZE: to the end of the buffer */
    /* Last access before the graph (e.g. TRANSFER/TRANSFER_WRITE of an upload recorded earlier
     * into the same command buffer or queue). Zero: the contents are ready (host writes before
     * the submit, or earlier submissions already synchronized by the caller). */
    vksort_graph_state initial;
    /* Optional: the access that follows the graph (e.g. HOST/HOST_READ for a mapped read-back);
     * the graph records the barrier to it at the end. Zero: none (see vksort_graph_final_state). */
    vksort_graph_state final;
} vksort_graph_buffer_import;

typedef struct vksort_graph_image_import {
    const char *name;
    VkImage image;              /* required */
    VkImageView view;           /* optional: needed when the image is a graphics attachment */
    VkFormat format;            /* required */
    VkExtent3D extent;
    VkImageSubresourceRange range;  /* zero aspectMask: the color aspect, level 0, layer 0;
                                     * zero level/layer counts mean all remaining */
    vksort_graph_state initial; /* layout UNDEFINED: the contents may be discarded */
    vksort_graph_state final;   /* layout UNDEFINED: leave it in the layout of its last use */
} vksort_graph_image_import;

vksort_result vksort_graph_import_buffer(vksort_graph *graph, const vksort_graph_buffer_import *info,
                                         vksort_graph_resource *out_resource);
vksort_result vksort_graph_import_image(vksort_graph *graph, const vksort_graph_image_import *info,
                                        vksort_graph_resource *out_resource);

typedef struct vksort_graph_buffer_desc {
    const char *name;
    VkDeviceSize size;          /* required */
    /* Extra usage bits; those implied by the declared accesses are added by the graph. */
    VkBufferUsageFlags usage;
} vksort_graph_buffer_desc;

typedef struct vksort_graph_image_desc {
    const char *name;
    VkFormat format;            /* required */
    VkExtent3D extent;          /* required (depth 0 means 1) */
    uint32_t mip_levels;        /* 0 means 1 */
    uint32_t array_layers;      /* 0 means 1 */
    VkImageUsageFlags usage;    /* extra usage bits; implied ones are added */
} vksort_graph_image_desc;

/* Transients: created by the graph (VkBuffer/VkImage, a view for images), contents undefined at
 * the first use of every frame, so the first use must write them (else
 * VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE). */
vksort_result vksort_graph_create_buffer(vksort_graph *graph, const vksort_graph_buffer_desc *desc,
                                         vksort_graph_resource *out_resource);
vksort_result vksort_graph_create_image(vksort_graph *graph, const vksort_graph_image_desc *desc,
                                        vksort_graph_resource *out_resource);

/* ---- passes ---------------------------------------------------------------------------- */

typedef enum vksort_graph_pass_type {
    VKSORT_GRAPH_PASS_COMPUTE = 0,
    VKSORT_GRAPH_PASS_GRAPHICS = 1,  /* the graph begins/ends dynamic rendering around it */
    VKSORT_GRAPH_PASS_TRANSFER = 2,
    /* Work that runs elsewhere (another queue, CUDA, the host), joined by semaphores: it ends a
     * segment of the recording (see vksort_graph_segment_info); the caller submits the segment
     * before it with a signal, runs the external work, and submits the next segment waiting. */
    VKSORT_GRAPH_PASS_EXTERNAL = 3
} vksort_graph_pass_type;

typedef enum vksort_graph_pass_flag_bits {
    VKSORT_GRAPH_PASS_NEVER_CULL = 1u << 0,
    /* Start a new segment (command buffer) at this pass. */
    VKSORT_GRAPH_PASS_NEW_SEGMENT = 1u << 1
} vksort_graph_pass_flag_bits;
typedef uint32_t vksort_graph_pass_flags;

/* One declared use, resolved for the record callback (in declaration order). */
typedef struct vksort_graph_resolved_use {
    vksort_graph_resource resource;
    VkBuffer buffer;            /* buffers: the handle, offset and size of the range */
    VkDeviceSize offset;
    VkDeviceSize size;
    VkImage image;              /* images: the handle, its view and the layout of the use */
    VkImageView view;
    VkImageLayout layout;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} vksort_graph_resolved_use;

typedef struct vksort_graph_record_context {
    vksort_graph *graph;
    vksort_graph_pass pass;
    const char *pass_name;
    /* The command buffer of the pass's segment; VK_NULL_HANDLE for external passes (their
     * callback runs when vksort_graph_record_segment ends the segment before them). */
    VkCommandBuffer cmd;
    const vksort_graph_resolved_use *uses;
    uint32_t use_count;
} vksort_graph_record_context;

/* Records the pass. A non-success result stops the recording; vksort_graph_record* returns it. */
typedef vksort_result (*vksort_graph_record_fn)(const vksort_graph_record_context *ctx,
                                                void *user_data);

typedef struct vksort_graph_attachment {
    vksort_graph_resource image;    /* an image resource with a view */
    VkAttachmentLoadOp load_op;     /* LOAD (0) reads the previous contents */
    VkAttachmentStoreOp store_op;   /* STORE (0) */
    VkClearValue clear;
} vksort_graph_attachment;

#define VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS 8

typedef struct vksort_graph_pass_info {
    const char *name;               /* copied; NULL: "pass<N>" */
    vksort_graph_pass_type type;
    vksort_graph_pass_flags flags;
    vksort_graph_record_fn record;  /* may be NULL (a pass that only orders / transitions) */
    void *user_data;
    /* Graphics passes: the attachments of vkCmdBeginRendering (their uses are declared by the
     * graph: COLOR_ATTACHMENT_OUTPUT / EARLY+LATE_FRAGMENT_TESTS with the matching accesses and
     * attachment layouts) and the render area (zero extent: the first attachment's). Every
     * graphics pass records inside dynamic rendering; one without attachments needs a
     * render_area. Attachment formats must suit their slot (depth/stencil formats for the depth
     * attachment, others for colour) and load/store ops be known values. */
    uint32_t color_attachment_count;
    vksort_graph_attachment color_attachments[VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS];
    vksort_graph_attachment depth_attachment;   /* image 0: none */
    VkRect2D render_area;
} vksort_graph_pass_info;

vksort_result vksort_graph_add_pass(vksort_graph *graph, const vksort_graph_pass_info *info,
                                    vksort_graph_pass *out_pass);

/* Declares a use of a buffer by a pass: every stage and access the record callback uses it with.
 * Declaring the same resource twice in a pass merges the two. Writes are the access bits that
 * write (SHADER_WRITE, SHADER_STORAGE_WRITE, TRANSFER_WRITE, COLOR_ATTACHMENT_WRITE, ...). The
 * stages and accesses must be core Vulkan 1.3 synchronization-2 bits, and every access one that
 * a declared stage performs (COMPUTE_SHADER with TRANSFER_WRITE is refused, as are unknown bits
 * and layouts): VKSORT_ERROR_GRAPH_BAD_USE. */
vksort_result vksort_graph_use_buffer(vksort_graph *graph, vksort_graph_pass pass,
                                      vksort_graph_resource buffer, VkPipelineStageFlags2 stage,
                                      VkAccessFlags2 access);
/* The same for an image, in `layout` (a change of layout counts as a write). */
vksort_result vksort_graph_use_image(vksort_graph *graph, vksort_graph_pass pass,
                                     vksort_graph_resource image, VkPipelineStageFlags2 stage,
                                     VkAccessFlags2 access, VkImageLayout layout);
/* `pass` runs after `before` even without a resource between them. */
vksort_result vksort_graph_add_dependency(vksort_graph *graph, vksort_graph_pass before,
                                          vksort_graph_pass pass);

/* ---- the sort node --------------------------------------------------------------------- */

/* Adds a pass that sorts `keys` (and `values` when the sorter has a payload; else 0) in place
 * with `sorter`, for `count` keys, or for the uint32 at the start of the buffer resource
 * `count_buffer` when it is not 0 (GPU-driven count; `count` is ignored). Creates the scratch
 * buffer as a transient (sized by vksort_vk_get_memory_requirements) and declares every use from
 * the sorter's documented synchronization scopes (vulkan.h): keys/values COMPUTE_SHADER
 * SHADER_STORAGE_READ|WRITE, count COMPUTE_SHADER SHADER_STORAGE_READ, scratch COMPUTE_SHADER +
 * DRAW_INDIRECT, SHADER_STORAGE_READ|WRITE + INDIRECT_COMMAND_READ. The barriers between the
 * sort's own passes stay inside the node. bit_end 0: every bit. Checks the count against the
 * sorter's max_count and the sizes of the ranges now, the rest when recording. */
typedef struct vksort_graph_sort_info {
    const char *name;               /* default "sort" */
    /* required; must outlive the recording; not one with VKSORT_VK_CREATE_PERSISTENT_SCRATCH
     * (the graph's scratch buffers are transient): VKSORT_ERROR_INVALID_ARGUMENT */
    vksort_vk_sorter *sorter;
    vksort_graph_resource keys;     /* required */
    vksort_graph_resource values;
    uint32_t count;
    vksort_graph_resource count_buffer;
    vksort_flags flags;
    uint32_t bit_begin;
    uint32_t bit_end;
    vksort_graph_pass_flags pass_flags;
} vksort_graph_sort_info;

vksort_result vksort_graph_add_sort(vksort_graph *graph, const vksort_graph_sort_info *info,
                                    vksort_graph_pass *out_pass);
/* Compiled graphs may be recorded again with another host count for a sort node (checked
 * against max_count and the key/value resource sizes, as add_sort checks its count). */
vksort_result vksort_graph_set_sort_count(vksort_graph *graph, vksort_graph_pass sort_pass,
                                          uint32_t count);

/* ---- compile and record ---------------------------------------------------------------- */

/* Orders, culls, computes barriers and transient lifetimes, creates (or reuses) transient
 * objects. Diagnostics: VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE, VKSORT_ERROR_GRAPH_CYCLE, and the
 * first error of an earlier declaration call (a graph with a bad declaration does not compile). */
vksort_result vksort_graph_compile(vksort_graph *graph);

/* Transient memory after compile: what one allocation holding every transient needs. Bind
 * caller memory with vksort_graph_bind_transient_memory before the first record; otherwise the
 * graph allocates device-local memory itself at the first record (and keeps it while the
 * transients stay the same). size 0: no transients. */
vksort_result vksort_graph_transient_memory_requirements(vksort_graph *graph,
                                                         VkMemoryRequirements *out_requirements);
vksort_result vksort_graph_bind_transient_memory(vksort_graph *graph, VkDeviceMemory memory,
                                                 VkDeviceSize offset);

/* Segments: the recording splits before every external pass and before every NEW_SEGMENT pass.
 * Submit the segments in order to one queue (barriers across segments rely on submission order);
 * around an external pass use semaphores (the signal covers all earlier work, so the graph adds
 * no barrier across it). */
typedef struct vksort_graph_segment_info {
    uint32_t first_pass;            /* execution-order positions */
    uint32_t pass_count;
    vksort_graph_pass external_pass; /* the external pass after this segment, or 0 */
} vksort_graph_segment_info;

uint32_t vksort_graph_segment_count(const vksort_graph *graph);
vksort_result vksort_graph_get_segment_info(const vksort_graph *graph, uint32_t segment,
                                            vksort_graph_segment_info *out_info);
/* Records segment `segment` into `cmd` (recording state, outside a render pass). The first
 * segment also resets this frame's timestamp queries; the last one records the final barriers.
 * With VKSORT_GRAPH_CREATE_TIMESTAMPS a frame's segment 0 must be recorded before its others
 * (VKSORT_ERROR_GRAPH_INVALID_STATE otherwise). */
vksort_result vksort_graph_record_segment(vksort_graph *graph, uint32_t segment,
                                          VkCommandBuffer cmd);
/* Records every segment into one command buffer (INVALID_STATE when there are external passes). */
vksort_result vksort_graph_record(vksort_graph *graph, VkCommandBuffer cmd);

/* ---- queries, timings, printing -------------------------------------------------------- */

/* Whether a pass survived culling (after compile). */
vksort_result vksort_graph_pass_culled(const vksort_graph *graph, vksort_graph_pass pass,
                                       VkBool32 *out_culled);
/* Execution-order position of a pass (UINT32_MAX when culled). */
uint32_t vksort_graph_pass_position(const vksort_graph *graph, vksort_graph_pass pass);

typedef struct vksort_graph_transient_info {
    VkBuffer buffer;
    VkImage image;
    VkDeviceSize memory_offset;     /* in the transient allocation */
    VkDeviceSize memory_size;
    uint32_t first_pass, last_pass; /* lifetime, execution-order positions */
} vksort_graph_transient_info;
vksort_result vksort_graph_get_transient_info(const vksort_graph *graph,
                                              vksort_graph_resource resource,
                                              vksort_graph_transient_info *out_info);

/* The state a resource is left in after the graph (its last use, or its `final` state). */
vksort_result vksort_graph_final_state(const vksort_graph *graph, vksort_graph_resource resource,
                                       vksort_graph_state *out_state);

typedef struct vksort_graph_stats {
    uint32_t pass_count, culled_pass_count, resource_count, transient_count;
    uint32_t barrier_batches;       /* vkCmdPipelineBarrier2 calls per recording */
    uint32_t buffer_barriers, image_barriers;
    VkDeviceSize transient_bytes;   /* memory the transients need (with aliasing) */
    VkDeviceSize transient_bytes_unaliased;
} vksort_graph_stats;
void vksort_graph_get_stats(const vksort_graph *graph, vksort_graph_stats *out_stats);

typedef struct vksort_graph_pass_timing {
    const char *name;               /* valid until the next read */
    double ms;
} vksort_graph_pass_timing;
/* Reads back the timestamps of the oldest frame still in the ring (recorded frames_in_flight
 * frames ago; a compiled graph recorded again without a reset counts as a frame of its own, with
 * the same frame number) without waiting. VKSORT_ERROR_GRAPH_NOT_READY when its results are not available
 * yet (or no such frame was recorded). *inout_count: capacity in, passes out. out_frame: the
 * number of that frame (counted by vksort_graph_reset: the first frame built after creation is
 * frame 1). An EXTERNAL pass records no GPU work, so its row measures only the gap between its
 * neighbours' timestamps within one command buffer (close to 0 ms). */
vksort_result vksort_graph_read_timings(vksort_graph *graph, vksort_graph_pass_timing *out_timings,
                                        uint32_t *inout_count, uint64_t *out_frame);

/* The compiled graph as text (passes in execution order with their uses and barriers, culled
 * passes, transients with memory offsets) or as Graphviz DOT (culled passes grey). Writes at most
 * capacity bytes including the terminating NUL (snprintf style) and returns the full length. */
size_t vksort_graph_write_text(const vksort_graph *graph, char *buffer, size_t capacity);
size_t vksort_graph_write_dot(const vksort_graph *graph, char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* VKSORT_GRAPH_H */
