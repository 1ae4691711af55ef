/*
 * Render graph tests on lavapipe (or any Vulkan 1.3 device) with validation and synchronization
 * validation: every test fails on any validation message, except `hazard`, which removes one
 * declared use and expects synchronization validation to report the hazard.
 *
 *   test_graph <shader dir> <test> [output dir]
 *   tests: chain diamond cull never_cull diagnostics hazard sort_draw layout alias timestamps
 *          external rebuild demo
 */
#include "support/graph_rig.h"
#include "vksort/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);         \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

#define CHECK_OK(g, expr)                                                                    \
    do {                                                                                     \
        vksort_result r_ = (expr);                                                           \
        if (r_ != VKSORT_SUCCESS) {                                                          \
            fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #expr,              \
                    vksort_graph_result_string(r_), vksort_graph_last_message(g));           \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

/* ---- test context: device, compute "op" pipeline, points pipeline ---- */

typedef struct test_ctx {
    graph_rig rig;
    const char *shader_dir;
    const char *out_dir;
    VkDescriptorSetLayout op_dsl;
    VkPipelineLayout op_layout;
    VkPipeline op_pipeline;
    VkPipelineLayout points_layout;
    VkPipeline points_pipeline;
    /* host allocation counter (graph allocator) */
    size_t allocations;
} test_ctx;

static void *count_alloc(void *user, size_t size, size_t align)
{
    (void)align;
    ((test_ctx *)user)->allocations++;
    return malloc(size);
}

static void count_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static int make_op_pipeline(test_ctx *t)
{
    VkDevice dev = t->rig.device;
    VkDescriptorSetLayoutBinding b[3];
    for (uint32_t i = 0; i < 3; ++i)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                              VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    dci.bindingCount = 3;
    dci.pBindings = b;
    CHECK(vkCreateDescriptorSetLayout(dev, &dci, NULL, &t->op_dsl) == VK_SUCCESS);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &t->op_dsl;
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &pcr;
    CHECK(vkCreatePipelineLayout(dev, &lci, NULL, &t->op_layout) == VK_SUCCESS);
    VkShaderModule m = graph_rig_shader(&t->rig, t->shader_dir, "op.comp.spv");
    CHECK(m);
    VkComputePipelineCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.stage = (VkPipelineShaderStageCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                  .module = m,
                                                  .pName = "main"};
    pci.layout = t->op_layout;
    VkResult vr = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pci, NULL, &t->op_pipeline);
    vkDestroyShaderModule(dev, m, NULL);
    CHECK(vr == VK_SUCCESS);
    return 0;
}

static int make_points_pipeline(test_ctx *t)
{
    VkDevice dev = t->rig.device;
    VkPushConstantRange pcr = {VK_SHADER_STAGE_VERTEX_BIT, 0, 4};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &pcr;
    CHECK(vkCreatePipelineLayout(dev, &lci, NULL, &t->points_layout) == VK_SUCCESS);
    VkShaderModule vs = graph_rig_shader(&t->rig, t->shader_dir, "points.vert.spv");
    VkShaderModule fs = graph_rig_shader(&t->rig, t->shader_dir, "points.frag.spv");
    CHECK(vs && fs);
    VkVertexInputBindingDescription vb = {0, 4, VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription va = {0, 0, VK_FORMAT_R32_UINT, 0};
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &vb;
    vi.vertexAttributeDescriptionCount = 1;
    vi.pVertexAttributeDescriptions = &va;
    vkutil_graphics_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.vertex = vs;
    gd.fragment = fs;
    gd.layout = t->points_layout;
    gd.vertex_input = &vi;
    gd.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    gd.color_format = VK_FORMAT_R32_UINT;
    gd.color_write_mask = VK_COLOR_COMPONENT_R_BIT;
    VkResult vr = vkutil_graphics_pipeline_create(dev, &gd, &t->points_pipeline);
    vkDestroyShaderModule(dev, vs, NULL);
    vkDestroyShaderModule(dev, fs, NULL);
    CHECK(vr == VK_SUCCESS);
    return 0;
}

static vksort_graph *make_graph(test_ctx *t, vksort_graph_create_flags flags, int count_allocs)
{
    static vksort_allocation_callbacks cb;
    cb.user_data = t;
    cb.allocate = count_alloc;
    cb.free = count_free;
    vksort_graph_create_info ci = {0};
    ci.instance = t->rig.instance;
    ci.physical_device = t->rig.physical_device;
    ci.device = t->rig.device;
    ci.get_instance_proc_addr = vkGetInstanceProcAddr;
    ci.flags = flags | VKSORT_GRAPH_CREATE_DEBUG_LABELS;
    ci.allocator = count_allocs ? &cb : NULL;
    vksort_graph *g = NULL;
    vksort_result r = vksort_graph_create(&ci, &g);
    if (r != VKSORT_SUCCESS)
        fprintf(stderr, "vksort_graph_create: %s\n", vksort_graph_result_string(r));
    return g;
}

/* ---- the op pass ---- */

typedef struct op_pass {
    test_ctx *t;
    vksort_graph_resource src0, src1, dst;
    VkBuffer raw_src0;      /* used when src0 is not declared (hazard test) */
    uint32_t n, mul, add;
    int calls;
} op_pass;

static const vksort_graph_resolved_use *find_use(const vksort_graph_record_context *ctx,
                                                 vksort_graph_resource r)
{
    for (uint32_t i = 0; i < ctx->use_count; ++i)
        if (ctx->uses[i].resource == r)
            return &ctx->uses[i];
    return NULL;
}

static vksort_result record_op(const vksort_graph_record_context *ctx, void *user)
{
    op_pass *op = user;
    test_ctx *t = op->t;
    op->calls++;
    const vksort_graph_resolved_use *s0 = find_use(ctx, op->src0);
    const vksort_graph_resolved_use *s1 = op->src1 ? find_use(ctx, op->src1) : s0;
    const vksort_graph_resolved_use *d = find_use(ctx, op->dst);
    VkDescriptorBufferInfo bi[3];
    bi[0] = s0 ? (VkDescriptorBufferInfo){s0->buffer, s0->offset, s0->size}
               : (VkDescriptorBufferInfo){op->raw_src0, 0, VK_WHOLE_SIZE};
    bi[1] = s1 ? (VkDescriptorBufferInfo){s1->buffer, s1->offset, s1->size} : bi[0];
    if (!d)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    bi[2] = (VkDescriptorBufferInfo){d->buffer, d->offset, d->size};
    VkWriteDescriptorSet w[3];
    for (uint32_t i = 0; i < 3; ++i)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstBinding = i,
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .pBufferInfo = &bi[i]};
    vkCmdBindPipeline(ctx->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, t->op_pipeline);
    t->rig.push_descriptor(ctx->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, t->op_layout, 0, 3, w);
    uint32_t pc[4] = {op->n, op->mul, op->add, op->src1 ? 1u : 0u};
    vkCmdPushConstants(ctx->cmd, t->op_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
    vkCmdDispatch(ctx->cmd, (op->n + 63) / 64, 1, 1);
    return VKSORT_SUCCESS;
}

#define CS VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define SREAD VK_ACCESS_2_SHADER_STORAGE_READ_BIT
#define SWRITE VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT

/* Adds dst = src0 * mul + add (+ src1) declaring every use (src0 unless declare_src0 is 0). */
static vksort_result add_op(vksort_graph *g, op_pass *op, test_ctx *t, const char *name,
                            vksort_graph_resource src0, vksort_graph_resource src1,
                            vksort_graph_resource dst, uint32_t n, uint32_t mul, uint32_t add,
                            vksort_graph_pass_flags flags, int declare_src0,
                            vksort_graph_pass *out_pass)
{
    memset(op, 0, sizeof *op);
    op->t = t;
    op->src0 = src0;
    op->src1 = src1;
    op->dst = dst;
    op->n = n;
    op->mul = mul;
    op->add = add;
    vksort_graph_pass_info pi = {0};
    pi.name = name;
    pi.type = VKSORT_GRAPH_PASS_COMPUTE;
    pi.flags = flags;
    pi.record = record_op;
    pi.user_data = op;
    vksort_graph_pass p;
    vksort_result r = vksort_graph_add_pass(g, &pi, &p);
    if (r == VKSORT_SUCCESS && declare_src0)
        r = vksort_graph_use_buffer(g, p, src0, CS, SREAD);
    if (r == VKSORT_SUCCESS && src1)
        r = vksort_graph_use_buffer(g, p, src1, CS, SREAD);
    if (r == VKSORT_SUCCESS)
        r = vksort_graph_use_buffer(g, p, dst, CS, SWRITE);
    if (out_pass)
        *out_pass = p;
    return r;
}

static vksort_graph_resource import_buf(vksort_graph *g, const char *name, graph_rig_buffer *b,
                                        int host_read)
{
    vksort_graph_buffer_import bi = {0};
    bi.name = name;
    bi.buffer = b->buffer;
    bi.size = b->size;
    if (host_read) {
        bi.final.stage = VK_PIPELINE_STAGE_2_HOST_BIT;
        bi.final.access = VK_ACCESS_2_HOST_READ_BIT;
    }
    vksort_graph_resource r = 0;
    vksort_graph_import_buffer(g, &bi, &r);
    return r;
}

static vksort_graph_resource transient(vksort_graph *g, const char *name, VkDeviceSize size)
{
    vksort_graph_buffer_desc d = {name, size, 0};
    vksort_graph_resource r = 0;
    vksort_graph_create_buffer(g, &d, &r);
    return r;
}

static int run_graph(test_ctx *t, vksort_graph *g)
{
    VkCommandBuffer cmd = graph_rig_begin(&t->rig);
    CHECK(cmd);
    CHECK_OK(g, vksort_graph_record(g, cmd));
    CHECK(graph_rig_submit_wait(&t->rig, cmd) == 0);
    return 0;
}

static void print_log(const vksort_graph *g)
{
    char text[8192];
    vksort_graph_write_text(g, text, sizeof text);
    printf("%s", text);
}

static int write_file(const char *dir, const char *name, const char *text)
{
    if (!dir)
        return 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f);
    fputs(text, f);
    fclose(f);
    printf("wrote %s\n", path);
    return 0;
}

