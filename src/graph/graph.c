/* Render graph: declaration, compile (order, culling, barriers, transients), recording. */
#include "graph_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host memory ------------------------------------------------------------------------ */

static void *g_alloc(vksort_graph *g, size_t size)
{
    if (g->alloc.allocate)
        return g->alloc.allocate(g->alloc.user_data, size, 16);
    return malloc(size);
}

static void g_free(vksort_graph *g, void *p)
{
    if (!p)
        return;
    if (g->alloc.free)
        g->alloc.free(g->alloc.user_data, p);
    else
        free(p);
}

/* Grows *array (elem bytes each) to hold at least `need` elements; never shrinks. */
static int g_reserve(vksort_graph *g, void **array, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 1;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = g_alloc(g, (size_t)n * elem);
    if (!p)
        return 0;
    if (*array && *cap)
        memcpy(p, *array, (size_t)*cap * elem);
    g_free(g, *array);
    *array = p;
    *cap = n;
    return 1;
}
#define G_RESERVE(g, arr, cap, need) g_reserve((g), (void **)&(arr), &(cap), (need), sizeof *(arr))

/* ---- messages ----------------------------------------------------------------------------- */

static vksort_result g_fail(vksort_graph *g, vksort_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->message, sizeof g->message, fmt, ap);
    va_end(ap);
    return r;
}

/* A declaration error: also remembered so that compile fails with it. */
static vksort_result g_decl_fail(vksort_graph *g, vksort_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->message, sizeof g->message, fmt, ap);
    va_end(ap);
    if (g->error == VKSORT_SUCCESS)
        g->error = r;
    return r;
}

const char *vksort_graph_last_message(const vksort_graph *graph)
{
    return graph ? graph->message : "no graph";
}

const char *vksort_graph_result_string(vksort_result result)
{
    return vksort_result_string(result);
}

/* ---- strings and handles ---------------------------------------------------------------- */

const char *g_str(const vksort_graph *g, uint32_t offset)
{
    return g->strings + offset;
}

static uint32_t g_intern(vksort_graph *g, const char *s, const char *fallback, uint32_t n)
{
    char tmp[64];
    if (!s || !*s) {
        snprintf(tmp, sizeof tmp, "%s%u", fallback, n);
        s = tmp;
    }
    size_t len = strlen(s);
    if (len > 200)
        len = 200;
    size_t need = g->strings_len + len + 1;
    if (need > g->strings_cap) {
        size_t cap = g->strings_cap ? g->strings_cap : 1024;
        while (cap < need)
            cap *= 2;
        char *p = g_alloc(g, cap);
        if (!p)
            return 0; /* offset 0 is always "" */
        if (g->strings)
            memcpy(p, g->strings, g->strings_len);
        g_free(g, g->strings);
        g->strings = p;
        g->strings_cap = cap;
    }
    uint32_t off = (uint32_t)g->strings_len;
    memcpy(g->strings + off, s, len);
    g->strings[off + len] = 0;
    g->strings_len += len + 1;
    return off;
}

/* ---- declared values: what the graph passes to Vulkan is checked when it is declared ------ */

/* The synchronization-2 stages the graph knows (core Vulkan 1.3). */
#define G_SHADER_STAGES                                                                        \
    (VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT | \
     VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT |                                 \
     VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |        \
     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
#define G_TRANSFER_STAGES                                                                      \
    (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT |                     \
     VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |                          \
     VK_PIPELINE_STAGE_2_CLEAR_BIT)
static const VkPipelineStageFlags2 g_known_stages =
    G_SHADER_STAGES | G_TRANSFER_STAGES | VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT |
    VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT |
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
    VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |
    VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT |
    VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT |
    VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;

/* The stages that can perform an access (Vulkan's "supported access types"; ALL_COMMANDS can
 * perform any, ALL_GRAPHICS any but transfer and host); 0 for an access the graph does not
 * know. */
static VkPipelineStageFlags2 g_stages_for_access(VkAccessFlags2 bit)
{
    const VkPipelineStageFlags2 graphics = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT |
                                           VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;
    switch (bit) {
    case VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT:
        return graphics | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
    case VK_ACCESS_2_INDEX_READ_BIT:
        return graphics | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT;
    case VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT:
        return graphics | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT |
               VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    case VK_ACCESS_2_UNIFORM_READ_BIT:
    case VK_ACCESS_2_SHADER_READ_BIT:
    case VK_ACCESS_2_SHADER_WRITE_BIT:
    case VK_ACCESS_2_SHADER_SAMPLED_READ_BIT:
    case VK_ACCESS_2_SHADER_STORAGE_READ_BIT:
    case VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT:
        return graphics | G_SHADER_STAGES;
    case VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT:
        return graphics | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    case VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT:
    case VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT:
        return graphics | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    case VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT:
    case VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT:
        return graphics | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
               VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    case VK_ACCESS_2_TRANSFER_READ_BIT:
    case VK_ACCESS_2_TRANSFER_WRITE_BIT:
        return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | G_TRANSFER_STAGES;
    case VK_ACCESS_2_HOST_READ_BIT:
    case VK_ACCESS_2_HOST_WRITE_BIT:
        return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT;
    case VK_ACCESS_2_MEMORY_READ_BIT:
    case VK_ACCESS_2_MEMORY_WRITE_BIT:
        return g_known_stages;
    default:
        return 0;
    }
}

/* NULL when every access bit is known and performed by one of the stages; else why not. */
static const char *g_stage_access_problem(VkPipelineStageFlags2 stage, VkAccessFlags2 access,
                                          VkAccessFlags2 *out_bit)
{
    if (stage & ~g_known_stages) {
        *out_bit = stage & ~g_known_stages;
        return "unknown pipeline stage bits";
    }
    for (VkAccessFlags2 rest = access; rest; rest &= rest - 1) {
        const VkAccessFlags2 bit = rest & (~rest + 1);
        const VkPipelineStageFlags2 can = g_stages_for_access(bit);
        *out_bit = bit;
        if (!can)
            return "an unknown access bit";
        if (!(stage & can))
            return "an access none of its stages performs";
    }
    return NULL;
}

static int g_layout_known(VkImageLayout l)
{
    switch ((int)l) {
    case VK_IMAGE_LAYOUT_GENERAL:
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL:
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR:
        return 1;
    default:
        return 0;
    }
}

static int g_load_op_known(VkAttachmentLoadOp op)
{
    return op == VK_ATTACHMENT_LOAD_OP_LOAD || op == VK_ATTACHMENT_LOAD_OP_CLEAR ||
           op == VK_ATTACHMENT_LOAD_OP_DONT_CARE || (int)op == 1000400000 /* NONE_KHR */;
}

static int g_store_op_known(VkAttachmentStoreOp op)
{
    return op == VK_ATTACHMENT_STORE_OP_STORE || op == VK_ATTACHMENT_STORE_OP_DONT_CARE ||
           (int)op == 1000301000 /* NONE (Vulkan 1.3) */;
}

static uint32_t g_handle(const vksort_graph *g, uint32_t index)
{
    return ((g->generation & 0xFFFu) << 20) | (index + 1);
}

static uint32_t g_index(const vksort_graph *g, uint32_t handle, uint32_t count)
{
    if (handle == 0 || (handle >> 20) != (g->generation & 0xFFFu))
        return G_NONE;
    uint32_t index = (handle & 0xFFFFFu) - 1;
    return index < count ? index : G_NONE;
}

/* ---- access classification ---------------------------------------------------------------- */

static const VkAccessFlags2 g_write_bits =
    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
    VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
    VK_ACCESS_2_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
    VK_ACCESS_2_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT |
    VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR | VK_ACCESS_2_COMMAND_PREPROCESS_WRITE_BIT_NV;

int g_is_write(VkAccessFlags2 access)
{
    return (access & g_write_bits) != 0;
}

int g_is_read(VkAccessFlags2 access)
{
    return (access & ~g_write_bits) != 0;
}

static VkBufferUsageFlags g_buffer_usage_for(VkAccessFlags2 a)
{
    VkBufferUsageFlags u = 0;
    if (a & (VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
             VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT))
        u |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (a & VK_ACCESS_2_UNIFORM_READ_BIT)
        u |= VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    if (a & VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT)
        u |= VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    if (a & VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT)
        u |= VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    if (a & VK_ACCESS_2_INDEX_READ_BIT)
        u |= VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    if (a & VK_ACCESS_2_TRANSFER_READ_BIT)
        u |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    if (a & VK_ACCESS_2_TRANSFER_WRITE_BIT)
        u |= VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    return u;
}

static VkImageUsageFlags g_image_usage_for(VkAccessFlags2 a, VkImageLayout layout)
{
    VkImageUsageFlags u = 0;
    if (a & (VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT))
        u |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (a & (VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT))
        u |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    if (a & (VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) ||
        (layout == VK_IMAGE_LAYOUT_GENERAL &&
         (a & (VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT))))
        u |= VK_IMAGE_USAGE_STORAGE_BIT;
    if ((a & VK_ACCESS_2_SHADER_SAMPLED_READ_BIT) ||
        ((a & VK_ACCESS_2_SHADER_READ_BIT) && layout != VK_IMAGE_LAYOUT_GENERAL))
        u |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (a & VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT)
        u |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    if (a & VK_ACCESS_2_TRANSFER_READ_BIT)
        u |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (a & VK_ACCESS_2_TRANSFER_WRITE_BIT)
        u |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    return u;
}

static VkImageAspectFlags g_aspect_for(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
        return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_S8_UINT:
        return VK_IMAGE_ASPECT_STENCIL_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
        return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default:
        return VK_IMAGE_ASPECT_COLOR_BIT;
    }
}

/* ---- create / destroy --------------------------------------------------------------------- */

