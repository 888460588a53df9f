/*
 * coll_ops.c - the combining functions of coll_ops.h, from one macro per
 * operator.
 */
#include "coll_ops.h"

/* r = a OP b. Integers wrap (two's complement) instead of overflowing. */
#define COLL_AND(r, a, b) ((r) = (a) & (b))
#define COLL_OR(r, a, b) ((r) = (a) | (b))
#define COLL_XOR(r, a, b) ((r) = (a) ^ (b))
#define COLL_MIN(r, a, b) ((r) = (b) < (a) ? (b) : (a))
#define COLL_MAX(r, a, b) ((r) = (b) > (a) ? (b) : (a))
#define COLL_SUM(r, a, b) ((r) = (a) + (b))
#define COLL_PROD(r, a, b) ((r) = (a) * (b))
#define COLL_ISUM(r, a, b) ((void)__builtin_add_overflow(a, b, &(r)))
#define COLL_IPROD(r, a, b) ((void)__builtin_mul_overflow(a, b, &(r)))

#define COLL_OP_DEF(OP, COMBINE, N, T)                                                \
    void coll_##N##_##OP(void *acc, const void *in, size_t n)                        \
    {                                                                                \
        T *x = acc;                                                                  \
        const T *y = in;                                                             \
        for (size_t i = 0; i < n; i++) {                                             \
            T r;                                                                     \
            COMBINE(r, x[i], y[i]);                                                  \
            x[i] = r;                                                                \
        }                                                                            \
    }

#define COLL_AND_(N, T) COLL_OP_DEF(and, COLL_AND, N, T)
#define COLL_OR_(N, T) COLL_OP_DEF(or, COLL_OR, N, T)
#define COLL_XOR_(N, T) COLL_OP_DEF(xor, COLL_XOR, N, T)
#define COLL_MIN_(N, T) COLL_OP_DEF(min, COLL_MIN, N, T)
#define COLL_MAX_(N, T) COLL_OP_DEF(max, COLL_MAX, N, T)
#define COLL_ISUM_(N, T) COLL_OP_DEF(sum, COLL_ISUM, N, T)
#define COLL_IPROD_(N, T) COLL_OP_DEF(prod, COLL_IPROD, N, T)
#define COLL_SUM_(N, T) COLL_OP_DEF(sum, COLL_SUM, N, T)
#define COLL_PROD_(N, T) COLL_OP_DEF(prod, COLL_PROD, N, T)

COLL_BITWISE_TYPES(COLL_AND_)
COLL_BITWISE_TYPES(COLL_OR_)
COLL_BITWISE_TYPES(COLL_XOR_)
COLL_MINMAX_TYPES(COLL_MIN_)
COLL_MINMAX_TYPES(COLL_MAX_)
COLL_INT_TYPES(COLL_ISUM_)
COLL_INT_TYPES(COLL_IPROD_)
COLL_NONINT_TYPES(COLL_SUM_)
COLL_NONINT_TYPES(COLL_PROD_)