/* ---- chain: in -> t1 -> t2 -> t3 -> out, several frames, no host allocation once warm ---- */

enum { N = 1000 };

static int test_chain_impl(test_ctx *t, vksort_graph_create_flags flags)
{
    graph_rig_buffer in, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    vksort_graph *g = make_graph(t, flags, 1);
    CHECK(g);
    op_pass ops[5];
    size_t warm_allocs = 0;
    for (uint32_t frame = 0; frame < 4; ++frame) {
        uint32_t *src = in.mapped;
        for (uint32_t i = 0; i < N; ++i)
            src[i] = i + frame;
        vksort_graph_reset(g);
        vksort_graph_resource rin = import_buf(g, "in", &in, 0);
        vksort_graph_resource rout = import_buf(g, "out", &out, 1);
        vksort_graph_resource t1 = transient(g, "t1", N * 4), t2 = transient(g, "t2", N * 4),
                              t3 = transient(g, "t3", N * 4), t4 = transient(g, "t4", N * 4);
        CHECK_OK(g, add_op(g, &ops[0], t, "a", rin, 0, t1, N, 2, 1, 0, 1, NULL));   /* 2x+1 */
        CHECK_OK(g, add_op(g, &ops[1], t, "b", t1, 0, t2, N, 3, 0, 0, 1, NULL));    /* 6x+3 */
        CHECK_OK(g, add_op(g, &ops[2], t, "c", t2, 0, t3, N, 1, 7, 0, 1, NULL));    /* 6x+10 */
        CHECK_OK(g, add_op(g, &ops[3], t, "d", t3, 0, t4, N, 1, 0, 0, 1, NULL));    /* 6x+10 */
        CHECK_OK(g, add_op(g, &ops[4], t, "e", t4, 0, rout, N, 1, 1, 0, 1, NULL));  /* 6x+11 */
        CHECK_OK(g, vksort_graph_compile(g));
        if (frame == 0)
            print_log(g);
        if (flags & VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS) {
            vksort_graph_transient_info i1, i2, i3, i4;
            CHECK_OK(g, vksort_graph_get_transient_info(g, t1, &i1));
            CHECK_OK(g, vksort_graph_get_transient_info(g, t2, &i2));
            CHECK_OK(g, vksort_graph_get_transient_info(g, t3, &i3));
            CHECK_OK(g, vksort_graph_get_transient_info(g, t4, &i4));
            /* t1 [0,1] and t3 [2,3] never live together: same memory; t2 [1,2] and t4 [3,4]. */
            CHECK(i1.memory_offset == i3.memory_offset);
            CHECK(i2.memory_offset == i4.memory_offset);
            CHECK(i1.memory_offset != i2.memory_offset);
            vksort_graph_stats st;
            vksort_graph_get_stats(g, &st);
            CHECK(st.transient_bytes * 2 <= st.transient_bytes_unaliased);
        }
        CHECK(run_graph(t, g) == 0);
        const uint32_t *dst = out.mapped;
        for (uint32_t i = 0; i < N; ++i)
            CHECK(dst[i] == 6 * (i + frame) + 11);
        if (frame == 1)
            warm_allocs = t->allocations;
    }
    /* Frames 2 and 3 rebuilt the same graph: no host allocation at all. */
    printf("host allocations: %zu after frame 1, %zu after frame 3\n", warm_allocs, t->allocations);
    CHECK(t->allocations == warm_allocs);
    vksort_graph_stats st;
    vksort_graph_get_stats(g, &st);
    CHECK(st.pass_count == 5 && st.culled_pass_count == 0 && st.transient_count == 4);
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

static int test_chain(test_ctx *t)
{
    return test_chain_impl(t, 0);
}

static int test_alias(test_ctx *t)
{
    return test_chain_impl(t, VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS);
}

/* ---- diamond: in -> (b = 2in, c = in + 5) -> d = b + c -> out ---- */

static int test_diamond(test_ctx *t)
{
    graph_rig_buffer in, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    for (uint32_t i = 0; i < N; ++i)
        ((uint32_t *)in.mapped)[i] = i * 3;
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    op_pass ops[4];
    vksort_graph_resource rin = import_buf(g, "in", &in, 0), rout = import_buf(g, "out", &out, 1);
    vksort_graph_resource b = transient(g, "b", N * 4), c = transient(g, "c", N * 4);
    vksort_graph_resource d = transient(g, "d", N * 4);
    vksort_graph_pass pb, pc, pd, pe;
    CHECK_OK(g, add_op(g, &ops[0], t, "left", rin, 0, b, N, 2, 0, 0, 1, &pb));
    CHECK_OK(g, add_op(g, &ops[1], t, "right", rin, 0, c, N, 1, 5, 0, 1, &pc));
    CHECK_OK(g, add_op(g, &ops[2], t, "join", b, c, d, N, 1, 0, 0, 1, &pd));
    CHECK_OK(g, add_op(g, &ops[3], t, "out", d, 0, rout, N, 1, 0, 0, 1, &pe));
    CHECK_OK(g, vksort_graph_compile(g));
    print_log(g);
    CHECK(vksort_graph_pass_position(g, pb) < vksort_graph_pass_position(g, pd));
    CHECK(vksort_graph_pass_position(g, pc) < vksort_graph_pass_position(g, pd));
    CHECK(vksort_graph_pass_position(g, pd) < vksort_graph_pass_position(g, pe));
    CHECK(run_graph(t, g) == 0);
    for (uint32_t i = 0; i < N; ++i)
        CHECK(((uint32_t *)out.mapped)[i] == 3 * (i * 3) + 5);
    /* The join waits for both branches in one barrier batch (two buffer barriers merged). */
    vksort_graph_stats st;
    vksort_graph_get_stats(g, &st);
    printf("barrier batches %u, buffer barriers %u\n", st.barrier_batches, st.buffer_barriers);
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

/* ---- culling and never-cull ---- */

static int test_cull_impl(test_ctx *t, int never_cull)
{
    graph_rig_buffer in, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    for (uint32_t i = 0; i < N; ++i)
        ((uint32_t *)in.mapped)[i] = i;
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    op_pass ops[5];
    vksort_graph_resource rin = import_buf(g, "in", &in, 0), rout = import_buf(g, "out", &out, 1);
    vksort_graph_resource dbg = transient(g, "debug_copy", N * 4);
    vksort_graph_resource dbg2 = transient(g, "debug_copy2", N * 4);
    vksort_graph_resource stats = transient(g, "stats", N * 4);
    vksort_graph_pass p_main, p_dbg, p_dbg2, p_stats;
    CHECK_OK(g, add_op(g, &ops[0], t, "main", rin, 0, rout, N, 5, 0, 0, 1, &p_main));
    /* debug -> debug2: nobody reads debug2, so both go (culling propagates). */
    CHECK_OK(g, add_op(g, &ops[1], t, "debug", rin, 0, dbg, N, 1, 0, 0, 1, &p_dbg));
    CHECK_OK(g, add_op(g, &ops[2], t, "debug2", dbg, 0, dbg2, N, 1, 0, 0, 1, &p_dbg2));
    /* stats: nobody reads it either, but it may be marked never-cull. */
    CHECK_OK(g, add_op(g, &ops[3], t, "stats", rin, 0, stats, N, 1, 0,
                       never_cull ? VKSORT_GRAPH_PASS_NEVER_CULL : 0, 1, &p_stats));
    CHECK_OK(g, vksort_graph_compile(g));
    print_log(g);
    VkBool32 culled;
    CHECK_OK(g, vksort_graph_pass_culled(g, p_main, &culled));
    CHECK(!culled);
    CHECK_OK(g, vksort_graph_pass_culled(g, p_dbg, &culled));
    CHECK(culled);
    CHECK_OK(g, vksort_graph_pass_culled(g, p_dbg2, &culled));
    CHECK(culled);
    CHECK_OK(g, vksort_graph_pass_culled(g, p_stats, &culled));
    CHECK(culled == (never_cull ? VK_FALSE : VK_TRUE));
    CHECK(run_graph(t, g) == 0);
    CHECK(ops[0].calls == 1 && ops[1].calls == 0 && ops[2].calls == 0);
    CHECK(ops[3].calls == (never_cull ? 1 : 0));
    for (uint32_t i = 0; i < N; ++i)
        CHECK(((uint32_t *)out.mapped)[i] == 5 * i);
    char dot[8192];
    vksort_graph_write_dot(g, dot, sizeof dot);
    CHECK(strstr(dot, "(culled)") != NULL);
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

static int test_cull(test_ctx *t)
{
    return test_cull_impl(t, 0);
}

static int test_never_cull(test_ctx *t)
{
    return test_cull_impl(t, 1);
}

/* ---- diagnostics ---- */

static int expect(vksort_graph *g, vksort_result got, vksort_result want, const char *what)
{
    printf("  %-34s -> %-45s | %s\n", what, vksort_graph_result_string(got),
           vksort_graph_last_message(g));
    if (got != want) {
        fprintf(stderr, "%s: expected '%s', got '%s'\n", what, vksort_graph_result_string(want),
                vksort_graph_result_string(got));
        return 1;
    }
    if (want != VKSORT_SUCCESS && g && !vksort_graph_last_message(g)[0]) {
        fprintf(stderr, "%s: no message\n", what);
        return 1;
    }
    return 0;
}

static vksort_result nop_record(const vksort_graph_record_context *ctx, void *user)
{
    (void)ctx;
    (void)user;
    return VKSORT_SUCCESS;
}

static vksort_graph_pass simple_pass(vksort_graph *g, const char *name, vksort_graph_pass_type type)
{
    vksort_graph_pass_info pi = {0};
    pi.name = name;
    pi.type = type;
    pi.record = nop_record;
    vksort_graph_pass p = 0;
    vksort_graph_add_pass(g, &pi, &p);
    return p;
}

static int test_diagnostics(test_ctx *t)
{
    graph_rig_buffer buf;
    CHECK(graph_rig_buffer_create(&t->rig, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &buf) == 0);
    graph_rig_image img;
    CHECK(graph_rig_image_create(&t->rig, VK_FORMAT_R8G8B8A8_UNORM, 4, 4,
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                 &img) == 0);
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    int fail = 0;
    vksort_graph_resource x, old;
    vksort_graph_pass a, b;

    /* NULL / missing arguments */
    fail |= expect(NULL, vksort_graph_create(NULL, NULL), VKSORT_ERROR_INVALID_ARGUMENT, "create(NULL)");
    fail |= expect(g, vksort_graph_import_buffer(g, NULL, &x), VKSORT_ERROR_INVALID_ARGUMENT,
                   "import_buffer(NULL)");

    /* unknown resource: never created, 0, and a handle from the previous build */
    vksort_graph_reset(g);
    old = import_buf(g, "old", &buf, 0);
    vksort_graph_reset(g);
    a = simple_pass(g, "a", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_buffer(g, a, 0, CS, SREAD), VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                   "use of resource 0");
    fail |= expect(g, vksort_graph_use_buffer(g, a, 0x12345, CS, SREAD),
                   VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE, "use of a made-up handle");
    fail |= expect(g, vksort_graph_use_buffer(g, a, old, CS, SREAD), VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                   "use of a handle from the last build");
    fail |= expect(g, vksort_graph_compile(g), VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE,
                   "compile after a bad declaration");

    /* unknown pass */
    vksort_graph_reset(g);
    x = import_buf(g, "x", &buf, 0);
    fail |= expect(g, vksort_graph_use_buffer(g, 77, x, CS, SREAD), VKSORT_ERROR_GRAPH_UNKNOWN_PASS,
                   "use by an unknown pass");

    /* read before write: a transient read first */
    vksort_graph_reset(g);
    x = transient(g, "never_written", 256);
    vksort_graph_resource out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "reader", VKSORT_GRAPH_PASS_COMPUTE);
    CHECK_OK(g, vksort_graph_use_buffer(g, a, x, CS, SREAD));
    CHECK_OK(g, vksort_graph_use_buffer(g, a, out, CS, SWRITE));
    fail |= expect(g, vksort_graph_compile(g), VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE,
                   "transient read before write");

    /* read before write: an imported image whose contents are undefined */
    vksort_graph_reset(g);
    vksort_graph_image_import ii = {0};
    ii.name = "undefined_image";
    ii.image = img.image;
    ii.format = VK_FORMAT_R8G8B8A8_UNORM;
    ii.extent = (VkExtent3D){4, 4, 1};
    CHECK_OK(g, vksort_graph_import_image(g, &ii, &x));
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "sampler", VKSORT_GRAPH_PASS_COMPUTE);
    CHECK_OK(g, vksort_graph_use_image(g, a, x, CS, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL));
    CHECK_OK(g, vksort_graph_use_buffer(g, a, out, CS, SWRITE));
    fail |= expect(g, vksort_graph_compile(g), VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE,
                   "undefined image read");

    /* cycle: b reads what a writes, and a is declared to run after b */
    vksort_graph_reset(g);
    x = transient(g, "x", 256);
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "producer", VKSORT_GRAPH_PASS_COMPUTE);
    b = simple_pass(g, "consumer", VKSORT_GRAPH_PASS_COMPUTE);
    CHECK_OK(g, vksort_graph_use_buffer(g, a, x, CS, SWRITE));
    CHECK_OK(g, vksort_graph_use_buffer(g, b, x, CS, SREAD));
    CHECK_OK(g, vksort_graph_use_buffer(g, b, out, CS, SWRITE));
    CHECK_OK(g, vksort_graph_add_dependency(g, b, a));
    fail |= expect(g, vksort_graph_compile(g), VKSORT_ERROR_GRAPH_CYCLE, "cycle");
    vksort_graph_reset(g);
    a = simple_pass(g, "selfish", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_add_dependency(g, a, a), VKSORT_ERROR_GRAPH_CYCLE, "self dependency");

    /* layout conflict, bad uses */
    vksort_graph_reset(g);
    ii.initial.layout = VK_IMAGE_LAYOUT_GENERAL;
    CHECK_OK(g, vksort_graph_import_image(g, &ii, &x));
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "confused", VKSORT_GRAPH_PASS_TRANSFER);
    CHECK_OK(g, vksort_graph_use_image(g, a, x, VK_PIPELINE_STAGE_2_COPY_BIT,
                                       VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
    fail |= expect(g, vksort_graph_use_image(g, a, x, VK_PIPELINE_STAGE_2_COPY_BIT,
                                             VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL),
                   VKSORT_ERROR_GRAPH_LAYOUT_CONFLICT, "two layouts in one pass");
    vksort_graph_reset(g);
    CHECK_OK(g, vksort_graph_import_image(g, &ii, &x));
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "sloppy", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_buffer(g, a, out, 0, SREAD), VKSORT_ERROR_GRAPH_BAD_USE,
                   "use without a stage");
    fail |= expect(g, vksort_graph_use_image(g, a, out, CS, SREAD, VK_IMAGE_LAYOUT_GENERAL),
                   VKSORT_ERROR_GRAPH_BAD_USE, "use_image on a buffer");
    fail |= expect(g, vksort_graph_use_buffer(g, a, x, CS, SREAD), VKSORT_ERROR_GRAPH_BAD_USE,
                   "use_buffer on an image");
    fail |= expect(g, vksort_graph_use_image(g, a, x, CS, SREAD, VK_IMAGE_LAYOUT_UNDEFINED),
                   VKSORT_ERROR_GRAPH_BAD_USE, "use in layout UNDEFINED");

    /* state: record before compile, declare after compile, external pass in one command buffer */
    vksort_graph_reset(g);
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "writer", VKSORT_GRAPH_PASS_COMPUTE);
    CHECK_OK(g, vksort_graph_use_buffer(g, a, out, CS, SWRITE));
    VkCommandBuffer cmd = graph_rig_begin(&t->rig);
    fail |= expect(g, vksort_graph_record(g, cmd), VKSORT_ERROR_GRAPH_NOT_COMPILED, "record before compile");
    CHECK_OK(g, vksort_graph_compile(g));
    vksort_graph_pass_info pi = {0};
    fail |= expect(g, vksort_graph_add_pass(g, &pi, &b), VKSORT_ERROR_GRAPH_INVALID_STATE,
                   "add_pass after compile");
    vksort_graph_reset(g);
    out = import_buf(g, "out", &buf, 0);
    a = simple_pass(g, "cuda", VKSORT_GRAPH_PASS_EXTERNAL);
    CHECK_OK(g, vksort_graph_use_buffer(g, a, out, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                        VK_ACCESS_2_MEMORY_WRITE_BIT));
    CHECK_OK(g, vksort_graph_compile(g));
    fail |= expect(g, vksort_graph_record(g, cmd), VKSORT_ERROR_GRAPH_INVALID_STATE,
                   "record() with an external pass");
    CHECK(graph_rig_submit_wait(&t->rig, cmd) == 0);

    /* attachments on a compute pass */
    vksort_graph_reset(g);
    pi.name = "not_graphics";
    pi.color_attachment_count = 1;
    fail |= expect(g, vksort_graph_add_pass(g, &pi, &b), VKSORT_ERROR_INVALID_ARGUMENT,
                   "attachments on a compute pass");

    /* Declared values reach Vulkan as they are: checked when declared. */
    vksort_graph_reset(g);
    x = import_buf(g, "x", &buf, 0);
    a = simple_pass(g, "a", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_buffer(g, a, x, CS, VK_ACCESS_2_TRANSFER_WRITE_BIT),
                   VKSORT_ERROR_GRAPH_BAD_USE, "an access its stage does not do");
    vksort_graph_reset(g);
    x = import_buf(g, "x", &buf, 0);
    a = simple_pass(g, "a", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_buffer(g, a, x, CS | (1ull << 62), SWRITE),
                   VKSORT_ERROR_GRAPH_BAD_USE, "an unknown stage bit");
    vksort_graph_reset(g);
    x = import_buf(g, "x", &buf, 0);
    a = simple_pass(g, "a", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_buffer(g, a, x, CS, SWRITE | (1ull << 62)),
                   VKSORT_ERROR_GRAPH_BAD_USE, "an unknown access bit");
    vksort_graph_reset(g);
    CHECK_OK(g, vksort_graph_import_image(g, &ii, &x));
    a = simple_pass(g, "a", VKSORT_GRAPH_PASS_COMPUTE);
    fail |= expect(g, vksort_graph_use_image(g, a, x, CS, SWRITE, (VkImageLayout)12345),
                   VKSORT_ERROR_GRAPH_BAD_USE, "an unknown layout");
    vksort_graph_reset(g);
    vksort_graph_image_desc id = {"mips", VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 20, 0, 0};
    fail |= expect(g, vksort_graph_create_image(g, &id, &x), VKSORT_ERROR_INVALID_ARGUMENT,
                   "20 mip levels on 4x4");
    vksort_graph_reset(g);
    id.mip_levels = 3;
    CHECK_OK(g, vksort_graph_create_image(g, &id, &x));
    vksort_graph_pass_info gp = {0};
    gp.name = "draw";
    gp.type = VKSORT_GRAPH_PASS_GRAPHICS;
    gp.record = nop_record;
    gp.depth_attachment.image = x;
    fail |= expect(g, vksort_graph_add_pass(g, &gp, &b), VKSORT_ERROR_GRAPH_BAD_USE,
                   "a colour image as depth attachment");
    vksort_graph_reset(g);
    CHECK_OK(g, vksort_graph_create_image(g, &id, &x));
    gp.depth_attachment.image = 0;
    gp.color_attachment_count = 1;
    gp.color_attachments[0].image = x;
    gp.color_attachments[0].load_op = (VkAttachmentLoadOp)77;
    fail |= expect(g, vksort_graph_add_pass(g, &gp, &b), VKSORT_ERROR_INVALID_ARGUMENT,
                   "an unknown load_op");
    vksort_graph_reset(g);
    gp.color_attachment_count = 0;
    fail |= expect(g, vksort_graph_add_pass(g, &gp, &b), VKSORT_ERROR_INVALID_ARGUMENT,
                   "graphics pass, no attachment, no area");

    /* sort node: count above max_count, keys too small */
    vksort_vk_sorter_create_info sci = {0};
    sci.instance = t->rig.instance;
    sci.physical_device = t->rig.physical_device;
    sci.device = t->rig.device;
    sci.get_instance_proc_addr = vkGetInstanceProcAddr;
    sci.max_count = 256;
    sci.algorithm = VKSORT_VK_ALGORITHM_BITONIC;
    vksort_vk_sorter *sorter;
    CHECK(vksort_vk_sorter_create(&sci, &sorter) == VKSORT_SUCCESS);
    vksort_graph_reset(g);
    x = transient(g, "keys", 64);
    vksort_graph_sort_info so = {0};
    so.sorter = sorter;
    so.keys = x;
    so.count = 1000;
    fail |= expect(g, vksort_graph_add_sort(g, &so, &a), VKSORT_ERROR_COUNT_TOO_LARGE,
                   "sort count above max_count");
    vksort_graph_reset(g);
    x = transient(g, "keys", 64);
    so.keys = x;
    so.count = 200;
    fail |= expect(g, vksort_graph_add_sort(g, &so, &a), VKSORT_ERROR_BUFFER_TOO_SMALL,
                   "sort keys too small");
    /* set_sort_count checks the buffers as add_sort does (the error came at record time, after
     * earlier passes were in the command buffer) */
    vksort_graph_reset(g);
    x = transient(g, "keys", 400);
    so.keys = x;
    so.count = 100;
    CHECK_OK(g, vksort_graph_add_sort(g, &so, &a));
    fail |= expect(g, vksort_graph_set_sort_count(g, a, 200), VKSORT_ERROR_BUFFER_TOO_SMALL,
                   "set_sort_count past the keys");
    CHECK_OK(g, vksort_graph_set_sort_count(g, a, 100));
    vksort_vk_sorter_destroy(sorter);
    /* a sorter that expects a persistent scratch: the graph's scratch is transient */
    sci.flags = VKSORT_VK_CREATE_PERSISTENT_SCRATCH;
    CHECK(vksort_vk_sorter_create(&sci, &sorter) == VKSORT_SUCCESS);
    vksort_graph_reset(g);
    x = transient(g, "keys", 1024);
    so.sorter = sorter;
    so.keys = x;
    so.count = 200;
    fail |= expect(g, vksort_graph_add_sort(g, &so, &a), VKSORT_ERROR_INVALID_ARGUMENT,
                   "sort with a persistent-scratch sorter");
    vksort_vk_sorter_destroy(sorter);

    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &buf);
    graph_rig_image_destroy(&t->rig, &img);
    return fail;
}