static int g_load(vksort_graph *g, PFN_vkGetInstanceProcAddr gipa, PFN_vkGetDeviceProcAddr gdpa,
                  const char **missing)
{
#define G_LOAD_I(name)                                                   \
    g->vk.name = (PFN_##name)gipa(g->instance, #name);                   \
    if (!g->vk.name) {                                                   \
        *missing = #name;                                                \
        return 0;                                                        \
    }
    G_INSTANCE_FUNCTIONS(G_LOAD_I)
#undef G_LOAD_I
    if (!gdpa)
        gdpa = g->vk.vkGetDeviceProcAddr;
#define G_LOAD_D(name)                                                   \
    g->vk.name = (PFN_##name)gdpa(g->device, #name);                     \
    if (!g->vk.name) {                                                   \
        *missing = #name;                                                \
        return 0;                                                        \
    }
    G_DEVICE_FUNCTIONS(G_LOAD_D)
#undef G_LOAD_D
    g->vk.vkCmdPipelineBarrier2 = (PFN_vkCmdPipelineBarrier2)gdpa(g->device, "vkCmdPipelineBarrier2");
    if (!g->vk.vkCmdPipelineBarrier2)
        g->vk.vkCmdPipelineBarrier2 =
            (PFN_vkCmdPipelineBarrier2)gdpa(g->device, "vkCmdPipelineBarrier2KHR");
    if (!g->vk.vkCmdPipelineBarrier2) {
        *missing = "vkCmdPipelineBarrier2 (Vulkan 1.3 or VK_KHR_synchronization2)";
        return 0;
    }
    g->vk.vkCmdBeginRendering = (PFN_vkCmdBeginRendering)gdpa(g->device, "vkCmdBeginRendering");
    g->vk.vkCmdEndRendering = (PFN_vkCmdEndRendering)gdpa(g->device, "vkCmdEndRendering");
    if (!g->vk.vkCmdBeginRendering || !g->vk.vkCmdEndRendering) {
        g->vk.vkCmdBeginRendering =
            (PFN_vkCmdBeginRendering)gdpa(g->device, "vkCmdBeginRenderingKHR");
        g->vk.vkCmdEndRendering = (PFN_vkCmdEndRendering)gdpa(g->device, "vkCmdEndRenderingKHR");
    }
    if (g->flags & VKSORT_GRAPH_CREATE_DEBUG_LABELS) {
        g->vk.vkCmdBeginDebugUtilsLabelEXT =
            (PFN_vkCmdBeginDebugUtilsLabelEXT)gipa(g->instance, "vkCmdBeginDebugUtilsLabelEXT");
        g->vk.vkCmdEndDebugUtilsLabelEXT =
            (PFN_vkCmdEndDebugUtilsLabelEXT)gipa(g->instance, "vkCmdEndDebugUtilsLabelEXT");
        g->vk.vkSetDebugUtilsObjectNameEXT =
            (PFN_vkSetDebugUtilsObjectNameEXT)gipa(g->instance, "vkSetDebugUtilsObjectNameEXT");
        if (!g->vk.vkCmdBeginDebugUtilsLabelEXT || !g->vk.vkCmdEndDebugUtilsLabelEXT) {
            g->vk.vkCmdBeginDebugUtilsLabelEXT = NULL;
            g->vk.vkCmdEndDebugUtilsLabelEXT = NULL;
        }
    }
    return 1;
}

vksort_result vksort_graph_create(const vksort_graph_create_info *info, vksort_graph **out_graph)
{
    if (!out_graph)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    *out_graph = NULL;
    if (!info || !info->instance || !info->physical_device || !info->device ||
        !info->get_instance_proc_addr || info->frames_in_flight > G_MAX_FRAMES_IN_FLIGHT)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (info->allocator && (!info->allocator->allocate || !info->allocator->free))
        return VKSORT_ERROR_INVALID_ARGUMENT;
    vksort_graph tmp;
    memset(&tmp, 0, sizeof tmp);
    if (info->allocator)
        tmp.alloc = *info->allocator;
    vksort_graph *g = g_alloc(&tmp, sizeof *g);
    if (!g)
        return VKSORT_ERROR_OUT_OF_HOST_MEMORY;
    *g = tmp;
    g->vk_alloc = info->vk_allocator;
    g->instance = info->instance;
    g->physical_device = info->physical_device;
    g->device = info->device;
    g->flags = info->flags;
    g->frames_in_flight = info->frames_in_flight ? info->frames_in_flight : 2;
    const char *missing = NULL;
    if (!g_load(g, info->get_instance_proc_addr, info->get_device_proc_addr, &missing)) {
        g_free(g, g);
        return VKSORT_ERROR_DEVICE_LIMITS;
    }
    (void)missing;
    VkPhysicalDeviceProperties props;
    g->vk.vkGetPhysicalDeviceProperties(g->physical_device, &props);
    g->limits = props.limits;
    g->vk.vkGetPhysicalDeviceMemoryProperties(g->physical_device, &g->memory_props);
    g->generation = 1;
    g->strings_len = 0;
    if (g_intern(g, "", "", 0) != 0 || !g->strings) {
        g_free(g, g);
        return VKSORT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *out_graph = g;
    return VKSORT_SUCCESS;
}

static void g_destroy_retired(vksort_graph *g, const g_retired *r)
{
    if (r->view)
        g->vk.vkDestroyImageView(g->device, r->view, g->vk_alloc);
    if (r->image)
        g->vk.vkDestroyImage(g->device, r->image, g->vk_alloc);
    if (r->buffer)
        g->vk.vkDestroyBuffer(g->device, r->buffer, g->vk_alloc);
    if (r->memory)
        g->vk.vkFreeMemory(g->device, r->memory, g->vk_alloc);
    if (r->query_pool)
        g->vk.vkDestroyQueryPool(g->device, r->query_pool, g->vk_alloc);
}

/* Objects the GPU may still use: destroyed frames_in_flight resets later. */
static int g_retire(vksort_graph *g, g_retired r)
{
    if (!G_RESERVE(g, g->retired, g->retired_cap, g->retired_count + 1)) {
        g_destroy_retired(g, &r); /* out of memory: the caller had better be idle */
        return 0;
    }
    r.frame = g->frame;
    g->retired[g->retired_count++] = r;
    return 1;
}

/* Retires every transient object and graph-owned transient memory. */
static void g_drop_transients(vksort_graph *g)
{
    for (uint32_t i = 0; i < g->transient_count; ++i) {
        g_transient *t = &g->transients[i];
        g_retired r = {t->buffer, t->image, t->view, VK_NULL_HANDLE, VK_NULL_HANDLE, 0};
        g_retire(g, r);
    }
    g->transient_count = 0;
    if (g->memory_owned && g->bound_memory) {
        g_retired r = {0};
        r.memory = g->bound_memory;
        g_retire(g, r);
    }
    g->bound_memory = VK_NULL_HANDLE;
    g->bound_offset = 0;
    g->memory_owned = 0;
    g->memory_bound = 0;
}

void vksort_graph_destroy(vksort_graph *g)
{
    if (!g)
        return;
    g_drop_transients(g);
    for (uint32_t i = 0; i < g->retired_count; ++i)
        g_destroy_retired(g, &g->retired[i]);
    if (g->query_pool)
        g->vk.vkDestroyQueryPool(g->device, g->query_pool, g->vk_alloc);
    void *arrays[] = {g->strings, g->resources, g->passes, g->uses, g->deps, g->sorts, g->order,
                      g->edge_from, g->edge_to, g->edge_start, g->edge_list, g->batches,
                      g->buffer_barriers, g->image_barriers, g->buffer_barrier_res,
                      g->image_barrier_res, g->segments, g->resolved, g->transients, g->retired,
                      g->timing_names, g->timing_out};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
        g_free(g, arrays[i]);
    g_free(g, g);
}

void vksort_graph_reset(vksort_graph *g)
{
    if (!g)
        return;
    g->frame++;
    g->timing_tick++;
    g->segment0_recorded = 0;
    g->generation = (g->generation + 1) & 0xFFFu;
    if (g->generation == 0)
        g->generation = 1;
    g->error = VKSORT_SUCCESS;
    g->compiled = 0;
    g->message[0] = 0;
    g->strings_len = 1; /* keep "" at 0 */
    g->resource_count = g->pass_count = g->use_count = g->dep_count = g->sort_count = 0;
    g->order_count = g->segment_count = 0;
    g->buffer_barrier_count = g->image_barrier_count = 0;
    for (uint32_t i = 0; i < g->transient_count; ++i)
        g->transients[i].resource = G_NONE;
    /* Destroy what the GPU is done with. */
    uint32_t keep = 0;
    for (uint32_t i = 0; i < g->retired_count; ++i) {
        if (g->retired[i].frame + g->frames_in_flight <= g->frame)
            g_destroy_retired(g, &g->retired[i]);
        else
            g->retired[keep++] = g->retired[i];
    }
    g->retired_count = keep;
}

/* ---- resources ---------------------------------------------------------------------------- */

static vksort_result g_new_resource(vksort_graph *g, uint32_t *out_index)
{
    if (g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the graph is compiled: call vksort_graph_reset before declaring a new frame");
    if (g->resource_count >= 0xFFFFFu ||
        !G_RESERVE(g, g->resources, g->resource_cap, g->resource_count + 1))
        return g_decl_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    uint32_t i = g->resource_count++;
    g_resource *r = &g->resources[i];
    memset(r, 0, sizeof *r);
    r->transient = G_NONE;
    r->first_pos = r->last_pos = G_NONE;
    *out_index = i;
    return VKSORT_SUCCESS;
}

/* The part every resource declaration shares: a new resource named `name` (or "<kind>N"),
 * *out set to its handle, *res_out to the record the caller fills. */
static vksort_result g_declare_resource(vksort_graph *g, const char *name, const char *kind,
                                        vksort_graph_resource *out, g_resource **res_out)
{
    *out = 0;
    uint32_t i = 0;
    vksort_result res = g_new_resource(g, &i);
    if (res != VKSORT_SUCCESS)
        return res;
    g_resource *r = &g->resources[i];
    r->name = g_intern(g, name, kind, i);
    *out = g_handle(g, i);
    *res_out = r;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_import_buffer(vksort_graph *g, const vksort_graph_buffer_import *info,
                                         vksort_graph_resource *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info || !out || !info->buffer)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_import_buffer: info, buffer and out_resource are required");
    g_resource *r = NULL;
    vksort_result res = g_declare_resource(g, info->name, "buffer", out, &r);
    if (res != VKSORT_SUCCESS)
        return res;
    r->imported = 1;
    r->buffer = info->buffer;
    r->offset = info->offset;
    r->size = info->size ? info->size : VK_WHOLE_SIZE;
    r->initial = info->initial;
    r->final = info->final;
    r->has_final = info->final.stage != 0 || info->final.access != 0;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_import_image(vksort_graph *g, const vksort_graph_image_import *info,
                                        vksort_graph_resource *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info || !out || !info->image || info->format == VK_FORMAT_UNDEFINED)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_import_image: info, image, format and out_resource are required");
    g_resource *r = NULL;
    vksort_result res = g_declare_resource(g, info->name, "image", out, &r);
    if (res != VKSORT_SUCCESS)
        return res;
    r->imported = 1;
    r->is_image = 1;
    r->image = info->image;
    r->view = info->view;
    r->format = info->format;
    r->extent = info->extent;
    r->range = info->range;
    if (!r->range.aspectMask)
        r->range.aspectMask = g_aspect_for(info->format);
    if (!r->range.levelCount)
        r->range.levelCount = VK_REMAINING_MIP_LEVELS;
    if (!r->range.layerCount)
        r->range.layerCount = VK_REMAINING_ARRAY_LAYERS;
    r->initial = info->initial;
    r->final = info->final;
    r->has_final = info->final.stage != 0 || info->final.access != 0 ||
                   info->final.layout != VK_IMAGE_LAYOUT_UNDEFINED;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_create_buffer(vksort_graph *g, const vksort_graph_buffer_desc *desc,
                                         vksort_graph_resource *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!desc || !out || desc->size == 0 || desc->size == VK_WHOLE_SIZE)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_create_buffer: desc with a size and out_resource are required");
    g_resource *r = NULL;
    vksort_result res = g_declare_resource(g, desc->name, "transient", out, &r);
    if (res != VKSORT_SUCCESS)
        return res;
    r->size = desc->size;
    r->buffer_usage = desc->usage;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_create_image(vksort_graph *g, const vksort_graph_image_desc *desc,
                                        vksort_graph_resource *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!desc || !out || desc->format == VK_FORMAT_UNDEFINED || !desc->extent.width ||
        !desc->extent.height)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_create_image: desc with a format and extent and out_resource are required");
    g_resource *r = NULL;
    vksort_result res = g_declare_resource(g, desc->name, "transient_image", out, &r);
    if (res != VKSORT_SUCCESS)
        return res;
    r->is_image = 1;
    r->format = desc->format;
    r->extent = desc->extent;
    if (!r->extent.depth)
        r->extent.depth = 1;
    r->mip_levels = desc->mip_levels ? desc->mip_levels : 1;
    uint32_t largest = r->extent.width > r->extent.height ? r->extent.width : r->extent.height;
    if (r->extent.depth > largest)
        largest = r->extent.depth;
    uint32_t levels = 1;
    while (largest >>= 1)
        ++levels;
    if (r->mip_levels > levels)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_create_image '%s': %u mip levels, a %ux%ux%u image has %u",
                           g_str(g, r->name), r->mip_levels, r->extent.width, r->extent.height,
                           r->extent.depth, levels);
    r->array_layers = desc->array_layers ? desc->array_layers : 1;
    r->image_usage = desc->usage;
    r->range.aspectMask = g_aspect_for(desc->format);
    r->range.levelCount = r->mip_levels;
    r->range.layerCount = r->array_layers;
    return VKSORT_SUCCESS;
}

/* ---- passes ------------------------------------------------------------------------------- */

static vksort_result g_declare_use(vksort_graph *g, uint32_t p, uint32_t ri, VkPipelineStageFlags2 stage,
                           VkAccessFlags2 access, VkImageLayout layout, int image_call);

static uint32_t g_pass_index(const vksort_graph *g, vksort_graph_pass pass)
{
    return g_index(g, pass, g->pass_count);
}

static vksort_result g_attachment_use(vksort_graph *g, uint32_t p, const vksort_graph_attachment *a,
                                      int depth)
{
    uint32_t ri = g_index(g, a->image, g->resource_count);
    if (ri == G_NONE)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                           "pass '%s': attachment 0x%x is not a resource of this graph build",
                           g_str(g, g->passes[p].name), a->image);
    const g_resource *res = &g->resources[ri];
    if (!g_load_op_known(a->load_op) || !g_store_op_known(a->store_op))
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "pass '%s': attachment '%s' has an unknown load_op (%d) or store_op (%d)",
                           g_str(g, g->passes[p].name), g_str(g, res->name), (int)a->load_op,
                           (int)a->store_op);
    const int depth_format = (g_aspect_for(res->format) &
                              (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) != 0;
    if (res->is_image && res->format != VK_FORMAT_UNDEFINED && depth != depth_format)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s': image '%s' (format %d) as a %s attachment needs a %s format",
                           g_str(g, g->passes[p].name), g_str(g, res->name), (int)res->format,
                           depth ? "depth" : "color", depth ? "depth/stencil" : "color");
    VkAccessFlags2 access;
    VkPipelineStageFlags2 stage;
    VkImageLayout layout;
    if (depth) {
        stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
        access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                 (a->load_op == VK_ATTACHMENT_LOAD_OP_LOAD
                      ? VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT : 0);
        layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    } else {
        stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                 (a->load_op == VK_ATTACHMENT_LOAD_OP_LOAD ? VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT
                                                           : 0);
        layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    return g_declare_use(g, p, ri, stage, access, layout, 1);
}

vksort_result vksort_graph_add_pass(vksort_graph *g, const vksort_graph_pass_info *info,
                                    vksort_graph_pass *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info || !out || (unsigned)info->type > VKSORT_GRAPH_PASS_EXTERNAL ||
        info->color_attachment_count > VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_add_pass: info (valid type, at most %d color attachments) and out_pass are required",
                           VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS);
    *out = 0;
    if (g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the graph is compiled: call vksort_graph_reset before declaring a new frame");
    if ((info->color_attachment_count || info->depth_attachment.image) &&
        info->type != VKSORT_GRAPH_PASS_GRAPHICS)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "pass '%s': attachments on a pass that is not a graphics pass",
                           info->name ? info->name : "");
    /* Dynamic rendering needs an area: the first attachment's, or the one given. */
    if (info->type == VKSORT_GRAPH_PASS_GRAPHICS && !info->color_attachment_count &&
        !info->depth_attachment.image &&
        (!info->render_area.extent.width || !info->render_area.extent.height))
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "pass '%s': a graphics pass without attachments needs a render_area",
                           info->name ? info->name : "");
    if (info->type == VKSORT_GRAPH_PASS_GRAPHICS && !g->vk.vkCmdBeginRendering)
        return g_decl_fail(g, VKSORT_ERROR_DEVICE_LIMITS,
                           "graphics passes need vkCmdBeginRendering (Vulkan 1.3 or VK_KHR_dynamic_rendering)");
    if (g->pass_count >= 0xFFFFFu || !G_RESERVE(g, g->passes, g->pass_cap, g->pass_count + 1))
        return g_decl_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    uint32_t p = g->pass_count++;
    g_pass *ps = &g->passes[p];
    memset(ps, 0, sizeof *ps);
    ps->name = g_intern(g, info->name, "pass", p);
    ps->type = info->type;
    ps->flags = info->flags;
    ps->record = info->record;
    ps->user_data = info->user_data;
    ps->color_count = info->color_attachment_count;
    memcpy(ps->color, info->color_attachments, sizeof ps->color);
    ps->depth = info->depth_attachment;
    ps->render_area = info->render_area;
    ps->first_use = ps->last_use = G_NONE;
    ps->sort_node = G_NONE;
    ps->position = G_NONE;
    *out = g_handle(g, p);
    for (uint32_t i = 0; i < ps->color_count; ++i) {
        vksort_result r = g_attachment_use(g, p, &g->passes[p].color[i], 0);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (ps->depth.image) {
        vksort_result r = g_attachment_use(g, p, &g->passes[p].depth, 1);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    return VKSORT_SUCCESS;
}

static vksort_result g_declare_use(vksort_graph *g, uint32_t p, uint32_t ri, VkPipelineStageFlags2 stage,
                           VkAccessFlags2 access, VkImageLayout layout, int image_call)
{
    g_pass *ps = &g->passes[p];
    g_resource *r = &g->resources[ri];
    const char *pn = g_str(g, ps->name), *rn = g_str(g, r->name);
    if (stage == 0)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s' uses '%s' with no pipeline stage", pn, rn);
    if (!r->is_image && image_call)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s' uses buffer '%s' with vksort_graph_use_image (images only)",
                           pn, rn);
    if (r->is_image && !image_call)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s' uses image '%s' with vksort_graph_use_buffer (needs a layout)",
                           pn, rn);
    if (r->is_image && !g_layout_known(layout))
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s' uses image '%s' in layout %s (%d: not a layout to use an "
                           "image in)", pn, rn, g_layout_name(layout), (int)layout);
    VkAccessFlags2 bad_bit = 0;
    const char *problem = g_stage_access_problem(stage, access, &bad_bit);
    if (problem)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE,
                           "pass '%s' uses '%s' with %s (0x%llx; stages 0x%llx, accesses 0x%llx)",
                           pn, rn, problem, (unsigned long long)bad_bit,
                           (unsigned long long)stage, (unsigned long long)access);
    /* Merge with an earlier use of the same resource in this pass. */
    for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
        g_use *use = &g->uses[u];
        if (use->resource != ri)
            continue;
        if (r->is_image && use->layout != layout)
            return g_decl_fail(g, VKSORT_ERROR_GRAPH_LAYOUT_CONFLICT,
                               "pass '%s' uses image '%s' in two layouts (%s and %s)", pn, rn,
                               g_layout_name(use->layout), g_layout_name(layout));
        use->stage |= stage;
        use->access |= access;
        return VKSORT_SUCCESS;
    }
    if (!G_RESERVE(g, g->uses, g->use_cap, g->use_count + 1))
        return g_decl_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ps = &g->passes[p];
    uint32_t u = g->use_count++;
    g_use *use = &g->uses[u];
    memset(use, 0, sizeof *use);
    use->resource = ri;
    use->next = G_NONE;
    use->producer = G_NONE;
    use->stage = stage;
    use->access = access;
    use->layout = r->is_image ? layout : VK_IMAGE_LAYOUT_UNDEFINED;
    if (ps->last_use == G_NONE)
        ps->first_use = u;
    else
        g->uses[ps->last_use].next = u;
    ps->last_use = u;
    ps->use_count++;
    return VKSORT_SUCCESS;
}

