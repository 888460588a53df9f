/*
 * t-strerror: pshm_strerror gives pshm's meaning of every code the library
 * returns where strerror's text would mislead, the same for -err and err,
 * and strerror's text for the others.
 */
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>

static const struct {
    int err;
    const char *text;
} own[] = {
    {ESRCH, "a peer process died"},
    {ECANCELED, "the job was aborted"},
    {ECONNRESET, "the job is over (the launcher ended it or went away)"},
    {ETIMEDOUT, "timed out: other processes of the job did not arrive in time"},
    {EHOSTUNREACH, "rank is not reachable through shared memory"},
    {EAGAIN, "no room now (PSHM_IMMEDIATE)"},
    {EALREADY, "already initialized"},
    {EPROTO, "malformed or unexpected active message"},
    {ENOSPC, "not enough space in the backing store"},
    {EFAULT, "address outside the segment"},
    {EXDEV, "processes of one host are in different namespaces"},
};

int main(void)
{
    int fails = 0;

    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        const char *neg = pshm_strerror(-own[i].err), *pos = pshm_strerror(own[i].err);
        if (strcmp(neg, own[i].text) != 0 || strcmp(pos, own[i].text) != 0) {
            printf("FAIL: pshm_strerror(%d) is \"%s\", (%d) \"%s\"; expected \"%s\"\n",
                   -own[i].err, neg, own[i].err, pos, own[i].text);
            fails++;
        }
    }
    CHECK(strcmp(pshm_strerror(0), "success") == 0);
    CHECK(strcmp(pshm_strerror(-EINVAL), strerror(EINVAL)) == 0);
    if (fails)
        return T_FAIL;
    printf("ok: %zu codes have pshm's text, others strerror's\n", sizeof own / sizeof own[0]);
    return T_PASS;
}