/* ---- hazard: remove one declared use; synchronization validation must catch it ---- */

static int hazard_run(test_ctx *t, int declare, int *out_messages, int *out_hazards)
{
    graph_rig_buffer in, mid, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &mid) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    op_pass ops[2];
    vksort_graph_resource rin = import_buf(g, "in", &in, 0), rmid = import_buf(g, "mid", &mid, 0);
    vksort_graph_resource rout = import_buf(g, "out", &out, 1);
    CHECK_OK(g, add_op(g, &ops[0], t, "produce", rin, 0, rmid, N, 2, 0, 0, 1, NULL));
    /* "consume" reads mid in its shader; with declare == 0 it does not say so. */
    CHECK_OK(g, add_op(g, &ops[1], t, "consume", rmid, 0, rout, N, 1, 1, 0, declare, NULL));
    ops[1].raw_src0 = mid.buffer;
    CHECK_OK(g, vksort_graph_compile(g));
    print_log(g);
    int before = t->rig.messages, hz = t->rig.hazards;
    t->rig.quiet_messages = !declare;
    CHECK(run_graph(t, g) == 0);
    t->rig.quiet_messages = 0;
    *out_messages = t->rig.messages - before;
    *out_hazards = t->rig.hazards - hz;
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &mid);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

static int test_hazard(test_ctx *t)
{
    int messages, hazards;
    CHECK(hazard_run(t, 1, &messages, &hazards) == 0);
    printf("with every use declared: %d validation messages\n", messages);
    CHECK(messages == 0);
    CHECK(hazard_run(t, 0, &messages, &hazards) == 0);
    printf("without 'consume' reading 'mid': %d validation messages, %d synchronization hazards\n",
           messages, hazards);
    CHECK(hazards > 0);
    /* Those were expected: do not fail the test for them. */
    t->rig.messages -= messages;
    return 0;
}

