/* Render graph: text log and Graphviz DOT of a compiled graph. */
#include "graph_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct g_writer {
    char *buf;
    size_t cap, len;
} g_writer;

static void w_printf(g_writer *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = w->len < w->cap ? w->buf + w->len : NULL;
    size_t room = w->len < w->cap ? w->cap - w->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        w->len += (size_t)n;
}

static size_t w_finish(g_writer *w)
{
    if (w->cap)
        w->buf[w->len < w->cap ? w->len : w->cap - 1] = 0;
    return w->len;
}

typedef struct g_bit_name {
    uint64_t bit;
    const char *name;
} g_bit_name;

static const g_bit_name stage_names[] = {
    {VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, "TOP"},
    {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, "DRAW_INDIRECT"},
    {VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, "VERTEX_INPUT"},
    {VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, "VERTEX_SHADER"},
    {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, "FRAGMENT_SHADER"},
    {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT, "EARLY_FRAGMENT_TESTS"},
    {VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, "LATE_FRAGMENT_TESTS"},
    {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, "COLOR_ATTACHMENT_OUTPUT"},
    {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, "COMPUTE"},
    {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, "TRANSFER"},
    {VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, "BOTTOM"},
    {VK_PIPELINE_STAGE_2_HOST_BIT, "HOST"},
    {VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT, "ALL_GRAPHICS"},
    {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, "ALL_COMMANDS"},
    {VK_PIPELINE_STAGE_2_COPY_BIT, "COPY"},
    {VK_PIPELINE_STAGE_2_RESOLVE_BIT, "RESOLVE"},
    {VK_PIPELINE_STAGE_2_BLIT_BIT, "BLIT"},
    {VK_PIPELINE_STAGE_2_CLEAR_BIT, "CLEAR"},
    {VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, "INDEX_INPUT"},
    {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, "VERTEX_ATTRIBUTE_INPUT"},
};

static const g_bit_name access_names[] = {
    {VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, "INDIRECT_READ"},
    {VK_ACCESS_2_INDEX_READ_BIT, "INDEX_READ"},
    {VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, "VERTEX_ATTRIBUTE_READ"},
    {VK_ACCESS_2_UNIFORM_READ_BIT, "UNIFORM_READ"},
    {VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT, "INPUT_ATTACHMENT_READ"},
    {VK_ACCESS_2_SHADER_READ_BIT, "SHADER_READ"},
    {VK_ACCESS_2_SHADER_WRITE_BIT, "SHADER_WRITE"},
    {VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT, "COLOR_READ"},
    {VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, "COLOR_WRITE"},
    {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, "DEPTH_READ"},
    {VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, "DEPTH_WRITE"},
    {VK_ACCESS_2_TRANSFER_READ_BIT, "TRANSFER_READ"},
    {VK_ACCESS_2_TRANSFER_WRITE_BIT, "TRANSFER_WRITE"},
    {VK_ACCESS_2_HOST_READ_BIT, "HOST_READ"},
    {VK_ACCESS_2_HOST_WRITE_BIT, "HOST_WRITE"},
    {VK_ACCESS_2_MEMORY_READ_BIT, "MEMORY_READ"},
    {VK_ACCESS_2_MEMORY_WRITE_BIT, "MEMORY_WRITE"},
    {VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, "SAMPLED_READ"},
    {VK_ACCESS_2_SHADER_STORAGE_READ_BIT, "STORAGE_READ"},
    {VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, "STORAGE_WRITE"},
};

static void bits_to_names(uint64_t bits, const g_bit_name *table, size_t n, char *out, size_t cap,
                          const char *none)
{
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && bits; ++i) {
        if (!(bits & table[i].bit))
            continue;
        int k = snprintf(out + len, cap > len ? cap - len : 0, "%s%s", len ? "|" : "",
                         table[i].name);
        if (k > 0)
            len += (size_t)k;
        bits &= ~table[i].bit;
    }
    if (bits)
        snprintf(out + (len < cap ? len : cap - 1), cap > len ? cap - len : 0, "%s0x%llx",
                 len ? "|" : "", (unsigned long long)bits);
    else if (!len)
        snprintf(out, cap, "%s", none);
}

void g_stage_names(VkPipelineStageFlags2 stage, char *out, size_t cap)
{
    bits_to_names(stage, stage_names, sizeof stage_names / sizeof stage_names[0], out, cap, "NONE");
}

void g_access_names(VkAccessFlags2 access, char *out, size_t cap)
{
    bits_to_names(access, access_names, sizeof access_names / sizeof access_names[0], out, cap, "0");
}

const char *g_layout_name(VkImageLayout layout)
{
    switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
    case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL: return "DEPTH_STENCIL_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL: return "DEPTH_STENCIL_READ_ONLY";
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY";
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC";
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST";
    case VK_IMAGE_LAYOUT_PREINITIALIZED: return "PREINITIALIZED";
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL: return "READ_ONLY";
    case VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL: return "ATTACHMENT";
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC";
    default: return "layout?";
    }
}

