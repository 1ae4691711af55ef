/* Files: reading whole arrays (raw little-endian or .npy, chosen by the file name) and writing
 * outputs atomically (a temporary file in the same directory, renamed into place on success).
 * Functions return 0 on success or -1 with a message in err. */
#ifndef VKSORT_CLI_IO_H
#define VKSORT_CLI_IO_H

#include <stddef.h>
#include <stdio.h>

/* Reads a whole file into a malloc'ed buffer (*data, free() it; never NULL on success, even for
 * an empty file). */
int cli_read_file(const char *path, unsigned char **data, size_t *size, char *err, size_t n);

/* Loads a 1-D array of elem_size-byte little-endian elements. A path ending in ".npy" must hold
 * a 1-D C-order array of dtype npy_descr (version 1.0, 2.0 or 3.0) and nothing after the data;
 * any other path is raw data whose size must be a multiple of elem_size. what ("u32 keys",
 * "values") names the elements in messages. *out is malloc'ed (free() it), never NULL. */
int cli_load_array(const char *path, size_t elem_size, const char *npy_descr, const char *what,
                   void **out, size_t *count, char *err, size_t n);

/* An output under construction. Until cli_output_commit() the data lives in a temporary file
 * next to `path`, so a failure (or Ctrl-C: SIGINT/SIGTERM/SIGHUP remove it too) never leaves a
 * half-written file under the final name and never disturbs an existing one. A symbolic link is
 * followed (its target is replaced, the link stays); an existing device, FIFO or socket (e.g.
 * /dev/null, /dev/stdout) cannot be replaced by a rename and is written directly instead. */
typedef struct cli_output {
    char *path;      /* final name (a link's target) */
    char *tmp_path;  /* temporary file; NULL when there is none (not created, committed, removed) */
    FILE *file;      /* open while writing */
    int slot;        /* entry in the signal-cleanup table, -1 when none */
    int direct;      /* 1: path is a device, FIFO or socket, written in place */
} cli_output;

/* Zero state: safe to pass to cli_output_discard() without having created anything. */
#define CLI_OUTPUT_INIT {NULL, NULL, NULL, -1, 0}

/* Creates the temporary file for `path` (checks a direct output's name only: it is opened when
 * written). Refuses, before any work: a directory, a dangling link, a name longer than its file
 * system allows. An existing regular file's permission bits (and, for root, owner) carry over. */
int cli_output_create(cli_output *o, const char *path, char *err, size_t n);

/* Writes count elem_size-byte elements: a .npy 1.0 header of dtype npy_descr first when path ends
 * in ".npy", raw otherwise; then flushes, syncs and closes the temporary file. */
int cli_output_write_array(cli_output *o, const void *data, size_t count, size_t elem_size,
                           const char *npy_descr, char *err, size_t n);
/* Renames the finished temporary file to its final name (replacing any file there). */
int cli_output_commit(cli_output *o, char *err, size_t n);
/* Removes the temporary file if it still exists and frees the names. Always safe to call. */
void cli_output_discard(cli_output *o);

#endif
