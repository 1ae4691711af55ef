/* The subcommands. Each takes the arguments after its name and returns an exit code (err.h);
 * on failure err holds the one-line message main() prints. "--help" prints the usage on stdout
 * and returns 0. */
#ifndef VKSORT_CLI_CMDS_H
#define VKSORT_CLI_CMDS_H

#include <stddef.h>
#include <stdio.h>

int cli_cmd_sort(int argc, char **argv, char *err, size_t n);
int cli_cmd_gen(int argc, char **argv, char *err, size_t n);
int cli_cmd_run(int argc, char **argv, char *err, size_t n);

void cli_usage_sort(FILE *f);
void cli_usage_gen(FILE *f);
void cli_usage_run(FILE *f);

#endif