const char *g_pass_type_name(vksort_graph_pass_type type)
{
    switch (type) {
    case VKSORT_GRAPH_PASS_COMPUTE: return "compute";
    case VKSORT_GRAPH_PASS_GRAPHICS: return "graphics";
    case VKSORT_GRAPH_PASS_TRANSFER: return "transfer";
    case VKSORT_GRAPH_PASS_EXTERNAL: return "external";
    }
    return "?";
}

static const char *resource_name_of_buffer(const vksort_graph *g, const VkBufferMemoryBarrier2 *b)
{
    for (uint32_t i = 0; i < g->resource_count; ++i)
        if (!g->resources[i].is_image && g->resources[i].buffer == b->buffer &&
            g->resources[i].offset == b->offset)
            return g_str(g, g->resources[i].name);
    return "?";
}

static const char *resource_name_of_image(const vksort_graph *g, const VkImageMemoryBarrier2 *b)
{
    for (uint32_t i = 0; i < g->resource_count; ++i)
        if (g->resources[i].is_image && g->resources[i].image == b->image)
            return g_str(g, g->resources[i].name);
    return "?";
}

static void write_batch(const vksort_graph *g, g_writer *w, const g_batch *b)
{
    char s1[160], a1[160], s2[160], a2[160];
    for (uint32_t i = 0; i < b->buffer_count; ++i) {
        const VkBufferMemoryBarrier2 *x = &g->buffer_barriers[b->first_buffer + i];
        g_stage_names(x->srcStageMask, s1, sizeof s1);
        g_access_names(x->srcAccessMask, a1, sizeof a1);
        g_stage_names(x->dstStageMask, s2, sizeof s2);
        g_access_names(x->dstAccessMask, a2, sizeof a2);
        w_printf(w, "    barrier buffer '%s': %s/%s -> %s/%s\n", resource_name_of_buffer(g, x), s1,
                 a1, s2, a2);
    }
    for (uint32_t i = 0; i < b->image_count; ++i) {
        const VkImageMemoryBarrier2 *x = &g->image_barriers[b->first_image + i];
        g_stage_names(x->srcStageMask, s1, sizeof s1);
        g_access_names(x->srcAccessMask, a1, sizeof a1);
        g_stage_names(x->dstStageMask, s2, sizeof s2);
        g_access_names(x->dstAccessMask, a2, sizeof a2);
        w_printf(w, "    barrier image '%s': %s/%s -> %s/%s, %s -> %s\n",
                 resource_name_of_image(g, x), s1, a1, s2, a2, g_layout_name(x->oldLayout),
                 g_layout_name(x->newLayout));
    }
}

static void write_uses(const vksort_graph *g, g_writer *w, const g_pass *ps)
{
    char s[160], a[160];
    for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
        const g_use *use = &g->uses[u];
        const g_resource *r = &g->resources[use->resource];
        g_stage_names(use->stage, s, sizeof s);
        g_access_names(use->access, a, sizeof a);
        w_printf(w, "    %-5s '%s' %s/%s%s%s\n",
                 g_is_write(use->access) ? (g_is_read(use->access) ? "rw" : "write") : "read",
                 g_str(g, r->name), s, a, r->is_image ? " " : "",
                 r->is_image ? g_layout_name(use->layout) : "");
    }
}

