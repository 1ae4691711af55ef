/* File-name helpers shared by the command-line tool and the demo (POSIX hosts): which names
 * are one file, the parts of a name, and the temporary file an output is written to before it is
 * renamed into place. Not part of the library's API. */
#ifndef VKSORT_PATH_UTIL_H
#define VKSORT_PATH_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* The directory part of path ("." when there is none, "/" for a name in the root), malloc'ed;
 * NULL when out of memory. */
char *vksort_path_dir(const char *path);
/* The last component of path (a pointer into it). */
const char *vksort_path_base(const char *path);
/* 1 when the two names are one file: the same existing file (device and inode, through links
 * and other spellings), or, for names not there yet, the same last component in the same
 * directory (its real path). */
int vksort_path_same_file(const char *a, const char *b);
/* Creates and opens (fopen mode "wb" or "w", exclusively: never an existing file) a temporary
 * file in path's directory, so a rename cannot cross file systems, named
 * ".<base>.<tag>.<pid>.<n>" with the base cut to 64 bytes (hidden, and within NAME_MAX for any
 * name path may have); its name goes to tmp (n bytes). NULL with errno set on failure
 * (ENAMETOOLONG: tmp too small; EEXIST: no free name after 100 tries). */
FILE *vksort_path_create_temp(const char *path, const char *tag, const char *mode, char *tmp,
                              size_t n);

#endif
