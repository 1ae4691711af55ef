/* The demo frame as a render graph (see frame.h). */
#include "frame.h"

#include <stdio.h>
#include <string.h>

void demo_dispatch_size(uint32_t count, uint32_t *gx, uint32_t *gy)
{
    uint32_t groups = (count + 255u) / 256u;
    if (groups == 0)
        groups = 1;
    *gx = groups < 65535u ? groups : 65535u;
    *gy = (groups + *gx - 1u) / *gx;
}

static const vksort_graph_resolved_use *find_use(const vksort_graph_record_context *c,
                                                 vksort_graph_resource r)
{
    for (uint32_t i = 0; i < c->use_count; ++i)
        if (c->uses[i].resource == r)
            return &c->uses[i];
    return NULL;
}

static VkDescriptorBufferInfo buffer_info(const vksort_graph_record_context *c, vksort_graph_resource r)
{
    const vksort_graph_resolved_use *u = find_use(c, r);
    VkDescriptorBufferInfo bi = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
    if (u) {
        bi.buffer = u->buffer;
        bi.offset = u->offset;
        bi.range = u->size;
    }
    return bi;
}

static void push_buffers(const demo_frame *f, VkCommandBuffer cmd, VkPipelineBindPoint bp,
                         VkPipelineLayout layout, const VkDescriptorBufferInfo *infos, uint32_t n)
{
    VkWriteDescriptorSet w[4];
    memset(w, 0, sizeof w);
    for (uint32_t i = 0; i < n; ++i) {
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &infos[i];
    }
    f->ctx->push_descriptor(cmd, bp, layout, 0, n, w);
}

/* One compute pass over every particle: bind, push the buffers and constants, dispatch. */
static void dispatch_per_particle(const vksort_graph_record_context *c, const demo_frame *f,
                                  VkPipeline pipeline, VkPipelineLayout layout,
                                  const VkDescriptorBufferInfo *buffers, uint32_t buffer_count,
                                  const void *push, uint32_t push_bytes)
{
    vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    push_buffers(f, c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, buffers, buffer_count);
    vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
    uint32_t gx, gy;
    demo_dispatch_size(f->count, &gx, &gy);
    vkCmdDispatch(c->cmd, gx, gy, 1);
}

static vksort_result record_simulate(const vksort_graph_record_context *c, void *user)
{
    const demo_frame *f = user;
    VkDescriptorBufferInfo bi[1] = {buffer_info(c, f->r_particles)};
    dispatch_per_particle(c, f, f->pipes->simulate, f->pipes->simulate_layout, bi, 1, &f->sim,
                          sizeof f->sim);
    return VKSORT_SUCCESS;
}

static vksort_result record_keys(const vksort_graph_record_context *c, void *user)
{
    const demo_frame *f = user;
    VkDescriptorBufferInfo bi[3] = {buffer_info(c, f->r_particles), buffer_info(c, f->r_keys),
                                    buffer_info(c, f->r_indices)};
    dispatch_per_particle(c, f, f->pipes->keys, f->pipes->keys_layout, bi, 3, &f->keys,
                          sizeof f->keys);
    return VKSORT_SUCCESS;
}

static vksort_result record_draw(const vksort_graph_record_context *c, void *user)
{
    const demo_frame *f = user;
    const demo_pipelines *p = f->pipes;
    VkViewport vp = {0.0f, 0.0f, (float)f->target.extent.width, (float)f->target.extent.height,
                     0.0f, 1.0f};
    VkRect2D sc = {{0, 0}, f->target.extent};
    vkCmdSetViewport(c->cmd, 0, 1, &vp);
    vkCmdSetScissor(c->cmd, 0, 1, &sc);
    const VkShaderStageFlags vsfs = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

    vk_label_begin(f->ctx, c->cmd, "grid");
    vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->grid);
    vkCmdPushConstants(c->cmd, p->grid_layout, vsfs, 0, 64, f->sprite.view_proj);
    vkCmdDraw(c->cmd, 6, 1, 0, 0);
    vk_label_end(f->ctx, c->cmd);

    vk_label_begin(f->ctx, c->cmd, "sprites");
    VkDescriptorBufferInfo bi[2] = {buffer_info(c, f->r_particles), buffer_info(c, f->r_indices)};
    vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->sprite);
    push_buffers(f, c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->sprite_layout, bi, 2);
    vkCmdPushConstants(c->cmd, p->sprite_layout, vsfs, 0, sizeof f->sprite, &f->sprite);
    vkCmdDraw(c->cmd, f->count * 6u, 1, 0, 0);
    vk_label_end(f->ctx, c->cmd);
    return VKSORT_SUCCESS;
}

