#!/bin/bash
# t-shmem-hybrid - a program that uses MPI and OpenSHMEM (tests/shmem/
# hybrid.c; OpenSHMEM 1.6 "Interoperability"): oshcc builds it (mpi.h
# found through MPI's compile flags, which -showme:compile gives), and it
# runs with either initialized first (MPI_Init then shmem_init; shmem_init
# then MPI_Init; shmem_init then MPI_Init only if MPI_Initialized says no)
# and either finalized first: under oshrun (every PE an MPI singleton),
# under mpirun in one supernode and split into two (the layer's MPI traffic
# beside the program's, progress thread on), linked with libpshmem.a and
# with libpshmem.so.
. "$(dirname "$0")/shmem/driver.sh"
if ! grep -q '^SHMEM_MPI := 1' "$B/Makefile" 2>/dev/null; then
    echo "SKIP: the OpenSHMEM layer is built without MPI"
    exit 77
fi
S=$(cd "$(dirname "$0")/.." && pwd)/tests/shmem
MPICC=$(sed -n 's/^MPICC := //p' "$B/Makefile")
CC=$(sed -n 's/^CC := //p' "$B/Makefile")

mpiflags=$($MPICC --showme:compile 2>/dev/null || $MPICC -compile_info 2>/dev/null)
case " $("$B/shmem/oshcc" -showme:compile) " in
*" -I$B/shmem/include "*) ok "oshcc -showme:compile: $("$B/shmem/oshcc" -showme:compile)" ;;
*) bad "oshcc -showme:compile: $("$B/shmem/oshcc" -showme:compile)" ;;
esac
for w in $mpiflags; do
    case $w in -I*)
        case " $("$B/shmem/oshcc" -showme:compile) " in *" $w "*) ;; *) bad "oshcc -showme:compile lacks MPI's $w" ;; esac ;;
    esac
done
H=$T/hybrid
"$B/shmem/oshcc" -std=c11 -O2 -Wall -Wextra -Werror -DPSHMEM_HAVE_MPI=1 -I"$S" -o "$H" "$S/hybrid.c" \
    2>"$T/cc.err" && ok "oshcc builds a program that includes mpi.h" ||
    { bad "oshcc cannot build hybrid.c: $(cat "$T/cc.err")"; finish; }

orders="mpi:shmem mpi:mpi shmem:shmem shmem:mpi check:shmem check:mpi"
# Under oshrun: no MPI launcher, the layer does not use MPI.
for o in mpi:shmem shmem:mpi check:shmem; do
    m=${PES%% *}
    job 0 "$m" "$H" "${o%:*}" "${o#*:}" && expect_out "^hybrid ${o%:*} ${o#*:}: $m PEs, 1 MPI ranks"
done

. "$(dirname "$0")/shmem/split.sh"
export SHMEM_PROGRESS_INTERVAL=50
for l in 2:maxsize=2 4:hosts=2; do
    split_layout "$l"
    for o in $orders; do
        job 0 "$PES" "$H" "${o%:*}" "${o#*:}" &&
            expect_out "^hybrid ${o%:*} ${o#*:}: $PES PEs, $PES MPI ranks: PE = rank"
    done
done
# make's build of it, and one against libpshmem.so listed before MPI.
split_layout 4:hosts=2
job 0 4 "$B/tests/shmem/hybrid" shmem mpi && expect_out "^hybrid shmem mpi: 4 PEs"
# shellcheck disable=SC2086
if $CC -std=c11 -O2 -I"$B/shmem/include" -I"$S" -DPSHMEM_HAVE_MPI=1 $mpiflags -o "$T/shared" "$S/hybrid.c" \
    -L"$B" -lpshmem $($MPICC --showme:link 2>/dev/null) 2>"$T/cc.err"; then
    SPLIT_ENV+=("LD_LIBRARY_PATH=$B")
    for o in shmem:shmem shmem:mpi; do
        job 0 4 "$T/shared" "${o%:*}" "${o#*:}" && expect_out "^hybrid ${o%:*} ${o#*:}: 4 PEs"
    done
else
    bad "cannot build hybrid.c against libpshmem.so: $(cat "$T/cc.err")"
fi
finish
