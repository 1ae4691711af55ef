/*
 * Vulkan -> CUDA -> Vulkan round trips, byte for byte against vksort_cpu_sort():
 *   Vulkan   uploads keys/values/count into exportable device-local buffers (the "keygen"),
 *            releases them to VK_QUEUE_FAMILY_EXTERNAL, signals timeline value base+1
 *   CUDA     vksort_cuda_sort_vk: waits for base+1, sorts, signals base+2 (enqueued right after
 *            the Vulkan submit, no host wait in between)
 *   Vulkan   a submit waiting for base+2 acquires the buffers and copies them to host-visible
 *            memory, signals base+3; only then does the host wait (for base+3) and compare.
 * Buffers and the semaphore are imported once and reused by every round; the CUDA device is the
 * one whose UUID equals the Vulkan device's. Any validation message fails the test.
 *
 * Without a CUDA device the Vulkan half still runs where a Vulkan device can export memory
 * (lavapipe can; it cannot export semaphores, so that export is left out of the dry run): the
 * host waits for base+1 and signals base+2 in CUDA's place, and the result must be the unsorted
 * input. Then the test skips ("SKIP: no CUDA device (...)").
 *
 * VKSORT_TEST_REQUIRE_INTEROP=1 (tools/gpu-cuda.sh sets it) turns "no CUDA device" and "no
 * suitable Vulkan device" into failures instead of skips.
 */
#include "cuda_test_skip.h"
#include "support/test_data.h"
#include "support/test_main.h"
#include "vk_interop_kit.h"
#include "vksort/cpu.h"
#include "vksort/cuda.h"

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_COUNT (1u << 20)
#define TIMEOUT_NS (30ull * 1000 * 1000 * 1000)

typedef struct round_case {
    vksort_key_type type;
    test_dist dist;
    uint32_t count;        /* live count */
    int indirect;          /* count from the count buffer; the value there is count_in_buffer */
    uint32_t count_in_buffer;
    int descending;
    uint32_t bit_begin, bit_end;
} round_case;

typedef struct fixture {
    vkik vk;
    int cuda;                        /* CUDA side present (else the host plays it) */
    vksort_key_type type;
    int payload;
    vkik_buffer keys, values, count;     /* exportable, device-local */
    vkik_buffer upload, readback;        /* host-visible */
    VkSemaphore timeline;
    uint64_t next_value;
    vksort_cuda_sorter *sorter;
    vksort_cuda_vk_buffer *c_keys, *c_values, *c_count;
    vksort_cuda_vk_semaphore *c_sem;
} fixture;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static int is_cuda_uuid(void *user, const uint8_t uuid[16])
{
    (void)user;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    for (int i = 0; i < n; ++i) {
        struct cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) == cudaSuccess && memcmp(p.uuid.bytes, uuid, 16) == 0)
            return 1;
    }
    return 0;
}

static int import_buffer(fixture *f, const vkik_buffer *b, vksort_cuda_vk_buffer **out)
{
    int fd = -1;
    if (vkik_buffer_export_fd(&f->vk, b, &fd) != 0) {
        fprintf(stderr, "%s\n", f->vk.error);
        return -1;
    }
    if (!f->cuda) {
        close(fd); /* exported for real; nothing to import it into */
        return 0;
    }
    vksort_cuda_vk_buffer_import_info ii;
    memset(&ii, 0, sizeof ii);
    ii.fd = fd;
    ii.allocation_size = b->allocation_size;
    ii.dedicated = 1;
    ii.offset = 0;
    ii.size = b->size;
    vksort_result r = vksort_cuda_import_vk_buffer(f->sorter, &ii, out);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "import buffer: %s: %s\n", vksort_result_string(r),
                vksort_cuda_sorter_last_message(f->sorter));
        close(fd);
        return -1;
    }
    return 0;
}

