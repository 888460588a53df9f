#!/bin/bash
# t-shmem-header - the installed shmem.h and shmemx.h are plain: make install
# gives headers with one prototype a line for every routine (each of a list
# found, whitespace aside) and no SHMEM_DECL_ helper left; they compile as
# C11, C99 and C++ with -Wall -Wextra -Werror -pedantic (gcc, clang when
# installed); and they declare what the X-macro sources shmem/shmem.h and
# shmem/shmemx.h declare: the same routine names, and the same preprocessed
# text in C11, C99, C without complex numbers and C++. The comparison is
# checked too: a copy with one prototype removed differs.
. "$(dirname "$0")/shmem/driver.sh"
P=$T/prefix
if ! make -s -C "$B" install prefix="$P" >"$T/inst.log" 2>&1; then
    bad "make install prefix=$P: $(tail -5 "$T/inst.log")"
    finish
fi
I=$P/include

# A prototype of each kind of family, as a user would write it.
protos=(
    'void shmem_init(void);'
    'void shmem_long_put(long *dest, const long *source, size_t nelems, int pe);'
    'long double shmem_longdouble_g(const long double *source, int pe);'
    'void shmem_put64_nbi(void *dest, const void *source, size_t nelems, int pe);'
    'void shmem_ctx_long_put(shmem_ctx_t ctx, long *dest, const long *source, size_t nelems, int pe);'
    'void shmem_ctx_iget128(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);'
    'int shmem_int_atomic_fetch_add(int *dest, int value, int pe);'
    'void shmem_ctx_uint64_atomic_fetch_xor_nbi(shmem_ctx_t ctx, uint64_t *fetch, uint64_t *dest, uint64_t value, int pe);'
    'int shmem_int_fadd(int *dest, int value, int pe) SHMEM_DEPRECATED_;'
    'void shmem_double_put_signal_nbi(double *dest, const double *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);'
    'void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);'
    'int shmem_int_broadcast(shmem_team_t team, int *dest, const int *source, size_t nelems, int PE_root);'
    'int shmem_uint64_and_reduce(shmem_team_t team, uint64_t *dest, const uint64_t *source, size_t nreduce);'
    'int shmem_size_xor_reduce(shmem_team_t team, size_t *dest, const size_t *source, size_t nreduce);'
    'int shmem_longlong_max_reduce(shmem_team_t team, long long *dest, const long long *source, size_t nreduce);'
    'int shmem_ptrdiff_min_reduce(shmem_team_t team, ptrdiff_t *dest, const ptrdiff_t *source, size_t nreduce);'
    'int shmem_complexd_sum_reduce(shmem_team_t team, double _Complex *dest, const double _Complex *source, size_t nreduce);'
    'int shmem_float_prod_reduce(shmem_team_t team, float *dest, const float *source, size_t nreduce);'
    'int shmem_float_sum_inscan(shmem_team_t team, float *dest, const float *source, size_t nelems);'
    'void shmem_int_sum_to_all(int *dest, const int *source, int nreduce, int PE_start, int logPE_stride, int PE_size, int *pWrk, long *pSync);'
    'void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync);'
    'size_t shmem_long_wait_until_any_vector(long *ivars, size_t nelems, const int *status, int cmp, const long *cmp_values);'
    'void shmem_ctx_long_ibget(shmem_ctx_t ctx, long *dest, const long *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);'
)
# The header's lines without SHMEM_API_ and white space, one a line.
flat() { sed -e 's/SHMEM_API_//g' -e 's/[[:space:]]//g' "$@"; }
flat "$I/shmem.h" >"$T/flat"
for p in "${protos[@]}"; do
    if grep -qxF -- "$(printf '%s' "$p" | tr -d '[:space:]')" "$T/flat"; then ok "shmem.h: $p"
    else bad "the installed shmem.h has no line '$p'"; fi
done
p='void shmemx_long_put_signal(long *target, const long *source, size_t len, uint64_t *sig_addr, uint64_t signal, int pe);'
flat "$I/shmemx.h" | grep -qxF -- "$(printf '%s' "$p" | tr -d '[:space:]')" && ok "shmemx.h: $p" ||
    bad "the installed shmemx.h has no line '$p'"
