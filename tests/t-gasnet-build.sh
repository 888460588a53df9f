#!/bin/bash
# t-gasnet-build - a GASNet client builds with GASNet's recipe: a makefile
# that includes the build tree's smp-conduit/smp-seq.mak (and -par.mak) and
# uses GASNET_CC, GASNET_CPPFLAGS (with _GNU_SOURCE, as GASNet's), GASNET_CFLAGS,
# GASNET_LD, GASNET_LDFLAGS, GASNET_LIBS; the program runs under GASNETRUN. gasnet.h compiles as C++
# and with -Wstrict-prototypes (GASNET_USE_STRICT_PROTOTYPES=1); a client
# of one thread mode linked with the other mode's library fails the link;
# gasnet_config.h has the release numbers as a configure script reads them.
. "$(dirname "$0")/gasnet/driver.sh"
cat >"$T/hello.c" <<'C'
#include <gasnet.h>
#include <sched.h>
#include <stdio.h>
static volatile int got;
static void ping(gasnet_token_t t, gasnet_handlerarg_t a) { (void)t; got = a; }
int main(int argc, char **argv)
{
    gasnet_handlerentry_t h[] = {{0, (gasnetc_handler_fn_t)ping}};
    if (gasnet_init(&argc, &argv) != GASNET_OK ||
        gasnet_attach(h, 1, GASNET_PAGESIZE, 0) != GASNET_OK)
        return 1;
    gasnet_AMRequestShort1((gasnet_mynode() + 1) % gasnet_nodes(), h[0].index, 42);
    GASNET_BLOCKUNTIL(got == 42);
    printf("node %u of %u got %d\n", (unsigned)gasnet_mynode(), (unsigned)gasnet_nodes(), got);
    (void)sched_getcpu(); /* declared only under _GNU_SOURCE, as GASNet's fragments define it */
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
C
for m in seq par; do
    cat >"$T/Makefile" <<M
include $B/gasnet/include/smp-conduit/smp-$m.mak
hello: hello.o
	\$(GASNET_LD) \$(GASNET_LDFLAGS) -o \$@ hello.o \$(GASNET_LIBS)
hello.o: hello.c
	\$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -Werror=implicit-function-declaration -c hello.c
run: hello
	\$(GASNETRUN) -n \$(N) ./hello
M
    rm -f "$T/hello" "$T/hello.o"
    n=${NODES##* }
    if make -s -C "$T" run N="$n" >"$T/out" 2>"$T/err"; then
        has out "node $((n - 1)) of $n got 42"
        grep -q "THREAD_MODEL = ${m^^}" "$B/gasnet/include/smp-conduit/smp-$m.mak" &&
            ok "smp-$m.mak is the ${m^^} model" || bad "smp-$m.mak does not say ${m^^}"
    else
        bad "make with smp-$m.mak failed:"; sed 's/^/    /' "$T/err"
    fi
done
# The other mode's library: the link names the mode.
cc -D_GNU_SOURCE -DGASNET_SEQ -I"$B/gasnet/include" -c -o "$T/s.o" "$T/hello.c" &&
    ! cc -o "$T/s" "$T/s.o" "$B/libgasnet-smp-par.a" -lpthread 2>"$T/err" &&
    grep -q gasnetc_init_seq "$T/err" && ok "a SEQ client and the PAR library fail the link on gasnetc_init_seq" ||
    bad "a SEQ client linked with the PAR library"
CXX=$(sed -n 's/^GASNET_CXX = //p' "$B/gasnet/include/smp-conduit/smp-par.mak")
if command -v "${CXX%% *}" >/dev/null 2>&1; then
    $CXX -Wall -Wextra -Werror -DGASNET_PAR -I"$B/gasnet/include" -x c++ -c -o "$T/x.o" "$T/hello.c" 2>"$T/err" &&
        ok "gasnet.h compiles as C++" || { bad "gasnet.h as C++:"; sed 's/^/    /' "$T/err"; }
fi
# GASNet's test programs pick their handler type with #ifdef
# GASNET_USE_STRICT_PROTOTYPES: undefined unless the client defines it.
cat >"$T/fn.c" <<'C'
#include <gasnet.h>
#ifdef GASNET_USE_STRICT_PROTOTYPES
typedef void *handler_fn_t;
#else
typedef void (*handler_fn_t)();
#endif
static void ping(gasnet_token_t t, gasnet_handlerarg_t a) { (void)t; (void)a; }
gasnet_handlerentry_t h[] = {{0, (handler_fn_t)ping}};
C
if command -v "${CXX%% *}" >/dev/null 2>&1; then
    $CXX -Wall -Werror -DGASNET_SEQ -I"$B/gasnet/include" -x c++ -c -o "$T/fn.o" "$T/fn.c" 2>"$T/err" &&
        ok "a handler table typed by #ifdef GASNET_USE_STRICT_PROTOTYPES builds as C++" ||
        { bad "a handler table typed by #ifdef GASNET_USE_STRICT_PROTOTYPES, as C++:"; sed 's/^/    /' "$T/err"; }
fi
cc -std=c99 -D_GNU_SOURCE -Wall -Wextra -Werror -Wstrict-prototypes -DGASNET_USE_STRICT_PROTOTYPES=1 -DGASNET_SEQ \
    -I"$B/gasnet/include" -c -o "$T/p.o" "$T/hello.c" 2>"$T/err" &&
    ok "gasnet.h with -Wstrict-prototypes and GASNET_USE_STRICT_PROTOTYPES=1" ||
    { bad "gasnet.h with -Wstrict-prototypes:"; sed 's/^/    /' "$T/err"; }
# A client's configure reads the release from gasnet_config.h, a line each.
cfg=$B/gasnet/include/gasnet_config.h
v=$(for k in MAJOR MINOR PATCH; do awk "/GASNET_RELEASE_VERSION_$k/ {print \$3}" "$cfg"; done | paste -sd.)
[ "$v" = 1.28.0 ] && ok "gasnet_config.h gives release $v, a line per number" ||
    bad "gasnet_config.h's release read as '$v'"
grep -q '^#define HAVE_PTHREAD_H 1$' "$cfg" && ok "gasnet_config.h has HAVE_PTHREAD_H" ||
    bad "gasnet_config.h lacks HAVE_PTHREAD_H"
printf '#include <gasnet.h>\n' >"$T/none.c"
! cc -I"$B/gasnet/include" -c -o "$T/n.o" "$T/none.c" 2>"$T/err" && grep -q "define exactly one of GASNET_SEQ" "$T/err" &&
    ok "no thread mode: gasnet.h says which to define" || bad "gasnet.h without a thread mode"
finish