/* ---- sort node + graphics pass reading the sorted buffer as vertex input ---- */

typedef struct draw_pass {
    test_ctx *t;
    vksort_graph_resource values;
    uint32_t n;
} draw_pass;

static vksort_result record_draw(const vksort_graph_record_context *ctx, void *user)
{
    draw_pass *d = user;
    const vksort_graph_resolved_use *v = find_use(ctx, d->values);
    if (!v)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    vkCmdBindPipeline(ctx->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->t->points_pipeline);
    VkViewport vp = {0, 0, (float)d->n, 1, 0, 1};
    VkRect2D sc = {{0, 0}, {d->n, 1}};
    vkCmdSetViewport(ctx->cmd, 0, 1, &vp);
    vkCmdSetScissor(ctx->cmd, 0, 1, &sc);
    vkCmdPushConstants(ctx->cmd, d->t->points_layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &d->n);
    VkDeviceSize off = v->offset;
    vkCmdBindVertexBuffers(ctx->cmd, 0, 1, &v->buffer, &off);
    vkCmdDraw(ctx->cmd, d->n, 1, 0, 0);
    return VKSORT_SUCCESS;
}

typedef struct copy_pass {
    vksort_graph_resource src, dst;
    uint32_t width;
    int image_to_buffer;
    VkDeviceSize bytes;
} copy_pass;

