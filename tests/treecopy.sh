# treecopy.sh - sourced by the shell tests that reconfigure or rebuild: sets
# $top (the build tree) and $work (a temporary directory, removed on exit),
# copies the source tree into $work without build outputs or the
# configuration, and changes into it. $1 names the temporary directory.

top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

(cd "$top" && tar --exclude=.git --exclude='*.o' --exclude='*.d' --exclude='*.a' \
  --exclude='*.so*' --exclude=tests/logs -cf - .) | (cd "$work" && tar -xf -) || exit 1
cd "$work" || exit 1
rm -f config.h config.log config.status Makefile
