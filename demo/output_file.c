#define _XOPEN_SOURCE 700 /* realpath */
#include "output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *demo_output_open_tmp(const char *path, const char *mode, char *tmp, size_t n)
{
    static unsigned counter;
    const char *slash = strrchr(path, '/');
    const int dir_len = slash ? (int)(slash - path) + 1 : 0;
    for (int attempt = 0; attempt < 100; ++attempt) {
        /* The base shortened so the name stays within NAME_MAX; "x": never an existing file. */
        int len = snprintf(tmp, n, "%.*s.%.64s.vksort-demo-tmp.%ld.%u", dir_len, path,
                           path + dir_len, (long)getpid(), counter++);
        if (len < 0 || (size_t)len >= n) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        char xmode[4];
        snprintf(xmode, sizeof xmode, "%sx", mode);
        FILE *f = fopen(tmp, xmode);
        if (f || errno != EEXIST)
            return f;
    }
    return NULL;
}

int demo_output_check(const char *option, const char *path)
{
    if (!*path) {
        fprintf(stderr, "vksort-demo: %s: empty file name\n", option);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "vksort-demo: %s: cannot write %s: is a directory\n", option, path);
        return -1;
    }
    char tmp[4096];
    FILE *f = demo_output_open_tmp(path, "wb", tmp, sizeof tmp);
    if (!f) {
        fprintf(stderr, "vksort-demo: %s: cannot write %s: %s\n", option, path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(tmp);
    return 0;
}

/* The real path of path's directory and its last component; NULL where it cannot be resolved. */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    char *real = realpath(dir, NULL);
    if (!real)
        return NULL;
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(real) + strlen(base) + 2u;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/%s", real, base);
    free(real);
    return out;
}

int demo_output_same(const char *a, const char *b)
{
    struct stat sa, sb;
    const int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb)
        return 0;
    char *ca = canonical(a), *cb = canonical(b);
    const int same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca);
    free(cb);
    return same;
}
