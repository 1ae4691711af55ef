/* File-name helpers shared by the command-line tool and the demo (POSIX hosts): which names
 * are one file, and the parts of a name. Not part of the library's API. */
#ifndef VKSORT_PATH_UTIL_H
#define VKSORT_PATH_UTIL_H

/* The directory part of path ("." when there is none, "/" for a name in the root), malloc'ed;
 * NULL when out of memory. */
char *vksort_path_dir(const char *path);
/* The last component of path (a pointer into it). */
const char *vksort_path_base(const char *path);
/* 1 when the two names are one file: the same existing file (device and inode, through links
 * and other spellings), or, for names not there yet, the same last component in the same
 * directory (its real path). */
int vksort_path_same_file(const char *a, const char *b);

#endif
