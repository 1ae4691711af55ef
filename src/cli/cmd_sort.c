/* `vksort sort`: read keys (and values), sort with a backend, optionally verify, write
 * atomically. Nothing is written under an output name unless everything succeeded. */
#include "args.h"
#include "backend.h"
#include "cmds.h"
#include "err.h"
#include "io.h"
#include "npy.h"
#include "path_util.h"
#include "verify.h"

#include <stdlib.h>
#include <string.h>

void cli_usage_sort(FILE *f)
{
    fputs("usage: vksort sort --type T [options] INPUT OUTPUT\n"
          "\n"
          "Sorts the keys in INPUT and writes them to OUTPUT. Files are raw little-endian\n"
          "arrays, or NumPy .npy files (1-D, C order, dtype matching T) when the name ends in\n"
          ".npy; OUTPUT's format follows its name the same way (.npy version 1.0). The sort is\n"
          "stable: every backend gives the same bytes. Outputs appear only on success.\n"
          "\n"
          "options:\n"
          "  --type T             key type: u32 i32 f32 u64 i64 f64 (floats in IEEE totalOrder:\n"
          "                       -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN)\n"
          "  --values V           u32 payload file (one per key; .npy dtype '<u4'), permuted\n"
          "                       with the keys ...\n"
          "  --values-out VO      ... and written here (both or neither)\n"
          "  --descending         largest first (equal keys keep their input order)\n"
          "  --bits LO:HI         order by bits [LO,HI) of the encoded key only (default all)\n"
          "  --backend B          cpu, vulkan or cuda (default: the best available)\n"
          "  --algo A             auto, onesweep, portable, bitonic (the last three: vulkan)\n"
          "  --device N           GPU index for vulkan/cuda (default 0)\n"
          "  --threads N          CPU threads (default: OpenMP's, OMP_NUM_THREADS)\n"
          "  --verify             check the result (order; key/value multiset) and print\n"
          "                       \"verified: N keys sorted\"\n"
          "  -h, --help           this text\n",
          f);
}

enum {
    O_TYPE, O_VALUES, O_VALUES_OUT, O_DESCENDING, O_BITS, O_BACKEND, O_ALGO, O_DEVICE,
    O_THREADS, O_VERIFY, O_COUNT
};

typedef struct sort_job {
    const char *input, *output, *values_in, *values_out;
    int verify;
    cli_sort_request req;
} sort_job;

static int run_sort(sort_job *job, char *err, size_t n)
{
    const vksort_key_type type = job->req.key_type;
    const size_t ks = vksort_key_size(type);
    void *keys = NULL;
    uint32_t *values = NULL;
    size_t count = 0, value_count = 0;
    cli_output out = CLI_OUTPUT_INIT, values_out = CLI_OUTPUT_INIT;
    int rc = CLI_EXIT_FAIL;
    char what[32];
    snprintf(what, sizeof what, "%s keys", vksort_key_type_name(type));

    if (cli_load_array(job->input, ks, cli_npy_descr(type), what, &keys, &count, err, n) != 0)
        goto done;
    if (job->values_in) {
        void *v = NULL;
        if (cli_load_array(job->values_in, 4, CLI_NPY_DESCR_VALUES, "u32 values", &v,
                           &value_count, err, n) != 0)
            goto done;
        values = v;
        if (value_count != count) {
            cli_fail(err, n, "'%s' holds %zu values but '%s' holds %zu keys", job->values_in,
                     value_count, job->input, count);
            goto done;
        }
    }
    /* Temporaries before the sort: an unwritable output directory fails fast. */
    if (cli_output_create(&out, job->output, err, n) != 0)
        goto done;
    if (job->values_out && cli_output_create(&values_out, job->values_out, err, n) != 0)
        goto done;

    cli_fingerprint before = {0, 0};
    if (job->verify)
        before = cli_fingerprint_of(type, keys, values, count);
    job->req.count = count;
    job->req.keys = keys;
    job->req.values = values;
    if (cli_sort_arrays(&job->req, err, n) != 0)
        goto done;
    if (job->verify) {
        size_t bad = 0;
        if (!cli_check_order(type, job->req.flags, job->req.bit_begin, job->req.bit_end, keys,
                             count, &bad)) {
            cli_fail(err, n, "verification failed: keys %zu and %zu are out of order", bad,
                     bad + 1);
            goto done;
        }
        if (!cli_fingerprint_equal(before, cli_fingerprint_of(type, keys, values, count))) {
            cli_fail(err, n, "verification failed: the sorted %s differ from the input",
                     values ? "key/value pairs" : "keys");
            goto done;
        }
    }
    if (cli_output_write_array(&out, keys, count, ks, cli_npy_descr(type), err, n) != 0)
        goto done;
    if (values && cli_output_write_array(&values_out, values, count, 4, CLI_NPY_DESCR_VALUES,
                                         err, n) != 0)
        goto done;
    /* The report before the renames: if it cannot be written, the command fails and no output
     * appears. */
    if (job->verify &&
        (printf("verified: %zu keys sorted (order%s checked)\n", count,
                values ? ", key/value multiset" : ", key multiset") < 0 ||
         fflush(stdout) != 0)) {
        cli_fail(err, n, "cannot write to standard output");
        goto done;
    }
    /* Both files are complete; the renames are the only steps left that could fail. */
    if (cli_output_commit(&out, err, n) != 0)
        goto done;
    if (values && cli_output_commit(&values_out, err, n) != 0) {
        size_t len = strlen(err);
        snprintf(err + len, n - len, " ('%s' was already written)", job->output);
        goto done;
    }
    rc = CLI_EXIT_OK;
done:
    cli_output_discard(&out);
    cli_output_discard(&values_out);
    free(keys);
    free(values);
    return rc;
}

