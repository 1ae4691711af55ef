/*
 * Backend dispatch for the vksort CLI: one request struct, one call.
 *
 * Every backend sorts host arrays in place with the semantics of vksort.h (key types, encodings,
 * stability, descending, bit range) and must produce the same bytes as the CPU backend for the
 * same request. The CLI always sets VKSORT_FLAG_STABLE.
 *
 * Adding or replacing a backend (e.g. a real src/cli/backend_vulkan.c) means implementing the
 * three functions of its block below:
 *   available(why, n)  CLI_BACKEND_AVAILABLE (1) if it can sort on this machine now;
 *                      CLI_BACKEND_AVAILABLE_SLOW (2) if it can, but only on a device slower than
 *                      the CPU backend (a CPU-emulated device such as lavapipe): it then runs when
 *                      asked for by name and the automatic choice skips it; else
 *                      CLI_BACKEND_UNAVAILABLE (0) with the reason in why ("not built in this
 *                      binary (...)", "no Vulkan device", ...). It may cache what it learns. When
 *                      available it may write a short description of what will run into why
 *                      (device name, driver), or leave it "".
 *   sort(req, err, n)  0 on success, else a negative vksort_result with a one-line message in
 *                      err (no trailing newline). Arrays are unchanged on failure, as far as the
 *                      backend can promise. req->device is the GPU index it should use. It may
 *                      keep a device, pipelines and buffers between calls (the `run` benchmark
 *                      sorts several times and times each call, so per-call set-up shows up).
 *                      If req->out_device_ms is not NULL it stores the time of the sort itself
 *                      on the device in milliseconds (GPU timestamps or events, no transfers),
 *                      or a negative number when it did not measure one.
 *   release()          frees whatever sort() kept; called once before the process exits.
 * All three are called from one thread.
 */
#ifndef VKSORT_CLI_BACKEND_H
#define VKSORT_CLI_BACKEND_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>

typedef enum cli_backend_id {
    CLI_BACKEND_CPU = 0,
    CLI_BACKEND_VULKAN = 1,
    CLI_BACKEND_CUDA = 2,
    CLI_BACKEND_COUNT = 3
} cli_backend_id;

/* What the available() functions return. */
#define CLI_BACKEND_UNAVAILABLE 0
#define CLI_BACKEND_AVAILABLE 1
#define CLI_BACKEND_AVAILABLE_SLOW 2

typedef enum cli_algo {
    CLI_ALGO_AUTO = 0,     /* the backend chooses */
    CLI_ALGO_ONESWEEP = 1, /* vulkan only: single-pass-per-digit radix with decoupled look-back */
    CLI_ALGO_PORTABLE = 2, /* vulkan only: the radix sort that needs no forward progress */
    CLI_ALGO_BITONIC = 3,  /* vulkan only: bitonic sort (stable here: the CLI sets STABLE) */
    CLI_ALGO_COUNT = 4
} cli_algo;

typedef struct cli_sort_request {
    cli_backend_id backend;
    cli_algo algo;            /* CLI_ALGO_AUTO unless backend is vulkan */
    int device;               /* GPU index (vulkan: physical-device order; cuda: CUDA ordinal);
                                 the cpu backend ignores it */
    int threads;              /* cpu: OpenMP threads, 0 = OpenMP default; GPU backends ignore it */
    vksort_key_type key_type;
    vksort_flags flags;       /* VKSORT_FLAG_DESCENDING and/or VKSORT_FLAG_STABLE */
    uint32_t bit_begin;       /* resolved bit range of the encoding: begin < end <= key width */
    uint32_t bit_end;
    size_t count;
    void *keys;               /* count keys of key_type in host memory, sorted in place */
    uint32_t *values;         /* optional payload (count values) permuted with the keys, or NULL */
    double *out_device_ms;    /* optional out: device time of the sort (see above), or NULL */
} cli_sort_request;

/* Names as used on the command line: "cpu", "vulkan", "cuda"; "auto", "onesweep", "portable",
 * "bitonic". The parsers return 0, or -1 with a message in err. */
const char *cli_backend_name(cli_backend_id id);
int cli_backend_from_name(const char *name, cli_backend_id *out, char *err, size_t n);
const char *cli_algo_name(cli_algo algo);
int cli_algo_from_name(const char *name, cli_algo *out, char *err, size_t n);

/* CLI_BACKEND_AVAILABLE(_SLOW) when the backend can run here, else CLI_BACKEND_UNAVAILABLE
 * with the reason in why (see the block comment). */
int cli_backend_available(cli_backend_id id, char *why, size_t n);

/* Picks the backend for a command: `requested` (a name, or NULL for the best available: the
 * first of vulkan, cuda, cpu that returns CLI_BACKEND_AVAILABLE; vulkan when algo is not auto).
 * Checks that it is available, that algo applies to it and, for a GPU backend, that it has GPU
 * `device` (before any input is read). Returns 0, or -1 with a message in err such as
 * "backend 'cuda' not available: not built in this binary (...)". */
int cli_backend_select(const char *requested, cli_algo algo, int device, cli_backend_id *out,
                       char *err, size_t n);

/* One line describing what runs: "cpu (OpenMP radix sort, up to 16 threads)", or the backend
 * name followed by what its available() wrote (a GPU's name, ...). */
void cli_backend_describe(cli_backend_id id, int threads, char *buf, size_t n);

/* Sorts with req->backend. Returns 0, or a negative vksort_result with a message in err. */
int cli_sort_arrays(const cli_sort_request *req, char *err, size_t n);

/* Frees what any backend kept between sorts; call once before exiting. */
void cli_backends_release(void);

/* The per-backend entry points (backend_vulkan.c, backend_cuda.c). */
int cli_backend_vulkan_available(char *why, size_t n);
int cli_backend_vulkan_device_count(void); /* physical devices; call after available() */
int cli_backend_vulkan_sort(const cli_sort_request *req, char *err, size_t n);
void cli_backend_vulkan_release(void);

int cli_backend_cuda_available(char *why, size_t n);
int cli_backend_cuda_device_count(void); /* CUDA devices; call after available() */
int cli_backend_cuda_sort(const cli_sort_request *req, char *err, size_t n);
void cli_backend_cuda_release(void);

#endif
