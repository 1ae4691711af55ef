/* The embedded SPIR-V modules (generated vksort_spirv.c, see cmake/embed_spirv.cmake). */
#ifndef VKSORT_VK_SPIRV_BLOBS_H
#define VKSORT_VK_SPIRV_BLOBS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct vksort_spirv_blob {
    const char *name;
    const uint32_t *code;
    size_t size; /* bytes */
} vksort_spirv_blob;

/* Terminated by an entry with name NULL. */
extern const vksort_spirv_blob vksort_spirv_blobs[];

/* The module called `name` in a NULL-terminated table (the library's, or a program's renamed
 * copy: bench, demo), or NULL. */
static inline const vksort_spirv_blob *vksort_spirv_find(const vksort_spirv_blob *table,
                                                          const char *name)
{
    for (const vksort_spirv_blob *b = table; b->name; ++b)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

#endif
