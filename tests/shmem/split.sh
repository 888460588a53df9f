# split.sh - sourced after driver.sh by the tests that run OpenSHMEM jobs
# whose PEs are split into several supernodes (tests/t-shmem-split-*.sh,
# tests/t-shmem-hosts-*.sh): the jobs run under mpirun, so that the PEs of
# other supernodes are reached through MPI.
#
# A layout is N:hosts=K (N PEs, PSHM_SIM_HOSTS=K: PE r on simulated host
# r % K) or N:maxsize=M (N PEs on this host, GASNET_SUPERNODE_MAXSIZE=M:
# ranks in order, M to a supernode).
# Built without shared memory (--disable-pshm), every PE is alone in each.
# The default three give a job with two PEs in each supernode, one with
# supernodes of 2 and of 1 PEs, and one where every PE is alone:
#   4:hosts=2    {0,2} {1,3}
#   5:hosts=4    {0,4} {1} {2} {3}
#   3:maxsize=1  {0} {1} {2}
# SHMEM_SPLIT_LAYOUTS overrides the list (space-separated).
#
#   split_layout L   makes L the layout of the next jobs: PES is its N, and
#                    job (driver.sh's interface) runs under mpirun with it
#   per_layout F     calls the function F once in each layout

if ! grep -q '^SHMEM_MPI := 1' "$B/Makefile" 2>/dev/null; then
    echo "SKIP: the OpenSHMEM layer is built without MPI (configure found none, or"
    echo "was given --without-mpi): PEs of other supernodes need it"
    exit 77
fi
MPIRUN=$(command -v mpirun || command -v mpiexec)
if [ -z "$MPIRUN" ]; then
    echo "SKIP: configured with MPI but no mpirun or mpiexec in PATH"
    exit 77
fi
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
    # --bind-to none: more PEs than CPUs, and the waits yield by themselves.
    MPIOPTS=(--allow-run-as-root --oversubscribe --bind-to none)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
else # MPICH's hydra passes the environment on by default
    MPIOPTS=()
fi
# Not under pshmrun: the bootstrap is MPI's.
unset PSHM_RANK PSHM_SIZE PSHM_JOB_TAG PSHM_BOOT_FD PSHM_SIM_HOSTS GASNET_SUPERNODE_MAXSIZE

SPLIT_LAYOUTS=${SHMEM_SPLIT_LAYOUTS:-"4:hosts=2 5:hosts=4 3:maxsize=1"}
SPLIT_ENV=()
SPLIT_NAME=""
SPLIT_ALONE=no
grep -q "define PSHM_BACKEND_NONE 1" "$B/config.h" 2>/dev/null && SPLIT_ALONE=yes
# Seconds a job may take before it counts as hung (it is then ended).
SPLIT_TIMEOUT=${SHMEM_SPLIT_TIMEOUT:-60}

per_layout() {
    local l
    for l in $SPLIT_LAYOUTS; do
        split_layout "$l" && "$@"
    done
}

split_layout() {
    local n=${1%%:*} how=${1#*:}
    case $n:$how in
    *[!0-9]*:* | :* | *:) bad "layout '$1' is not N:hosts=K or N:maxsize=M"; return 1 ;;
    esac
    # SHMEM_TEST_SUPERNODES tells the programs who shares memory (check.h).
    case $how in
    hosts=[1-9]*) SPLIT_ENV=("PSHM_SIM_HOSTS=${how#hosts=}" "SHMEM_TEST_SUPERNODES=$how") ;;
    maxsize=[1-9]*) SPLIT_ENV=("GASNET_SUPERNODE_MAXSIZE=${how#maxsize=}" "SHMEM_TEST_SUPERNODES=$how") ;;
    *) bad "layout '$1' is not N:hosts=K or N:maxsize=M"; return 1 ;;
    esac
    [ "$SPLIT_ALONE" = yes ] && SPLIT_ENV+=("SHMEM_TEST_SUPERNODES=alone")
    PES=$n
    SPLIT_NAME="$n PEs, $how"
}

