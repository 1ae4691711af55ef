/* The demo's embedded SPIR-V modules. The generated demo_spirv.c comes from the library's
 * src/vk/cmake/embed_spirv.cmake, which writes a table named vksort_spirv_blobs; it is renamed
 * here so that it cannot replace the library's own table at link time. */
#ifndef VKSORT_DEMO_SPIRV_BLOBS_H
#define VKSORT_DEMO_SPIRV_BLOBS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vksort_spirv_blob {
    const char *name;
    const uint32_t *code;
    size_t size; /* bytes */
} vksort_spirv_blob;

#define vksort_spirv_blobs demo_spirv_blobs

/* Terminated by an entry with name NULL. */
extern const vksort_spirv_blob demo_spirv_blobs[];

#endif
