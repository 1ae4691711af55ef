/* One-line error messages. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int cli_fail(char *err, size_t n, const char *fmt, ...)
{
    if (err && n > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int cli_fail_usage(char *err, size_t n, const char *fmt, ...)
{
    if (err && n > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return CLI_EXIT_USAGE;
}

void cli_print_error(const char *message)
{
    if (!message || !*message)
        message = "failed (no details)";
    fputs("vksort: ", stderr);
    for (const char *p = message; *p; ++p) {
        unsigned char c = (unsigned char)*p;
        fputc(c < 0x20 || c == 0x7f ? '?' : (int)c, stderr);
    }
    fputc('\n', stderr);
    fflush(stderr);
}
