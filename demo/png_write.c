/* PNG output through libpng (see png_write.h). */
#include "png_write.h"

#include "output_file.h"

#include <png.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libpng's errors end in the longjmp below, which reports them in one line of our own. */
static void quiet_png_error(png_structp png, png_const_charp message)
{
    (void)message;
    png_longjmp(png, 1);
}
static void quiet_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

static int write_rows(FILE *f, png_bytep *rows, uint32_t width, uint32_t height)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, quiet_png_error,
                                              quiet_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int demo_png_write(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, int bgra)
{
    char tmp[4096];
    uint8_t *rgb = malloc((size_t)width * height * 3u);
    png_bytep *rows = malloc(sizeof *rows * height);
    if (!rgb || !rows) {
        free(rgb);
        free(rows);
        fprintf(stderr, "vksort-demo: out of memory writing %s\n", path);
        return -1;
    }
    for (size_t i = 0; i < (size_t)width * height; ++i) {
        const uint8_t *p = pixels + i * 4u;
        rgb[i * 3 + 0] = bgra ? p[2] : p[0];
        rgb[i * 3 + 1] = p[1];
        rgb[i * 3 + 2] = bgra ? p[0] : p[2];
    }
    for (uint32_t y = 0; y < height; ++y)
        rows[y] = rgb + (size_t)y * width * 3u;
    FILE *f = demo_output_open_tmp(path, "wb", tmp, sizeof tmp);
    int rc = f ? write_rows(f, rows, width, height) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    free(rgb);
    free(rows);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "vksort-demo: cannot write %s: %s\n", path, strerror(errno));
        if (f)
            remove(tmp);
        return -1;
    }
    return 0;
}
