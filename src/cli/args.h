/* Command-line parsing: long options from a table, positional arguments, typed value parsers.
 * Every parser returns 0 on success or -1 with a message in err (see err.h). */
#ifndef VKSORT_CLI_ARGS_H
#define VKSORT_CLI_ARGS_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One long option, "--name VALUE", "--name=VALUE" or the flag "--name". The parser fills
 * `present` and `value`; a command keeps its table in an array indexed by its own enum. */
typedef struct cli_opt {
    const char *name;   /* without the leading "--" */
    int has_value;      /* 1: takes a value; 0: a flag */
    int present;        /* out: seen on the command line */
    const char *value;  /* out: the value (points into argv), NULL for flags */
} cli_opt;

/* Parses the arguments after the subcommand name. Options may come before, between or after
 * positionals; "--" ends the options. Unknown or repeated options, a missing value and more
 * than max_pos positionals are errors. If "--help" or "-h" appears (before "--"), *help is set
 * and nothing else is checked. cmd names the subcommand in messages. */
int cli_parse_args(const char *cmd, int argc, char **argv, cli_opt *opts, size_t nopts,
                   const char **pos, size_t max_pos, size_t *npos, int *help, char *err,
                   size_t n);

/* What every subcommand does first: cli_parse_args, then usage(stdout) for "--help". Returns
 * CLI_ARGS_GO_ON when the command should go on, else the exit status to return (CLI_EXIT_OK
 * after the help, CLI_EXIT_USAGE after a parse error, its message in err). */
#define CLI_ARGS_GO_ON (-1)
int cli_parse_command(const char *cmd, int argc, char **argv, cli_opt *opts, size_t nopts,
                      const char **pos, size_t max_pos, size_t *npos, void (*usage)(FILE *),
                      char *err, size_t n);

/* A non-negative decimal integer (or 0x-prefixed hexadecimal). what names it in messages. */
int cli_parse_u64(const char *s, const char *what, uint64_t *out, char *err, size_t n);
/* An int in [min, max]. */
int cli_parse_int(const char *s, const char *what, int min, int max, int *out, char *err,
                  size_t n);
/* A count: an integer with an optional binary suffix K/M/G (16M = 16777216) or "2^k". */
int cli_parse_count(const char *s, const char *what, uint64_t *out, char *err, size_t n);
/* "LO:HI" (two decimal integers) for the bit range [LO, HI) of the encoded key, checked against
 * the key type with vksort_resolve_bit_range. */
int cli_parse_bits(const char *s, vksort_key_type type, uint32_t *lo, uint32_t *hi, char *err,
                   size_t n);
/* u32 i32 f32 u64 i64 f64. */
int cli_parse_key_type(const char *s, vksort_key_type *out, char *err, size_t n);

#endif
