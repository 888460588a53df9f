/*
 * envwarn.c - variables that look like pshm's but that it does not read.
 *
 * A misspelt GASNET_PSHMNET_QUEU_DEPTH would otherwise be ignored without a
 * word and the job would run with the default. The library never prints:
 * it hands the warnings out as text (pshm_env_warnings) and the tools print.
 */
#include "base/base.h"
#include "pshm/launch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

/* Read by pshmrun's processes, the tools and the test suite: not typos. */
static const char *const other_vars[] = {
    LAUNCH_ENV_RANK, LAUNCH_ENV_SIZE, LAUNCH_ENV_TAG, LAUNCH_ENV_FD,
    "PSHM_BUILD", "PSHM_TEST_TIMEOUT", "PSHM_TEST_LAUNCH_FLAGS", NULL,
};

/* GASNet's own variables of the same purpose, which pshm spells otherwise:
 * the warning says what to use instead. */
static const struct { const char *name, *instead; } gasnet_vars[] = {
    { "GASNET_PSHM_NODES", "GASNet's smp conduit sizes its job with it; give pshm's launcher "
      "the size instead (pshmrun -n N, oshrun -n N)" },
    { "GASNET_PSHM_NETWORK_DEPTH", "it is GASNet's old name of GASNET_PSHMNET_QUEUE_DEPTH, "
      "which pshm reads" },
    { NULL, NULL },
};

static const char *instead_of(const char *name)
{
    for (int i = 0; gasnet_vars[i].name; i++)
        if (!strcmp(gasnet_vars[i].name, name)) return gasnet_vars[i].instead;
    return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[130];
    if (la > 128 || lb > 128) return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static bool known(const char *name)
{
    for (int i = 0; pshm_env_vars[i].name; i++)
        if (!strcmp(pshm_env_vars[i].name, name)) return true;
    for (int i = 0; other_vars[i]; i++)
        if (!strcmp(other_vars[i], name)) return true;
    return false;
}

int env_unknown_each(int (*fn)(const char *name, const char *suggest, void *arg), void *arg)
{
    for (char **e = environ; e != NULL && *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        char name[128];
        if (len == 0 || len >= sizeof name) continue;
        memcpy(name, *e, len);
        name[len] = 0;
        bool ours = !strncmp(name, "GASNET_PSHM", 11) || !strncmp(name, "PSHM_", 5);
        if ((!ours && strncmp(name, "GASNET_", 7)) || known(name)) continue;

        const char *best = NULL;
        size_t bd = SIZE_MAX;
        for (int i = 0; pshm_env_vars[i].name; i++) {
            size_t d = edit_distance(name, pshm_env_vars[i].name);
            if (d < bd) bd = d, best = pshm_env_vars[i].name;
        }
        /* Other GASNET_* variables belong to GASNet (GASNET_BACKTRACE, ...):
         * only near misses of ours count. */
        if (!ours && bd > 2) continue;
        int rc = fn(name, bd <= 3 ? best : NULL, arg);
        if (rc != 0) return rc;
    }
    return 0;
}

struct wbuf { char *buf; size_t len, used; int count; };

/* Counts a line of n bytes and appends what fits (NUL-terminated). */
static void wbuf_add(struct wbuf *w, const char *line, int n)
{
    w->count++;
    if (w->buf != NULL && w->len > 0 && n > 0) {
        size_t room = w->len - 1 - w->used, k = (size_t)n < room ? (size_t)n : room;
        memcpy(w->buf + w->used, line, k);
        w->used += k;
        w->buf[w->used] = 0;
    }
}

static int add_warning(const char *name, const char *suggest, void *arg)
{
    struct wbuf *w = arg;
    char line[400];
    const char *instead = instead_of(name);
    int n = instead != NULL
                ? snprintf(line, sizeof line, "%s is not a variable pshm reads: %s\n", name,
                           instead)
                : snprintf(line, sizeof line, "%s is not a variable pshm reads%s%s%s\n", name,
                           suggest ? "; did you mean " : "", suggest ? suggest : "",
                           suggest ? "?" : "");
    wbuf_add(w, line, n);
    return 0;
}

int pshm_env_unknown(const char *prefix, const char *const *known, const char *who, char *buf,
                     size_t len)
{
    struct wbuf w = { buf, len, 0, 0 };
    size_t pl;

    if ((buf == NULL && len != 0) || prefix == NULL || known == NULL || who == NULL)
        return pshm_err(-EINVAL, "pshm_env_unknown: a NULL argument (buf with len %zu)", len);
    if (buf != NULL && len > 0)
        buf[0] = 0;
    pl = strlen(prefix);
    for (char **e = environ; e != NULL && *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t nlen = eq ? (size_t)(eq - *e) : strlen(*e), bd = SIZE_MAX;
        const char *best = NULL;
        char name[128], line[400];
        bool is_known = false;

        if (nlen < pl || nlen >= sizeof name || strncmp(*e, prefix, pl) != 0) continue;
        memcpy(name, *e, nlen);
        name[nlen] = 0;
        for (int i = 0; known[i] != NULL && !is_known; i++) {
            size_t d = edit_distance(name, known[i]);
            is_known = d == 0;
            if (d < bd) bd = d, best = known[i];
        }
        if (is_known) continue;
        int n = snprintf(line, sizeof line, "%s is not a variable %s reads%s%s%s\n", name, who,
                         bd <= 3 ? "; did you mean " : "", bd <= 3 ? best : "",
                         bd <= 3 ? "?" : "");
        wbuf_add(&w, line, n);
    }
    return w.count;
}

int pshm_env_warnings(char *buf, size_t len)
{
    struct wbuf w = { buf, len, 0, 0 };

    if (buf == NULL && len != 0)
        return pshm_err(-EINVAL, "pshm_env_warnings: buf is NULL with len %zu", len);
    if (buf != NULL && len > 0)
        buf[0] = 0;
    (void)env_unknown_each(add_warning, &w);
    return w.count;
}
