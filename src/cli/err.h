/* Error reporting for the CLI: every failure becomes one line "vksort: <message>" on stderr. */
#ifndef VKSORT_CLI_ERR_H
#define VKSORT_CLI_ERR_H

#include <stddef.h>

/* Exit codes: 0 success, 1 the work failed (I/O, bad data, sort or verification), 2 bad usage. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

#if defined(__GNUC__)
#define CLI_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define CLI_PRINTF(fmt_index, first_arg)
#endif

/* Formats a message into err (truncated to n bytes) and returns -1, so that a failing check reads
 * `return cli_fail(err, n, "...", ...);`. */
int cli_fail(char *err, size_t n, const char *fmt, ...) CLI_PRINTF(3, 4);

/* The same for a usage error: returns CLI_EXIT_USAGE. */
int cli_fail_usage(char *err, size_t n, const char *fmt, ...) CLI_PRINTF(3, 4);

/* Prints "vksort: <message>" as exactly one line on stderr: control characters (a newline in a
 * file name, say) are shown as '?' so scripts can rely on one line per error. */
void cli_print_error(const char *message);

#endif
