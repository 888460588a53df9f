#!/bin/bash
#
# check-backends.sh - configures, builds and tests every backend in turn:
#   ./configure <backend flag> [args] && make clean && make -j2 check
# for --enable-pshm-posix, --enable-pshm-sysv, --enable-pshm-file and
# --disable-pshm. Extra arguments go to every configure; without any, those of
# the current configuration (config.status) are reused minus its backend flag.
# Prints a summary per backend and the total "N passed, N failed, N skipped";
# exits 1 if any backend failed. The tree is left configured and built for the
# default (POSIX) backend, so its programs work without another make. Output
# of each backend: check-backends-<backend>.log.
#
# PSHM_CHECK_BACKENDS="FLAG..." tests only those backends and
# PSHM_CHECK_TESTS="t-NAME..." runs only those tests (for tests of this script).

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

if [ $# -eq 0 ] && [ -f config.status ]; then
  prev=$(sed -n 's/^exec \.\/configure \(.*\) "\$@"$/\1/p' config.status)
  # config.status holds the arguments shell-quoted by configure.
  eval "set -- $prev"
fi
extra=()
for a in "$@"; do
  case $a in
  --enable-pshm|--disable-pshm|--enable-pshm=*|--enable-pshm-*|--disable-pshm-*) ;;
  *) extra+=("$a") ;;
  esac
done

total_p=0 total_f=0 total_s=0 bad=0
summary=()
# shellcheck disable=SC2086
for flag in ${PSHM_CHECK_BACKENDS:---enable-pshm-posix --enable-pshm-sysv --enable-pshm-file --disable-pshm}; do
  case $flag in --disable-pshm) b=none ;; *) b=${flag#--enable-pshm-} ;; esac
  log=check-backends-$b.log
  echo "=== $b: ./configure $flag ${extra[*]} && make clean && make -j2 check"
  if ! ./configure "$flag" "${extra[@]}" >"$log" 2>&1; then
    tail -n 5 "$log"
    summary+=("$b: configure failed (see $log)")
    bad=1
    continue
  fi
  make clean >>"$log" 2>&1
  if [ -n "${PSHM_CHECK_TESTS:-}" ]; then
    # shellcheck disable=SC2086
    { make -j2 all && bash tests/runtests.sh $PSHM_CHECK_TESTS; } 2>&1 | tee -a "$log"
  else
    make -j2 check 2>&1 | tee -a "$log"
  fi
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    summary+=("$b: build failed (see $log)")
    bad=1
    continue
  fi
  read -r p _ f _ s _ <<<"${line//,/}"
  total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
  [ "$rc" -ne 0 ] || [ "$f" -ne 0 ] && bad=1
  summary+=("$b: $line")
done

echo
echo "=== summary"
printf '  %s\n' "${summary[@]}"
echo "=== reconfiguring and building the default backend"
# The last backend's programs must not stay in the tree: build the default's.
if ! ./configure "${extra[@]}" >check-backends-default.log 2>&1; then
  echo "check-backends: ./configure ${extra[*]} failed (see check-backends-default.log)"
  bad=1
elif ! make -j2 all >>check-backends-default.log 2>&1; then
  echo "check-backends: make after reconfiguring failed (see check-backends-default.log)"
  bad=1
fi
echo "$total_p passed, $total_f failed, $total_s skipped"
exit $bad