size_t vksort_graph_write_text(const vksort_graph *g, char *buffer, size_t capacity)
{
    g_writer w = {buffer, buffer ? capacity : 0, 0};
    if (!g) {
        w_printf(&w, "(no graph)\n");
        return w_finish(&w);
    }
    if (!g->compiled) {
        w_printf(&w, "graph (not compiled): %u passes, %u resources\n", g->pass_count,
                 g->resource_count);
        return w_finish(&w);
    }
    vksort_graph_stats st;
    vksort_graph_get_stats(g, &st);
    w_printf(&w, "graph frame %llu: %u passes (%u culled), %u resources (%u transient), %u segment(s)\n",
             (unsigned long long)g->frame, st.pass_count, st.culled_pass_count, st.resource_count,
             st.transient_count, g->segment_count);
    for (uint32_t s = 0; s < g->segment_count; ++s) {
        const g_segment *seg = &g->segments[s];
        w_printf(&w, "segment %u\n", s);
        for (uint32_t pos = seg->first; pos < seg->first + seg->count; ++pos) {
            const g_pass *ps = &g->passes[g->order[pos]];
            write_batch(g, &w, &g->batches[pos]);
            w_printf(&w, "  [%u] %s '%s'%s\n", pos, g_pass_type_name(ps->type), g_str(g, ps->name),
                     (ps->flags & VKSORT_GRAPH_PASS_NEVER_CULL) ? " (never cull)" : "");
            write_uses(g, &w, ps);
        }
        if (seg->external != G_NONE) {
            const g_pass *ps = &g->passes[seg->external];
            write_batch(g, &w, &g->batches[ps->position]);
            w_printf(&w, "  [%u] external '%s' (submit, semaphores)\n", ps->position,
                     g_str(g, ps->name));
            write_uses(g, &w, ps);
        }
    }
    w_printf(&w, "final\n");
    write_batch(g, &w, &g->batches[g->order_count]);
    for (uint32_t p = 0; p < g->pass_count; ++p)
        if (!g->passes[p].live)
            w_printf(&w, "culled %s '%s' (nobody reads what it writes)\n",
                     g_pass_type_name(g->passes[p].type), g_str(g, g->passes[p].name));
    w_printf(&w, "barriers: %u batches, %u buffer, %u image\n", st.barrier_batches,
             st.buffer_barriers, st.image_barriers);
    w_printf(&w, "transient memory: %llu bytes (%llu without aliasing)%s\n",
             (unsigned long long)st.transient_bytes, (unsigned long long)st.transient_bytes_unaliased,
             (g->flags & VKSORT_GRAPH_CREATE_ALIAS_TRANSIENTS) ? ", aliasing on" : "");
    for (uint32_t i = 0; i < g->transient_count; ++i) {
        const g_transient *t = &g->transients[i];
        const g_resource *r = &g->resources[t->resource];
        w_printf(&w, "  %s '%s': offset %llu, %llu bytes, passes [%u..%u]\n",
                 t->is_image ? "image" : "buffer", g_str(g, r->name), (unsigned long long)t->offset,
                 (unsigned long long)t->req.size, r->first_pos, r->last_pos);
    }
    return w_finish(&w);
}

static void dot_escape(g_writer *w, const char *s)
{
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            w_printf(w, "\\%c", *s);
        else
            w_printf(w, "%c", *s);
    }
}

size_t vksort_graph_write_dot(const vksort_graph *g, char *buffer, size_t capacity)
{
    g_writer w = {buffer, buffer ? capacity : 0, 0};
    w_printf(&w, "digraph vksort_graph {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
                 "  edge [fontname=\"Helvetica\", fontsize=8];\n");
    if (!g) {
        w_printf(&w, "}\n");
        return w_finish(&w);
    }
    static const char *colors[] = {"#cfe2ff", "#d1f2d1", "#fff3c4", "#f8d7da"};
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        const g_pass *ps = &g->passes[p];
        int culled = g->compiled && !ps->live;
        w_printf(&w, "  p%u [shape=box, style=\"filled,rounded\", label=\"", p);
        if (g->compiled && ps->live)
            w_printf(&w, "%u: ", ps->position);
        dot_escape(&w, g_str(g, ps->name));
        w_printf(&w, "\\n%s%s%s\", fillcolor=\"%s\"%s];\n", g_pass_type_name(ps->type),
                 ps->sort_node != G_NONE ? " (sort node)" : "", culled ? " (culled)" : "",
                 culled ? "#dddddd" : colors[ps->type & 3], culled ? ", fontcolor=\"#888888\", color=\"#aaaaaa\"" : "");
    }
    for (uint32_t i = 0; i < g->resource_count; ++i) {
        const g_resource *r = &g->resources[i];
        w_printf(&w, "  r%u [shape=%s, style=%s, label=\"", i, r->is_image ? "note" : "ellipse",
                 r->imported ? "bold" : "dashed");
        dot_escape(&w, g_str(g, r->name));
        if (r->imported)
            w_printf(&w, "\\nimported");
        else if (g->compiled && r->transient != G_NONE)
            w_printf(&w, "\\ntransient @%llu",
                     (unsigned long long)g->transients[r->transient].offset);
        else
            w_printf(&w, "\\ntransient");
        w_printf(&w, "\"];\n");
    }
    char s[160], a[160];
    for (uint32_t p = 0; p < g->pass_count; ++p) {
        const g_pass *ps = &g->passes[p];
        int culled = g->compiled && !ps->live;
        const char *grey = culled ? ", color=\"#bbbbbb\", fontcolor=\"#999999\"" : "";
        for (uint32_t u = ps->first_use; u != G_NONE; u = g->uses[u].next) {
            const g_use *use = &g->uses[u];
            const int write = g_is_write(use->access);
            const int read = g_is_read(use->access);
            g_stage_names(use->stage, s, sizeof s);
            g_access_names(use->access, a, sizeof a);
            const char *barrier = g->compiled && use->barrier ? "barrier: " : "";
            const char *style = g->compiled && use->barrier ? ", penwidth=2" : "";
            if (read || !write)
                w_printf(&w, "  r%u -> p%u [label=\"%s%s\\n%s\"%s%s];\n", use->resource, p, barrier,
                         s, a, style, grey);
            if (write)
                w_printf(&w, "  p%u -> r%u [label=\"%s\\n%s\"%s];\n", p, use->resource, s, a, grey);
        }
    }
    w_printf(&w, "}\n");
    return w_finish(&w);
}
