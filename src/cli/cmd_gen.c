/* `vksort gen`: write test keys (and index values) of a distribution, atomically. */
#include "args.h"
#include "cmds.h"
#include "err.h"
#include "gen.h"
#include "io.h"
#include "memory.h"
#include "npy.h"
#include "path_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void cli_usage_gen(FILE *f)
{
    fputs("usage: vksort gen --type T --n N [--dist D] [--seed S] [--values V] OUTPUT\n"
          "\n"
          "Writes N keys of type T (raw little-endian, or .npy when OUTPUT ends in .npy).\n"
          "The same type, N, distribution and seed always give the same bytes.\n"
          "\n"
          "options:\n"
          "  --type T        u32 i32 f32 u64 i64 f64\n"
          "  --n N           count: 1000, 64K, 16M (binary suffixes: 16M = 16777216), 2^24\n"
          "  --dist D        distribution (default uniform):\n"
          "                    uniform   integers: every bit random; floats: uniform in [-1,1)\n"
          "                              (no NaN/inf/-0; use 'bits' for every bit pattern)\n"
          "                    bits      every bit pattern, NaNs included for floats\n"
          "                    sorted    ascending, evenly spread (integers: whole range,\n"
          "                              floats: [-1,1))\n"
          "                    reversed  sorted, back to front\n"
          "                    constant  one value repeated\n"
          "                    few:K     K distinct values (at most)\n"
          "                    zipf      4096 ranks, P(r) ~ 1/r^1.1, each rank a random key\n"
          "                    normal    floats N(0,1); integers rounded normal around the\n"
          "                              middle of the range (signed: 0), sd 2^(w/2)/16\n"
          "  --seed S        PRNG seed (default 1)\n"
          "  --values V      also write the u32 values 0..N-1 to V (raw or .npy by name)\n"
          "  -h, --help      this text\n",
          f);
}

enum { O_TYPE, O_N, O_DIST, O_SEED, O_VALUES, O_COUNT };

int cli_cmd_gen(int argc, char **argv, char *err, size_t n)
{
    cli_opt opts[O_COUNT] = {
        [O_TYPE] = {"type", 1, 0, NULL}, [O_N] = {"n", 1, 0, NULL},
        [O_DIST] = {"dist", 1, 0, NULL}, [O_SEED] = {"seed", 1, 0, NULL},
        [O_VALUES] = {"values", 1, 0, NULL},
    };
    const char *pos[1];
    size_t npos = 0;
    int status = cli_parse_command("gen", argc, argv, opts, O_COUNT, pos, 1, &npos, cli_usage_gen, err, n);
    if (status != CLI_ARGS_GO_ON)
        return status;
    vksort_key_type type;
    uint64_t count64 = 0, seed = 1;
    cli_dist dist = {CLI_DIST_UNIFORM, 0};
    if (!opts[O_TYPE].present)
        return cli_fail_usage(err, n, "gen: --type is required (u32 i32 f32 u64 i64 f64)");
    if (cli_parse_key_type(opts[O_TYPE].value, &type, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (!opts[O_N].present)
        return cli_fail_usage(err, n, "gen: --n is required (e.g. --n 16M)");
    if (cli_parse_count(opts[O_N].value, "--n", &count64, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_DIST].present && cli_parse_dist(opts[O_DIST].value, &dist, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (opts[O_SEED].present && cli_parse_u64(opts[O_SEED].value, "--seed", &seed, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (npos != 1)
        return cli_fail_usage(err, n, "gen needs one OUTPUT file name (try 'vksort gen --help')");
    const char *output = pos[0];
    const char *values_path = opts[O_VALUES].value;
    if (values_path && vksort_path_same_file(values_path, output))
        return cli_fail_usage(err, n, "OUTPUT and --values name the same file '%s'", output);
    const size_t ks = vksort_key_size(type);
    if (count64 > SIZE_MAX / ks - 1u)
        return cli_fail_usage(err, n, "--n %s is too large for this machine", opts[O_N].value);
    if (values_path && count64 > (uint64_t)UINT32_MAX + 1u)
        return cli_fail_usage(err, n, "--n %s is too large for u32 values 0..N-1 (at most 2^32)",
                              opts[O_N].value);
    const size_t count = (size_t)count64;
    if (cli_check_memory((uint64_t)count * ks + (values_path ? (uint64_t)count * 4u : 0u),
                         "gen", err, n) != 0)
        return CLI_EXIT_USAGE;

    int rc = CLI_EXIT_FAIL;
    void *keys = malloc(count * ks + 1u);
    uint32_t *values = NULL;
    cli_output out = CLI_OUTPUT_INIT, values_out = CLI_OUTPUT_INIT;
    if (!keys) {
        cli_fail(err, n, "out of memory for %zu keys", count);
        goto done;
    }
    if (values_path) {
        values = malloc(count * 4u + 4u);
        if (!values) {
            cli_fail(err, n, "out of memory for %zu values", count);
            goto done;
        }
        cli_fill_iota(values, count);
    }
    if (cli_output_create(&out, output, err, n) != 0 ||
        (values_path && cli_output_create(&values_out, values_path, err, n) != 0))
        goto done;
    if (cli_generate_keys(type, dist, seed, keys, count, err, n) != 0)
        goto done;
    if (cli_output_write_array(&out, keys, count, ks, cli_npy_descr(type), err, n) != 0)
        goto done;
    if (values && cli_output_write_array(&values_out, values, count, 4, CLI_NPY_DESCR_VALUES,
                                         err, n) != 0)
        goto done;
    if (cli_output_commit(&out, err, n) != 0)
        goto done;
    if (values && cli_output_commit(&values_out, err, n) != 0)
        goto done;
    rc = CLI_EXIT_OK;
done:
    cli_output_discard(&out);
    cli_output_discard(&values_out);
    free(keys);
    free(values);
    return rc;
}
