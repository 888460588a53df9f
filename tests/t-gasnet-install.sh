#!/bin/bash
# t-gasnet-install - make install lays the GASNet layer out as a GASNet
# installation of its own, $prefix/gasnet: include/ (gasnet.h,
# gasnet_config.h, ..., and smp-conduit/ with gasnet_core.h, where a
# client's configure looks for a conduit, and the fragments), lib/, bin/.
# Nothing of pshm's OpenSHMEM is in that include directory: a client with
# a shmem.h of its own (an OpenSHMEM over GASNet) gets its own through the
# fragment's GASNET_CPPFLAGS. A client builds and runs with the installed
# fragments; bin/gasnetrun_smp is there too; uninstall removes it all.
. "$(dirname "$0")/gasnet/driver.sh"
P=$T/prefix
if ! make -s -C "$B" install prefix="$P" >"$T/inst.log" 2>&1; then
    bad "make install prefix=$P: $(tail -5 "$T/inst.log")"
    finish
fi
R=$P/gasnet
for f in include/gasnet.h include/gasnet_config.h include/gasnet_tools.h include/gasnet_coll.h \
         include/gasnet_am_forms.h include/smp-conduit/gasnet_core.h \
         include/smp-conduit/smp-seq.mak include/smp-conduit/smp-par.mak \
         lib/libgasnet-smp-seq.a lib/libgasnet-smp-par.a bin/gasnetrun_smp; do
    [ -e "$R/$f" ] && ok "installed gasnet/$f" || bad "make install did not install gasnet/$f"
done
[ -x "$P/bin/gasnetrun_smp" ] && ok "bin/gasnetrun_smp runs the layer's launcher" ||
    bad "no bin/gasnetrun_smp"
other=$(find "$R/include" -type f ! -name 'gasnet*' ! -name 'smp-*.mak')
[ -z "$other" ] && ok "gasnet/include holds GASNet's files only" ||
    bad "gasnet/include also holds: $other"
for f in gasnet.h gasnet_config.h smp-conduit; do
    [ -e "$P/include/$f" ] && bad "include/$f is installed beside pshm's shmem.h"
done
grep -q "^GASNET_INCLUDES = -I$R/include -I$R/include/smp-conduit\$" \
    "$R/include/smp-conduit/smp-par.mak" && ok "the fragment points at gasnet/include" ||
    bad "smp-par.mak: $(grep '^GASNET_INCLUDES' "$R/include/smp-conduit/smp-par.mak")"
# A client with a shmem.h of its own, its directory after GASNet's.
mkdir -p "$T/c/inc"
printf '#define CLIENT_SHMEM_H 1\n' >"$T/c/inc/shmem.h"
cat >"$T/c/prog.c" <<'C'
#include <gasnet.h>
#include <shmem.h>
#include <stdio.h>
#ifndef CLIENT_SHMEM_H
#error "another shmem.h than the client's own"
#endif
int main(int argc, char **argv)
{
    if (gasnet_init(&argc, &argv) != GASNET_OK || gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0) != GASNET_OK)
        return 1;
    printf("node %u of %u: %s\n", (unsigned)gasnet_mynode(), (unsigned)gasnet_nodes(),
           GASNET_CORE_NAME_STR);
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
C
n=${NODES##* }
for m in seq par; do
    cat >"$T/c/Makefile" <<M
include $R/include/smp-conduit/smp-$m.mak
prog: prog.c
	\$(GASNET_CC) \$(GASNET_CPPFLAGS) -Iinc \$(GASNET_CFLAGS) -o \$@ prog.c \$(GASNET_LIBS)
run: prog
	\$(GASNETRUN) -n \$(N) ./prog
M
    rm -f "$T/c/prog"
    if make -s -C "$T/c" run N="$n" >"$T/out" 2>"$T/err"; then
        has out "node $((n - 1)) of $n: SMP"
    else
        bad "the installed smp-$m.mak: $(cat "$T/err")"
    fi
done
printf '#include <smp-conduit/gasnet_core.h>\n' >"$T/c/core.c"
! cc -I"$R/include" -c -o "$T/c/core.o" "$T/c/core.c" 2>"$T/err" && grep -q "include gasnet.h" "$T/err" &&
    ok "gasnet_core.h alone says to include gasnet.h" || bad "gasnet_core.h included alone: $(cat "$T/err")"
make -s -C "$B" uninstall prefix="$P" >/dev/null 2>&1
left=$(find "$R" "$P/bin" "$P/include" -name '*gasnet*' 2>/dev/null)
[ -z "$left" ] && ok "make uninstall removed the GASNet layer" || bad "make uninstall left: $left"
finish
