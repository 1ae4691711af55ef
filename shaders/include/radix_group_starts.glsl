// Portable sort: scan groups' totals -> the groups' starts (radix_interface.h, RADIX_SCAN_GROUP).
// The includer declares `hist` (the histogram binding, holding the totals) and `lookback` (the
// look-back binding, where the starts go).
#ifndef VKSORT_RADIX_GROUP_STARTS_GLSL
#define VKSORT_RADIX_GROUP_STARTS_GLSL

#ifndef SCAN_LOADS
#define SCAN_LOADS 8u
#endif

// For one digit: the totals hist[totals + g * RADIX_DIGITS], g < groups, become the starts
// lookback[RADIX_GROUP_ROWS(pc.max_tiles) + g * RADIX_DIGITS + digit] = run + the groups before;
// with `clear`, each total read is zeroed for the next use. SCAN_LOADS loads in flight at a time
// (all 32 at once took the upsweep from 32 to 48 registers and 30 to 49 us at 2^24 u32 keys on
// the H200; 4, 8 and 16 timed the same).
void radix_group_starts(uint digit, uint totals, uint groups, uint run, bool clear)
{
    uint starts = RADIX_GROUP_ROWS(pc.max_tiles) + digit;
    [[dont_unroll]] for (uint g0 = 0u; g0 < groups; g0 += SCAN_LOADS) {
        uint c[SCAN_LOADS];
        [[unroll]] for (uint g = 0u; g < SCAN_LOADS; ++g)
            c[g] = g0 + g < groups ? hist[totals + (g0 + g) * RADIX_DIGITS] : 0u;
        [[unroll]] for (uint g = 0u; g < SCAN_LOADS; ++g) {
            if (g0 + g < groups) {
                lookback[starts + (g0 + g) * RADIX_DIGITS] = run;
                if (clear)
                    hist[totals + (g0 + g) * RADIX_DIGITS] = 0u;
            }
            run += c[g];
        }
    }
}

#endif
