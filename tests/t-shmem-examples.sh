#!/bin/bash
# t-shmem-examples - the OpenSHMEM programs docs/shmem.md shows
# (docs/examples/shmem/*.c) build with oshcc as the manual says and run at
# every PE count with the output it promises.
. "$(dirname "$0")/shmem/driver.sh"
EX=$B/docs/examples/shmem

for src in "$EX"/*.c; do
    name=$(basename "$src" .c)
    if (cd "$T" && "$B/shmem/oshcc" -o "$name" "$src") 2>"$T/cc.err"; then
        ok "oshcc -o $name $name.c"
    else
        bad "oshcc -o $name $name.c: $(cat "$T/cc.err")"
        continue
    fi
    for n in $PES; do
        job 0 "$n" "$T/$name" || continue
        case $name in
        hello)
            got=$(grep -c "^Hello from PE [0-9]* of $n\$" "$T/out")
            [ "$got" = "$n" ] && ok "hello: $n lines" || bad "hello at $n PEs: $(cat "$T/out")" ;;
        ring) expect_out "^ring: every PE of $n heard from its left neighbour\$" ;;
        atomics) expect_out "^atomics: counter and reduction agree: $((n * (n + 1) / 2))\$" ;;
        team_split) expect_out "^team_split: " ;;
        *) bad "no expected output is known for $name: add it here" ;;
        esac
    done
done
finish