static vksort_result g_use_checked(vksort_graph *g, vksort_graph_pass pass,
                                   vksort_graph_resource res, VkPipelineStageFlags2 stage,
                                   VkAccessFlags2 access, VkImageLayout layout, int image_call)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the graph is compiled: call vksort_graph_reset before declaring a new frame");
    uint32_t p = g_pass_index(g, pass);
    if (p == G_NONE)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_PASS,
                           "pass handle 0x%x is not a pass of this graph build", pass);
    uint32_t ri = g_index(g, res, g->resource_count);
    if (ri == G_NONE)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                           "pass '%s' uses resource handle 0x%x, which is not a resource of this "
                           "graph build (never created, or from before vksort_graph_reset)",
                           g_str(g, g->passes[p].name), res);
    return g_declare_use(g, p, ri, stage, access, layout, image_call);
}

vksort_result vksort_graph_use_buffer(vksort_graph *g, vksort_graph_pass pass,
                                      vksort_graph_resource buffer, VkPipelineStageFlags2 stage,
                                      VkAccessFlags2 access)
{
    return g_use_checked(g, pass, buffer, stage, access, VK_IMAGE_LAYOUT_UNDEFINED, 0);
}

vksort_result vksort_graph_use_image(vksort_graph *g, vksort_graph_pass pass,
                                     vksort_graph_resource image, VkPipelineStageFlags2 stage,
                                     VkAccessFlags2 access, VkImageLayout layout)
{
    return g_use_checked(g, pass, image, stage, access, layout, 1);
}

vksort_result vksort_graph_add_dependency(vksort_graph *g, vksort_graph_pass before,
                                          vksort_graph_pass pass)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the graph is compiled: call vksort_graph_reset before declaring a new frame");
    uint32_t a = g_pass_index(g, before), b = g_pass_index(g, pass);
    if (a == G_NONE || b == G_NONE)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_PASS,
                           "vksort_graph_add_dependency: pass handle 0x%x is not a pass of this graph build",
                           a == G_NONE ? before : pass);
    if (a == b)
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_CYCLE, "pass '%s' depends on itself",
                           g_str(g, g->passes[a].name));
    if (!G_RESERVE(g, g->deps, g->dep_cap, 2 * g->dep_count + 2))
        return g_decl_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    g->deps[2 * g->dep_count] = a;
    g->deps[2 * g->dep_count + 1] = b;
    g->dep_count++;
    return VKSORT_SUCCESS;
}

/* ---- sort node ---------------------------------------------------------------------------- */

static vksort_result g_record_sort(const vksort_graph_record_context *ctx, void *user_data);

