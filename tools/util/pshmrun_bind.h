/* pshmrun_bind.h - pshmrun --bind-to: the CPUs of each rank. */
#ifndef PSHM_TOOLS_PSHMRUN_BIND_H
#define PSHM_TOOLS_PSHMRUN_BIND_H

#include <sched.h>
#include <stddef.h>

typedef enum { BIND_NONE, BIND_CORE, BIND_HWTHREAD } bind_mode_t;

/* "none", "core", "hwthread" (or "cpu"): 0, else -EINVAL. */
int bind_parse(const char *s, bind_mode_t *mode);

/* The CPU set of each of n ranks (*out: n sets, to free; NULL for
 * BIND_NONE): the number of cores (or CPUs) they are spread over, or a
 * negative errno. */
int bind_plan(bind_mode_t mode, int n, cpu_set_t **out);

/* "0-3,6" for a set. */
void bind_format(const cpu_set_t *set, char *buf, size_t len);

#endif
