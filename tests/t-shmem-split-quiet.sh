#!/bin/bash
# t-shmem-split-quiet - in a job that spans supernodes, shmem_quiet after
# puts to a PE of this supernode only (nothing through MPI since the last
# quiet) costs what it costs in a job of one supernode, give or take one
# compare: instructions per call counted with callgrind on PE 0
# (shmem/bench/shmem-count.c p, collection inside shmem_quiet only), one
# supernode under mpirun against a split job (3 PEs on 2 simulated hosts,
# PE 2 on PE 0's). Skipped without valgrind.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
[ "$SPLIT_ALONE" = yes ] && { echo "SKIP: no shared memory (--disable-pshm): every put goes through MPI"; exit 77; }
command -v valgrind >/dev/null || { echo "SKIP: no valgrind (apt-get install -y valgrind)"; exit 77; }
S=$(cd "$(dirname "$0")/.." && pwd)/shmem/bench
calls=2000
"$B/shmem/oshcc" -std=c11 -O2 -Wall -Wextra -Werror -o "$T/shmem-count" "$S/shmem-count.c" ||
    { bad "oshcc does not build shmem-count.c"; finish; }
cat >"$T/cg.sh" <<CG
#!/bin/sh
case \${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}} in
0) exec valgrind -q --tool=callgrind --collect-atstart=no --toggle-collect=shmem_quiet \\
     --toggle-collect=pshmem_quiet \\
     --callgrind-out-file="$T/cg.out" "\$@" ;;
*) exec "\$@" ;;
esac
CG
chmod +x "$T/cg.sh"
# per_call NP PEER [ENV...]: shmem_quiet's instructions per call on PE 0
# (-1 when the job failed, its output on stderr).
per_call() {
    local np=$1 peer=$2
    shift 2
    rm -f "$T/cg.out"
    if ! env "$@" timeout -k 10 120 "$MPIRUN" "${MPIOPTS[@]}" -np "$np" "$T/cg.sh" \
        "$T/shmem-count" p "$calls" "$peer" >"$T/out" 2>&1 || [ ! -s "$T/cg.out" ]; then
        sed 's/^/    /' "$T/out" | tail -10 >&2
        echo -1
        return
    fi
    sed -n 's/^summary: *//p' "$T/cg.out" | awk -v n="$calls" '{ printf "%d", ($1 + n - 1) / n }'
}
one=$(per_call 2 1)
split=$(per_call 3 2 PSHM_SIM_HOSTS=2)
if [ "$one" -gt 0 ] && [ "$split" -gt 0 ]; then
    # Up to 3 more: a load, a compare and a branch.
    [ "$split" -le $((one + 3)) ] &&
        ok "shmem_quiet: $one instructions per call in one supernode, $split in a split job" ||
        bad "shmem_quiet costs $split instructions per call in a split job, $one in one supernode (expected at most $((one + 3)))"
else
    bad "shmem-count p under callgrind failed (one supernode: $one, split: $split)"
fi
finish
