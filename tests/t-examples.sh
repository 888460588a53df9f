#!/bin/bash
#
# t-examples.sh - the programs in docs/examples run as the manual says, many
# times in a row, with a CPU hog beside them: a program that is only right
# on an idle machine (a barrier that does not wait, say) fails here. Every
# run has its own time limit, so the test ends in bounded time.

top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
runs=${PSHM_EXAMPLE_RUNS:-40}
work=$(mktemp -d "${TMPDIR:-/tmp}/examples.XXXXXX") || exit 1
hogs=()
cleanup() {
  local p
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${hogs[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

for p in docs/examples/*.c; do
  [ -x "${p%.c}" ] || { echo "FAIL: ${p%.c} is not built: make check builds every program of docs/examples"; exit 1; }
done

# One busy process per CPU: the ranks are then preempted at random points,
# as on a loaded node.
for _ in $(seq "$(nproc 2>/dev/null || echo 2)"); do
  ( while :; do :; done ) &
  hogs+=($!)
done

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The snippet of docs/embedding.md is the example's code: each line of its
# rt_exchange (comments aside) is in embed_fork.c.
sed -n '/^static int rt_exchange/,/^static int rt_barrier/p' docs/embedding.md | sed '$d' |
  sed 's,/\*.*\*/,,; s/^ *//; s/ *$//' | grep -v '^$' >"$work/snippet"
[ -s "$work/snippet" ] || fail "docs/embedding.md has no rt_exchange snippet"
while IFS= read -r line; do
  grep -F -q -- "$line" docs/examples/embed_fork.c || fail "docs/embedding.md's snippet line is not in embed_fork.c: $line"
done <"$work/snippet"

# What each program prints, in some order: with --disable-pshm no
# neighbour is on the shared memory, and the programs say so.
n=4
none=0
tools/pshmrun --version | grep -q 'none backend' && none=1
want_embed=$(for r in $(seq 0 $((n - 1))); do
  q=$(((r + 1) % n))
  if [ $none = 1 ]; then echo "rank $r of $n: rank $q is not on this host's shared memory"
  else echo "rank $r of $n: rank $q's segment says $((1000 + q))"; fi
done | sort)
want_hello=$(for r in $(seq 0 $((n - 1))); do
  if [ $none = 1 ]; then
    echo "rank $r: rank $(((r + 1) % n)) is not on this host's shared memory"
  else
    q=$(((r + n - 1) % n))
    echo "rank $r: \"hello from rank $q\" (from rank $q)"
  fi
done | sort)

bad_embed=0 bad_hello=0
start=$(date +%s)
for i in $(seq "$runs"); do
  timeout 30 docs/examples/embed_fork $n >"$work/out" 2>"$work/err"
  rc=$?
  got=$(sort "$work/out")
  if [ $rc -ne 0 ] || [ "$got" != "$want_embed" ]; then
    bad_embed=$((bad_embed + 1))
    [ $bad_embed -le 2 ] && fail "embed_fork $n, run $i: exit $rc; stdout:
$(cat "$work/out")
stderr:
$(cat "$work/err")"
  fi
done
[ $bad_embed -eq 0 ] && echo "ok: docs/examples/embed_fork $n: $runs runs under load, every rank read its neighbour's number"
[ $bad_embed -ne 0 ] && fail "embed_fork failed $bad_embed of $runs runs"

hruns=$(((runs + 4) / 5))
for i in $(seq "$hruns"); do
  timeout 30 tools/pshmrun -n $n docs/examples/hello >"$work/out" 2>"$work/err"
  rc=$?
  got=$(sort "$work/out")
  if [ $rc -ne 0 ] || [ "$got" != "$want_hello" ]; then
    bad_hello=$((bad_hello + 1))
    [ $bad_hello -le 2 ] && fail "pshmrun -n $n hello, run $i: exit $rc; stdout:
$(cat "$work/out")
stderr:
$(cat "$work/err")"
  fi
done
[ $bad_hello -eq 0 ] && echo "ok: pshmrun -n $n docs/examples/hello: $hruns runs under load, every greeting printed once"
echo "($(($(date +%s) - start)) s)"

[ $failures -eq 0 ] || exit 1
exit 0
