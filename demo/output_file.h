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
/* The temporary an output is written to before its rename (vksort_path_create_temp, tagged
 * for the demo). */
FILE *demo_output_open_tmp(const char *path, const char *mode, char *tmp, size_t n);

#endif