/* 1 when the keys (and values) buffers hold n elements, else 0 with why not in why. */
static int g_sort_ranges_fit(const vksort_graph *g, uint32_t keys, uint32_t values,
                             const vksort_vk_sorter_properties *sp, uint32_t n, char *why,
                             size_t why_size)
{
    const VkDeviceSize key_bytes = (VkDeviceSize)n * vksort_key_size(sp->key_type);
    const g_resource *k = &g->resources[keys];
    if (k->size != VK_WHOLE_SIZE && k->size < key_bytes) {
        snprintf(why, why_size, "keys '%s' hold %llu bytes, the sort needs %llu",
                 g_str(g, k->name), (unsigned long long)k->size, (unsigned long long)key_bytes);
        return 0;
    }
    const g_resource *v = values != G_NONE ? &g->resources[values] : NULL;
    if (v && sp->has_payload && v->size != VK_WHOLE_SIZE && v->size < (VkDeviceSize)n * 4u) {
        snprintf(why, why_size, "values '%s' hold %llu bytes, the sort needs %llu",
                 g_str(g, v->name), (unsigned long long)v->size, (unsigned long long)n * 4u);
        return 0;
    }
    return 1;
}

vksort_result vksort_graph_add_sort(vksort_graph *g, const vksort_graph_sort_info *info,
                                    vksort_graph_pass *out)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info || !out || !info->sorter)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "vksort_graph_add_sort: info with a sorter and out_pass are required");
    *out = 0;
    vksort_vk_sorter_properties sp;
    vksort_vk_get_sorter_properties(info->sorter, &sp);
    vksort_vk_memory_requirements req;
    vksort_result r = vksort_vk_get_memory_requirements(info->sorter, &req);
    if (r != VKSORT_SUCCESS)
        return g_decl_fail(g, r, "vksort_graph_add_sort: %s", vksort_vk_sorter_last_message(info->sorter));
    const char *name = info->name ? info->name : "sort";
    uint32_t keys = g_index(g, info->keys, g->resource_count);
    uint32_t values = info->values ? g_index(g, info->values, g->resource_count) : G_NONE;
    uint32_t count_buf = info->count_buffer ? g_index(g, info->count_buffer, g->resource_count) : G_NONE;
    if (keys == G_NONE || (info->values && values == G_NONE) ||
        (info->count_buffer && count_buf == G_NONE))
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                           "sort '%s': keys, values or count_buffer is not a resource of this graph build",
                           name);
    if (g->resources[keys].is_image || (values != G_NONE && g->resources[values].is_image) ||
        (count_buf != G_NONE && g->resources[count_buf].is_image))
        return g_decl_fail(g, VKSORT_ERROR_GRAPH_BAD_USE, "sort '%s': keys, values and count must be buffers", name);
    if (sp.persistent_scratch)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "sort '%s': the sorter has VKSORT_VK_CREATE_PERSISTENT_SCRATCH, but the "
                           "graph's scratch buffers are transient (never prepared, maybe aliased)",
                           name);
    if (sp.has_payload && values == G_NONE)
        return g_decl_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                           "sort '%s': the sorter sorts (key, value) pairs but no values were given", name);
    if (!info->count_buffer && info->count > sp.max_count)
        return g_decl_fail(g, VKSORT_ERROR_COUNT_TOO_LARGE,
                           "sort '%s': count %u above the sorter's max_count %u", name, info->count,
                           sp.max_count);
    uint32_t n = info->count_buffer ? sp.max_count : info->count;
    char why[256];
    if (!g_sort_ranges_fit(g, keys, values, &sp, n, why, sizeof why))
        return g_decl_fail(g, VKSORT_ERROR_BUFFER_TOO_SMALL, "sort '%s': %s", name, why);
    if (!G_RESERVE(g, g->sorts, g->sort_cap, g->sort_count + 1))
        return g_decl_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");

    char scratch_name[96];
    snprintf(scratch_name, sizeof scratch_name, "%s.scratch", name);
    vksort_graph_buffer_desc sd = {scratch_name, req.scratch_size, req.scratch_usage};
    vksort_graph_resource scratch;
    r = vksort_graph_create_buffer(g, &sd, &scratch);
    if (r != VKSORT_SUCCESS)
        return r;
    vksort_graph_pass_info pi = {0};
    pi.name = name;
    pi.type = VKSORT_GRAPH_PASS_COMPUTE;
    pi.flags = info->pass_flags;
    pi.record = g_record_sort;
    vksort_graph_pass pass;
    r = vksort_graph_add_pass(g, &pi, &pass);
    if (r != VKSORT_SUCCESS)
        return r;
    uint32_t si = g->sort_count++;
    g_sort_node *s = &g->sorts[si];
    s->sorter = info->sorter;
    s->keys = keys;
    s->values = sp.has_payload ? values : G_NONE;
    s->count_buffer = count_buf;
    s->scratch = g_index(g, scratch, g->resource_count);
    g->resources[s->scratch].scratch = 1; /* the sort writes its state before reading it */
    s->count = info->count;
    s->flags = info->flags;
    s->bit_begin = info->bit_begin;
    s->bit_end = info->bit_end;
    s->scratch_size = req.scratch_size;
    uint32_t p = g_pass_index(g, pass);
    g->passes[p].sort_node = si;
    /* The sorter's documented scopes (vulkan.h): first and last access of every buffer. */
    const VkPipelineStageFlags2 cs = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 rw = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    r = g_declare_use(g, p, keys, cs, rw, VK_IMAGE_LAYOUT_UNDEFINED, 0);
    if (r == VKSORT_SUCCESS && s->values != G_NONE)
        r = g_declare_use(g, p, values, cs, rw, VK_IMAGE_LAYOUT_UNDEFINED, 0);
    if (r == VKSORT_SUCCESS && count_buf != G_NONE)
        r = g_declare_use(g, p, count_buf, cs, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, 0);
    if (r == VKSORT_SUCCESS)
        r = g_declare_use(g, p, s->scratch, cs | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  rw | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, 0);
    if (r != VKSORT_SUCCESS)
        return r;
    *out = pass;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_set_sort_count(vksort_graph *g, vksort_graph_pass pass, uint32_t count)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    uint32_t p = g_pass_index(g, pass);
    if (p == G_NONE || g->passes[p].sort_node == G_NONE)
        return g_fail(g, VKSORT_ERROR_GRAPH_UNKNOWN_PASS,
                      "vksort_graph_set_sort_count: 0x%x is not a sort pass of this graph build", pass);
    g_sort_node *s = &g->sorts[g->passes[p].sort_node];
    vksort_vk_sorter_properties sp;
    vksort_vk_get_sorter_properties(s->sorter, &sp);
    if (count > sp.max_count)
        return g_fail(g, VKSORT_ERROR_COUNT_TOO_LARGE, "sort '%s': count %u above max_count %u",
                      g_str(g, g->passes[p].name), count, sp.max_count);
    /* The buffers were checked for the count add_sort had (a GPU count: max_count). */
    char why[256];
    if (s->count_buffer == G_NONE &&
        !g_sort_ranges_fit(g, s->keys, s->values, &sp, count, why, sizeof why))
        return g_fail(g, VKSORT_ERROR_BUFFER_TOO_SMALL, "sort '%s': %s",
                      g_str(g, g->passes[p].name), why);
    s->count = count;
    return VKSORT_SUCCESS;
}

static vksort_result g_record_sort(const vksort_graph_record_context *ctx, void *user_data)
{
    (void)user_data;
    vksort_graph *g = ctx->graph;
    const g_pass *ps = &g->passes[g_pass_index(g, ctx->pass)];
    const g_sort_node *s = &g->sorts[ps->sort_node];
    vksort_vk_sort_info si = {0};
    const g_resource *k = &g->resources[s->keys];
    si.keys = (vksort_vk_buffer_range){k->buffer, k->offset, k->size};
    if (s->values != G_NONE) {
        const g_resource *v = &g->resources[s->values];
        si.values = (vksort_vk_buffer_range){v->buffer, v->offset, v->size};
    }
    const g_resource *sc = &g->resources[s->scratch];
    si.scratch = (vksort_vk_buffer_range){sc->buffer, 0, s->scratch_size};
    if (s->count_buffer != G_NONE) {
        const g_resource *c = &g->resources[s->count_buffer];
        si.count_buffer = (vksort_vk_buffer_range){c->buffer, c->offset, c->size};
    } else {
        si.count = s->count;
    }
    si.flags = s->flags;
    si.bit_begin = s->bit_begin;
    si.bit_end = s->bit_end;
    vksort_result r = vksort_vk_cmd_sort(s->sorter, ctx->cmd, &si);
    if (r != VKSORT_SUCCESS)
        g_fail(g, r, "sort '%s': %s", ctx->pass_name, vksort_vk_sorter_last_message(s->sorter));
    return r;
}

/* ---- compile: order and culling ----------------------------------------------------------- */

static vksort_result g_scan_producers(vksort_graph *g)
{
    for (uint32_t i = 0; i < g->resource_count; ++i)
        g->resources[i].last_writer = G_NONE;
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        const g_pass *ps = &g->passes[p];
        for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
            g_use *use = &g->uses[u];
            g_resource *r = &g->resources[use->resource];
            int reads = (use->access & ~g_write_bits) != 0;
            use->producer = r->last_writer;
            if (reads && r->last_writer == G_NONE) {
                int undefined = (!r->imported && !r->scratch) ||
                                (r->is_image && r->initial.layout == VK_IMAGE_LAYOUT_UNDEFINED);
                if (undefined)
                    return g_fail(g, VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE,
                                  "pass '%s' reads %s '%s' before any pass writes it (%s)",
                                  g_str(g, ps->name), r->imported ? "image" : "transient",
                                  g_str(g, r->name),
                                  r->imported ? "imported with initial layout UNDEFINED"
                                              : "transients start undefined every frame");
            }
        }
        for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next)
            if (g_is_write(g->uses[u].access))
                g->resources[g->uses[u].resource].last_writer = p;
    }
    return VKSORT_SUCCESS;
}

static void g_cull(vksort_graph *g)
{
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        g_pass *ps = &g->passes[p];
        ps->live = (ps->flags & VKSORT_GRAPH_PASS_NEVER_CULL) != 0;
        for (uint32_t u = ps->first_use; u != G_NONE && !ps->live; u = g->uses[u].next) {
            const g_use *use = &g->uses[u];
            if (g->resources[use->resource].imported &&
                (g_is_write(use->access) ||
                 (g->resources[use->resource].is_image &&
                  use->layout != g->resources[use->resource].initial.layout)))
                ps->live = 1;
        }
    }
    /* Backwards: a live pass keeps the producers of what it reads. Producers come earlier in
     * declaration order, so one reverse sweep suffices. */
    for (uint32_t p = g->pass_count; p-- > 0;) {
        if (!g->passes[p].live)
            continue;
        for (uint32_t u = g->passes[p].first_use; u != G_NONE; u = g->uses[u].next) {
            const g_use *use = &g->uses[u];
            int reads = (use->access & ~g_write_bits) != 0;
            if (reads && use->producer != G_NONE)
                g->passes[use->producer].live = 1;
        }
    }
}