left=$(grep -n 'SHMEMX\?_DECL_' "$I/shmem.h" "$I/shmemx.h")
[ -z "$left" ] && ok "no SHMEM_DECL_ helper left" || bad "SHMEM_DECL_ left in the installed headers: $left"
# Nor a type list applied outside a macro (a helper not named SHMEM_DECL_,
# which header-gen.sh would not write out).
left=$(awk 'cont { cont = /\\$/; next } /^[ \t]*#/ { cont = /\\$/; next }
            /^[ \t]*SHMEMX?_[A-Z0-9_]*\(/ { print FILENAME ":" FNR ": " $0 }' "$I/shmem.h" "$I/shmemx.h")
[ -z "$left" ] && ok "no X-macro line left" || bad "X-macro lines left in the installed headers: $left"

# Warning-free in every language it is for; the C11 generic forms used too.
cat >"$T/use.c" <<'EOF'
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
void use(long *d, const long *s, double _Complex *z);
void use(long *d, const long *s, double _Complex *z)
{
    shmem_long_put(d, s, 1, 0);
    shmem_ctx_long_put(SHMEM_CTX_DEFAULT, d, s, 1, 0);
    pshmem_long_put(d, s, 1, 0);
    shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, z, z, 1);
#if __STDC_VERSION__ >= 201112L
    shmem_put(d, s, 1, 0);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, 1);
#endif
}
EOF
cat >"$T/use.cpp" <<'EOF'
#include <shmem.h>
#include <shmemx.h>
#include <pshmem.h>
void use(long *d, const long *s);
void use(long *d, const long *s)
{
    shmem_long_put(d, s, 1, 0);
    pshmem_long_put(d, s, 1, 0);
    shmem_put(d, s, 1, 0);
}
EOF
strict=(-Wall -Wextra -Werror -pedantic -c)
ccs=(gcc); command -v clang >/dev/null && ccs+=(clang)
cxxs=(); command -v g++ >/dev/null && cxxs+=(g++); command -v clang++ >/dev/null && cxxs+=(clang++)
for cc in "${ccs[@]}"; do
    for std in c11 c99; do
        "$cc" -std=$std "${strict[@]}" -I"$I" -o "$T/use.o" "$T/use.c" 2>"$T/cc.err" &&
            ok "$cc -std=$std -pedantic: no warning" || bad "$cc -std=$std: $(cat "$T/cc.err")"
    done
done
for cxx in "${cxxs[@]}"; do
    "$cxx" -std=c++11 "${strict[@]}" -I"$I" -o "$T/use.o" "$T/use.cpp" 2>"$T/cc.err" &&
        ok "$cxx -std=c++11 -pedantic: no warning" || bad "$cxx: $(cat "$T/cc.err")"
done

# The same names as the sources (the profiling lists' reading of them), by
# the configured compiler.
CC=$(sed -n 's/^CC := //p' "$B/Makefile")
names() { sh "$B/shmem/pshmem-gen.sh" names "${CC:-cc} -std=c11 -I$1" "$1/shmem.h" "$1/shmemx.h" | sort; }
names "$B/shmem" >"$T/names.src"
names "$I" >"$T/names.inst"
if [ "$(wc -l <"$T/names.src")" -gt 1000 ] && cmp -s "$T/names.src" "$T/names.inst"; then
    ok "the same $(wc -l <"$T/names.src") routine names as shmem/shmem.h and shmem/shmemx.h"
else
    bad "names differ from the sources: $(diff "$T/names.src" "$T/names.inst" | head -5)"
fi
# The same preprocessed text, white space aside: every type, every
# attribute, every guard's outcome.
text() { # DIR COMPILER FLAGS...
    local d=$1
    shift
    printf '#include <shmem.h>\n#include <shmemx.h>\n' | "$@" -E -P -I"$d" - | tr -d '[:space:]'
}
same() { # WHAT COMPILER FLAGS...
    local what=$1
    shift
    text "$B/shmem" "$@" >"$T/text.src"
    text "$I" "$@" >"$T/text.inst"
    if [ -s "$T/text.src" ] && cmp -s "$T/text.src" "$T/text.inst"; then ok "$what: the same declarations as the sources"
    else bad "$what: the installed headers preprocess to other text than the sources"; fi
}
for cc in "${ccs[@]}"; do
    same "$cc C11" "$cc" -std=c11 -x c
    same "$cc C99" "$cc" -std=c99 -x c
    same "$cc C11 without complex numbers" "$cc" -std=c11 -D__STDC_NO_COMPLEX__ -x c
done
for cxx in "${cxxs[@]}"; do
    same "$cxx C++" "$cxx" -std=c++11 -x c++
done
# The check finds a prototype missing.
mkdir -p "$T/cut"
cp "$I"/shmem_cxx.h "$I"/shmemx.h "$T/cut/"
grep -v 'shmem_long_put(' "$I/shmem.h" >"$T/cut/shmem.h"
text "$T/cut" gcc -std=c11 -x c >"$T/text.cut"
text "$I" gcc -std=c11 -x c >"$T/text.inst"
cmp -s "$T/text.cut" "$T/text.inst" && bad "the comparison misses a prototype removed" ||
    ok "the comparison finds a prototype removed"

make -s -C "$B" uninstall prefix="$P" >/dev/null 2>&1
finish
