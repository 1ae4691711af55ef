/* Whole-array file reading and atomic output. POSIX is used where C alone cannot do the job:
 * fstat (is the input a directory?), fsync (data on disk before the rename), getpid (temporary
 * names that do not collide with another vksort process), sigaction (remove temporaries on
 * Ctrl-C), lstat/realpath (links are followed, devices written in place, one file under two
 * names recognised), pathconf (names too long for the rename), fchmod/fchown (a replaced file's
 * permissions). Raw data is read and written as bytes, so the host must be little-endian. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io.h"

#include "err.h"
#include "npy.h"
#include "path_util.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "vksort's file formats are little-endian; byte swapping on big-endian hosts is not written"
#endif

int cli_read_file(const char *path, unsigned char **data, size_t *size, char *err, size_t n)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_fail(err, n, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return cli_fail(err, n, "cannot read '%s': %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return cli_fail(err, n, "cannot read '%s': is a directory", path);
    }
    /* Regular files: one read of the known size. Pipes and devices: grow as data arrives. */
    size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1u : 65536u;
    unsigned char *buf = malloc(cap);
    size_t len = 0;
    for (;;) {
        if (!buf) {
            fclose(f);
            return cli_fail(err, n, "out of memory reading '%s' (%zu bytes)", path, cap);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return cli_fail(err, n, "cannot read '%s': %s", path, strerror(e));
    }
    fclose(f);
    *data = buf;
    *size = len;
    return 0;
}

int cli_load_array(const char *path, size_t elem_size, const char *npy_descr, const char *what,
                   void **out, size_t *count, char *err, size_t n)
{
    unsigned char *buf = NULL;
    size_t size = 0;
    *out = NULL;
    *count = 0;
    if (cli_read_file(path, &buf, &size, err, n) != 0)
        return -1;
    size_t offset = 0, bytes = size;
    if (cli_path_is_npy(path)) {
        cli_npy_info info;
        char why[256];
        if (cli_npy_parse(buf, size, &info, why, sizeof why) != 0) {
            free(buf);
            return cli_fail(err, n, "'%s': %s", path, why);
        }
        if (strcmp(info.descr, npy_descr) != 0) {
            free(buf);
            return cli_fail(err, n, "'%s': dtype '%s' does not match %s (expected '%s')", path,
                            info.descr, what, npy_descr);
        }
        if (info.ndim != 1) {
            free(buf);
            return cli_fail(err, n, "'%s': array has %zu dimensions; vksort reads 1-D arrays only",
                            path, info.ndim);
        }
        if (info.fortran_order) {
            free(buf);
            return cli_fail(err, n,
                            "'%s': fortran_order arrays are not supported (save a C-order array)",
                            path);
        }
        uint64_t want = info.shape[0];
        if (want > (SIZE_MAX - info.data_offset) / elem_size) {
            free(buf);
            return cli_fail(err, n, "'%s': shape (%llu,) is too large", path,
                            (unsigned long long)want);
        }
        size_t want_bytes = (size_t)want * elem_size;
        if (size - info.data_offset != want_bytes) {
            size_t have = size - info.data_offset;
            free(buf);
            return cli_fail(err, n,
                            "'%s': %s: the header says %llu elements (%zu bytes), %zu bytes follow",
                            path, have < want_bytes ? "truncated data" : "unexpected trailing data",
                            (unsigned long long)want, want_bytes, have);
        }
        offset = info.data_offset;
        bytes = want_bytes;
    } else if (size % elem_size != 0) {
        free(buf);
        return cli_fail(err, n,
                        "'%s': size %zu bytes is not a multiple of %zu (%s; a raw file holds "
                        "little-endian elements only)",
                        path, size, elem_size, what);
    }
    /* Move the data to the start so the caller gets an aligned array it can free(). */
    if (offset != 0)
        memmove(buf, buf + offset, bytes);
    *out = buf;
    *count = bytes / elem_size;
    return 0;
}

/* ---- Temporary-file cleanup on signals ----------------------------------------------------
 * The handler may only call async-signal-safe functions, so the names live in static arrays and
 * a slot is marked used only once its name is complete. */
#define CLEANUP_SLOTS 4
#define CLEANUP_PATH_MAX 4096
static char cleanup_paths[CLEANUP_SLOTS][CLEANUP_PATH_MAX];
static volatile sig_atomic_t cleanup_used[CLEANUP_SLOTS];
static int handlers_installed;

