#!/bin/sh
# header-gen.sh - the installed form of a header: its X-macro lines written out.
#
#   header-gen.sh CC HEADER [OTHER...] >OUT
#
# shmem/shmem.h and shmem/shmemx.h declare each typed family once, through a
# helper macro SHMEM_DECL_<family>_ (SHMEMX_DECL_ in shmemx.h) and a line that
# applies it to a type list (SHMEM_RMA_TYPES(SHMEM_DECL_RMA_)) or to one
# argument (SHMEM_DECL_PUT_SIGNAL_SIZE_(8)). OUT, the header users read, is
# HEADER with each such line replaced by the declarations the preprocessor
# makes of it, one a line, and the helpers' definitions left out: every other
# line (comments, constants, types, the type lists, the C11 generic macros)
# is HEADER's own. So `grep shmem_long_put shmem.h` finds the prototype.
#
# CC (with its flags, one word list) preprocesses HEADER as C, each applying
# line between two markers (a line it does not reach, or that makes no
# declaration, fails the build); OTHER are headers HEADER includes, read
# only for their macro names. The object-like macros of the headers
# (SHMEM_API_, SHMEM_DEPRECATED_) are undefined around each line
# (push_macro, pop_macro), so they stay names in the declarations, as in
# HEADER's own. A declaration of a complex type goes under the guard the
# type lists give it (SHMEM_HAVE_COMPLEX_), so OUT declares in C++ and
# without complex numbers what HEADER does (tests/t-shmem-header.sh
# compares the two).
set -e
[ $# -ge 2 ] || { echo "usage: header-gen.sh CC HEADER [OTHER...] >OUT" >&2; exit 2; }
cc=$1
hdr=$2
shift 2
dir=$(dirname "$hdr")

# The helpers, and the lines applying them: a line outside directives that
# names one. Each gets a number, its line in HEADER.
marked() {
    awk -v names="$(awk '/^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*([ \t]|$)/ {
            sub(/^[ \t]*#[ \t]*define[ \t]+/, ""); sub(/[ \t].*/, ""); printf "%s ", $0 }' "$hdr" "$@")" '
    BEGIN { n = split(names, keep, " ") }
    cont { print; cont = /\\$/; next }
    /^[ \t]*#/ { print; cont = /\\$/; next }
    /(^|[^A-Za-z0-9_])SHMEMX?_DECL_[A-Za-z0-9_]*/ {
        for (i = 1; i <= n; i++) printf "#pragma push_macro(\"%s\")\n#undef %s\n", keep[i], keep[i]
        printf "@begin %d\n%s\n@end %d\n", NR, $0, NR
        for (i = 1; i <= n; i++) printf "#pragma pop_macro(\"%s\")\n", keep[i]
        next
    }
    { print }' "$hdr"
}

# What the preprocessor made of each: NUMBER TAB TEXT.
expanded() {
    # shellcheck disable=SC2086
    marked "$@" | $cc -E -x c -I"$dir" - | awk '
    /^@begin [0-9]+$/ { n = $2; text = ""; next }
    /^@end [0-9]+$/ { gsub(/[ \t]+/, " ", text); printf "%s\t%s\n", n, text; n = ""; next }
    n != "" && !/^#/ { text = text " " $0 }'
}

expanded "$@" | awk -v hdr="$hdr" '
FILENAME == "-" { i = index($0, "\t"); ex[substr($0, 1, i - 1)] = substr($0, i + 1); next }
# The note under the first comment: where this text comes from.
!noted && /\*\// {
    print
    printf "/*\n * The installed form, written at build time by shmem/header-gen.sh from\n"
    printf " * %s: each typed family, one X-macro line there, is here its\n", hdr
    printf " * declarations, one a line. Edit that file, not this one.\n */\n"
    noted = 1; next
}
# A helper definition and its continuation lines: left out.
drop { drop = /\\$/; next }
/^[ \t]*#[ \t]*define[ \t]+SHMEMX?_DECL_/ { drop = /\\$/; next }
cont { print; cont = /\\$/; next }
/^[ \t]*#/ { print; cont = /\\$/; next }
/(^|[^A-Za-z0-9_])SHMEMX?_DECL_[A-Za-z0-9_]*/ {
    if (!(FNR in ex) || ex[FNR] !~ /;/) {
        printf "header-gen.sh: %s:%d: the preprocessor made no declarations of: %s\n", hdr, FNR, $0 >"/dev/stderr"
        err = 1; exit 1
    }
    n = split(ex[FNR], d, ";")
    cx = 0
    for (i = 1; i <= n; i++) {
        s = d[i]; sub(/^ +/, "", s); sub(/ +$/, "", s)
        if (s == "") continue
        c = (s ~ /_Complex/)
        if (c != cx) { print c ? "#ifdef SHMEM_HAVE_COMPLEX_" : "#endif"; cx = c }
        print s ";"
    }
    if (cx) print "#endif"
    next
}
{ print }
END { if (!err && !noted) { printf "header-gen.sh: %s: no opening comment\n", hdr >"/dev/stderr"; exit 1 } }
' - "$hdr"
