// Radix sort: waiting inside a dispatch for other workgroups (Onesweep's fused pass, the
// no-forward-progress emulation). Polls are plain coherent loads of the state binding (below),
// one per subgroup: an atomic read is a read-modify-write at the L2, and a subgroup's lanes each
// issue one, so hundreds of waiting workgroups queued thousands of them on the one word (and
// its neighbours') that the running workgroups needed for their tickets and counts.
//
// lavapipe (gallivm) ends every loop of an invocation once all its loops together have run
// 65535 iterations: a long wait there silently cut the wait and every later loop short (wrong
// output, docs/vulkan.md). So a wait polls POLL_BURST times per loop iteration: 1 on GPUs (the
// loop is what it was), more where the host knows of the limit.
#ifndef VKSORT_RADIX_WAIT_GLSL
#define VKSORT_RADIX_WAIT_GLSL

#extension GL_KHR_shader_subgroup_ballot : require

layout(constant_id = 9) const uint POLL_BURST = 1u;

layout(set = 0, binding = RADIX_BINDING_STATE, std430) coherent volatile buffer StatePoll {
    uint state_poll[];
};

// Waits until state[word] >= target, as a whole subgroup (every lane reads the same value, so
// all leave together: lanes leaving a spin loop at different iterations broke on lavapipe), for
// at most max_polls polls (0: no bound). Returns whether the target was reached. The caller
// orders its later reads after the wait (a barrier and memoryBarrierBuffer, as the words it
// waits for were published after the writes they count).
bool radix_wait_state(uint word, uint target, uint max_polls)
{
    bool reached = false;
    uint polls = 0u;
    while (!reached && (max_polls == 0u || polls < max_polls)) {
        [[unroll]] for (uint k = 0u; k < POLL_BURST; ++k) {
            if (!reached)
                reached = subgroupBroadcastFirst(state_poll[word]) >= target;
        }
        polls += POLL_BURST;
    }
    return reached;
}

#endif