static int g_add_edge(vksort_graph *g, uint32_t from, uint32_t to)
{
    if (from == to)
        return 1;
    if (g->edge_count == g->edge_cap) {
        uint32_t n = g->edge_cap ? 2 * g->edge_cap : 64;
        uint32_t *a = g_alloc(g, (size_t)n * sizeof *a), *b = g_alloc(g, (size_t)n * sizeof *b),
                 *c = g_alloc(g, (size_t)n * sizeof *c);
        if (!a || !b || !c) {
            g_free(g, a);
            g_free(g, b);
            g_free(g, c);
            return 0;
        }
        if (g->edge_count) {
            memcpy(a, g->edge_from, g->edge_count * sizeof *a);
            memcpy(b, g->edge_to, g->edge_count * sizeof *b);
        }
        g_free(g, g->edge_from);
        g_free(g, g->edge_to);
        g_free(g, g->edge_list);
        g->edge_from = a;
        g->edge_to = b;
        g->edge_list = c;
        g->edge_cap = n;
    }
    g->edge_from[g->edge_count] = from;
    g->edge_to[g->edge_count] = to;
    g->edge_count++;
    return 1;
}

static vksort_result g_order(vksort_graph *g)
{
    g->edge_count = 0;
    /* Data edges among live passes, in declaration order: RAW, WAR, WAW. */
    for (uint32_t i = 0; i < g->resource_count; ++i)
        g->resources[i].last_writer = G_NONE;
    /* readers since the last write: kept as a linked list through a scratch array (order[]). */
    if (!G_RESERVE(g, g->order, g->order_cap, g->pass_count + 1))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        if (!g->passes[p].live)
            continue;
        for (uint32_t u = g->passes[p].first_use; u != G_NONE; u = g->uses[u].next) {
            g_use *use = &g->uses[u];
            g_resource *r = &g->resources[use->resource];
            if (r->last_writer != G_NONE && !g_add_edge(g, r->last_writer, p))
                return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
            if (g_is_write(use->access) || r->is_image) {
                /* WAR: after every live reader since the last write (image uses may change the
                 * layout, so they are ordered like writes). */
                for (uint32_t q = (r->last_writer == G_NONE ? 0 : r->last_writer + 1); q < p; ++q) {
                    if (!g->passes[q].live)
                        continue;
                    for (uint32_t v = g->passes[q].first_use; v != G_NONE; v = g->uses[v].next)
                        if (g->uses[v].resource == use->resource &&
                            !g_add_edge(g, q, p))
                            return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
                }
                if (g_is_write(use->access) || r->is_image)
                    r->last_writer = p;
            }
        }
    }
    for (uint32_t d = 0; d < g->dep_count; ++d) {
        uint32_t a = g->deps[2 * d], b = g->deps[2 * d + 1];
        if (g->passes[a].live && g->passes[b].live && !g_add_edge(g, a, b))
            return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    /* CSR adjacency. */
    if (!g_reserve(g, (void **)&g->edge_start, &g->node_cap, g->pass_count + 1, sizeof(uint32_t)))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    memset(g->edge_start, 0, (g->pass_count + 1) * sizeof(uint32_t));
    for (uint32_t p = 0; p < g->pass_count; ++p)
        g->passes[p].indegree = 0;
    for (uint32_t e = 0; e < g->edge_count; ++e) {
        g->edge_start[g->edge_from[e] + 1]++;
        g->passes[g->edge_to[e]].indegree++;
    }
    for (uint32_t p = 0; p < g->pass_count; ++p)
        g->edge_start[p + 1] += g->edge_start[p];
    /* fill (use order[] as insertion cursors temporarily) */
    for (uint32_t p = 0; p < g->pass_count; ++p)
        g->order[p] = g->edge_start[p];
    for (uint32_t e = 0; e < g->edge_count; ++e)
        g->edge_list[g->order[g->edge_from[e]]++] = g->edge_to[e];
    /* Kahn, always taking the ready pass declared first: declaration order when it is valid. */
    g->order_count = 0;
    uint32_t live = 0;
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        g->passes[p].position = G_NONE;
        live += g->passes[p].live;
    }
    for (;;) {
        uint32_t pick = G_NONE;
        for (uint32_t p = 0; p < g->pass_count; ++p)
            if (g->passes[p].live && g->passes[p].position == G_NONE && g->passes[p].indegree == 0) {
                pick = p;
                break;
            }
        if (pick == G_NONE)
            break;
        g->passes[pick].position = g->order_count;
        g->order[g->order_count++] = pick;
        for (uint32_t e = g->edge_start[pick]; e < g->edge_start[pick + 1]; ++e)
            g->passes[g->edge_list[e]].indegree--;
    }
    if (g->order_count != live) {
        char names[256] = "";
        size_t len = 0;
        for (uint32_t p = 0; p < g->pass_count && len + 40 < sizeof names; ++p)
            if (g->passes[p].live && g->passes[p].position == G_NONE)
                len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", len ? ", " : "",
                                        g_str(g, g->passes[p].name));
        return g_fail(g, VKSORT_ERROR_GRAPH_CYCLE,
                      "the dependencies of passes %s form a cycle (an explicit dependency "
                      "contradicts the order their resource uses imply)", names);
    }
    return VKSORT_SUCCESS;
}

static vksort_result g_segments(vksort_graph *g)
{
    g->segment_count = 0;
    if (!G_RESERVE(g, g->segments, g->segment_cap, g->order_count + 1))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    g_segment cur = {0, 0, G_NONE};
    for (uint32_t pos = 0; pos < g->order_count; ++pos) {
        const g_pass *ps = &g->passes[g->order[pos]];
        if (ps->type == VKSORT_GRAPH_PASS_EXTERNAL) {
            cur.external = g->order[pos];
            g->segments[g->segment_count++] = cur;
            cur = (g_segment){pos + 1, 0, G_NONE};
            continue;
        }
        if ((ps->flags & VKSORT_GRAPH_PASS_NEW_SEGMENT) && cur.count) {
            g->segments[g->segment_count++] = cur;
            cur = (g_segment){pos, 0, G_NONE};
        }
        cur.count++;
    }
    g->segments[g->segment_count++] = cur;
    return VKSORT_SUCCESS;
}

/* ---- compile: transients ------------------------------------------------------------------ */

static int g_lifetimes_overlap(const g_transient *a, const g_transient *b)
{
    return a->first_pos <= b->last_pos && b->first_pos <= a->last_pos;
}

static vksort_result g_vk_fail(vksort_graph *g, VkResult vr, const char *what, const char *name)
{
    return g_fail(g, VKSORT_ERROR_VULKAN, "%s failed for '%s' (VkResult %d)", what, name, (int)vr);
}

static void g_name_object(vksort_graph *g, VkObjectType type, uint64_t handle, const char *name)
{
    if (!g->vk.vkSetDebugUtilsObjectNameEXT || !handle)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    ni.objectType = type;
    ni.objectHandle = handle;
    ni.pObjectName = name;
    g->vk.vkSetDebugUtilsObjectNameEXT(g->device, &ni);
}

static vksort_result g_transients(vksort_graph *g)
{
    const int alias = (g->flags & VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS) != 0;
    /* Lifetimes and implied usage. */
    for (uint32_t i = 0; i < g->resource_count; ++i) {
        g_resource *r = &g->resources[i];
        r->first_pos = r->last_pos = G_NONE;
        r->transient = G_NONE;
    }
    for (uint32_t pos = 0; pos < g->order_count; ++pos) {
        const g_pass *ps = &g->passes[g->order[pos]];
        for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
            g_resource *r = &g->resources[g->uses[u].resource];
            if (r->first_pos == G_NONE)
                r->first_pos = pos;
            r->last_pos = pos;
        }
    }
    /* The wanted set, in resource order; compared with the cached one. */
    uint32_t want = 0;
    int same = 1;
    for (uint32_t i = 0; i < g->resource_count; ++i) {
        g_resource *r = &g->resources[i];
        if (r->imported || r->first_pos == G_NONE)
            continue;
        g_transient t;
        memset(&t, 0, sizeof t);
        t.is_image = r->is_image;
        if (r->is_image) {
            t.format = r->format;
            t.extent = r->extent;
            t.mip_levels = r->mip_levels;
            t.array_layers = r->array_layers;
            t.image_usage = r->image_usage;
        } else {
            t.size = r->size;
            t.buffer_usage = r->buffer_usage;
        }
        for (uint32_t pos = r->first_pos; pos <= r->last_pos; ++pos)
            for (uint32_t u = g->passes[g->order[pos]].first_use; u != G_NONE; u = g->uses[u].next)
                if (g->uses[u].resource == i) {
                    if (r->is_image)
                        t.image_usage |= g_image_usage_for(g->uses[u].access, g->uses[u].layout);
                    else
                        t.buffer_usage |= g_buffer_usage_for(g->uses[u].access);
                }
        if (t.is_image && !t.image_usage)
            t.image_usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        if (!t.is_image && !t.buffer_usage)
            t.buffer_usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (alias) {
            t.first_pos = r->first_pos;
            t.last_pos = r->last_pos;
        }
        r->transient = want;
        if (same) {
            if (want >= g->transient_count)
                same = 0;
            else {
                const g_transient *c = &g->transients[want];
                same = c->is_image == t.is_image && c->size == t.size &&
                       c->buffer_usage == t.buffer_usage && c->format == t.format &&
                       c->extent.width == t.extent.width && c->extent.height == t.extent.height &&
                       c->extent.depth == t.extent.depth && c->mip_levels == t.mip_levels &&
                       c->array_layers == t.array_layers && c->image_usage == t.image_usage &&
                       c->first_pos == t.first_pos && c->last_pos == t.last_pos;
            }
        }
        want++;
    }
    if (same && want == g->transient_count) {
        for (uint32_t i = 0; i < g->resource_count; ++i) {
            g_resource *r = &g->resources[i];
            if (r->transient == G_NONE)
                continue;
            g_transient *t = &g->transients[r->transient];
            t->resource = i;
            r->buffer = t->buffer;
            r->image = t->image;
            r->view = t->view;
            r->offset = 0;
        }
        return VKSORT_SUCCESS;
    }
    /* Rebuild: retire the old objects (the GPU may still use them) and create the new ones.
     * What the old ones were used with stays in the history of every new one: they may be
     * bound to the same memory (the caller's), whose earlier uses their first uses must wait
     * for (correct, not minimal, as within a build). */
    VkPipelineStageFlags2 old_stage = 0;
    VkAccessFlags2 old_write = 0;
    for (uint32_t j = 0; j < g->transient_count; ++j) {
        old_stage |= g->transients[j].hist_stage;
        old_write |= g->transients[j].hist_write;
    }
    g_drop_transients(g);
    if (!G_RESERVE(g, g->transients, g->transient_cap, want))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    g->transient_memory_bits = ~0u;
    g->transient_alignment = 1;
    for (uint32_t i = 0; i < g->resource_count; ++i) {
        g_resource *r = &g->resources[i];
        if (r->transient == G_NONE)
            continue;
        g_transient *t = &g->transients[g->transient_count++];
        memset(t, 0, sizeof *t);
        t->hist_stage = old_stage;
        t->hist_write = old_write;
        t->resource = i;
        t->is_image = r->is_image;
        if (alias) {
            t->first_pos = r->first_pos;
            t->last_pos = r->last_pos;
        }
        const char *name = g_str(g, r->name);
        VkBufferUsageFlags bu = r->buffer_usage;
        VkImageUsageFlags iu = r->image_usage;
        for (uint32_t pos = r->first_pos; pos <= r->last_pos; ++pos)
            for (uint32_t u = g->passes[g->order[pos]].first_use; u != G_NONE; u = g->uses[u].next)
                if (g->uses[u].resource == i) {
                    iu |= g_image_usage_for(g->uses[u].access, g->uses[u].layout);
                    bu |= g_buffer_usage_for(g->uses[u].access);
                }
        VkResult vr;
        if (r->is_image) {
            if (!iu)
                iu = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
            t->format = r->format;
            t->extent = r->extent;
            t->mip_levels = r->mip_levels;
            t->array_layers = r->array_layers;
            t->image_usage = iu;
            VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
            ici.imageType = r->extent.depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
            ici.format = r->format;
            ici.extent = r->extent;
            ici.mipLevels = r->mip_levels;
            ici.arrayLayers = r->array_layers;
            ici.samples = VK_SAMPLE_COUNT_1_BIT;
            ici.tiling = VK_IMAGE_TILING_OPTIMAL;
            ici.usage = iu;
            ici.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
            ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
            vr = g->vk.vkCreateImage(g->device, &ici, g->vk_alloc, &t->image);
            if (vr != VK_SUCCESS)
                return g_vk_fail(g, vr, "vkCreateImage", name);
            g->vk.vkGetImageMemoryRequirements(g->device, t->image, &t->req);
            g_name_object(g, VK_OBJECT_TYPE_IMAGE, (uint64_t)t->image, name);
        } else {
            if (!bu)
                bu = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
            t->size = r->size;
            t->buffer_usage = bu;
            VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
            bci.size = r->size;
            bci.usage = bu;
            bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
            vr = g->vk.vkCreateBuffer(g->device, &bci, g->vk_alloc, &t->buffer);
            if (vr != VK_SUCCESS)
                return g_vk_fail(g, vr, "vkCreateBuffer", name);
            g->vk.vkGetBufferMemoryRequirements(g->device, t->buffer, &t->req);
            g_name_object(g, VK_OBJECT_TYPE_BUFFER, (uint64_t)t->buffer, name);
        }
        g->transient_memory_bits &= t->req.memoryTypeBits;
        if (t->req.alignment > g->transient_alignment)
            g->transient_alignment = t->req.alignment;
    }
    if (g->transient_count && !g->transient_memory_bits)
        return g_fail(g, VKSORT_ERROR_DEVICE_LIMITS,
                      "no memory type can hold every transient (split buffers and images?)");
    /* Placement. Offsets aligned to the object's alignment and bufferImageGranularity (buffers
     * and optimal images may share the allocation). */
    VkDeviceSize gran = g->limits.bufferImageGranularity ? g->limits.bufferImageGranularity : 1;
    if (gran > g->transient_alignment)
        g->transient_alignment = gran;
    VkDeviceSize total = 0, unaliased = 0;
    for (uint32_t i = 0; i < g->transient_count; ++i) {
        g_transient *t = &g->transients[i];
        VkDeviceSize align = t->req.alignment > gran ? t->req.alignment : gran;
        unaliased = (unaliased + align - 1) / align * align + t->req.size;
        VkDeviceSize offset = 0;
        if (alias) {
            /* First fit among the placed transients whose lifetimes overlap this one. */
            for (int moved = 1; moved;) {
                moved = 0;
                offset = (offset + align - 1) / align * align;
                for (uint32_t j = 0; j < i; ++j) {
                    const g_transient *o = &g->transients[j];
                    if (!g_lifetimes_overlap(t, o))
                        continue;
                    if (offset < o->offset + o->req.size && o->offset < offset + t->req.size) {
                        offset = o->offset + o->req.size;
                        moved = 1;
                        break;
                    }
                }
            }
        } else {
            offset = (total + align - 1) / align * align;
        }
        t->offset = offset;
        if (offset + t->req.size > total)
            total = offset + t->req.size;
    }
    g->transient_size = total;
    g->transient_size_unaliased = unaliased;
    /* Views need bound memory: created at bind time. Handles to the resources now. */
    for (uint32_t i = 0; i < g->transient_count; ++i) {
        g_transient *t = &g->transients[i];
        g_resource *r = &g->resources[t->resource];
        r->buffer = t->buffer;
        r->image = t->image;
        r->offset = 0;
    }
    return VKSORT_SUCCESS;
}

