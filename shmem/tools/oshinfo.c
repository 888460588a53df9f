/*
 * oshinfo - what this OpenSHMEM library is and how the environment sets it:
 * the version of the specification and of the library, how it was built,
 * what it supports, and every SHMEM_* variable with its value, default and
 * accepted values, as oshmem_info tells it of Open MPI's. The variables are
 * parsed as shmem_init parses them: a bad value is told, with status 1.
 */
#include "shmem_internal.h"
#include "team.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "Usage: oshinfo [--env] [--version] [--help]\n"
                 "Shows this OpenSHMEM library's version, build and features, and every\n"
                 "SHMEM_* environment variable it reads with its value, default and\n"
                 "accepted values.\n\n"
                 "      --env       only the environment variables\n"
                 "  -V, --version   only the version\n"
                 "  -h, --help      this help\n\n"
                 "Exit status: 0; 1 a variable has a value the library refuses (told);\n"
                 "2 bad usage.\n");
}

int main(int argc, char **argv)
{
    const pshm_build_info_t *b = pshm_build_info();
    int env_only = 0;
    shm_env_t env;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--env") == 0) {
            env_only = 1;
        } else if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0) {
            printf("%s %d.%d, library %s\n", SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION,
                   SHMEM_MINOR_VERSION, b->version);
            return 0;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "oshinfo: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    shm_env_load(&env); /* a bad value ends here, told as shmem_init tells it */
    if (!env_only) {
        printf("%s\n\n", SHMEM_VENDOR_STRING);
        printf("Library\n");
        printf("  specification          OpenSHMEM %d.%d\n", SHMEM_MAJOR_VERSION,
               SHMEM_MINOR_VERSION);
        printf("  version                %s (libpshmem, with pshm inside)\n", b->version);
        printf("  backend                %s\n", b->backend);
        printf("  configured with        %s\n", b->configure_args);
        printf("  across hosts           %s\n",
               PSHMEM_HAVE_MPI ? "yes, through MPI (mpirun; oshrun --mpi)"
                               : "no: built without MPI, one host per job");
        printf("  thread level           up to SHMEM_THREAD_MULTIPLE\n");
        printf("  teams                  %d at once besides SHMEM_TEAM_WORLD and "
               "SHMEM_TEAM_SHARED\n", TEAM_SLOTS_MAX - 2);
        printf("  symmetric data         the heap and the program's globals and statics\n");
        printf("\nEnvironment\n");
    }
    shm_env_print_vars(&env, stdout);
    return 0;
}