static vksort_result record_readback(const vksort_graph_record_context *c, void *user)
{
    const demo_frame *f = user;
    const vksort_graph_resolved_use *img = find_use(c, f->r_target);
    const vksort_graph_resolved_use *buf = find_use(c, f->r_readback);
    VkBufferImageCopy region;
    memset(&region, 0, sizeof region);
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent = (VkExtent3D){f->target.extent.width, f->target.extent.height, 1};
    vkCmdCopyImageToBuffer(c->cmd, img->image, img->layout, buf->buffer, 1, &region);
    return VKSORT_SUCCESS;
}

/* --check-order: the particles and the draw order as drawn, for the host check. */
static vksort_result record_check_copy(const vksort_graph_record_context *c, void *user)
{
    const demo_frame *f = user;
    const vksort_graph_resource from[2] = {f->r_particles, f->r_indices};
    const vksort_graph_resource to[2] = {f->r_check_particles, f->r_check_indices};
    for (int i = 0; i < 2; ++i) {
        const vksort_graph_resolved_use *src = find_use(c, from[i]);
        const vksort_graph_resolved_use *dst = find_use(c, to[i]);
        VkBufferCopy region = {src->offset, dst->offset, src->size};
        vkCmdCopyBuffer(c->cmd, src->buffer, dst->buffer, 1, &region);
    }
    return VKSORT_SUCCESS;
}

/* The CUDA sort: runs when vksort_graph_record_segment ends the segment before it (cmd is
 * NULL); enqueues "wait W, sort, signal W+1" on the CUDA stream without a host wait. */
static vksort_result record_cuda(const vksort_graph_record_context *c, void *user)
{
    (void)c;
    demo_frame *f = user;
    f->cuda_enqueued = demo_cuda_enqueue(&f->sorts->cuda, f->count, f->keys.key_bits, f->cuda_wait_value) == 0;
    return VKSORT_SUCCESS;
}

static int check(vksort_graph *g, vksort_result r, const char *what)
{
    if (r == VKSORT_SUCCESS)
        return 0;
    fprintf(stderr, "vksort-demo: graph %s: %s: %s\n", what, vksort_graph_result_string(r),
            vksort_graph_last_message(g));
    return -1;
}

static vksort_graph_pass add_pass(vksort_graph *g, const char *name, vksort_graph_pass_type type,
                                  vksort_graph_record_fn fn, demo_frame *f, vksort_graph_pass_flags flags)
{
    vksort_graph_pass_info pi;
    memset(&pi, 0, sizeof pi);
    pi.name = name;
    pi.type = type;
    pi.flags = flags;
    pi.record = fn;
    pi.user_data = f;
    vksort_graph_pass p = 0;
    check(g, vksort_graph_add_pass(g, &pi, &p), name);
    return p;
}

static vksort_graph_resource import_buffer(vksort_graph *g, const char *name, VkBuffer buffer,
                                           VkDeviceSize size)
{
    vksort_graph_buffer_import bi;
    memset(&bi, 0, sizeof bi);
    bi.name = name;
    bi.buffer = buffer;
    bi.size = size;
    vksort_graph_resource r = 0;
    check(g, vksort_graph_import_buffer(g, &bi, &r), name);
    return r;
}

