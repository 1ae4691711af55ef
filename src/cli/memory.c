#include "memory.h"

#include "err.h"

#include <unistd.h>

int cli_check_memory(uint64_t bytes, const char *what, char *err, size_t n)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 0;
    const uint64_t have = (uint64_t)pages * (uint64_t)page;
    if (bytes > have)
        return cli_fail(err, n, "%s needs about %.1f GiB of memory; this machine has %.1f GiB", what,
                        (double)bytes / (1u << 30), (double)have / (1u << 30));
#else
    (void)bytes;
    (void)what;
    (void)err;
    (void)n;
#endif
    return 0;
}