static vksort_result record_copy(const vksort_graph_record_context *ctx, void *user)
{
    copy_pass *c = user;
    const vksort_graph_resolved_use *s = find_use(ctx, c->src), *d = find_use(ctx, c->dst);
    if (!s || !d)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (c->image_to_buffer) {
        VkBufferImageCopy r = {0};
        r.bufferOffset = d->offset;
        r.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        r.imageExtent = (VkExtent3D){c->width, 1, 1};
        vkCmdCopyImageToBuffer(ctx->cmd, s->image, s->layout, d->buffer, 1, &r);
    } else {
        VkBufferCopy r = {s->offset, d->offset, c->bytes};
        vkCmdCopyBuffer(ctx->cmd, s->buffer, d->buffer, 1, &r);
    }
    return VKSORT_SUCCESS;
}

static uint32_t key_of(uint32_t i, uint32_t frame)
{
    return ((i * 2654435761u) ^ (frame * 40503u)) % 5000u;  /* duplicates on purpose */
}

/* The demo frame: keys and indices computed on the GPU, sorted, drawn as points whose colour is
 * the sorted index (vertex input from the sorted buffer), read back. */
typedef struct demo_frame {
    op_pass ops[3];
    draw_pass draw;
    copy_pass copy_img, copy_keys;
    vksort_graph_pass sort;
} demo_frame;