int demo_frame_build(vksort_graph *g, demo_frame *f)
{
    vksort_graph_reset(g);
    const VkDeviceSize pair_bytes = (VkDeviceSize)f->count * 4u;
    const VkPipelineStageFlags2 CS = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkPipelineStageFlags2 VS = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
    const VkAccessFlags2 RD = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    const VkAccessFlags2 WR = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

    /* Resources. The particles persist across frames; the keys and indices are transients for
     * the Vulkan sorts (and none), host-visible buffers for cpu, exported buffers for cuda. */
    f->r_particles = import_buffer(g, "particles", f->particles, (VkDeviceSize)f->count * 64u);
    if (f->sort == DEMO_SORT_CPU || f->sort == DEMO_SORT_REFERENCE) {
        f->r_keys = import_buffer(g, "depth_keys (host)", f->sorts->cpu_keys.buffer, pair_bytes);
        f->r_indices = import_buffer(g, "draw_indices (host)", f->sorts->cpu_indices.buffer, pair_bytes);
    } else if (f->sort == DEMO_SORT_CUDA) {
        f->r_keys = import_buffer(g, "depth_keys (cuda)", f->sorts->cuda.keys.buffer, pair_bytes);
        f->r_indices = import_buffer(g, "draw_indices (cuda)", f->sorts->cuda.indices.buffer, pair_bytes);
    } else {
        vksort_graph_buffer_desc kd = {"depth_keys", pair_bytes, 0};
        vksort_graph_buffer_desc id = {"draw_indices", pair_bytes, 0};
        check(g, vksort_graph_create_buffer(g, &kd, &f->r_keys), "depth_keys");
        check(g, vksort_graph_create_buffer(g, &id, &f->r_indices), "draw_indices");
    }
    vksort_graph_image_import ti;
    memset(&ti, 0, sizeof ti);
    ti.name = f->target.name;
    ti.image = f->target.image;
    ti.view = f->target.view;
    ti.format = f->target.format;
    ti.extent = (VkExtent3D){f->target.extent.width, f->target.extent.height, 1};
    ti.initial = f->target.initial;
    ti.final = f->target.final;
    check(g, vksort_graph_import_image(g, &ti, &f->r_target), "target");
    vksort_graph_image_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.name = "depth";
    dd.format = DEMO_DEPTH_FORMAT;
    dd.extent = ti.extent;
    check(g, vksort_graph_create_image(g, &dd, &f->r_depth), "depth");
    f->r_readback = 0;
    if (f->target.readback) {
        vksort_graph_buffer_import rb;
        memset(&rb, 0, sizeof rb);
        rb.name = "screenshot_readback";
        rb.buffer = f->target.readback;
        rb.final.stage = VK_PIPELINE_STAGE_2_HOST_BIT;
        rb.final.access = VK_ACCESS_2_HOST_READ_BIT;
        check(g, vksort_graph_import_buffer(g, &rb, &f->r_readback), "readback");
    }

    /* simulate */
    vksort_graph_pass p = add_pass(g, "simulate", VKSORT_GRAPH_PASS_COMPUTE, record_simulate, f, 0);
    vksort_graph_use_buffer(g, p, f->r_particles, CS, RD | WR);

    /* depth keys + indices */
    p = add_pass(g, "depth_keys", VKSORT_GRAPH_PASS_COMPUTE, record_keys, f, 0);
    vksort_graph_use_buffer(g, p, f->r_particles, CS, RD);
    vksort_graph_use_buffer(g, p, f->r_keys, CS, WR);
    vksort_graph_use_buffer(g, p, f->r_indices, CS, WR);

    /* sort */
    f->sort_pass = 0;
    f->cuda_enqueued = 0;
    if (demo_sorts_vk(f->sorts, f->sort)) {
        char name[32]; /* the graph copies pass names */
        snprintf(name, sizeof name, "sort %s", demo_sort_name(f->sort));
        vksort_graph_sort_info si;
        memset(&si, 0, sizeof si);
        si.name = name;
        si.sorter = demo_sorts_vk(f->sorts, f->sort);
        si.keys = f->r_keys;
        si.values = f->r_indices;
        si.count = f->count;
        si.flags = VKSORT_FLAG_STABLE;
        si.bit_end = f->keys.key_bits < 32u ? f->keys.key_bits : 0u; /* [0, 0): every bit */
        check(g, vksort_graph_add_sort(g, &si, &f->sort_pass), "sort");
    } else if (f->sort == DEMO_SORT_CPU || f->sort == DEMO_SORT_REFERENCE) {
        /* Host work: the segment before it is submitted and waited for, the host sorts, the next
         * segment is submitted. The barrier to HOST read/write is recorded by the graph. */
        p = add_pass(g, f->sort == DEMO_SORT_CPU ? "sort cpu (host)" : "sort reference (host qsort)",
                     VKSORT_GRAPH_PASS_EXTERNAL, NULL, f, 0);
        vksort_graph_use_buffer(g, p, f->r_keys, VK_PIPELINE_STAGE_2_HOST_BIT,
                                VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT);
        vksort_graph_use_buffer(g, p, f->r_indices, VK_PIPELINE_STAGE_2_HOST_BIT,
                                VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT);
        f->sort_pass = p;
    } else if (f->sort == DEMO_SORT_CUDA) {
        p = add_pass(g, "sort cuda (CUB)", VKSORT_GRAPH_PASS_EXTERNAL, record_cuda, f, 0);
        vksort_graph_use_buffer(g, p, f->r_keys, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        vksort_graph_use_buffer(g, p, f->r_indices, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        f->sort_pass = p;
    }

    /* draw: grid (opaque, writes depth) then sprites back to front (blended, depth test only) */
    vksort_graph_pass_info pi;
    memset(&pi, 0, sizeof pi);
    pi.name = "draw";
    pi.type = VKSORT_GRAPH_PASS_GRAPHICS;
    pi.record = record_draw;
    pi.user_data = f;
    pi.color_attachment_count = 1;
    pi.color_attachments[0].image = f->r_target;
    pi.color_attachments[0].load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    pi.color_attachments[0].store_op = VK_ATTACHMENT_STORE_OP_STORE;
    pi.color_attachments[0].clear.color = (VkClearColorValue){{0.02f, 0.02f, 0.035f, 1.0f}};
    pi.depth_attachment.image = f->r_depth;
    pi.depth_attachment.load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    pi.depth_attachment.store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    pi.depth_attachment.clear.depthStencil.depth = 1.0f;
    check(g, vksort_graph_add_pass(g, &pi, &p), "draw");
    vksort_graph_use_buffer(g, p, f->r_particles, VS, RD);
    vksort_graph_use_buffer(g, p, f->r_indices, VS, RD);

    f->r_check_particles = f->r_check_indices = 0;
    if (f->check_particles && f->check_indices) {
        const VkDeviceSize sizes[2] = {(VkDeviceSize)f->count * 64u, pair_bytes};
        const VkBuffer buffers[2] = {f->check_particles, f->check_indices};
        const char *names[2] = {"order_check_particles", "order_check_indices"};
        vksort_graph_resource *out[2] = {&f->r_check_particles, &f->r_check_indices};
        for (int i = 0; i < 2; ++i) {
            vksort_graph_buffer_import cb;
            memset(&cb, 0, sizeof cb);
            cb.name = names[i];
            cb.buffer = buffers[i];
            cb.size = sizes[i];
            cb.final.stage = VK_PIPELINE_STAGE_2_HOST_BIT;
            cb.final.access = VK_ACCESS_2_HOST_READ_BIT;
            check(g, vksort_graph_import_buffer(g, &cb, out[i]), names[i]);
        }
        p = add_pass(g, "order_check_copy", VKSORT_GRAPH_PASS_TRANSFER, record_check_copy, f, 0);
        vksort_graph_use_buffer(g, p, f->r_particles, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_READ_BIT);
        vksort_graph_use_buffer(g, p, f->r_indices, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_READ_BIT);
        vksort_graph_use_buffer(g, p, f->r_check_particles, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vksort_graph_use_buffer(g, p, f->r_check_indices, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT);
    }

    if (f->r_readback) {
        p = add_pass(g, "readback", VKSORT_GRAPH_PASS_TRANSFER, record_readback, f, 0);
        vksort_graph_use_image(g, p, f->r_target, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        vksort_graph_use_buffer(g, p, f->r_readback, VK_PIPELINE_STAGE_2_COPY_BIT,
                                VK_ACCESS_2_TRANSFER_WRITE_BIT);
    }
    return check(g, vksort_graph_compile(g), "compile");
}