static void cleanup_on_signal(int sig)
{
    for (int i = 0; i < CLEANUP_SLOTS; ++i)
        if (cleanup_used[i])
            unlink(cleanup_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cleanup_on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static int register_cleanup(const char *path)
{
    if (strlen(path) >= CLEANUP_PATH_MAX)
        return -1; /* still correct, just not removed on Ctrl-C */
    for (int i = 0; i < CLEANUP_SLOTS; ++i) {
        if (!cleanup_used[i]) {
            memcpy(cleanup_paths[i], path, strlen(path) + 1);
            cleanup_used[i] = 1;
            return i;
        }
    }
    return -1;
}

static void unregister_cleanup(cli_output *o)
{
    if (o->slot >= 0)
        cleanup_used[o->slot] = 0;
    o->slot = -1;
}

/* ---- Atomic output ------------------------------------------------------------------------ */

static char *dup_string(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (d)
        memcpy(d, s, len);
    return d;
}

int cli_output_create(cli_output *o, const char *path, char *err, size_t n)
{
    o->path = NULL;
    o->tmp_path = NULL;
    o->file = NULL;
    o->slot = -1;
    o->direct = 0;
    if (!*path)
        return cli_fail(err, n, "empty output file name");
    if (strcmp(path, "-") == 0)
        return cli_fail(err, n, "'-' (standard output) is not supported: name a file (or /dev/stdout)");
    /* A link: replace its target, keep the link (a rename over the link would replace the link
     * with a regular file and leave the target as it was). */
    struct stat st;
    int exists = lstat(path, &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        o->path = realpath(path, NULL);
        if (!o->path)
            return cli_fail(err, n, "cannot write '%s': it is a symbolic link whose target cannot "
                                    "be resolved (%s)", path, strerror(errno));
        exists = stat(o->path, &st) == 0;
    } else {
        o->path = dup_string(path);
    }
    if (!o->path)
        return cli_fail(err, n, "out of memory");
    path = o->path;
    /* rename() cannot replace a directory; say so now rather than after all the work (and,
     * with two outputs, after the first one has already been renamed into place). */
    if (exists && S_ISDIR(st.st_mode))
        return cli_fail(err, n, "cannot write '%s': is a directory", path);
    if (exists && !S_ISREG(st.st_mode)) {
        o->direct = 1; /* a device or FIFO: a rename would replace it with a regular file */
        return 0;
    }
    /* The final name must fit its file system, or the rename fails after all the work (and
     * after a first output has been renamed into place). */
    char *dir = vksort_path_dir(path);
    if (!dir)
        return cli_fail(err, n, "out of memory");
    long name_max = pathconf(dir, _PC_NAME_MAX);
    free(dir);
    if (strlen(vksort_path_base(path)) > (size_t)(name_max > 0 ? name_max : 255))
        return cli_fail(err, n, "cannot write '%s': file name too long (at most %ld bytes)", path,
                        name_max > 0 ? name_max : 255L);
    install_handlers();
    /* Next to the final name, hidden, never an existing file (vksort_path_create_temp). */
    const size_t cap = strlen(path) + 160u;
    o->tmp_path = malloc(cap);
    if (!o->tmp_path)
        return cli_fail(err, n, "out of memory");
    o->file = vksort_path_create_temp(path, "vksort-tmp", "wb", o->tmp_path, cap);
    if (!o->file) {
        const int e = errno;
        free(o->tmp_path);
        o->tmp_path = NULL;
        if (e == EEXIST)
            return cli_fail(err, n, "cannot create a temporary file for '%s'", path);
        return cli_fail(err, n, "cannot create a temporary file for '%s': %s", path, strerror(e));
    }
    o->slot = register_cleanup(o->tmp_path);
    /* The file being replaced keeps its permissions (a private file stays private) and, where
     * we may set it, its owner. Best effort: the data is what the command promises. */
    if (exists) {
        if (geteuid() == 0 && fchown(fileno(o->file), st.st_uid, st.st_gid) != 0) {
            /* not fatal: the file stays ours */
        }
        (void)fchmod(fileno(o->file), st.st_mode & 07777);
    }
    return 0;
}

int cli_output_write_array(cli_output *o, const void *data, size_t count, size_t elem_size,
                           const char *npy_descr, char *err, size_t n)
{
    if (o->direct && !o->file) {
        o->file = fopen(o->path, "wb");
        if (!o->file)
            return cli_fail(err, n, "cannot open '%s': %s", o->path, strerror(errno));
    }
    if (!o->file)
        return cli_fail(err, n, "internal error: output '%s' is not open", o->path);
    int ok = 1;
    if (cli_path_is_npy(o->path)) {
        unsigned char header[CLI_NPY_HEADER_MAX];
        size_t len = cli_npy_write_header(header, npy_descr, count);
        ok = fwrite(header, 1, len, o->file) == len;
    }
    if (ok && count > 0)
        ok = fwrite(data, elem_size, count, o->file) == count;
    /* fsync only where the data is a file's (a device or FIFO may not support it). */
    ok = ok && fflush(o->file) == 0 && (o->direct || fsync(fileno(o->file)) == 0);
    int e = errno;
    ok = (fclose(o->file) == 0) && ok;
    o->file = NULL;
    if (!ok)
        return cli_fail(err, n, "cannot write '%s': %s", o->path, strerror(e ? e : errno));
    return 0;
}

int cli_output_commit(cli_output *o, char *err, size_t n)
{
    if (o->direct)
        return o->file ? cli_fail(err, n, "internal error: output '%s' is not finished", o->path) : 0;
    if (!o->tmp_path || o->file)
        return cli_fail(err, n, "internal error: output '%s' is not finished", o->path);
    if (rename(o->tmp_path, o->path) != 0)
        return cli_fail(err, n, "cannot rename the temporary file to '%s': %s", o->path,
                        strerror(errno));
    unregister_cleanup(o);
    free(o->tmp_path);
    o->tmp_path = NULL;
    return 0;
}

void cli_output_discard(cli_output *o)
{
    if (o->file) {
        fclose(o->file);
        o->file = NULL;
    }
    if (o->tmp_path) {
        remove(o->tmp_path);
        free(o->tmp_path);
        o->tmp_path = NULL;
    }
    unregister_cleanup(o);
    free(o->path);
    o->path = NULL;
}
