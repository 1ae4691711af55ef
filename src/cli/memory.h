/* Memory the CLI is about to ask for, checked against the machine before it is allocated. */
#ifndef VKSORT_CLI_MEMORY_H
#define VKSORT_CLI_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* 0 when `bytes` fit in the machine's physical memory (or when it cannot be asked), else -1
 * with a message naming `what` in err. With overcommit every large malloc succeeds and the
 * kernel's out-of-memory killer ends the process later, mid-work: refusing first is the clear
 * error. */
int cli_check_memory(uint64_t bytes, const char *what, char *err, size_t n);

#endif
