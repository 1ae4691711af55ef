/* The embedded SPIR-V modules (generated vksort_spirv.c, see cmake/embed_spirv.cmake). */
#ifndef VKSORT_VK_SPIRV_BLOBS_H
#define VKSORT_VK_SPIRV_BLOBS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vksort_spirv_blob {
    const char *name;
    const uint32_t *code;
    size_t size; /* bytes */
} vksort_spirv_blob;

/* Terminated by an entry with name NULL. */
extern const vksort_spirv_blob vksort_spirv_blobs[];

#endif