static vksort_result g_bind(vksort_graph *g, VkDeviceMemory memory, VkDeviceSize base)
{
    for (uint32_t i = 0; i < g->transient_count; ++i) {
        g_transient *t = &g->transients[i];
        const char *name = g_str(g, g->resources[t->resource].name);
        VkResult vr;
        if (t->is_image) {
            vr = g->vk.vkBindImageMemory(g->device, t->image, memory, base + t->offset);
            if (vr != VK_SUCCESS)
                return g_vk_fail(g, vr, "vkBindImageMemory", name);
            const VkImageUsageFlags view_usage =
                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
            if (!(t->image_usage & view_usage))
                continue; /* transfer-only image: no view */
            VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
            vci.image = t->image;
            vci.viewType = t->extent.depth > 1 ? VK_IMAGE_VIEW_TYPE_3D
                           : t->array_layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                                                 : VK_IMAGE_VIEW_TYPE_2D;
            vci.format = t->format;
            vci.subresourceRange.aspectMask = g_aspect_for(t->format);
            vci.subresourceRange.levelCount = t->mip_levels;
            vci.subresourceRange.layerCount = t->array_layers;
            vr = g->vk.vkCreateImageView(g->device, &vci, g->vk_alloc, &t->view);
            if (vr != VK_SUCCESS)
                return g_vk_fail(g, vr, "vkCreateImageView", name);
            g->resources[t->resource].view = t->view;
        } else {
            vr = g->vk.vkBindBufferMemory(g->device, t->buffer, memory, base + t->offset);
            if (vr != VK_SUCCESS)
                return g_vk_fail(g, vr, "vkBindBufferMemory", name);
        }
    }
    g->bound_memory = memory;
    g->bound_offset = base;
    g->memory_bound = 1;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_transient_memory_requirements(vksort_graph *g, VkMemoryRequirements *out)
{
    if (!g || !out)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_NOT_COMPILED, "the graph is not compiled");
    out->size = g->transient_size;
    out->alignment = g->transient_alignment;
    out->memoryTypeBits = g->transient_count ? g->transient_memory_bits : 0;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_bind_transient_memory(vksort_graph *g, VkDeviceMemory memory,
                                                 VkDeviceSize offset)
{
    if (!g || !memory)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_NOT_COMPILED, "the graph is not compiled");
    if (g->memory_bound) {
        if (!g->memory_owned && g->bound_memory == memory && g->bound_offset == offset)
            return VKSORT_SUCCESS;
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the transients are already bound (they keep their memory while the "
                      "graph's transients stay the same)");
    }
    if (offset % (g->transient_alignment ? g->transient_alignment : 1))
        return g_fail(g, VKSORT_ERROR_MISALIGNED, "transient memory offset %llu is not a multiple of %llu",
                      (unsigned long long)offset, (unsigned long long)g->transient_alignment);
    return g_bind(g, memory, offset);
}

static vksort_result g_allocate_own(vksort_graph *g)
{
    if (!g->transient_count || g->memory_bound)
        return VKSORT_SUCCESS;
    int type = -1;
    for (int pass = 0; pass < 2 && type < 0; ++pass)
        for (uint32_t i = 0; i < g->memory_props.memoryTypeCount; ++i)
            if ((g->transient_memory_bits & (1u << i)) &&
                (pass == 1 || (g->memory_props.memoryTypes[i].propertyFlags &
                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))) {
                type = (int)i;
                break;
            }
    if (type < 0)
        return g_fail(g, VKSORT_ERROR_DEVICE_LIMITS, "no memory type for the transients");
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = g->transient_size;
    mai.memoryTypeIndex = (uint32_t)type;
    VkDeviceMemory mem;
    VkResult vr = g->vk.vkAllocateMemory(g->device, &mai, g->vk_alloc, &mem);
    if (vr != VK_SUCCESS)
        return g_vk_fail(g, vr, "vkAllocateMemory", "transients");
    g->memory_owned = 1;
    vksort_result r = g_bind(g, mem, 0);
    if (r != VKSORT_SUCCESS) {
        g->bound_memory = mem; /* freed with the transients */
        g->memory_bound = 1;
    }
    return r;
}

/* ---- compile: barriers -------------------------------------------------------------------- */

/* The scopes both barrier structs (VkImageMemoryBarrier2, VkBufferMemoryBarrier2) share, set
 * once for either; no queue family transfer. */
#define G_BARRIER_SCOPES(b, src_stage, src_access, dst_stage, dst_access)                          \
    do {                                                                                           \
        (b)->srcStageMask = (src_stage);                                                           \
        (b)->srcAccessMask = (src_access);                                                         \
        (b)->dstStageMask = (dst_stage);                                                           \
        (b)->dstAccessMask = (dst_access);                                                         \
        (b)->srcQueueFamilyIndex = (b)->dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;             \
    } while (0)

static int g_push_barrier(vksort_graph *g, uint32_t ri, VkPipelineStageFlags2 src_stage,
                          VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                          VkAccessFlags2 dst_access, VkImageLayout old_layout,
                          VkImageLayout new_layout)
{
    const g_resource *r = &g->resources[ri];
    if (!src_stage)
        src_stage = VK_PIPELINE_STAGE_2_NONE;
    if (r->is_image) {
        if (!G_RESERVE(g, g->image_barriers, g->image_barrier_cap, g->image_barrier_count + 1))
            return 0;
        VkImageMemoryBarrier2 *b = &g->image_barriers[g->image_barrier_count];
        memset(b, 0, sizeof *b);
        b->sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
        G_BARRIER_SCOPES(b, src_stage, src_access, dst_stage, dst_access);
        b->oldLayout = old_layout;
        b->newLayout = new_layout;
        b->image = r->image;
        b->subresourceRange = r->range;
        g->image_barrier_count++;
    } else {
        if (!G_RESERVE(g, g->buffer_barriers, g->buffer_barrier_cap, g->buffer_barrier_count + 1))
            return 0;
        VkBufferMemoryBarrier2 *b = &g->buffer_barriers[g->buffer_barrier_count];
        memset(b, 0, sizeof *b);
        b->sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2;
        G_BARRIER_SCOPES(b, src_stage, src_access, dst_stage, dst_access);
        b->buffer = r->buffer;
        b->offset = r->offset;
        b->size = r->size;
        g->buffer_barrier_count++;
    }
    return 1;
}

/* The barrier one use needs given the resource's state (none: returns 0 without pushing), and the
 * state after the use. */
