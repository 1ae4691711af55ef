/* Backend names, selection and dispatch; the CPU backend itself (a thin wrapper over
 * vksort_cpu_sort that keeps its scratch between calls, so repeated sorts in `run` do not pay
 * for fresh pages every time). */
#include "backend.h"

#include "err.h"
#include "vksort/cpu.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const backend_names[CLI_BACKEND_COUNT] = {"cpu", "vulkan", "cuda"};
static const char *const algo_names[CLI_ALGO_COUNT] = {"auto", "onesweep", "portable", "bitonic"};

const char *cli_backend_name(cli_backend_id id)
{
    return (unsigned)id < CLI_BACKEND_COUNT ? backend_names[id] : "?";
}

int cli_backend_from_name(const char *name, cli_backend_id *out, char *err, size_t n)
{
    for (int i = 0; i < CLI_BACKEND_COUNT; ++i) {
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (cli_backend_id)i;
            return 0;
        }
    }
    return cli_fail(err, n, "unknown backend '%s' (expected cpu, vulkan or cuda)", name);
}

const char *cli_algo_name(cli_algo algo)
{
    return (unsigned)algo < CLI_ALGO_COUNT ? algo_names[algo] : "?";
}

int cli_algo_from_name(const char *name, cli_algo *out, char *err, size_t n)
{
    for (int i = 0; i < CLI_ALGO_COUNT; ++i) {
        if (strcmp(name, algo_names[i]) == 0) {
            *out = (cli_algo)i;
            return 0;
        }
    }
    return cli_fail(err, n, "unknown algo '%s' (expected auto, onesweep, portable or bitonic)",
                    name);
}

/* VKSORT_DISABLE_BACKENDS=vulkan,cuda hides backends (tests of the "unavailable" paths on
 * machines that have them; or to force the CPU path). */