int cli_cmd_sort(int argc, char **argv, char *err, size_t n)
{
    cli_opt opts[O_COUNT] = {
        [O_TYPE] = {"type", 1, 0, NULL},
        [O_VALUES] = {"values", 1, 0, NULL},
        [O_VALUES_OUT] = {"values-out", 1, 0, NULL},
        [O_DESCENDING] = {"descending", 0, 0, NULL},
        [O_BITS] = {"bits", 1, 0, NULL},
        [O_BACKEND] = {"backend", 1, 0, NULL},
        [O_ALGO] = {"algo", 1, 0, NULL},
        [O_DEVICE] = {"device", 1, 0, NULL},
        [O_THREADS] = {"threads", 1, 0, NULL},
        [O_VERIFY] = {"verify", 0, 0, NULL},
    };
    const char *pos[2];
    size_t npos = 0;
    int status = cli_parse_command("sort", argc, argv, opts, O_COUNT, pos, 2, &npos, cli_usage_sort, err, n);
    if (status != CLI_ARGS_GO_ON)
        return status;

    sort_job job;
    memset(&job, 0, sizeof job);
    cli_sort_request *req = &job.req;
    if (!opts[O_TYPE].present)
        return cli_fail_usage(err, n, "sort: --type is required (u32 i32 f32 u64 i64 f64)");
    if (cli_parse_key_type(opts[O_TYPE].value, &req->key_type, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (npos != 2)
        return cli_fail_usage(err, n,
                              "sort needs INPUT and OUTPUT file names (try 'vksort sort --help')");
    job.input = pos[0];
    job.output = pos[1];
    if (opts[O_VALUES].present != opts[O_VALUES_OUT].present)
        return cli_fail_usage(err, n, "--values and --values-out go together (%s given without %s)",
                        opts[O_VALUES].present ? "--values" : "--values-out",
                        opts[O_VALUES].present ? "--values-out" : "--values");
    job.values_in = opts[O_VALUES].value;
    job.values_out = opts[O_VALUES_OUT].value;
    if (job.values_out && vksort_path_same_file(job.values_out, job.output))
        return cli_fail_usage(err, n, "OUTPUT and --values-out name the same file '%s'",
                              job.output);
    job.verify = opts[O_VERIFY].present;

    req->flags = VKSORT_FLAG_STABLE | (opts[O_DESCENDING].present ? VKSORT_FLAG_DESCENDING : 0u);
    req->bit_begin = 0;
    req->bit_end = vksort_key_size(req->key_type) * 8u;
    if (opts[O_BITS].present &&
        cli_parse_bits(opts[O_BITS].value, req->key_type, &req->bit_begin, &req->bit_end, err,
                       n) != 0)
        return CLI_EXIT_USAGE;
    req->algo = CLI_ALGO_AUTO;
    if (opts[O_ALGO].present && cli_algo_from_name(opts[O_ALGO].value, &req->algo, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_DEVICE].present &&
        cli_parse_int(opts[O_DEVICE].value, "--device", 0, 1023, &req->device, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_THREADS].present &&
        cli_parse_int(opts[O_THREADS].value, "--threads", 0, 4096, &req->threads, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (cli_backend_select(opts[O_BACKEND].present ? opts[O_BACKEND].value : NULL, req->algo,
                           req->device, &req->backend, err, n) != 0)
        return CLI_EXIT_USAGE;
    return run_sort(&job, err, n);
}
