#define _XOPEN_SOURCE 700 /* realpath */
#include "path_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *vksort_path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dir = slash ? path : ".";
    const size_t len = slash ? (slash == path ? 1u : (size_t)(slash - path)) : 1u;
    char *d = malloc(len + 1u);
    if (d) {
        memcpy(d, dir, len);
        d[len] = '\0';
    }
    return d;
}

const char *vksort_path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The real path of path's directory and its last component, malloc'ed; NULL where the
 * directory cannot be resolved. */
static char *canonical_name(const char *path)
{
    char *dir = vksort_path_dir(path);
    char *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!real)
        return NULL;
    const char *base = vksort_path_base(path);
    const size_t len = strlen(real) + 1u + strlen(base) + 1u;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/%s", real, base);
    free(real);
    return out;
}

int vksort_path_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    const int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb)
        return 0;
    char *ca = canonical_name(a), *cb = canonical_name(b);
    const int same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca);
    free(cb);
    return same;
}

FILE *vksort_path_create_temp(const char *path, const char *tag, const char *mode, char *tmp,
                              size_t n)
{
    static unsigned counter;
    const char *base = vksort_path_base(path);
    const int dir_len = (int)(base - path);
    char xmode[4];
    snprintf(xmode, sizeof xmode, "%sx", mode); /* "x": exclusive creation (C11) */
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int len = snprintf(tmp, n, "%.*s.%.64s.%s.%ld.%u", dir_len, path, base, tag,
                                 (long)getpid(), counter++);
        if (len < 0 || (size_t)len >= n) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        FILE *f = fopen(tmp, xmode);
        if (f || errno != EEXIST)
            return f;
    }
    return NULL; /* errno: EEXIST */
}