static int g_sync_use(vksort_graph *g, uint32_t ri, VkPipelineStageFlags2 stage,
                      VkAccessFlags2 access, VkImageLayout layout, int *pushed)
{
    g_resource *r = &g->resources[ri];
    g_sync *s = &r->sync;
    *pushed = 0;
    const VkAccessFlags2 writes = access & g_write_bits;
    const VkAccessFlags2 reads = access & ~g_write_bits;
    const int transition = r->is_image && layout != s->layout;
    if (writes || transition) {
        VkPipelineStageFlags2 src = s->write_stage | s->read_stage;
        if (src || transition) {
            if (!g_push_barrier(g, ri, src, s->write_access, stage, access, s->layout,
                                r->is_image ? layout : VK_IMAGE_LAYOUT_UNDEFINED))
                return 0;
            *pushed = 1;
        }
        s->write_stage = stage;
        s->write_access = writes;
        s->read_stage = reads ? stage : 0;
        /* A transition (or write) is visible to the barrier's destination scope only. */
        s->vis_stage = writes ? 0 : stage;
        s->vis_access = writes ? 0 : access;
        s->layout = r->is_image ? layout : s->layout;
        return 1;
    }
    /* Read only, same layout. */
    if (s->write_stage &&
        ((stage & ~s->vis_stage) || (access & ~s->vis_access) || (!access && !s->vis_stage))) {
        /* Widen the destination to what was visible before, so visibility stays a product. */
        VkPipelineStageFlags2 dst_stage = stage | s->vis_stage;
        VkAccessFlags2 dst_access = access | s->vis_access;
        if (!g_push_barrier(g, ri, s->write_stage, s->write_access, dst_stage, dst_access, layout,
                            layout))
            return 0;
        *pushed = 1;
        s->vis_stage = dst_stage;
        s->vis_access = dst_access;
    }
    s->read_stage |= stage;
    return 1;
}

static vksort_result g_barriers(vksort_graph *g)
{
    if (!G_RESERVE(g, g->batches, g->batch_cap, g->order_count + 1))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    g->buffer_barrier_count = g->image_barrier_count = 0;
    /* Update the memory history of the transients, then the initial states. */
    for (uint32_t pos = 0; pos < g->order_count; ++pos)
        for (uint32_t u = g->passes[g->order[pos]].first_use; u != G_NONE; u = g->uses[u].next) {
            const g_resource *r = &g->resources[g->uses[u].resource];
            if (r->transient == G_NONE)
                continue;
            g_transient *t = &g->transients[r->transient];
            t->hist_stage |= g->uses[u].stage;
            t->hist_write |= g->uses[u].access & g_write_bits;
        }
    for (uint32_t i = 0; i < g->resource_count; ++i) {
        g_resource *r = &g->resources[i];
        memset(&r->sync, 0, sizeof r->sync);
        if (r->imported) {
            const VkAccessFlags2 w = r->initial.access & g_write_bits;
            if (w) {
                r->sync.write_stage = r->initial.stage ? r->initial.stage
                                                       : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
                r->sync.write_access = w;
            } else {
                r->sync.read_stage = r->initial.stage;
            }
            r->sync.layout = r->initial.layout;
        } else if (r->transient != G_NONE) {
            /* Whatever used this memory before (earlier frames on the queue, aliased transients
             * earlier in this frame): the first use waits for all of it. */
            const g_transient *t = &g->transients[r->transient];
            for (uint32_t j = 0; j < g->transient_count; ++j) {
                const g_transient *o = &g->transients[j];
                if (j != r->transient &&
                    !(o->offset < t->offset + t->req.size && t->offset < o->offset + o->req.size))
                    continue;
                r->sync.write_stage |= o->hist_stage;
                r->sync.write_access |= o->hist_write;
            }
            r->sync.layout = VK_IMAGE_LAYOUT_UNDEFINED;
        }
    }
    for (uint32_t pos = 0; pos <= g->order_count; ++pos) {
        g_batch *b = &g->batches[pos];
        b->first_buffer = g->buffer_barrier_count;
        b->first_image = g->image_barrier_count;
        if (pos < g->order_count) {
            g_pass *ps = &g->passes[g->order[pos]];
            for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
                g_use *use = &g->uses[u];
                int pushed;
                if (!g_sync_use(g, use->resource, use->stage, use->access, use->layout, &pushed))
                    return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
                use->barrier = (uint8_t)pushed;
                g_resource *r = &g->resources[use->resource];
                r->end_state.stage = use->stage;
                r->end_state.access = use->access;
                r->end_state.layout = use->layout;
            }
            if (ps->type == VKSORT_GRAPH_PASS_EXTERNAL) {
                /* The semaphores around the external work order everything. */
                for (uint32_t i = 0; i < g->resource_count; ++i) {
                    g_sync *s = &g->resources[i].sync;
                    VkImageLayout l = s->layout;
                    memset(s, 0, sizeof *s);
                    s->layout = l;
                }
            }
        } else {
            for (uint32_t i = 0; i < g->resource_count; ++i) {
                g_resource *r = &g->resources[i];
                if (!r->has_final)
                    continue;
                VkImageLayout layout = r->is_image && r->final.layout != VK_IMAGE_LAYOUT_UNDEFINED
                                           ? r->final.layout : r->sync.layout;
                VkPipelineStageFlags2 stage = r->final.stage ? r->final.stage
                                                             : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
                int pushed;
                if (!g_sync_use(g, i, stage, r->final.access, layout, &pushed))
                    return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
                r->end_state.stage = stage;
                r->end_state.access = r->final.access;
                r->end_state.layout = layout;
            }
        }
        b->buffer_count = g->buffer_barrier_count - b->first_buffer;
        b->image_count = g->image_barrier_count - b->first_image;
    }
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_compile(vksort_graph *g)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (g->compiled)
        return VKSORT_SUCCESS;
    if (g->error != VKSORT_SUCCESS) {
        vksort_result e = g->error;
        /* keep the first message */
        return e;
    }
    g->message[0] = 0;
    vksort_result r = g_scan_producers(g);
    if (r == VKSORT_SUCCESS) {
        g_cull(g);
        r = g_order(g);
    }
    if (r == VKSORT_SUCCESS)
        r = g_segments(g);
    if (r == VKSORT_SUCCESS)
        r = g_transients(g);
    if (r == VKSORT_SUCCESS)
        r = g_barriers(g);
    if (r != VKSORT_SUCCESS) {
        g->error = r;
        return r;
    }
    g->compiled = 1;
    return VKSORT_SUCCESS;
}

/* ---- recording ---------------------------------------------------------------------------- */

uint32_t vksort_graph_segment_count(const vksort_graph *g)
{
    return g && g->compiled ? g->segment_count : 0;
}

vksort_result vksort_graph_get_segment_info(const vksort_graph *g, uint32_t segment,
                                            vksort_graph_segment_info *out)
{
    if (!g || !out || !g->compiled || segment >= g->segment_count)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    out->first_pass = g->segments[segment].first;
    out->pass_count = g->segments[segment].count;
    out->external_pass = g->segments[segment].external == G_NONE
                             ? 0 : g_handle(g, g->segments[segment].external);
    return VKSORT_SUCCESS;
}

static void g_emit_batch(vksort_graph *g, VkCommandBuffer cmd, const g_batch *b)
{
    if (!b->buffer_count && !b->image_count)
        return;
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    di.bufferMemoryBarrierCount = b->buffer_count;
    di.pBufferMemoryBarriers = b->buffer_count ? &g->buffer_barriers[b->first_buffer] : NULL;
    di.imageMemoryBarrierCount = b->image_count;
    di.pImageMemoryBarriers = b->image_count ? &g->image_barriers[b->first_image] : NULL;
    g->vk.vkCmdPipelineBarrier2(cmd, &di);
}

static uint32_t g_slot_count(const vksort_graph *g)
{
    return g->frames_in_flight + 1;
}

static vksort_result g_timestamps_begin(vksort_graph *g, VkCommandBuffer cmd)
{
    uint32_t need = 2 * (g->order_count ? g->order_count : 1);
    if (need > g->queries_per_slot) {
        if (g->query_pool) {
            g_retired r = {0};
            r.query_pool = g->query_pool;
            g_retire(g, r);
            g->query_pool = VK_NULL_HANDLE;
        }
        uint32_t per = g->queries_per_slot ? g->queries_per_slot : 32;
        while (per < need)
            per *= 2;
        VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = per * g_slot_count(g);
        VkResult vr = g->vk.vkCreateQueryPool(g->device, &qci, g->vk_alloc, &g->query_pool);
        if (vr != VK_SUCCESS) {
            g->query_pool = VK_NULL_HANDLE;
            g->queries_per_slot = 0;
            return g_vk_fail(g, vr, "vkCreateQueryPool", "timestamps");
        }
        uint32_t names = per / 2 * g_slot_count(g);
        if (!G_RESERVE(g, g->timing_names, g->timing_name_cap, names))
            return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        g->queries_per_slot = per;
        for (uint32_t i = 0; i < g_slot_count(g); ++i)
            g->slots[i].recorded = 0;
    }
    uint32_t slot = (uint32_t)(g->timing_tick % g_slot_count(g));
    g_timing_slot *s = &g->slots[slot];
    s->frame = g->frame;
    s->tick = g->timing_tick;
    s->count = g->order_count;
    s->first_name = slot * (g->queries_per_slot / 2);
    s->recorded = 1;
    for (uint32_t pos = 0; pos < g->order_count; ++pos)
        snprintf(g->timing_names[s->first_name + pos], G_NAME_LEN, "%s",
                 g_str(g, g->passes[g->order[pos]].name));
    g->vk.vkCmdResetQueryPool(cmd, g->query_pool, slot * g->queries_per_slot, need);
    return VKSORT_SUCCESS;
}

static vksort_result g_record_pass(vksort_graph *g, VkCommandBuffer cmd, uint32_t p)
{
    g_pass *ps = &g->passes[p];
    const char *name = g_str(g, ps->name);
    if (!G_RESERVE(g, g->resolved, g->resolved_cap, ps->use_count + 1))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    uint32_t n = 0;
    for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
        const g_use *use = &g->uses[u];
        const g_resource *r = &g->resources[use->resource];
        vksort_graph_resolved_use *ru = &g->resolved[n++];
        memset(ru, 0, sizeof *ru);
        ru->resource = g_handle(g, use->resource);
        ru->buffer = r->buffer;
        ru->offset = r->offset;
        ru->size = r->size;
        ru->image = r->image;
        ru->view = r->view;
        ru->layout = use->layout;
        ru->stage = use->stage;
        ru->access = use->access;
    }
    vksort_graph_record_context ctx = {g, g_handle(g, p), name, cmd, g->resolved, n};
    /* Every graphics pass draws inside dynamic rendering, attachments or not (add_pass made
     * sure an attachment-less one has a render area). */
    int rendering = ps->type == VKSORT_GRAPH_PASS_GRAPHICS;
    if (rendering) {
        VkRenderingAttachmentInfo color[VKSORT_GRAPH_MAX_COLOR_ATTACHMENTS];
        VkRenderingAttachmentInfo depth = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO};
        VkExtent3D first = {0, 0, 0};
        for (uint32_t i = 0; i < ps->color_count; ++i) {
            const g_resource *r = &g->resources[g_index(g, ps->color[i].image, g->resource_count)];
            if (!r->view)
                return g_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                              "pass '%s': attachment '%s' has no image view", name, g_str(g, r->name));
            memset(&color[i], 0, sizeof color[i]);
            color[i].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
            color[i].imageView = r->view;
            color[i].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            color[i].loadOp = ps->color[i].load_op;
            color[i].storeOp = ps->color[i].store_op;
            color[i].clearValue = ps->color[i].clear;
            if (i == 0)
                first = r->extent;
        }
        if (ps->depth.image) {
            const g_resource *r = &g->resources[g_index(g, ps->depth.image, g->resource_count)];
            if (!r->view)
                return g_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                              "pass '%s': attachment '%s' has no image view", name, g_str(g, r->name));
            depth.imageView = r->view;
            depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            depth.loadOp = ps->depth.load_op;
            depth.storeOp = ps->depth.store_op;
            depth.clearValue = ps->depth.clear;
            if (!ps->color_count)
                first = r->extent;
            ri.pDepthAttachment = &depth;
        }
        ri.renderArea = ps->render_area;
        if (!ri.renderArea.extent.width)
            ri.renderArea.extent = (VkExtent2D){first.width, first.height};
        ri.layerCount = 1;
        ri.colorAttachmentCount = ps->color_count;
        ri.pColorAttachments = ps->color_count ? color : NULL;
        g->vk.vkCmdBeginRendering(cmd, &ri);
    }
    vksort_result r = ps->record ? ps->record(&ctx, ps->user_data) : VKSORT_SUCCESS;
    if (rendering)
        g->vk.vkCmdEndRendering(cmd);
    if (r != VKSORT_SUCCESS && g->message[0] == 0)
        g_fail(g, r, "pass '%s': its record callback failed (%s)", name,
               vksort_graph_result_string(r));
    return r;
}

