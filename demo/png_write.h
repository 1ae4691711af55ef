/* PNG output (libpng): written to a temporary file next to `path` (output_file.h) and renamed,
 * so that a failure never leaves a half-written file at `path`. */
#ifndef VKSORT_DEMO_PNG_WRITE_H
#define VKSORT_DEMO_PNG_WRITE_H

#include <stdint.h>

/* pixels: width*height RGBA8 (bgra != 0: BGRA8, swapped while writing). Alpha is written as
 * opaque. Returns 0, or -1 with a message on stderr. */
int demo_png_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, int bgra);

#endif