static void fixture_destroy(fixture *f)
{
    if (f->vk.device)
        vkDeviceWaitIdle(f->vk.device);
    if (f->sorter)
        vksort_cuda_sorter_synchronize(f->sorter);
    vksort_cuda_vk_buffer_destroy(f->c_keys);
    vksort_cuda_vk_buffer_destroy(f->c_values);
    vksort_cuda_vk_buffer_destroy(f->c_count);
    vksort_cuda_vk_semaphore_destroy(f->c_sem);
    vksort_cuda_sorter_destroy(f->sorter);
    f->c_keys = f->c_values = f->c_count = NULL;
    f->c_sem = NULL;
    f->sorter = NULL;
    if (f->vk.device) {
        vkik_buffer_destroy(&f->vk, &f->keys);
        vkik_buffer_destroy(&f->vk, &f->values);
        vkik_buffer_destroy(&f->vk, &f->count);
        vkik_buffer_destroy(&f->vk, &f->upload);
        vkik_buffer_destroy(&f->vk, &f->readback);
        if (f->timeline)
            vkDestroySemaphore(f->vk.device, f->timeline, NULL);
        f->timeline = VK_NULL_HANDLE;
    }
}

/* Buffers, semaphore and sorter for one (key type, payload); all imported once. */
static int fixture_setup(fixture *f, vksort_key_type type, int payload)
{
    const VkDeviceSize ks = vksort_key_size(type);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    f->type = type;
    f->payload = payload;
    f->next_value = 0;
    if (vkik_buffer_create(&f->vk, MAX_COUNT * ks, usage, 1, 0, &f->keys) ||
        vkik_buffer_create(&f->vk, MAX_COUNT * 4ull, usage, 1, 0, &f->values) ||
        vkik_buffer_create(&f->vk, 256, usage, 1, 0, &f->count) ||
        vkik_buffer_create(&f->vk, MAX_COUNT * (ks + 4) + 256,
                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, 1, &f->upload) ||
        vkik_buffer_create(&f->vk, MAX_COUNT * (ks + 4), VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, 1,
                           &f->readback) ||
        vkik_timeline_create(&f->vk, 0, f->cuda, &f->timeline)) {
        fprintf(stderr, "vulkan setup: %s\n", f->vk.error);
        return -1;
    }
    if (f->cuda) {
        vksort_cuda_sorter_create_info ci;
        memset(&ci, 0, sizeof ci);
        vksort_cuda_diagnostics d;
        memset(&d, 0, sizeof d);
        ci.key_type = type;
        ci.has_payload = (uint32_t)payload;
        ci.max_count = MAX_COUNT;
        ci.use_device_uuid = 1;
        memcpy(ci.device_uuid, f->vk.device_uuid, 16);
        ci.diagnostics = &d;
        vksort_result r = vksort_cuda_sorter_create(&ci, &f->sorter);
        if (r != VKSORT_SUCCESS) {
            fprintf(stderr, "sorter create: %s: %s\n", vksort_result_string(r), d.message);
            return -1;
        }
    }
    if (import_buffer(f, &f->keys, &f->c_keys) || import_buffer(f, &f->values, &f->c_values) ||
        import_buffer(f, &f->count, &f->c_count))
        return -1;
    if (!f->cuda)
        return 0; /* the dry run may lack semaphore export (lavapipe does) */
    int fd = -1;
    if (vkik_semaphore_export_fd(&f->vk, f->timeline, &fd) != 0) {
        fprintf(stderr, "%s\n", f->vk.error);
        return -1;
    }
    vksort_result r = vksort_cuda_import_vk_semaphore(f->sorter, fd, &f->c_sem);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "import semaphore: %s: %s\n", vksort_result_string(r),
                vksort_cuda_sorter_last_message(f->sorter));
        close(fd);
        return -1;
    }
    return 0;
}

