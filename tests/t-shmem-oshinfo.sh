#!/bin/bash
# t-shmem-oshinfo - oshinfo tells the library's version, build and every
# SHMEM_* variable with its value, default and accepted values; a value the
# library refuses is told as shmem_init tells it, with status 1; pshm-info
# shows the same variables.
. "$(dirname "$0")/shmem/driver.sh"
I=$B/shmem/tools/oshinfo
[ -x "$I" ] || { bad "$I is not built"; finish; }

env -u SHMEM_SYMMETRIC_SIZE "$I" >"$T/out" 2>"$T/err" && ok "oshinfo exits 0" || bad "oshinfo: $(cat "$T/err")"
grep -q "^  specification  *OpenSHMEM $(sed -n 's/^#define SHMEM_MAJOR_VERSION \([0-9]*\)/\1/p' "$B/shmem/shmem.h")\.$(sed -n 's/^#define SHMEM_MINOR_VERSION \([0-9]*\)/\1/p' "$B/shmem/shmem.h")\$" "$T/out" &&
    ok "the specification's version as shmem.h has it" || bad "no specification line: $(head -5 "$T/out")"
for v in SHMEM_SYMMETRIC_SIZE SHMEM_DEBUG SHMEM_INFO SHMEM_VERSION SHMEM_PROGRESS_INTERVAL; do
    grep -q "^  $v  *.* (default)\$" "$T/out" && ok "$v listed with its value" || bad "$v not listed"
done
[ "$(grep -c '^      default: ' "$T/out")" = 5 ] && [ "$(grep -c '^      accepts: ' "$T/out")" = 5 ] &&
    ok "a default and the accepted values for each" || bad "defaults or accepted values missing"
env -u SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE=64M "$I" --env >"$T/out" 2>&1
grep -q "^  SHMEM_SYMMETRIC_SIZE  *67108864 (SMA_SYMMETRIC_SIZE=64M)\$" "$T/out" &&
    ok "--env: a value set through its SMA_ name" || bad "--env: $(head -3 "$T/out")"
grep -q "^Library" "$T/out" && bad "--env printed more than the variables" || ok "--env: the variables only"
SHMEM_SYMMETRIC_SIZE=12x "$I" >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "SHMEM_SYMMETRIC_SIZE='12x' is not a heap size" "$T/err" &&
    ok "a refused value: status 1, told" || bad "SHMEM_SYMMETRIC_SIZE=12x: $(cat "$T/err")"
"$I" --bogus >/dev/null 2>"$T/err"; [ $? = 2 ] && ok "an unknown option: status 2" || bad "--bogus: $(cat "$T/err")"
"$I" --version | grep -q "^pshm OpenSHMEM [0-9]*\.[0-9]*, library " && ok "--version" || bad "--version"
"$B/tools/pshm-info" >"$T/out" 2>&1
grep -q "^OpenSHMEM layer (.*oshinfo --env)\$" "$T/out" && grep -q "^  SHMEM_SYMMETRIC_SIZE " "$T/out" &&
    ok "pshm-info shows the SHMEM_* variables" || bad "pshm-info has no OpenSHMEM section: $(tail -3 "$T/out")"
finish
