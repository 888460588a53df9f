#!/bin/bash
# t-shmem-env-words - what an OpenSHMEM user is told about the environment,
# in the words of the variables the user set: a heap too large for a
# limit names SHMEM_SYMMETRIC_SIZE, the binding limit and the per-PE
# figure, never "rank"; a misspelt SHMEM_* or SMA_* variable is told with
# the name it was meant to be; the SHMEM_INFO text lists SHMEM_DEBUG's off
# values as the manual does.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/hello_args

if [ "$PES" != 1 ]; then
    # GASNET_MAX_SEGSIZE as the binding limit, whatever the machine's store.
    GASNET_MAX_SEGSIZE=64M SHMEM_SYMMETRIC_SIZE=1G job 1 2 "$P"
    expect_err "shmem: shmem_init: SHMEM_SYMMETRIC_SIZE=1G asks for a symmetric heap of 1073741824 bytes per PE, but each of the 2 PEs on this host can have at most 64.0 MiB"
    expect_err "lower SHMEM_SYMMETRIC_SIZE, run fewer PEs on this host, or raise the limit, which is GASNET_MAX_SEGSIZE"
    expect_err "PE 0 (pid"
    if grep -q "rank \|pshm_abort" "$T/err"; then bad "pshm's words in an OpenSHMEM message: $(cat "$T/err")"; else ok "no pshm words"; fi
    [ "$(grep -c '^shmem:' "$T/err")" = 1 ] && ok "told once" || bad "told $(grep -c '^shmem:' "$T/err") times"
fi

SHMEM_SYMETRIC_SIZE=1G SMA_DEBUGG=1 job 0 "${PES%% *}" "$P"
expect_err "shmem: warning: SHMEM_SYMETRIC_SIZE is not a variable this OpenSHMEM reads; did you mean SHMEM_SYMMETRIC_SIZE?"
expect_err "shmem: warning: SMA_DEBUGG is not a variable this OpenSHMEM reads; did you mean SMA_DEBUG?"
[ "$(grep -c 'SHMEM_SYMETRIC_SIZE' "$T/err")" = 1 ] && ok "told by one PE" || bad "told by several PEs: $(cat "$T/err")"
SHMEM_DEBUG=0 SHMEM_INFO=1 job 0 "${PES%% *}" "$P"
expect_out "0, no, false, off, n or the empty string: off"
grep -q "SHMEM_DEBUG" "$T/err" && bad "SHMEM_DEBUG told as unknown" || ok "known variables are not told"
finish
