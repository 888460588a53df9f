#!/bin/bash
#
# check-backends.sh - configures, builds and tests every backend in turn:
#   ./configure <backend flag> [args] && make clean && make -j2 check
# for --enable-pshm-posix, --enable-pshm-sysv, --enable-pshm-file and
# --disable-pshm. Extra arguments go to every configure; without any, those of
# the current configuration (config.status) are reused minus its backend flag.
# Prints a summary per backend and the total "N passed, N failed, N skipped";
# exits 1 if any backend failed. The tree is left configured for the default
# (POSIX) backend. Output of each backend: check-backends-<backend>.log.

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
  --enable-pshm|--disable-pshm|--enable-pshm-posix|--enable-pshm-sysv|--enable-pshm-file) ;;
  *) extra+=("$a") ;;
  esac
done

total_p=0 total_f=0 total_s=0 bad=0
summary=()
for flag in --enable-pshm-posix --enable-pshm-sysv --enable-pshm-file --disable-pshm; do
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
  make -j2 check 2>&1 | tee -a "$log"
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
echo "=== reconfiguring for the default backend"
./configure "${extra[@]}" >/dev/null 2>&1 || { echo "check-backends: ./configure ${extra[*]} failed"; bad=1; }
echo "$total_p passed, $total_f failed, $total_s skipped"
exit $bad
