/* The benchmark's embedded SPIR-V modules: the generated bench_spirv.c comes from the library's
 * src/vk/cmake/embed_spirv.cmake, whose table (vksort_spirv_blobs) is renamed here so that it
 * cannot replace the library's own at link time; the blob type is the library's. */
#ifndef VKSORT_BENCH_SPIRV_BLOBS_H
#define VKSORT_BENCH_SPIRV_BLOBS_H

#define vksort_spirv_blobs bench_spirv_blobs
#include "../../src/vk/spirv_blobs.h"

#endif
