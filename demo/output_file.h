/* The demo's output files (the screenshot PNG, the timings CSV): checked before any Vulkan
 * work, written to a temporary file next to them and renamed on success, so a failed run never
 * leaves a half-written file or clobbers an earlier one. */
#ifndef VKSORT_DEMO_OUTPUT_FILE_H
#define VKSORT_DEMO_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* 0 when `path` can be written: not empty, not a directory, its directory writable (a temporary
 * is created and removed). Else -1, with one line on stderr naming `option`. */
int demo_output_check(const char *option, const char *path);
/* 1 when the two paths name one file (the same existing file, or the same name in the same
 * directory). */
int demo_output_same(const char *a, const char *b);
/* Creates and opens (mode "wb" or "w", exclusive) a temporary file for `path` in its directory,
 * its name in tmp (n bytes; a hidden name short enough for any file name `path` may have).
 * NULL with errno set on failure. */
FILE *demo_output_open_tmp(const char *path, const char *mode, char *tmp, size_t n);

#endif