static int disabled_by_environment(cli_backend_id id)
{
    const char *list = getenv("VKSORT_DISABLE_BACKENDS");
    const char *name = cli_backend_name(id);
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t item = end ? (size_t)(end - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

int cli_backend_available(cli_backend_id id, char *why, size_t n)
{
    if (n > 0)
        why[0] = '\0';
    if (id != CLI_BACKEND_CPU && disabled_by_environment(id)) {
        snprintf(why, n, "disabled by VKSORT_DISABLE_BACKENDS");
        return CLI_BACKEND_UNAVAILABLE;
    }
    switch (id) {
    case CLI_BACKEND_CPU: return CLI_BACKEND_AVAILABLE;
    case CLI_BACKEND_VULKAN: return cli_backend_vulkan_available(why, n);
    case CLI_BACKEND_CUDA: return cli_backend_cuda_available(why, n);
    default: snprintf(why, n, "unknown backend"); return CLI_BACKEND_UNAVAILABLE;
    }
}

int cli_backend_select(const char *requested, cli_algo algo, int device, cli_backend_id *out,
                       char *err, size_t n)
{
    char why[256];
    cli_backend_id id = CLI_BACKEND_CPU;
    if (requested) {
        if (cli_backend_from_name(requested, &id, err, n) != 0)
            return -1;
    } else if (algo != CLI_ALGO_AUTO) {
        id = CLI_BACKEND_VULKAN; /* the only backend with a choice of algorithm */
    } else {
        /* GPU backends first: for the array sizes worth a command-line tool they win even with
         * the transfers; the CPU is always there as the last resort. */
        static const cli_backend_id preference[] = {CLI_BACKEND_VULKAN, CLI_BACKEND_CUDA,
                                                    CLI_BACKEND_CPU};
        for (size_t i = 0; i < sizeof preference / sizeof preference[0]; ++i) {
            if (cli_backend_available(preference[i], why, sizeof why) == CLI_BACKEND_AVAILABLE) {
                id = preference[i];
                break;
            }
        }
    }
    if (cli_backend_available(id, why, sizeof why) == CLI_BACKEND_UNAVAILABLE)
        return cli_fail(err, n, "backend '%s' not available: %s", cli_backend_name(id), why);
    if (algo != CLI_ALGO_AUTO && id != CLI_BACKEND_VULKAN)
        return cli_fail(err, n,
                        "algo '%s' applies to the vulkan backend, not to '%s' (use --algo auto)",
                        cli_algo_name(algo), cli_backend_name(id));
    if (id != CLI_BACKEND_CPU) {
        const int devices = id == CLI_BACKEND_VULKAN ? cli_backend_vulkan_device_count()
                                                     : cli_backend_cuda_device_count();
        if (device >= devices)
            return cli_fail(err, n, "backend '%s' has no device %d (%d found)",
                            cli_backend_name(id), device, devices);
    }
    *out = id;
    return 0;
}

void cli_backend_describe(cli_backend_id id, int threads, char *buf, size_t n)
{
    char why[256];
    if (id == CLI_BACKEND_CPU) {
        snprintf(buf, n, "cpu (OpenMP radix sort, up to %d threads)",
                 threads > 0 ? threads : omp_get_max_threads());
        return;
    }
    cli_backend_available(id, why, sizeof why);
    snprintf(buf, n, "%s%s%s%s", cli_backend_name(id), why[0] ? " (" : "", why, why[0] ? ")" : "");
}

/* ---- CPU backend ---------------------------------------------------------------------------- */

static void *cpu_scratch;
static size_t cpu_scratch_size;

static int cpu_sort(const cli_sort_request *req, char *err, size_t n)
{
    if (req->algo != CLI_ALGO_AUTO) {
        cli_fail(err, n, "algo '%s' applies to the vulkan backend, not to 'cpu'",
                 cli_algo_name(req->algo));
        return VKSORT_ERROR_UNSUPPORTED;
    }
    vksort_cpu_sort_info info;
    memset(&info, 0, sizeof info);
    info.key_type = req->key_type;
    info.flags = req->flags;
    info.bit_begin = req->bit_begin;
    info.bit_end = req->bit_end;
    info.count = req->count;
    info.keys = req->keys;
    info.values = req->values;
    info.num_threads = req->threads;
    size_t need = vksort_cpu_scratch_size(&info);
    if (need > cpu_scratch_size) {
        free(cpu_scratch);
        /* aligned_alloc wants a size that is a multiple of the alignment. */
        size_t rounded = (need + 63u) / 64u * 64u;
        cpu_scratch = aligned_alloc(64, rounded);
        cpu_scratch_size = cpu_scratch ? rounded : 0;
        if (!cpu_scratch) {
            cli_fail(err, n, "out of memory for %zu bytes of sort scratch", rounded);
            return VKSORT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    info.scratch = need ? cpu_scratch : NULL;
    info.scratch_size = need ? cpu_scratch_size : 0;
    if (req->out_device_ms)
        *req->out_device_ms = -1.0;
    vksort_result r = vksort_cpu_sort(&info);
    if (r != VKSORT_SUCCESS) {
        cli_fail(err, n, "cpu sort failed: %s", vksort_result_string(r));
        return r;
    }
    return 0;
}

static void cpu_release(void)
{
    free(cpu_scratch);
    cpu_scratch = NULL;
    cpu_scratch_size = 0;
}

/* ---- Dispatch ------------------------------------------------------------------------------ */

int cli_sort_arrays(const cli_sort_request *req, char *err, size_t n)
{
    if (!req || (req->count > 0 && !req->keys)) {
        cli_fail(err, n, "internal error: bad sort request");
        return VKSORT_ERROR_INVALID_ARGUMENT;
    }
    switch (req->backend) {
    case CLI_BACKEND_CPU: return cpu_sort(req, err, n);
    case CLI_BACKEND_VULKAN: return cli_backend_vulkan_sort(req, err, n);
    case CLI_BACKEND_CUDA: return cli_backend_cuda_sort(req, err, n);
    default: break;
    }
    cli_fail(err, n, "internal error: unknown backend %d", (int)req->backend);
    return VKSORT_ERROR_INVALID_ARGUMENT;
}

void cli_backends_release(void)
{
    cpu_release();
    cli_backend_vulkan_release();
    cli_backend_cuda_release();
}
