/* NumPy .npy files: header parsing (format versions 1.0, 2.0, 3.0) and header writing (1.0).
 * Layout: "\x93NUMPY", major, minor, header length (u16 LE for 1.x, u32 LE for 2.x/3.x), then an
 * ASCII (3.x: UTF-8) Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
 * padded with spaces and a newline; the array data follows. */
#ifndef VKSORT_CLI_NPY_H
#define VKSORT_CLI_NPY_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>

#define CLI_NPY_MAX_DIMS 64   /* numpy 2 allows 64 dimensions */
/* numpy aligns the data start to this many bytes (it used 16 before numpy 1.14). */
#define CLI_NPY_ALIGN 64
/* A 1-D header written by cli_npy_write_header never needs more than this. */
#define CLI_NPY_HEADER_MAX 128

typedef struct cli_npy_info {
    unsigned major, minor;      /* format version */
    char descr[32];             /* dtype string, e.g. "<f4"; "" when not a simple string */
    int fortran_order;
    size_t ndim;
    uint64_t shape[CLI_NPY_MAX_DIMS];
    size_t data_offset;         /* where the array data starts in the file */
} cli_npy_info;

/* Parses the header of a .npy file held in memory (size bytes). Checks the magic, version,
 * header length and dict syntax, and that the three keys are present exactly once; it does
 * not judge the dtype or shape (the caller knows what it wants). */
int cli_npy_parse(const unsigned char *file, size_t size, cli_npy_info *out, char *err,
                  size_t n);

/* Writes a version 1.0 header for a 1-D C-order array of count elements of dtype descr into
 * out (at least CLI_NPY_HEADER_MAX bytes). Returns its size, a multiple of CLI_NPY_ALIGN. */
size_t cli_npy_write_header(unsigned char *out, const char *descr, uint64_t count);

/* The little-endian dtype string of a key type ("<u4", "<i4", "<f4", "<u8", "<i8", "<f8"). */
const char *cli_npy_descr(vksort_key_type type);
/* The dtype of payload values. */
#define CLI_NPY_DESCR_VALUES "<u4"

/* Whether a path names a .npy file (ends in ".npy", any case). */
int cli_path_is_npy(const char *path);

#endif
