/*
 * The complete example of docs/graph.md, built and run as a test so that it stays true: upload
 * keys and payload, sort them with the sort node, read the result back, all in one graph.
 */
#include "support/graph_rig.h"
#include "vksort/graph.h"

#include <stdio.h>
#include <string.h>

/* ---- example (docs/graph.md) ---- */
typedef struct upload {
    vksort_graph_resource keys, values;
    const uint32_t *key_data, *value_data;
    uint32_t count;
} upload;

/* A transfer pass: writes the keys and values with vkCmdUpdateBuffer. */
static vksort_result record_upload(const vksort_graph_record_context *ctx, void *user)
{
    const upload *u = user;
    for (uint32_t i = 0; i < ctx->use_count; ++i) { /* handles resolved by the graph */
        const vksort_graph_resolved_use *use = &ctx->uses[i];
        const uint32_t *src = use->resource == u->keys ? u->key_data : u->value_data;
        vkCmdUpdateBuffer(ctx->cmd, use->buffer, use->offset, u->count * 4u, src);
    }
    return VKSORT_SUCCESS;
}

typedef struct readback {
    vksort_graph_resource from, to;
    VkDeviceSize bytes;
} readback;

static vksort_result record_readback(const vksort_graph_record_context *ctx, void *user)
{
    const readback *r = user;
    VkBuffer src = VK_NULL_HANDLE, dst = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < ctx->use_count; ++i) {
        if (ctx->uses[i].resource == r->from)
            src = ctx->uses[i].buffer;
        if (ctx->uses[i].resource == r->to)
            dst = ctx->uses[i].buffer;
    }
    VkBufferCopy region = {0, 0, r->bytes};
    vkCmdCopyBuffer(ctx->cmd, src, dst, 1, &region);
    return VKSORT_SUCCESS;
}

/* Every frame: declare, compile, record. `host_out` is a host-visible buffer the CPU reads. */
static vksort_result record_frame(vksort_graph *graph, vksort_vk_sorter *sorter,
                                  VkCommandBuffer cmd, VkBuffer host_out, upload *up,
                                  readback *rb, const uint32_t *keys, const uint32_t *values,
                                  uint32_t count)
{
    vksort_graph_reset(graph); /* forget last frame's declarations, keep the memory */

    /* Resources: two transients the graph creates, one imported buffer. */
    vksort_graph_buffer_desc kd = {"keys", count * 4u, 0};   /* usage bits are inferred */
    vksort_graph_buffer_desc vd = {"values", count * 4u, 0};
    vksort_graph_resource k, v, out;
    vksort_graph_create_buffer(graph, &kd, &k);
    vksort_graph_create_buffer(graph, &vd, &v);
    vksort_graph_buffer_import oi = {0};
    oi.name = "readback";
    oi.buffer = host_out;
    oi.final.stage = VK_PIPELINE_STAGE_2_HOST_BIT;   /* the CPU reads it after the fence */
    oi.final.access = VK_ACCESS_2_HOST_READ_BIT;
    vksort_graph_import_buffer(graph, &oi, &out);

    /* Pass 1: upload. Every access the callback makes is declared. */
    *up = (upload){k, v, keys, values, count};
    vksort_graph_pass_info pi = {0};
    pi.name = "upload";
    pi.type = VKSORT_GRAPH_PASS_TRANSFER;
    pi.record = record_upload;
    pi.user_data = up;
    vksort_graph_pass p;
    vksort_graph_add_pass(graph, &pi, &p);
    vksort_graph_use_buffer(graph, p, k, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vksort_graph_use_buffer(graph, p, v, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);

    /* Pass 2: the sort node (scratch is a transient, uses come from the sorter's scopes). */
    vksort_graph_sort_info si = {0};
    si.sorter = sorter;
    si.keys = k;
    si.values = v;
    si.count = count;
    si.flags = VKSORT_FLAG_STABLE;
    vksort_graph_add_sort(graph, &si, &p);

    /* Pass 3: copy the sorted values to the host-visible buffer. */
    *rb = (readback){v, out, count * 4u};
    memset(&pi, 0, sizeof pi);
    pi.name = "readback";
    pi.type = VKSORT_GRAPH_PASS_TRANSFER;
    pi.record = record_readback;
    pi.user_data = rb;
    vksort_graph_add_pass(graph, &pi, &p);
    vksort_graph_use_buffer(graph, p, v, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vksort_graph_use_buffer(graph, p, out, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);

    /* Declaration errors are remembered: compile reports the first one. */
    vksort_result r = vksort_graph_compile(graph);
    if (r == VKSORT_SUCCESS)
        r = vksort_graph_record(graph, cmd);  /* barriers, labels, passes */
    if (r != VKSORT_SUCCESS)
        fprintf(stderr, "graph: %s: %s\n", vksort_graph_result_string(r),
                vksort_graph_last_message(graph));
    return r;
}
/* ---- end of example ---- */

int main(void)
{
    graph_rig rig;
    if (graph_rig_create(&rig) != 0)
        return 1;
    enum { COUNT = 2000 };
    static uint32_t keys[COUNT], values[COUNT];
    vksort_vk_sorter_create_info sci = {0};
    sci.instance = rig.instance;
    sci.physical_device = rig.physical_device;
    sci.device = rig.device;
    sci.get_instance_proc_addr = vkGetInstanceProcAddr;
    sci.has_payload = VK_TRUE;
    sci.max_count = COUNT;
    vksort_vk_sorter *sorter = NULL;
    vksort_graph_create_info gci = {0};
    gci.instance = rig.instance;
    gci.physical_device = rig.physical_device;
    gci.device = rig.device;
    gci.get_instance_proc_addr = vkGetInstanceProcAddr;
    gci.flags = VKSORT_GRAPH_CREATE_DEBUG_LABELS;
    vksort_graph *graph = NULL;
    graph_rig_buffer out;
    int fail = vksort_vk_sorter_create(&sci, &sorter) != VKSORT_SUCCESS ||
               vksort_graph_create(&gci, &graph) != VKSORT_SUCCESS ||
               graph_rig_buffer_create(&rig, COUNT * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out) != 0;
    for (uint32_t frame = 0; frame < 3 && !fail; ++frame) {
        for (uint32_t i = 0; i < COUNT; ++i) {
            keys[i] = (i * 7919u + frame * 13u) % 1000u;
            values[i] = i;
        }
        upload up;
        readback rb;
        VkCommandBuffer cmd = graph_rig_begin(&rig);
        fail = record_frame(graph, sorter, cmd, out.buffer, &up, &rb, keys, values, COUNT) != VKSORT_SUCCESS;
        fail = graph_rig_submit_wait(&rig, cmd) != 0 || fail;
        const uint32_t *sorted = out.mapped;
        for (uint32_t i = 1; i < COUNT && !fail; ++i) {
            uint32_t a = keys[sorted[i - 1]], b = keys[sorted[i]];
            if (a > b || (a == b && sorted[i - 1] > sorted[i]))
                fail = 1; /* keys ascending, equal keys in input order */
        }
    }
    if (graph) {
        char text[4096];
        vksort_graph_write_text(graph, text, sizeof text);
        printf("%s", text);
    }
    vksort_graph_destroy(graph);
    vksort_vk_sorter_destroy(sorter);
    graph_rig_buffer_destroy(&rig, &out);
    graph_rig_destroy(&rig);
    fail |= rig.messages != 0;
    printf("%s (validation messages: %d)\n", fail ? "FAIL" : "ok", rig.messages);
    return fail;
}
