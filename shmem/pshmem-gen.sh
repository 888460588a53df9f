#!/bin/sh
# pshmem-gen.sh - the profiling interface's lists, from the installed headers.
#
#   pshmem-gen.sh names  CC HEADER...   the routines the headers declare, one a line
#   pshmem-gen.sh header CC HEADER...   pshmem.h: each of them as p<name>
#
# CC (with its flags, one word list) preprocesses the headers; only the text
# that comes from the HEADERs themselves counts (the line markers say whose
# it is), so the system headers they include add nothing. A declaration is a
# statement with a parenthesis outside typedefs and bodies: its name is the
# identifier before its first one. Variables (SHMEM_CTX_DEFAULT,
# SHMEM_TEAM_WORLD) have none, and macros (the C11 generic forms) leave no
# text: neither is listed. A routine a header gains is listed at the next
# build, with no list to edit (Makefile.in: the aliases and pshmem.h).
set -e
mode=$1
cc=$2
shift 2
[ "$mode" = names ] || [ "$mode" = header ] || {
    echo "usage: pshmem-gen.sh names|header CC HEADER..." >&2
    exit 2
}

# One record a declaration: file TAB line TAB name TAB text (the attributes
# spelled again as shmem.h's macros, the name with its p).
decls() {
    for h in "$@"; do printf '#include "%s"\n' "$h"; done |
    # shellcheck disable=SC2086
    $cc -E -x c - |
    awk -v want="$*" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) { f = w[i]; sub(/.*\//, "", f); ours[f] = 1 } }
    # A line marker: whose text follows, from which line.
    /^# [0-9]+ "/ {
        f = $3; gsub(/"/, "", f); sub(/.*\//, "", f)
        cur = (f in ours) ? f : ""; line = $2; next
    }
    /^#/ { next }
    {
        if (cur != "") {
            rest = $0
            while ((i = index(rest, ";")) > 0) {
                if (buf == "") { sfile = cur; sline = line }
                buf = buf " " substr(rest, 1, i - 1)
                emit(buf, sfile, sline)
                buf = ""; rest = substr(rest, i + 1)
            }
            if (rest ~ /[^ \t]/) { if (buf == "") { sfile = cur; sline = line }; buf = buf " " rest }
        }
        line++
    }
    # __attribute__((X)) -> the macro shmem.h spells it with.
    function attrs(s,   out, i, j, d, a, c) {
        out = ""
        while ((i = index(s, "__attribute__")) > 0) {
            out = out substr(s, 1, i - 1); s = substr(s, i + 13)
            d = 0
            for (j = 1; j <= length(s); j++) {
                c = substr(s, j, 1)
                if (c == "(") d++
                else if (c == ")" && --d == 0) break
            }
            a = substr(s, 1, j); s = substr(s, j + 1)
            if (a ~ /visibility/) out = out "SHMEM_API_"
            else if (a ~ /noreturn/) out = out "SHMEM_NORETURN_"
            else if (a ~ /deprecated/) out = out "SHMEM_DEPRECATED_"
            else out = out "__attribute__" a
        }
        return out s
    }
    function emit(s, file, ln,   name, pre) {
        gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
        if (s ~ /[{}]/ || s ~ /^(typedef|static|extern)[ (]/ || s ~ /^extern "/) return
        s = attrs(s)
        gsub(/ +/, " ", s); sub(/^ /, "", s)
        if (!match(s, /[A-Za-z_][A-Za-z0-9_]* ?\(/)) return
        name = substr(s, RSTART, RLENGTH); sub(/ ?\($/, "", name)
        if (name == "SHMEM_API_" || name == "SHMEM_NORETURN_") return
        pre = substr(s, 1, RSTART - 1)
        printf "%s\t%s\t%s\t%sp%s;\n", file, ln, name, pre, substr(s, RSTART)
    }'
}

if [ "$mode" = names ]; then
    decls "$@" | cut -f3
    exit 0
fi

cat <<'EOF'
/*
 * pshmem.h - the profiling interface (OpenSHMEM 1.6, section "Profiling
 * Interface"): every routine of shmem.h and shmemx.h under a second name,
 * a p in front (pshmem_long_put, pshmemx_alltoallv, pstart_pes, ...).
 *
 * A tool defines shmem_X and calls pshmem_X: in libpshmem.a each shmem_X
 * is a weak alias of pshmem_X, so the tool's definition wins the link; in
 * libpshmem.so it is an exported alias the tool's definition interposes.
 * The library's own calls go to the p names, so a routine the library
 * uses inside another (shmem_barrier_all inside a collective, say) is
 * counted only when the program calls it. The C11 generic forms are
 * macros: they have no p form and call the typed shmem_ names.
 *
 * Written at build time by shmem/pshmem-gen.sh from shmem.h and shmemx.h
 * (one declaration a line, each under the header line it comes from):
 * do not edit.
 */
#ifndef PSHMEM_PSHMEM_H
#define PSHMEM_PSHMEM_H

/* The types and constants of every declaration below. */
#include <shmem.h>
#include <shmemx.h>

#ifdef __cplusplus
extern "C" {
#endif
EOF
decls "$@" | awk -F '\t' '
    # A comment where the header jumps (a new block of declarations), and
    # the complex reductions under the guard shmem.h puts them under, with
    # its names of the complex types (C++ has a typedef of its own).
    {
        cx = ($4 ~ /_Complex/)
        if (cx != incx) { print cx ? "#if defined(SHMEM_HAVE_COMPLEX_)" : "#endif"; incx = cx }
        gsub(/float _Complex/, "SHMEM_COMPLEXF_", $4); gsub(/double _Complex/, "SHMEM_COMPLEXD_", $4)
        if ($1 != lf || ($2 != ll && $2 != ll + 1)) printf "\n/* %s:%s */\n", $1, $2
        lf = $1; ll = $2
        print $4
    }
    END { if (incx) print "#endif" }'
cat <<'EOF'

#ifdef __cplusplus
}
#endif

#endif /* PSHMEM_PSHMEM_H */
EOF
