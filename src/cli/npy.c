/* .npy header parsing and writing. The header is a Python literal; this accepts exactly what
 * numpy writes (and the spacing variations older versions produced), nothing that needs eval. */
#include "npy.h"

#include "err.h"

#include <stdio.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

typedef struct scanner {
    const char *p, *end;
} scanner;

static void skip_space(scanner *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
}

static int eat(scanner *s, char c)
{
    skip_space(s);
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes (dtype strings and keys never need them). */
static int parse_string(scanner *s, char *out, size_t cap)
{
    skip_space(s);
    if (s->p >= s->end || (*s->p != '\'' && *s->p != '"'))
        return 0;
    const char quote = *s->p++;
    size_t len = 0;
    while (s->p < s->end && *s->p != quote) {
        if (*s->p == '\\' || len + 1 >= cap)
            return 0;
        out[len++] = *s->p++;
    }
    if (s->p >= s->end)
        return 0;
    s->p++;
    out[len] = '\0';
    return 1;
}

static int parse_word(scanner *s, const char *word)
{
    skip_space(s);
    size_t len = strlen(word);
    if ((size_t)(s->end - s->p) >= len && memcmp(s->p, word, len) == 0) {
        s->p += len;
        return 1;
    }
    return 0;
}

/* A non-negative integer, with the 'L' suffix Python 2 wrote for longs. */
static int parse_dim(scanner *s, uint64_t *out)
{
    skip_space(s);
    if (s->p >= s->end || *s->p < '0' || *s->p > '9')
        return 0;
    uint64_t v = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        unsigned d = (unsigned)(*s->p - '0');
        if (v > (UINT64_MAX - d) / 10u)
            return 0;
        v = v * 10u + d;
        s->p++;
    }
    if (s->p < s->end && *s->p == 'L')
        s->p++;
    *out = v;
    return 1;
}

/* "(" [dim ("," dim)* [","]] ")" */
static int parse_shape(scanner *s, cli_npy_info *info)
{
    if (!eat(s, '('))
        return 0;
    info->ndim = 0;
    if (eat(s, ')'))
        return 1;
    for (;;) {
        if (info->ndim >= CLI_NPY_MAX_DIMS || !parse_dim(s, &info->shape[info->ndim]))
            return 0;
        info->ndim++;
        if (eat(s, ')'))
            return 1;
        if (!eat(s, ','))
            return 0;
        if (eat(s, ')'))
            return 1;
    }
}

static int parse_dict(scanner *s, cli_npy_info *info, char *err, size_t n)
{
    int have_descr = 0, have_fortran = 0, have_shape = 0;
    if (!eat(s, '{'))
        return cli_fail(err, n, "malformed .npy header (no dict)");
    for (;;) {
        if (eat(s, '}'))
            break;
        char key[32];
        if (!parse_string(s, key, sizeof key) || !eat(s, ':'))
            return cli_fail(err, n, "malformed .npy header");
        if (strcmp(key, "descr") == 0 && !have_descr) {
            skip_space(s);
            if (s->p < s->end && (*s->p == '[' || *s->p == '('))
                return cli_fail(err, n, "structured .npy dtypes are not supported");
            if (!parse_string(s, info->descr, sizeof info->descr))
                return cli_fail(err, n, "malformed .npy header (descr)");
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0 && !have_fortran) {
            if (parse_word(s, "True"))
                info->fortran_order = 1;
            else if (parse_word(s, "False"))
                info->fortran_order = 0;
            else
                return cli_fail(err, n, "malformed .npy header (fortran_order)");
            have_fortran = 1;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            if (!parse_shape(s, info))
                return cli_fail(err, n, "malformed .npy header (shape)");
            have_shape = 1;
        } else {
            return cli_fail(err, n, "unexpected or repeated key '%s' in .npy header", key);
        }
        if (eat(s, '}'))
            break;
        if (!eat(s, ','))
            return cli_fail(err, n, "malformed .npy header");
    }
    skip_space(s);
    if (s->p != s->end)
        return cli_fail(err, n, "malformed .npy header (text after the dict)");
    if (!have_descr || !have_fortran || !have_shape)
        return cli_fail(err, n, ".npy header lacks '%s'",
                        !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
    return 0;
}

int cli_npy_parse(const unsigned char *file, size_t size, cli_npy_info *out, char *err,
                  size_t n)
{
    memset(out, 0, sizeof *out);
    if (size < 8 || memcmp(file, npy_magic, sizeof npy_magic) != 0)
        return cli_fail(err, n, "not a .npy file (bad magic)");
    out->major = file[6];
    out->minor = file[7];
    size_t prefix, header_len;
    if (out->major == 1 && size >= 10) {
        prefix = 10;
        header_len = (size_t)file[8] | (size_t)file[9] << 8;
    } else if ((out->major == 2 || out->major == 3) && size >= 12) {
        prefix = 12;
        header_len = (size_t)file[8] | (size_t)file[9] << 8 | (size_t)file[10] << 16 |
                     (size_t)file[11] << 24;
    } else if (out->major >= 1 && out->major <= 3) {
        return cli_fail(err, n, "truncated .npy header");
    } else {
        return cli_fail(err, n, "unsupported .npy format version %u.%u", out->major, out->minor);
    }
    if (out->minor != 0)
        return cli_fail(err, n, "unsupported .npy format version %u.%u", out->major, out->minor);
    if (header_len > size - prefix)
        return cli_fail(err, n, "truncated .npy header (%zu header bytes announced, %zu present)",
                        header_len, size - prefix);
    scanner s = {(const char *)file + prefix, (const char *)file + prefix + header_len};
    if (parse_dict(&s, out, err, n) != 0)
        return -1;
    out->data_offset = prefix + header_len;
    return 0;
}

size_t cli_npy_write_header(unsigned char *out, const char *descr, uint64_t count)
{
    char dict[CLI_NPY_HEADER_MAX];
    int len = snprintf(dict, sizeof dict,
                       "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }", descr,
                       (unsigned long long)count);
    /* Pad with spaces and end with '\n' so that the data starts on a 64-byte boundary, the way
     * numpy does it (the newline is part of the header length). */
    size_t total = 10u + (size_t)len + 1u;
    total = (total + CLI_NPY_ALIGN - 1u) / CLI_NPY_ALIGN * CLI_NPY_ALIGN;
    size_t header_len = total - 10u;
    memcpy(out, npy_magic, sizeof npy_magic);
    out[6] = 1;
    out[7] = 0;
    out[8] = (unsigned char)(header_len & 0xffu);
    out[9] = (unsigned char)(header_len >> 8);
    memcpy(out + 10, dict, (size_t)len);
    memset(out + 10 + len, ' ', header_len - (size_t)len - 1u);
    out[total - 1] = '\n';
    return total;
}

const char *cli_npy_descr(vksort_key_type type)
{
    switch (type) {
    case VKSORT_KEY_U32: return "<u4";
    case VKSORT_KEY_I32: return "<i4";
    case VKSORT_KEY_F32: return "<f4";
    case VKSORT_KEY_U64: return "<u8";
    case VKSORT_KEY_I64: return "<i8";
    case VKSORT_KEY_F64: return "<f8";
    default: return "?";
    }
}

int cli_path_is_npy(const char *path)
{
    size_t len = strlen(path);
    if (len < 4)
        return 0;
    const char *ext = path + len - 4;
    return ext[0] == '.' && (ext[1] == 'n' || ext[1] == 'N') && (ext[2] == 'p' || ext[2] == 'P') &&
           (ext[3] == 'y' || ext[3] == 'Y');
}
