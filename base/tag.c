/*
 * tag.c - the job tag: the word every shared object of a job is named with,
 * chosen by pshmrun or the bootstrap and checked wherever one arrives.
 */
#include "base/base.h"

bool tag_valid(const char *tag)
{
    size_t n = 0;

    if (tag == NULL)
        return false;
    for (; tag[n] != '\0'; n++) {
        char c = tag[n];
        if (n >= PSHM_TAG_MAX || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return false;
    }
    return n >= 1;
}
