/* vksort command-line tool: dispatch to the subcommands, print errors as one line. */
#include "backend.h"
#include "cmds.h"
#include "err.h"
#include "vksort/vksort.h"

#include <stdio.h>
#include <string.h>

typedef struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv, char *err, size_t n);
    void (*usage)(FILE *f);
} command;

static const command commands[] = {
    {"sort", "sort a file of keys (and values): raw little-endian or .npy", cli_cmd_sort,
     cli_usage_sort},
    {"gen", "generate test keys of a distribution", cli_cmd_gen, cli_usage_gen},
    {"run", "generate, sort, verify and time in memory (quick benchmark)", cli_cmd_run,
     cli_usage_run},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vksort <command> [options]\n"
            "       vksort --help | --version\n"
            "\n"
            "GPU/CPU key sorting (u32 i32 f32 u64 i64 f64 keys, optional u32 payload).\n"
            "\ncommands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; ++i)
        fprintf(f, "  %-6s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "  help   'vksort help <command>' shows a command's options\n"
               "\nRun 'vksort <command> --help' for a command's options.\n");
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; ++i)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* The exit status of a command that only printed to stdout: failure if the text did not get
 * out (e.g. stdout is a full disk). */
static int printed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_print_error("cannot write to standard output");
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    char err[1024] = "";
    if (argc < 2) {
        cli_print_error("missing command (try 'vksort --help')");
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return printed();
    }
    if (strcmp(name, "--version") == 0) {
        printf("vksort %d.%d.%d\n", VKSORT_VERSION_MAJOR, VKSORT_VERSION_MINOR,
               VKSORT_VERSION_PATCH);
        return printed();
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return printed();
        }
        const command *c = find_command(argv[2]);
        if (!c) {
            snprintf(err, sizeof err, "unknown command '%s' (try 'vksort --help')", argv[2]);
            cli_print_error(err);
            return CLI_EXIT_USAGE;
        }
        c->usage(stdout);
        return printed();
    }
    const command *c = find_command(name);
    if (!c) {
        snprintf(err, sizeof err, "unknown command '%s' (try 'vksort --help')", name);
        cli_print_error(err);
        return CLI_EXIT_USAGE;
    }
    int rc = c->run(argc - 2, argv + 2, err, sizeof err);
    cli_backends_release();
    if (rc != CLI_EXIT_OK) {
        cli_print_error(err);
        return rc;
    }
    return printed();
}
