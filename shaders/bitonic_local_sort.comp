#version 450
// Bitonic local sort: each workgroup sorts one tile of TILE elements (the last tile may be
// partial) completely on chip. Reads raw keys, writes order keys for the merge passes that
// follow, or raw keys when the whole array fits in one tile (then this is the only pass). With
// USE_INDICES (stable, several tiles) it also writes each element's input position.
// See OF(local_sort) in bitonic_orbit.glsl.
#extension GL_GOOGLE_include_directive : require
#include "bitonic_tile.glsl"

void main()
{
    VKSORT_BITONIC_DISPATCH(local_sort);
}