/* One round trip; returns 1 when the bytes match. */
static int run_round(fixture *f, const round_case *c, uint64_t seed)
{
    vkik *k = &f->vk;
    const size_t ks = vksort_key_size(c->type);
    const uint32_t n_buf = c->indirect ? MAX_COUNT : c->count; /* bytes the round touches */
    const VkDeviceSize keys_bytes = (VkDeviceSize)n_buf * ks, vals_bytes = (VkDeviceSize)n_buf * 4;
    unsigned char *expect = malloc(keys_bytes + 8);
    uint32_t *expect_values = malloc(vals_bytes + 4);
    if (!expect || !expect_values) {
        free(expect);
        free(expect_values);
        return 0;
    }
    /* Host-visible upload: keys, values, count (the count slot after them). */
    unsigned char *up = f->upload.mapped;
    test_fill_keys(c->type, c->dist, up, n_buf, seed);
    uint32_t *vals = (uint32_t *)(up + keys_bytes);
    for (uint32_t i = 0; i < n_buf; ++i)
        vals[i] = i ^ (uint32_t)seed;
    memcpy(up + keys_bytes + vals_bytes, &c->count_in_buffer, 4);
    memcpy(expect, up, keys_bytes);
    memcpy(expect_values, vals, vals_bytes);
    if (f->cuda) {
        vksort_cpu_sort_info ci;
        memset(&ci, 0, sizeof ci);
        ci.key_type = c->type;
        ci.flags = c->descending ? VKSORT_FLAG_DESCENDING : 0;
        ci.bit_begin = c->bit_begin;
        ci.bit_end = c->bit_end;
        ci.count = c->count;
        ci.keys = expect;
        ci.values = f->payload ? expect_values : NULL;
        CHECK_EQ(vksort_cpu_sort(&ci), VKSORT_SUCCESS);
    }

    const uint64_t base = f->next_value;
    f->next_value += 3;
    const VkBuffer shared[3] = {f->keys.buffer, f->values.buffer, f->count.buffer};
    int ok = 1;

    /* Vulkan "keygen": the previous round's reads are done (host waited); write, release. */
    VkCommandBuffer a = vkik_begin(k);
    if (!a)
        return 0;
    vkik_barrier(a, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy r0 = {0, 0, keys_bytes};
    VkBufferCopy r1 = {keys_bytes, 0, vals_bytes};
    if (n_buf) { /* a copy of zero bytes is invalid */
        vkCmdCopyBuffer(a, f->upload.buffer, f->keys.buffer, 1, &r0);
        vkCmdCopyBuffer(a, f->upload.buffer, f->values.buffer, 1, &r1);
    }
    VkBufferCopy r2 = {keys_bytes + vals_bytes, 0, 4};
    vkCmdCopyBuffer(a, f->upload.buffer, f->count.buffer, 1, &r2);
    vkik_release_to_external(k, a, shared, 3, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_ACCESS_TRANSFER_WRITE_BIT);
    ok = ok && vkik_submit(k, a, f->timeline, 0, 0, base + 1, VK_NULL_HANDLE) == 0;

    /* CUDA (or the host in its place): wait base+1, sort, signal base+2. */
    if (ok && f->cuda) {
        vksort_cuda_vk_sort_info si;
        memset(&si, 0, sizeof si);
        si.semaphore = f->c_sem;
        si.wait_value = base + 1;
        si.signal_value = base + 2;
        si.keys = f->c_keys;
        si.values = f->payload ? f->c_values : NULL;
        si.count_buffer = c->indirect ? f->c_count : NULL;
        si.count = c->indirect ? 0 : c->count;
        si.flags = c->descending ? VKSORT_FLAG_DESCENDING : 0;
        si.bit_begin = c->bit_begin;
        si.bit_end = c->bit_end;
        vksort_result r = vksort_cuda_sort_vk(f->sorter, &si);
        if (r != VKSORT_SUCCESS) {
            fprintf(stderr, "sort_vk: %s: %s\n", vksort_result_string(r),
                    vksort_cuda_sorter_last_message(f->sorter));
            ok = 0;
        }
    }

    /* Vulkan consumer: wait base+2, acquire, copy to the host-visible read-back, signal base+3.
     * Submitted before the host does anything else: no CPU wait between the three steps. */
    VkCommandBuffer b = ok ? vkik_begin(k) : VK_NULL_HANDLE;
    if (b) {
        vkik_acquire_from_external(k, b, shared, 3, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                   VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferCopy c0 = {0, 0, keys_bytes};
        VkBufferCopy c1 = {0, keys_bytes, vals_bytes};
        if (n_buf) {
            vkCmdCopyBuffer(b, f->keys.buffer, f->readback.buffer, 1, &c0);
            vkCmdCopyBuffer(b, f->values.buffer, f->readback.buffer, 1, &c1);
        }
        vkik_barrier(b, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        ok = vkik_submit(k, b, f->timeline, base + 2, VK_PIPELINE_STAGE_TRANSFER_BIT, base + 3,
                         VK_NULL_HANDLE) == 0;
    } else {
        ok = 0;
    }
    if (ok && !f->cuda) {
        ok = vkik_wait(k, f->timeline, base + 1, TIMEOUT_NS) == 0;
        VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        sig.semaphore = f->timeline;
        sig.value = base + 2;
        ok = ok && vkSignalSemaphore(k->device, &sig) == VK_SUCCESS;
    }
    ok = ok && vkik_wait(k, f->timeline, base + 3, TIMEOUT_NS) == 0;
    if (!ok)
        fprintf(stderr, "round failed: %s\n", k->error);
    vkik_reset_commands(k);

    if (ok) {
        const unsigned char *got = f->readback.mapped;
        size_t dk = test_first_difference(got, expect, n_buf, ks);
        size_t dv = test_first_difference(got + keys_bytes, expect_values, n_buf, 4);
        if (dk != (size_t)-1 || dv != (size_t)-1) {
            fprintf(stderr,
                    "MISMATCH type=%s dist=%s count=%u indirect=%d desc=%d bits=[%u,%u) "
                    "payload=%d: first key diff %lld, first value diff %lld\n",
                    vksort_key_type_name(c->type), test_dist_name(c->dist), c->count,
                    c->indirect, c->descending, c->bit_begin, c->bit_end, f->payload,
                    (long long)dk, (long long)dv);
            ok = 0;
        }
    }
    free(expect);
    free(expect_values);
    return ok;
}

int main(void)
{
    const int require = env_flag("VKSORT_TEST_REQUIRE_INTEROP");
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    int devices = 0;
    fixture f;
    memset(&f, 0, sizeof f);
    f.cuda = vksort_cuda_get_device_count(&devices, &d) == VKSORT_SUCCESS;
    if (!f.cuda && require) {
        fprintf(stderr, "FAIL: %s (VKSORT_TEST_REQUIRE_INTEROP=1)\n", d.message);
        return 1;
    }

    vkik_options opt;
    memset(&opt, 0, sizeof opt);
    opt.accept_uuid = f.cuda ? is_cuda_uuid : NULL;
    opt.allow_cpu_devices = !f.cuda;
    opt.no_semaphore_export = !f.cuda;
    int vr = vkik_create(&f.vk, &opt);
    if (vr == VKIK_NO_DEVICE) {
        if (require) {
            fprintf(stderr, "FAIL: %s (VKSORT_TEST_REQUIRE_INTEROP=1)\n", f.vk.error);
            return 1;
        }
        char why[900];
        if (f.cuda)
            snprintf(why, sizeof why, "%s", f.vk.error);
        else
            snprintf(why, sizeof why, "%s; the Vulkan half could not run either: %s", d.message,
                     f.vk.error);
        return cuda_test_skip(why);
    }
    if (vr != 0) {
        fprintf(stderr, "FAIL: %s\n", f.vk.error);
        return 1;
    }

    static const round_case f32_pairs[] = {
        {VKSORT_KEY_F32, DIST_SPECIALS, 100000, 0, 0, 0, 0, 0},
        {VKSORT_KEY_F32, DIST_UNIFORM, MAX_COUNT, 0, 0, 1, 0, 0},
        {VKSORT_KEY_F32, DIST_FEW_UNIQUE, 4097, 1, 4097, 1, 0, 0},
        {VKSORT_KEY_F32, DIST_SPECIALS, MAX_COUNT, 1, 0xffffffffu, 0, 0, 0}, /* clamped */
        {VKSORT_KEY_F32, DIST_UNIFORM, 0, 1, 0, 0, 0, 0},
        {VKSORT_KEY_F32, DIST_UNIFORM, 1, 0, 0, 0, 0, 0},
    };
    static const round_case u64_keys[] = {
        {VKSORT_KEY_U64, DIST_UNIFORM, 300001, 0, 0, 1, 8, 40},
        {VKSORT_KEY_U64, DIST_SPECIALS, 123457, 1, 123457, 0, 0, 0},
    };
    static const round_case i32_pairs[] = {
        {VKSORT_KEY_I32, DIST_SPECIALS, 65537, 1, 65537, 0, 0, 24},
        {VKSORT_KEY_I32, DIST_LOW_BYTE, 200000, 0, 0, 1, 0, 0},
    };
    static const round_case f64_pairs[] = {
        {VKSORT_KEY_F64, DIST_SPECIALS, 250000, 0, 0, 1, 0, 0},
        {VKSORT_KEY_F64, DIST_UNIFORM, 99999, 1, 99999, 0, 3, 61},
    };
    static const round_case u32_keys[] = {
        {VKSORT_KEY_U32, DIST_UNIFORM, MAX_COUNT, 0, 0, 0, 0, 0},
        {VKSORT_KEY_U32, DIST_FLAG_BIT, 77777, 1, 77777, 1, 0, 0},
    };
    static const round_case i64_pairs[] = {
        {VKSORT_KEY_I64, DIST_REVERSED, 150001, 0, 0, 1, 0, 0},
        {VKSORT_KEY_I64, DIST_SPECIALS, 4096, 1, 4096, 0, 0, 0},
    };
    static const struct {
        const round_case *cases;
        size_t n;
        int payload;
    } groups[] = {
        {f32_pairs, sizeof f32_pairs / sizeof f32_pairs[0], 1},
        {u64_keys, sizeof u64_keys / sizeof u64_keys[0], 0},
        {i32_pairs, sizeof i32_pairs / sizeof i32_pairs[0], 1},
        {f64_pairs, sizeof f64_pairs / sizeof f64_pairs[0], 1},
        {u32_keys, sizeof u32_keys / sizeof u32_keys[0], 0},
        {i64_pairs, sizeof i64_pairs / sizeof i64_pairs[0], 1},
    };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
        /* Without CUDA (the Vulkan half only) one group is enough. */
        if (!f.cuda && g > 0)
            break;
        const round_case *cases = groups[g].cases;
        if (fixture_setup(&f, cases[0].type, groups[g].payload) != 0) {
            CHECK(0);
            fixture_destroy(&f);
            continue;
        }
        for (size_t i = 0; i < groups[g].n; ++i) {
            int ok = run_round(&f, &cases[i], g * 100 + i + 1);
            printf("%s %s%s count %u%s%s\n", ok ? "ok  " : "FAIL",
                   vksort_key_type_name(cases[i].type), groups[g].payload ? " pairs" : " keys",
                   cases[i].count, cases[i].indirect ? " (indirect)" : "",
                   cases[i].descending ? " descending" : "");
            CHECK(ok);
        }
        fixture_destroy(&f);
    }
    CHECK_EQ(f.vk.messages, 0);
    const int messages = f.vk.messages;
    const int validation = f.vk.validation;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    snprintf(device_name, sizeof device_name, "%s", f.vk.props.deviceName);
    vkik_destroy(&f.vk);
    if (!f.cuda) {
        if (test_failures_)
            return test_summary();
        char why[700];
        snprintf(why, sizeof why,
                 "%s; the Vulkan half (memory export, timeline, ownership transfers) ran clean on %s "
                 "with validation %s (%d messages)",
                 d.message, device_name, validation ? "on" : "OFF", messages);
        return cuda_test_skip(why);
    }
    if (!validation)
        printf("note: validation layer not found: ran without it\n");
    return test_summary();
}