# split_run N PROGRAM [ARGS...]: the job, its output in $T/out and $T/err,
# its status in SPLIT_STATUS, its duration in SPLIT_SECONDS, the number of
# "pid P" lines it printed in SPLIT_PIDS (see split_gone); a job still
# running after SPLIT_TIMEOUT seconds is ended and counts as hung (status
# 124, or 137 when it had to be killed), its processes then listed in
# $T/hang (split_watch).
split_run() {
    local n=$1 t0=$SECONDS watcher
    shift
    rm -f "$T/hang"
    split_watch &
    watcher=$!
    env "${SPLIT_ENV[@]}" SHMEM_VERSION=1 timeout -k 10 "$SPLIT_TIMEOUT" \
        "$MPIRUN" "${MPIOPTS[@]}" -np "$n" "$@" >"$T/out" 2>"$T/err"
    SPLIT_STATUS=$?
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
    SPLIT_SECONDS=$((SECONDS - t0))
    SPLIT_PIDS=$(grep -c '^pid [0-9]*$' "$T/out")
    [ "$SPLIT_SECONDS" -lt "$SPLIT_TIMEOUT" ] || SPLIT_STATUS=124
}

# split_watch (in the background, killed when the job ends): a second before
# the job's timeout, writes to $T/hang what each process under this test's
# shell is doing (state, kernel wait channel, age), so that a hung job says
# whether mpirun, an aborting PE or the others were stuck. It waits with a
# builtin (read on a FIFO nobody writes), so killing it leaves no sleep.
split_watch() {
    local shell=$$ me=$BASHPID
    [ -p "$T/watch.fifo" ] || mkfifo "$T/watch.fifo" || return
    read -r -t $((SPLIT_TIMEOUT - 1)) -u 9 9<>"$T/watch.fifo" && return
    # When the job last wrote: an abort's message long before the timeout
    # tells a stuck end from a slow start.
    {
        local now f
        now=$(date +%s)
        for f in out err; do
            [ -s "$T/$f" ] && echo "  the job's std$f was last written $((now - $(stat -c %Y "$T/$f"))) s before this list"
        done
    } >"$T/hang"
    ps -e -o pid=,ppid=,stat=,wchan:24=,etimes=,args= | awk -v top="$shell" -v me="$me" '
        { pid[NR] = $1; ppid[NR] = $2; line[NR] = $0 }
        END {
            mine[top] = 1
            do { more = 0
                 for (i = 1; i <= NR; i++)
                     if ((ppid[i] in mine) && !(pid[i] in mine)) { mine[pid[i]] = 1; more = 1 }
            } while (more)
            print "  pid ppid stat wchan age(s) command, under the test (pid " top ")"
            for (i = 1; i <= NR; i++)
                if (pid[i] in mine && pid[i] != top && pid[i] != me && ppid[i] != me) print "  " line[i]
        }' >>"$T/hang" 2>&1
}

# job WANT N PROGRAM [ARGS...], as driver.sh's, under mpirun in the layout.
# A job that exits 0 must have been one job of N PEs: SHMEM_VERSION makes
# PE 0 print the version line once (N jobs of one PE would print it N times).
job() {
    local want=$1 n=$2 got
    shift 2
    split_run "$n" "$@"
    got=$SPLIT_STATUS
    if [ "$want" = nz ] && [ "$got" != 0 ] && [ "$got" != 124 ]; then
        :
    elif [ "$got" != "$want" ]; then
        bad "[$SPLIT_NAME] mpirun -np $n $* exited $got, expected $want$([ "$got" = 124 ] &&
            echo " (hung: ended after $SPLIT_TIMEOUT s)"); output:"
        show_output
        if [ -s "$T/hang" ]; then
            echo "  the processes a second before the timeout:"
            cat "$T/hang"
        fi
        return 1
    fi
    if [ "$want" = 0 ] && [ "$(grep -c '^pshm OpenSHMEM.*, OpenSHMEM [0-9.]*, over pshm' "$T/out")" != 1 ]; then
        bad "[$SPLIT_NAME] mpirun -np $n $*: not one job of $n PEs ($(grep -c ', over pshm' "$T/out") version lines from PE 0); output:"
        show_output
        return 1
    fi
    ok "[$SPLIT_NAME] mpirun -np $n ${*#"$B/"} -> $got"
}

# split_gone: the PEs whose "pid P" lines the last job printed have ended
# (or are only waiting to be reaped) within 10 s of mpirun's return, which
# may come before its processes are gone; those still running are named in
# SPLIT_LEFT (and ended).
split_gone() {
    local pid st i
    for i in $(seq 50); do
        SPLIT_LEFT=""
        for pid in $(sed -n 's/^pid \([0-9]*\)$/\1/p' "$T/out"); do
            st=$(ps -o stat= -p "$pid" 2>/dev/null) || continue
            case $st in Z*) ;; *) SPLIT_LEFT="$SPLIT_LEFT $pid" ;; esac
        done
        [ -z "$SPLIT_LEFT" ] && return 0
        sleep 0.2
    done
    kill -KILL $SPLIT_LEFT 2>/dev/null
    return 1
}
