#include "output_file.h"

#include "path_util.h"

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

int demo_output_same(const char *a, const char *b)
{
    return vksort_path_same_file(a, b);
}
