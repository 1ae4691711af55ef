#include "output_file.h"

#include "path_util.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

FILE *demo_output_open_tmp(const char *path, const char *mode, char *tmp, size_t n)
{
    return vksort_path_create_temp(path, "vksort-demo-tmp", mode, tmp, n);
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