static void g_label_begin(vksort_graph *g, VkCommandBuffer cmd, const char *name)
{
    if (!g->vk.vkCmdBeginDebugUtilsLabelEXT)
        return;
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    l.pLabelName = name;
    l.color[0] = 0.2f;
    l.color[1] = 0.6f;
    l.color[2] = 0.9f;
    l.color[3] = 1.0f;
    g->vk.vkCmdBeginDebugUtilsLabelEXT(cmd, &l);
}

vksort_result vksort_graph_record_segment(vksort_graph *g, uint32_t segment, VkCommandBuffer cmd)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_NOT_COMPILED,
                      "vksort_graph_record: the graph is not compiled (or its compile failed)");
    if (!cmd || segment >= g->segment_count)
        return g_fail(g, VKSORT_ERROR_INVALID_ARGUMENT,
                      "vksort_graph_record_segment: no command buffer, or segment %u of %u", segment,
                      g->segment_count);
    g->message[0] = 0;
    vksort_result r = g_allocate_own(g);
    if (r != VKSORT_SUCCESS)
        return r;
    const int timing = (g->flags & VKSORT_GRAPH_CREATE_TIMESTAMPS) != 0;
    /* The timestamps of a frame live in the slot segment 0 prepares (it creates the pool and
     * resets the slot's queries): the later segments write into it. */
    if (timing && segment > 0 && !g->segment0_recorded)
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "vksort_graph_record_segment: segment %u before segment 0 of this frame "
                      "(with VKSORT_GRAPH_CREATE_TIMESTAMPS segments are recorded in order)",
                      segment);
    if (timing && segment == 0) {
        if (g->segment0_recorded)
            g->timing_tick++; /* recorded again: a slot of its own */
        r = g_timestamps_begin(g, cmd);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (segment == 0)
        g->segment0_recorded = 1;
    const uint32_t slot_base = (uint32_t)(g->timing_tick % g_slot_count(g)) * g->queries_per_slot;
    const g_segment *seg = &g->segments[segment];
    for (uint32_t pos = seg->first; pos < seg->first + seg->count; ++pos) {
        uint32_t p = g->order[pos];
        g_emit_batch(g, cmd, &g->batches[pos]);
        g_label_begin(g, cmd, g_str(g, g->passes[p].name));
        if (timing)
            g->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, g->query_pool,
                                      slot_base + 2 * pos);
        r = g_record_pass(g, cmd, p);
        if (timing)
            g->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->query_pool,
                                      slot_base + 2 * pos + 1);
        if (g->vk.vkCmdEndDebugUtilsLabelEXT)
            g->vk.vkCmdEndDebugUtilsLabelEXT(cmd);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (seg->external != G_NONE) {
        uint32_t pos = g->passes[seg->external].position;
        /* The external pass records nothing; its label (around the barriers that hand its
         * resources over) marks where the frame leaves Vulkan, so captures show it. */
        g_label_begin(g, cmd, g_str(g, g->passes[seg->external].name));
        g_emit_batch(g, cmd, &g->batches[pos]);
        if (timing) { /* external work is not timed here: zero-length entry */
            g->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->query_pool,
                                      slot_base + 2 * pos);
            g->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->query_pool,
                                      slot_base + 2 * pos + 1);
        }
        if (g->vk.vkCmdEndDebugUtilsLabelEXT)
            g->vk.vkCmdEndDebugUtilsLabelEXT(cmd);
        r = g_record_pass(g, VK_NULL_HANDLE, seg->external);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    if (segment + 1 == g->segment_count)
        g_emit_batch(g, cmd, &g->batches[g->order_count]);
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_record(vksort_graph *g, VkCommandBuffer cmd)
{
    if (!g)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!g->compiled)
        return g_fail(g, VKSORT_ERROR_GRAPH_NOT_COMPILED,
                      "vksort_graph_record: the graph is not compiled (or its compile failed)");
    for (uint32_t s = 0; s < g->segment_count; ++s)
        if (g->segments[s].external != G_NONE)
            return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                          "vksort_graph_record: external pass '%s' splits the frame; record each "
                          "segment with vksort_graph_record_segment",
                          g_str(g, g->passes[g->segments[s].external].name));
    for (uint32_t s = 0; s < g->segment_count; ++s) {
        vksort_result r = vksort_graph_record_segment(g, s, cmd);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    return VKSORT_SUCCESS;
}

/* ---- queries ------------------------------------------------------------------------------ */

vksort_result vksort_graph_pass_culled(const vksort_graph *g, vksort_graph_pass pass,
                                       VkBool32 *out_culled)
{
    if (!g || !out_culled)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    uint32_t p = g_pass_index(g, pass);
    if (p == G_NONE)
        return VKSORT_ERROR_GRAPH_UNKNOWN_PASS;
    if (!g->compiled)
        return VKSORT_ERROR_GRAPH_NOT_COMPILED;
    *out_culled = g->passes[p].live ? VK_FALSE : VK_TRUE;
    return VKSORT_SUCCESS;
}

uint32_t vksort_graph_pass_position(const vksort_graph *g, vksort_graph_pass pass)
{
    if (!g || !g->compiled)
        return UINT32_MAX;
    uint32_t p = g_pass_index(g, pass);
    return p == G_NONE ? UINT32_MAX : g->passes[p].position;
}

/* The queries about a resource of a compiled graph: the record of handle res, or why not. */
static vksort_result g_compiled_resource(const vksort_graph *g, vksort_graph_resource res,
                                         const void *out, const g_resource **r)
{
    if (!g || !out)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    uint32_t ri = g_index(g, res, g->resource_count);
    if (ri == G_NONE)
        return VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE;
    if (!g->compiled)
        return VKSORT_ERROR_GRAPH_NOT_COMPILED;
    *r = &g->resources[ri];
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_get_transient_info(const vksort_graph *g, vksort_graph_resource res,
                                              vksort_graph_transient_info *out)
{
    const g_resource *r = NULL;
    vksort_result res_check = g_compiled_resource(g, res, out, &r);
    if (res_check != VKSORT_SUCCESS)
        return res_check;
    if (r->transient == G_NONE)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    const g_transient *t = &g->transients[r->transient];
    out->buffer = t->buffer;
    out->image = t->image;
    out->memory_offset = t->offset;
    out->memory_size = t->req.size;
    out->first_pass = r->first_pos;
    out->last_pass = r->last_pos;
    return VKSORT_SUCCESS;
}

vksort_result vksort_graph_final_state(const vksort_graph *g, vksort_graph_resource res,
                                       vksort_graph_state *out)
{
    const g_resource *r = NULL;
    vksort_result res_check = g_compiled_resource(g, res, out, &r);
    if (res_check != VKSORT_SUCCESS)
        return res_check;
    *out = r->first_pos == G_NONE && !r->has_final ? r->initial : r->end_state;
    return VKSORT_SUCCESS;
}

void vksort_graph_get_stats(const vksort_graph *g, vksort_graph_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!g || !g->compiled)
        return;
    out->pass_count = g->pass_count;
    out->culled_pass_count = g->pass_count - g->order_count;
    out->resource_count = g->resource_count;
    out->transient_count = g->transient_count;
    for (uint32_t i = 0; i <= g->order_count; ++i)
        out->barrier_batches += (g->batches[i].buffer_count + g->batches[i].image_count) != 0;
    out->buffer_barriers = g->buffer_barrier_count;
    out->image_barriers = g->image_barrier_count;
    out->transient_bytes = g->transient_size;
    out->transient_bytes_unaliased = g->transient_size_unaliased;
}

vksort_result vksort_graph_read_timings(vksort_graph *g, vksort_graph_pass_timing *out,
                                        uint32_t *inout_count, uint64_t *out_frame)
{
    if (!g || !inout_count || (*inout_count && !out))
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!(g->flags & VKSORT_GRAPH_CREATE_TIMESTAMPS))
        return g_fail(g, VKSORT_ERROR_GRAPH_INVALID_STATE,
                      "the graph was created without VKSORT_GRAPH_CREATE_TIMESTAMPS");
    if (g->timing_tick < g->frames_in_flight)
        return VKSORT_ERROR_GRAPH_NOT_READY;
    const uint64_t tick = g->timing_tick - g->frames_in_flight;
    uint32_t slot_index = (uint32_t)(tick % g_slot_count(g));
    const g_timing_slot *s = &g->slots[slot_index];
    if (!s->recorded || s->tick != tick || !g->query_pool)
        return VKSORT_ERROR_GRAPH_NOT_READY;
    const uint64_t frame = s->frame;
    uint32_t n = s->count;
    if (!G_RESERVE(g, g->timing_out, g->timing_out_cap, n + 1))
        return g_fail(g, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    /* Read into the tail of a stack buffer in chunks: value + availability per query. */
    uint32_t done = 0;
    while (done < n) {
        uint64_t data[2 * 2 * 32];
        uint32_t chunk = n - done < 32 ? n - done : 32;
        VkResult vr = g->vk.vkGetQueryPoolResults(
            g->device, g->query_pool, slot_index * g->queries_per_slot + 2 * done, 2 * chunk,
            sizeof data, data, 2 * sizeof(uint64_t),
            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        if (vr != VK_SUCCESS && vr != VK_NOT_READY)
            return g_vk_fail(g, vr, "vkGetQueryPoolResults", "timestamps");
        for (uint32_t i = 0; i < chunk; ++i) {
            if (!data[4 * i + 1] || !data[4 * i + 3])
                return VKSORT_ERROR_GRAPH_NOT_READY;
            double ticks = (double)(data[4 * i + 2] - data[4 * i]);
            g->timing_out[done + i].name = g->timing_names[s->first_name + done + i];
            g->timing_out[done + i].ms = ticks * (double)g->limits.timestampPeriod * 1e-6;
        }
        done += chunk;
    }
    uint32_t copy = n < *inout_count ? n : *inout_count;
    if (copy)
        memcpy(out, g->timing_out, copy * sizeof *out);
    *inout_count = n;
    if (out_frame)
        *out_frame = frame;
    return VKSORT_SUCCESS;
}