static int build_demo(test_ctx *t, vksort_graph *g, demo_frame *f, vksort_vk_sorter *sorter,
                      graph_rig_buffer *seeds, graph_rig_buffer *iota, graph_rig_buffer *pixels,
                      graph_rig_buffer *keys_out, uint32_t n, uint32_t sort_count, int with_debug)
{
    vksort_graph_resource rseeds = import_buf(g, "seeds", seeds, 0);
    vksort_graph_resource riota = import_buf(g, "iota", iota, 0);
    vksort_graph_resource rpixels = import_buf(g, "pixels", pixels, 1);
    vksort_graph_resource rkeys_out = import_buf(g, "keys_readback", keys_out, 1);
    vksort_graph_resource keys = transient(g, "depth_keys", n * 4);
    vksort_graph_resource values = transient(g, "indices", n * 4);
    vksort_graph_image_desc idesc = {0};
    idesc.name = "target";
    idesc.format = VK_FORMAT_R32_UINT;
    idesc.extent = (VkExtent3D){n, 1, 1};
    vksort_graph_resource target;
    CHECK_OK(g, vksort_graph_create_image(g, &idesc, &target));
    CHECK_OK(g, add_op(g, &f->ops[0], t, "depth_keys", rseeds, 0, keys, n, 1, 0, 0, 1, NULL));
    CHECK_OK(g, add_op(g, &f->ops[1], t, "indices", riota, 0, values, n, 1, 0, 0, 1, NULL));
    vksort_graph_sort_info so = {0};
    so.name = "sort";
    so.sorter = sorter;
    so.keys = keys;
    so.values = values;
    so.count = sort_count;
    so.flags = VKSORT_FLAG_STABLE;
    CHECK_OK(g, vksort_graph_add_sort(g, &so, &f->sort));
    if (with_debug) { /* a debug view nobody reads: culled */
        vksort_graph_resource dbg = transient(g, "debug_keys", n * 4);
        CHECK_OK(g, add_op(g, &f->ops[2], t, "debug_view", keys, 0, dbg, n, 1, 0, 0, 1, NULL));
    }
    f->draw = (draw_pass){t, values, n};
    vksort_graph_pass_info pi = {0};
    pi.name = "draw_points";
    pi.type = VKSORT_GRAPH_PASS_GRAPHICS;
    pi.record = record_draw;
    pi.user_data = &f->draw;
    pi.color_attachment_count = 1;
    pi.color_attachments[0].image = target;
    pi.color_attachments[0].load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    pi.color_attachments[0].store_op = VK_ATTACHMENT_STORE_OP_STORE;
    vksort_graph_pass draw;
    CHECK_OK(g, vksort_graph_add_pass(g, &pi, &draw));
    CHECK_OK(g, vksort_graph_use_buffer(g, draw, values, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                                        VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT));
    f->copy_img = (copy_pass){target, rpixels, n, 1, 0};
    memset(&pi, 0, sizeof pi);
    pi.name = "readback_pixels";
    pi.type = VKSORT_GRAPH_PASS_TRANSFER;
    pi.record = record_copy;
    pi.user_data = &f->copy_img;
    vksort_graph_pass rb;
    CHECK_OK(g, vksort_graph_add_pass(g, &pi, &rb));
    CHECK_OK(g, vksort_graph_use_image(g, rb, target, VK_PIPELINE_STAGE_2_COPY_BIT,
                                       VK_ACCESS_2_TRANSFER_READ_BIT,
                                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
    CHECK_OK(g, vksort_graph_use_buffer(g, rb, rpixels, VK_PIPELINE_STAGE_2_COPY_BIT,
                                        VK_ACCESS_2_TRANSFER_WRITE_BIT));
    f->copy_keys = (copy_pass){keys, rkeys_out, 0, 0, (VkDeviceSize)n * 4};
    pi.name = "readback_keys";
    pi.user_data = &f->copy_keys;
    CHECK_OK(g, vksort_graph_add_pass(g, &pi, &rb));
    CHECK_OK(g, vksort_graph_use_buffer(g, rb, keys, VK_PIPELINE_STAGE_2_COPY_BIT,
                                        VK_ACCESS_2_TRANSFER_READ_BIT));
    CHECK_OK(g, vksort_graph_use_buffer(g, rb, rkeys_out, VK_PIPELINE_STAGE_2_COPY_BIT,
                                        VK_ACCESS_2_TRANSFER_WRITE_BIT));
    return 0;
}

static int check_demo(const graph_rig_buffer *pixels, const graph_rig_buffer *keys_out, uint32_t n,
                      uint32_t sort_count, uint32_t frame)
{
    const uint32_t *px = pixels->mapped, *k = keys_out->mapped;
    /* Expected: stable sort of (key_of(i), i) over the first sort_count, the rest untouched. */
    uint32_t *idx = malloc(n * sizeof *idx);
    CHECK(idx);
    for (uint32_t i = 0; i < n; ++i)
        idx[i] = i;
    for (uint32_t i = 1; i < sort_count; ++i) { /* insertion sort: stable, n is small */
        uint32_t v = idx[i], j = i;
        while (j > 0 && key_of(idx[j - 1], frame) > key_of(v, frame)) {
            idx[j] = idx[j - 1];
            --j;
        }
        idx[j] = v;
    }
    int bad = 0;
    for (uint32_t i = 0; i < n && !bad; ++i) {
        if (px[i] != idx[i] + 1 || k[i] != key_of(idx[i], frame)) {
            fprintf(stderr, "element %u: pixel %u key %u, expected index %u key %u\n", i, px[i],
                    k[i], idx[i], key_of(idx[i], frame));
            bad = 1;
        }
    }
    free(idx);
    return bad;
}

static int demo_buffers(test_ctx *t, uint32_t n, graph_rig_buffer b[4])
{
    VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    for (int i = 0; i < 4; ++i)
        CHECK(graph_rig_buffer_create(&t->rig, n * 4, su, &b[i]) == 0);
    return 0;
}

static void demo_seed(graph_rig_buffer b[4], uint32_t n, uint32_t frame)
{
    for (uint32_t i = 0; i < n; ++i) {
        ((uint32_t *)b[0].mapped)[i] = key_of(i, frame);
        ((uint32_t *)b[1].mapped)[i] = i;
    }
}

static vksort_vk_sorter *demo_sorter(test_ctx *t, uint32_t max_count)
{
    vksort_vk_sorter_create_info sci = {0};
    sci.instance = t->rig.instance;
    sci.physical_device = t->rig.physical_device;
    sci.device = t->rig.device;
    sci.get_instance_proc_addr = vkGetInstanceProcAddr;
    sci.has_payload = VK_TRUE;
    sci.max_count = max_count;
    sci.enabled_extension_count = t->rig.extension_count;
    sci.enabled_extensions = t->rig.extensions;
    vksort_vk_diagnostics diag = {0};
    sci.diagnostics = &diag;
    vksort_vk_sorter *s = NULL;
    vksort_result r = vksort_vk_sorter_create(&sci, &s);
    if (r != VKSORT_SUCCESS)
        fprintf(stderr, "sorter: %s (%s)\n", vksort_result_string(r), diag.message);
    return s;
}

/* What the demo-frame tests share: its four buffers, a sorter and a graph. */
typedef struct demo_env {
    graph_rig_buffer b[4];
    vksort_vk_sorter *sorter;
    vksort_graph *g;
} demo_env;

static int demo_env_open(test_ctx *t, uint32_t n, vksort_graph_create_flags graph_flags,
                         demo_env *e)
{
    memset(e, 0, sizeof *e);
    CHECK(demo_buffers(t, n, e->b) == 0);
    e->sorter = demo_sorter(t, n);
    CHECK(e->sorter);
    e->g = make_graph(t, graph_flags, 0);
    CHECK(e->g);
    return 0;
}

static void demo_env_close(test_ctx *t, demo_env *e)
{
    vksort_graph_destroy(e->g);
    vksort_vk_sorter_destroy(e->sorter);
    for (int i = 0; i < 4; ++i)
        graph_rig_buffer_destroy(&t->rig, &e->b[i]);
}

static int test_sort_draw(test_ctx *t)
{
    const uint32_t n = 3000;
    demo_env e;
    CHECK(demo_env_open(t, n, 0, &e) == 0);
    graph_rig_buffer *b = e.b;
    vksort_vk_sorter *sorter = e.sorter;
    vksort_graph *g = e.g;
    demo_frame f;
    for (uint32_t frame = 0; frame < 2; ++frame) {
        demo_seed(b, n, frame);
        vksort_graph_reset(g);
        CHECK(build_demo(t, g, &f, sorter, &b[0], &b[1], &b[2], &b[3], n, n, 0) == 0);
        CHECK_OK(g, vksort_graph_compile(g));
        if (frame == 0)
            print_log(g);
        CHECK(run_graph(t, g) == 0);
        CHECK(check_demo(&b[2], &b[3], n, n, frame) == 0);
    }
    demo_env_close(t, &e);
    return 0;
}

/* ---- re-record a compiled graph with another sort count ---- */

static int test_rebuild(test_ctx *t)
{
    const uint32_t n = 1024;
    demo_env e;
    CHECK(demo_env_open(t, n, 0, &e) == 0);
    graph_rig_buffer *b = e.b;
    vksort_vk_sorter *sorter = e.sorter;
    vksort_graph *g = e.g;
    demo_frame f;
    demo_seed(b, n, 0);
    CHECK(build_demo(t, g, &f, sorter, &b[0], &b[1], &b[2], &b[3], n, n, 0) == 0);
    CHECK_OK(g, vksort_graph_compile(g));
    const uint32_t counts[] = {n, n / 2, 7, n};
    for (uint32_t i = 0; i < 4; ++i) {
        CHECK_OK(g, vksort_graph_set_sort_count(g, f.sort, counts[i]));
        CHECK(run_graph(t, g) == 0);
        CHECK(check_demo(&b[2], &b[3], n, counts[i], 0) == 0);
        printf("re-recorded with sort count %u: ok\n", counts[i]);
    }
    CHECK(vksort_graph_set_sort_count(g, f.sort, n + 1) == VKSORT_ERROR_COUNT_TOO_LARGE);
    demo_env_close(t, &e);
    return 0;
}

/* ---- the demo frame: DOT + text (docs/graph-demo.dot) ---- */

static int test_demo(test_ctx *t)
{
    const uint32_t n = 512;
    demo_env e;
    CHECK(demo_env_open(t, n, VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS, &e) == 0);
    graph_rig_buffer *b = e.b;
    vksort_vk_sorter *sorter = e.sorter;
    vksort_graph *g = e.g;
    demo_frame f;
    demo_seed(b, n, 0);
    CHECK(build_demo(t, g, &f, sorter, &b[0], &b[1], &b[2], &b[3], n, n, 1) == 0);
    CHECK_OK(g, vksort_graph_compile(g));
    CHECK(run_graph(t, g) == 0);
    CHECK(check_demo(&b[2], &b[3], n, n, 0) == 0);
    size_t len = vksort_graph_write_dot(g, NULL, 0);
    char *dot = malloc(len + 1);
    CHECK(dot);
    CHECK(vksort_graph_write_dot(g, dot, len + 1) == len);
    CHECK(strstr(dot, "debug_view") && strstr(dot, "(culled)"));
    len = vksort_graph_write_text(g, NULL, 0);
    char *text = malloc(len + 1);
    CHECK(text);
    vksort_graph_write_text(g, text, len + 1);
    printf("%s", text);
    int rc = write_file(t->out_dir, "graph-demo.dot", dot) || write_file(t->out_dir, "graph-demo.txt", text);
    free(dot);
    free(text);
    demo_env_close(t, &e);
    return rc;
}

/* ---- image layouts: UNDEFINED -> TRANSFER_DST (clear) -> TRANSFER_SRC (copy) -> GENERAL ---- */

typedef struct clear_pass {
    vksort_graph_resource image;
    uint32_t value;
} clear_pass;

static vksort_result record_clear(const vksort_graph_record_context *ctx, void *user)
{
    clear_pass *c = user;
    const vksort_graph_resolved_use *u = find_use(ctx, c->image);
    if (!u)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    VkClearColorValue v = {.uint32 = {c->value, 0, 0, 0}};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(ctx->cmd, u->image, u->layout, &v, 1, &range);
    return VKSORT_SUCCESS;
}

static int test_layout(test_ctx *t)
{
    const uint32_t w = 64;
    graph_rig_image img;
    CHECK(graph_rig_image_create(&t->rig, VK_FORMAT_R32_UINT, w, 1,
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_STORAGE_BIT,
                                 &img) == 0);
    graph_rig_buffer out1, out2;
    CHECK(graph_rig_buffer_create(&t->rig, w * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out1) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, w * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out2) == 0);
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    for (uint32_t frame = 0; frame < 2; ++frame) {
        vksort_graph_reset(g);
        vksort_graph_image_import ii = {0};
        ii.name = "image";
        ii.image = img.image;
        ii.view = img.view;
        ii.format = VK_FORMAT_R32_UINT;
        ii.extent = (VkExtent3D){w, 1, 1};
        /* frame 0: fresh; frame 1: left in GENERAL by frame 0 (final state). */
        ii.initial.layout = frame ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_UNDEFINED;
        ii.final.layout = VK_IMAGE_LAYOUT_GENERAL;
        vksort_graph_resource rimg;
        CHECK_OK(g, vksort_graph_import_image(g, &ii, &rimg));
        vksort_graph_resource r1 = import_buf(g, "out1", &out1, 1), r2 = import_buf(g, "out2", &out2, 1);
        /* a transient image too: UNDEFINED -> TRANSFER_DST -> TRANSFER_SRC */
        vksort_graph_image_desc td = {"scratch_image", VK_FORMAT_R32_UINT, {w, 1, 1}, 0, 0, 0};
        vksort_graph_resource timg;
        CHECK_OK(g, vksort_graph_create_image(g, &td, &timg));
        clear_pass c1 = {rimg, 1234 + frame}, c2 = {timg, 99 + frame};
        copy_pass k1 = {rimg, r1, w, 1, 0}, k2 = {timg, r2, w, 1, 0};
        vksort_graph_pass_info pi = {0};
        pi.type = VKSORT_GRAPH_PASS_TRANSFER;
        vksort_graph_pass p;
        const VkPipelineStageFlags2 clr = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                    cpy = VK_PIPELINE_STAGE_2_COPY_BIT;
        pi.name = "clear_image";
        pi.record = record_clear;
        pi.user_data = &c1;
        CHECK_OK(g, vksort_graph_add_pass(g, &pi, &p));
        CHECK_OK(g, vksort_graph_use_image(g, p, rimg, clr, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));
        pi.name = "clear_scratch";
        pi.user_data = &c2;
        CHECK_OK(g, vksort_graph_add_pass(g, &pi, &p));
        CHECK_OK(g, vksort_graph_use_image(g, p, timg, clr, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL));
        pi.name = "copy_image";
        pi.record = record_copy;
        pi.user_data = &k1;
        CHECK_OK(g, vksort_graph_add_pass(g, &pi, &p));
        CHECK_OK(g, vksort_graph_use_image(g, p, rimg, cpy, VK_ACCESS_2_TRANSFER_READ_BIT,
                                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
        CHECK_OK(g, vksort_graph_use_buffer(g, p, r1, cpy, VK_ACCESS_2_TRANSFER_WRITE_BIT));
        pi.name = "copy_scratch";
        pi.user_data = &k2;
        CHECK_OK(g, vksort_graph_add_pass(g, &pi, &p));
        CHECK_OK(g, vksort_graph_use_image(g, p, timg, cpy, VK_ACCESS_2_TRANSFER_READ_BIT,
                                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
        CHECK_OK(g, vksort_graph_use_buffer(g, p, r2, cpy, VK_ACCESS_2_TRANSFER_WRITE_BIT));
        CHECK_OK(g, vksort_graph_compile(g));
        if (frame == 0)
            print_log(g);
        vksort_graph_stats st;
        vksort_graph_get_stats(g, &st);
        CHECK(st.image_barriers == 5); /* 2 x (-> DST, -> SRC) + final -> GENERAL */
        vksort_graph_state fs;
        CHECK_OK(g, vksort_graph_final_state(g, rimg, &fs));
        CHECK(fs.layout == VK_IMAGE_LAYOUT_GENERAL);
        CHECK(run_graph(t, g) == 0);
        for (uint32_t i = 0; i < w; ++i) {
            CHECK(((uint32_t *)out1.mapped)[i] == 1234 + frame);
            CHECK(((uint32_t *)out2.mapped)[i] == 99 + frame);
        }
    }
    vksort_graph_destroy(g);
    graph_rig_image_destroy(&t->rig, &img);
    graph_rig_buffer_destroy(&t->rig, &out1);
    graph_rig_buffer_destroy(&t->rig, &out2);
    return 0;
}

/* ---- timestamps: read back frames_in_flight frames later, never waiting ---- */

static int test_timestamps(test_ctx *t)
{
    graph_rig_buffer in, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    vksort_graph *g = make_graph(t, VKSORT_GRAPH_CREATE_TIMESTAMPS, 0);
    CHECK(g);
    op_pass ops[2];
    int read = 0;
    for (uint32_t frame = 0; frame < 5; ++frame) {
        vksort_graph_reset(g);
        vksort_graph_pass_timing tm[8];
        uint32_t count = 8;
        uint64_t which = 0;
        vksort_result r = vksort_graph_read_timings(g, tm, &count, &which);
        if (frame < 2) {
            CHECK(r == VKSORT_ERROR_GRAPH_NOT_READY);
        } else {
            CHECK_OK(g, r);
            CHECK(count == 2 && strcmp(tm[0].name, "scale") == 0 && strcmp(tm[1].name, "offset") == 0);
            CHECK(tm[0].ms >= 0 && tm[1].ms >= 0);
            printf("frame %u: timings of frame %llu: %s %.3f ms, %s %.3f ms\n", frame,
                   (unsigned long long)which, tm[0].name, tm[0].ms, tm[1].name, tm[1].ms);
            read++;
        }
        vksort_graph_resource rin = import_buf(g, "in", &in, 0), rout = import_buf(g, "out", &out, 1);
        vksort_graph_resource mid = transient(g, "mid", N * 4);
        CHECK_OK(g, add_op(g, &ops[0], t, "scale", rin, 0, mid, N, 3, 0, 0, 1, NULL));
        CHECK_OK(g, add_op(g, &ops[1], t, "offset", mid, 0, rout, N, 1, 4, 0, 1, NULL));
        CHECK_OK(g, vksort_graph_compile(g));
        CHECK(run_graph(t, g) == 0);
    }
    CHECK(read == 3);
    /* A compiled graph recorded again without a reset: each recording gets a timestamp slot of
     * its own (it used to reset the one an earlier recording of the build might still be
     * writing, and read back stale or no timings). After frames_in_flight more recordings the
     * first of this build reads back, with the build's frame number. */
    vksort_graph_reset(g);
    {
        vksort_graph_resource rin = import_buf(g, "in", &in, 0), rout = import_buf(g, "out", &out, 1);
        vksort_graph_resource mid = transient(g, "mid", N * 4);
        CHECK_OK(g, add_op(g, &ops[0], t, "scale", rin, 0, mid, N, 3, 0, 0, 1, NULL));
        CHECK_OK(g, add_op(g, &ops[1], t, "offset", mid, 0, rout, N, 1, 4, 0, 1, NULL));
        CHECK_OK(g, vksort_graph_compile(g));
    }
    uint64_t build_frame = 0;
    for (int again = 0; again < 3; ++again)
        CHECK(run_graph(t, g) == 0);
    vksort_graph_pass_timing tm[8];
    uint32_t count = 8;
    CHECK_OK(g, vksort_graph_read_timings(g, tm, &count, &build_frame));
    CHECK(count == 2 && build_frame == 6);
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

/* ---- caller memory bound again after a change of shape ---- */

/* Frame 1's transient A (in the caller's memory) ends with a transfer read; frame 2 has another
 * shape, so its transient B is a new object, bound to the same memory; both frames in one
 * command buffer. B's first write must wait for A's read: the transients' history of that
 * memory survives the rebuild (it was reset with the objects: a write-after-read hazard). */
static int test_rebind(test_ctx *t)
{
    graph_rig_buffer src, out;
    CHECK(graph_rig_buffer_create(&t->rig, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &src) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out) == 0);
    vksort_graph *g = make_graph(t, 0, 0);
    CHECK(g);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    VkCommandBuffer cmd = graph_rig_begin(&t->rig);
    op_pass op[2];
    copy_pass cp;
    const int before = t->rig.messages;
    for (int frame = 0; frame < 2; ++frame) {
        vksort_graph_reset(g);
        vksort_graph_resource rs = import_buf(g, "src", &src, 0);
        vksort_graph_buffer_import oi = {0};
        oi.name = "out";
        oi.buffer = out.buffer;
        if (frame) { /* frame 1 copied into it */
            oi.initial.stage = VK_PIPELINE_STAGE_2_COPY_BIT;
            oi.initial.access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        }
        vksort_graph_resource ro;
        CHECK_OK(g, vksort_graph_import_buffer(g, &oi, &ro));
        vksort_graph_resource tr = transient(g, frame ? "B" : "A", frame ? 2048 : 1024);
        CHECK_OK(g, add_op(g, &op[0], t, frame ? "write_B" : "write_A", rs, 0, tr, 256, 1, 0, 0, 1,
                           NULL));
        if (frame == 0) {
            cp = (copy_pass){tr, ro, 0, 0, 1024};
            vksort_graph_pass_info pi = {0};
            pi.name = "copy_A";
            pi.type = VKSORT_GRAPH_PASS_TRANSFER;
            pi.record = record_copy;
            pi.user_data = &cp;
            vksort_graph_pass p;
            CHECK_OK(g, vksort_graph_add_pass(g, &pi, &p));
            CHECK_OK(g, vksort_graph_use_buffer(g, p, tr, VK_PIPELINE_STAGE_2_COPY_BIT,
                                                VK_ACCESS_2_TRANSFER_READ_BIT));
            CHECK_OK(g, vksort_graph_use_buffer(g, p, ro, VK_PIPELINE_STAGE_2_COPY_BIT,
                                                VK_ACCESS_2_TRANSFER_WRITE_BIT));
        } else {
            CHECK_OK(g, add_op(g, &op[1], t, "consume_B", tr, 0, ro, 256, 1, 0, 0, 1, NULL));
        }
        CHECK_OK(g, vksort_graph_compile(g));
        VkMemoryRequirements req;
        CHECK_OK(g, vksort_graph_transient_memory_requirements(g, &req));
        if (!mem) {
            VkPhysicalDeviceMemoryProperties mp;
            vkGetPhysicalDeviceMemoryProperties(t->rig.physical_device, &mp);
            VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
            mai.allocationSize = 1u << 16;
            for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
                if (req.memoryTypeBits & (1u << i)) {
                    mai.memoryTypeIndex = i;
                    break;
                }
            CHECK(vkAllocateMemory(t->rig.device, &mai, NULL, &mem) == VK_SUCCESS);
        }
        CHECK_OK(g, vksort_graph_bind_transient_memory(g, mem, 0));
        CHECK_OK(g, vksort_graph_record(g, cmd));
    }
    CHECK(graph_rig_submit_wait(&t->rig, cmd) == 0);
    printf("two shapes in one caller memory, one command buffer: %d validation messages\n",
           t->rig.messages - before);
    CHECK(t->rig.messages == before);
    vksort_graph_destroy(g);
    vkFreeMemory(t->rig.device, mem, NULL);
    graph_rig_buffer_destroy(&t->rig, &src);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

/* ---- external pass: two segments around host work ---- */

typedef struct host_work {
    graph_rig_buffer *buf;
    int calls;
} host_work;

static vksort_result record_host(const vksort_graph_record_context *ctx, void *user)
{
    host_work *h = user;
    h->calls += ctx->cmd == VK_NULL_HANDLE;
    return VKSORT_SUCCESS;
}

static int test_external(test_ctx *t)
{
    graph_rig_buffer in, mid, out;
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &in) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &mid) == 0);
    CHECK(graph_rig_buffer_create(&t->rig, N * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &out) == 0);
    for (uint32_t i = 0; i < N; ++i)
        ((uint32_t *)in.mapped)[i] = i;
    vksort_graph *g = make_graph(t, VKSORT_GRAPH_CREATE_TIMESTAMPS, 0);
    CHECK(g);
    op_pass ops[2];
    host_work hw = {&mid, 0};
    vksort_graph_resource rin = import_buf(g, "in", &in, 0), rmid = import_buf(g, "mid", &mid, 0);
    vksort_graph_resource rout = import_buf(g, "out", &out, 1);
    CHECK_OK(g, add_op(g, &ops[0], t, "gpu_before", rin, 0, rmid, N, 2, 0, 0, 1, NULL));
    vksort_graph_pass_info pi = {0};
    pi.name = "host_adds_one";
    pi.type = VKSORT_GRAPH_PASS_EXTERNAL;
    pi.record = record_host;
    pi.user_data = &hw;
    vksort_graph_pass ext;
    CHECK_OK(g, vksort_graph_add_pass(g, &pi, &ext));
    CHECK_OK(g, vksort_graph_use_buffer(g, ext, rmid, VK_PIPELINE_STAGE_2_HOST_BIT,
                                        VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT));
    CHECK_OK(g, add_op(g, &ops[1], t, "gpu_after", rmid, 0, rout, N, 10, 0, 0, 1, NULL));
    CHECK_OK(g, vksort_graph_compile(g));
    print_log(g);
    CHECK(vksort_graph_segment_count(g) == 2);
    vksort_graph_segment_info si;
    CHECK_OK(g, vksort_graph_get_segment_info(g, 0, &si));
    CHECK(si.external_pass == ext && si.pass_count == 1);
    /* With timestamps, segment 0 prepares the frame's queries: segment 1 first is refused (it
     * wrote into a query pool not created yet, and crashed). */
    VkCommandBuffer early = graph_rig_begin(&t->rig);
    CHECK(vksort_graph_record_segment(g, 1, early) == VKSORT_ERROR_GRAPH_INVALID_STATE);
    CHECK(strstr(vksort_graph_last_message(g), "segment 0") != NULL);
    CHECK(graph_rig_submit_wait(&t->rig, early) == 0);
    /* Segment 0, then the external work (the host here; CUDA later) once the GPU is done with it,
     * then segment 1. A fence wait stands in for the semaphores. */
    VkCommandBuffer cmd = graph_rig_begin(&t->rig);
    CHECK_OK(g, vksort_graph_record_segment(g, 0, cmd));
    CHECK(graph_rig_submit_wait(&t->rig, cmd) == 0);
    CHECK(hw.calls == 1);
    for (uint32_t i = 0; i < N; ++i)
        ((uint32_t *)mid.mapped)[i] += 1;
    cmd = graph_rig_begin(&t->rig);
    CHECK_OK(g, vksort_graph_record_segment(g, 1, cmd));
    CHECK(graph_rig_submit_wait(&t->rig, cmd) == 0);
    for (uint32_t i = 0; i < N; ++i)
        CHECK(((uint32_t *)out.mapped)[i] == 10 * (2 * i + 1));
    vksort_graph_destroy(g);
    graph_rig_buffer_destroy(&t->rig, &in);
    graph_rig_buffer_destroy(&t->rig, &mid);
    graph_rig_buffer_destroy(&t->rig, &out);
    return 0;
}

/* ---- main ---- */

typedef struct named_test {
    const char *name;
    int (*fn)(test_ctx *);
} named_test;

int main(int argc, char **argv)
{
    static const named_test tests[] = {
        {"chain", test_chain},         {"diamond", test_diamond},
        {"cull", test_cull},           {"never_cull", test_never_cull},
        {"diagnostics", test_diagnostics}, {"hazard", test_hazard},
        {"sort_draw", test_sort_draw}, {"layout", test_layout},
        {"alias", test_alias},         {"timestamps", test_timestamps},
        {"external", test_external},   {"rebuild", test_rebuild},
        {"rebind", test_rebind},
        {"demo", test_demo},
    };
    if (argc < 3) {
        fprintf(stderr, "usage: %s <shader dir> <test|all> [output dir]\n", argv[0]);
        return 2;
    }
    test_ctx t;
    memset(&t, 0, sizeof t);
    t.shader_dir = argv[1];
    t.out_dir = argc > 3 ? argv[3] : NULL;
    if (graph_rig_create(&t.rig) != 0)
        return 1;
    int fail = make_op_pipeline(&t) || make_points_pipeline(&t);
    int ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0] && !fail; ++i) {
        if (strcmp(argv[2], "all") && strcmp(argv[2], tests[i].name))
            continue;
        ran++;
        printf("== %s\n", tests[i].name);
        int before = t.rig.messages;
        int r = tests[i].fn(&t);
        if (t.rig.messages != before) {
            fprintf(stderr, "%s: %d validation message(s)\n", tests[i].name, t.rig.messages - before);
            r = 1;
        }
        printf("%s: %s\n", tests[i].name, r ? "FAIL" : "ok");
        fail |= r;
    }
    if (!ran) {
        fprintf(stderr, "unknown test '%s'\n", argv[2]);
        fail = 1;
    }
    VkDevice dev = t.rig.device;
    if (dev) {
        vkDeviceWaitIdle(dev);
        vkDestroyPipeline(dev, t.op_pipeline, NULL);
        vkDestroyPipelineLayout(dev, t.op_layout, NULL);
        vkDestroyDescriptorSetLayout(dev, t.op_dsl, NULL);
        vkDestroyPipeline(dev, t.points_pipeline, NULL);
        vkDestroyPipelineLayout(dev, t.points_layout, NULL);
    }
    graph_rig_destroy(&t.rig);
    if (t.rig.messages)
        fail = 1;
    printf("%s (validation messages: %d)\n", fail ? "FAIL" : "ok", t.rig.messages);
    return fail;
}
