#version 450
// Bitonic local merge: the stages of merge level pc.level whose strides fit in a tile, after
// the global merge passes did the larger ones. The last merge level decodes the keys.
// See OF(local_merge) in bitonic_orbit.glsl.
#extension GL_GOOGLE_include_directive : require
#include "bitonic_tile.glsl"

void main()
{
    VKSORT_BITONIC_DISPATCH(local_merge);
}
