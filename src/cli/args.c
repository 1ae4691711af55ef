/* Long-option parsing and typed values. No getopt_long: it is a GNU extension, permutes argv
 * and prints its own multi-line messages; the CLI wants one-line errors it controls. */
#include "args.h"

#include "err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

static cli_opt *find_opt(cli_opt *opts, size_t nopts, const char *name, size_t len)
{
    for (size_t i = 0; i < nopts; ++i)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

int cli_parse_args(const char *cmd, int argc, char **argv, cli_opt *opts, size_t nopts,
                   const char **pos, size_t max_pos, size_t *npos, int *help, char *err,
                   size_t n)
{
    *npos = 0;
    *help = 0;
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; ++i) {
        if (is_help(argv[i])) {
            *help = 1;
            return 0;
        }
    }
    int options_done = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = 1;
            continue;
        }
        /* A lone "-" is a positional (conventionally a stream); anything else starting with '-'
         * is an option, so a typo never silently becomes a file name. */
        if (!options_done && a[0] == '-' && a[1] != '\0') {
            if (a[1] != '-')
                return cli_fail(err, n, "unknown option '%s' (try 'vksort %s --help')", a, cmd);
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            cli_opt *o = find_opt(opts, nopts, name, len);
            if (!o)
                return cli_fail(err, n, "unknown option '--%.*s' (try 'vksort %s --help')",
                                (int)len, name, cmd);
            if (o->present)
                return cli_fail(err, n, "option '--%s' given more than once", o->name);
            o->present = 1;
            if (o->has_value) {
                if (eq) {
                    o->value = eq + 1;
                } else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                    o->value = argv[++i];
                } else {
                    return cli_fail(err, n, "option '--%s' needs a value", o->name);
                }
            } else if (eq) {
                return cli_fail(err, n, "option '--%s' takes no value", o->name);
            }
            continue;
        }
        if (*npos >= max_pos)
            return cli_fail(err, n, "unexpected argument '%s' (try 'vksort %s --help')", a,
                            cmd);
        pos[(*npos)++] = a;
    }
    return 0;
}

/* Digits only (no sign, no spaces: strtoull would accept "-1" and " 7"). */
static int parse_digits(const char *s, const char *what, int base, uint64_t *out, char *err,
                        size_t n, const char **rest)
{
    const char *p = s;
    if (base == 16)
        p += 2;
    int ok_first = base == 16 ? ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
                                 (*p >= 'A' && *p <= 'F'))
                              : (*p >= '0' && *p <= '9');
    if (!ok_first)
        return cli_fail(err, n, "%s: expected a non-negative integer, got '%s'", what, s);
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(p, &end, base);
    if (errno == ERANGE)
        return cli_fail(err, n, "%s: '%s' is too large", what, s);
    *out = (uint64_t)v;
    *rest = end;
    return 0;
}

int cli_parse_command(const char *cmd, int argc, char **argv, cli_opt *opts, size_t nopts,
                      const char **pos, size_t max_pos, size_t *npos, void (*usage)(FILE *),
                      char *err, size_t n)
{
    int help = 0;
    if (cli_parse_args(cmd, argc, argv, opts, nopts, pos, max_pos, npos, &help, err, n) != 0)
        return CLI_EXIT_USAGE;
    if (help) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    return CLI_ARGS_GO_ON;
}

int cli_parse_u64(const char *s, const char *what, uint64_t *out, char *err, size_t n)
{
    const char *rest = NULL;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    if (parse_digits(s, what, base, out, err, n, &rest) != 0)
        return -1;
    if (*rest != '\0')
        return cli_fail(err, n, "%s: expected a non-negative integer, got '%s'", what, s);
    return 0;
}

int cli_parse_int(const char *s, const char *what, int min, int max, int *out, char *err,
                  size_t n)
{
    uint64_t v = 0;
    if (cli_parse_u64(s, what, &v, err, n) != 0)
        return -1;
    if (v < (uint64_t)(min < 0 ? 0 : min) || v > (uint64_t)max)
        return cli_fail(err, n, "%s: %s is outside [%d, %d]", what, s, min, max);
    *out = (int)v;
    return 0;
}

int cli_parse_count(const char *s, const char *what, uint64_t *out, char *err, size_t n)
{
    const char *rest = NULL;
    uint64_t v = 0;
    if (s[0] == '2' && s[1] == '^') {
        if (parse_digits(s + 2, what, 10, &v, err, n, &rest) != 0 || *rest != '\0')
            return cli_fail(err, n, "%s: expected a count like 1000, 64K, 16M or 2^24, got '%s'",
                            what, s);
        if (v > 63)
            return cli_fail(err, n, "%s: '%s' is too large", what, s);
        *out = 1ull << v;
        return 0;
    }
    if (parse_digits(s, what, 10, &v, err, n, &rest) != 0)
        return cli_fail(err, n, "%s: expected a count like 1000, 64K, 16M or 2^24, got '%s'",
                        what, s);
    unsigned shift = 0;
    switch (*rest) {
    case '\0': break;
    case 'k': case 'K': shift = 10; rest++; break;
    case 'm': case 'M': shift = 20; rest++; break;
    case 'g': case 'G': shift = 30; rest++; break;
    default: rest = NULL; break;
    }
    if (!rest || *rest != '\0')
        return cli_fail(err, n, "%s: expected a count like 1000, 64K, 16M or 2^24, got '%s'",
                        what, s);
    if (v > (UINT64_MAX >> shift))
        return cli_fail(err, n, "%s: '%s' is too large", what, s);
    *out = v << shift;
    return 0;
}

int cli_parse_bits(const char *s, vksort_key_type type, uint32_t *lo, uint32_t *hi, char *err,
                   size_t n)
{
    const uint32_t width = vksort_key_size(type) * 8u;
    const char *colon = strchr(s, ':');
    uint64_t a = 0, b = 0;
    const char *rest = NULL;
    if (!colon || parse_digits(s, "--bits", 10, &a, err, n, &rest) != 0 || rest != colon ||
        parse_digits(colon + 1, "--bits", 10, &b, err, n, &rest) != 0 || *rest != '\0')
        return cli_fail(err, n,
                        "--bits: expected LO:HI (bits [LO,HI) of the encoded key), got '%s'", s);
    /* The library reads bit_end == 0 as "the key width"; on the command line 0 means 0. */
    uint32_t rb = 0, re = 0;
    if (a >= b || b > width ||
        vksort_resolve_bit_range(type, (uint32_t)a, (uint32_t)b, &rb, &re) != VKSORT_SUCCESS)
        return cli_fail(err, n,
                        "--bits %s is not a bit range of the %u-bit %s key (need LO < HI <= %u)",
                        s, width, vksort_key_type_name(type), width);
    *lo = rb;
    *hi = re;
    return 0;
}

int cli_parse_key_type(const char *s, vksort_key_type *out, char *err, size_t n)
{
    if (vksort_key_type_from_name(s, out) != VKSORT_SUCCESS)
        return cli_fail(err, n, "unknown key type '%s' (expected u32, i32, f32, u64, i64 or f64)",
                        s);
    return 0;
}
