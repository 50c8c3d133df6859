#!/bin/sh
# make bench: runs the measurements (the command after PAGE) and writes what they printed to
# PAGE as a Markdown page, section by section ("== title" lines become headings). The page
# says which command wrote it and on what machine; a failed run leaves the old page as it was.
#   write_page.sh PAGE COMMAND...
PAGE=${1:?page}; shift
T=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
{ "$@" 2>&1; echo $? >"$T/rc"; } | tee "$T/out"
rc=$(cat "$T/rc" 2>/dev/null || echo 1)
if [ "$rc" -ne 0 ] || ! grep -q . "$T/out"; then echo "bench: measurements failed (exit $rc); $PAGE left as it was" >&2; exit 1; fi
{
    echo "# Measurements"
    echo
    echo "Written by \`make bench\` on $(date -u +%Y-%m-%d): $(uname -m), $(nproc) cores,"
    echo "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')."
    echo "Instruction counts (callgrind on the host, QEMU -icount on the boards) are exact and"
    echo "repeatable; times in ns depend on the machine and its load. Every number below is what"
    echo "the command printed; nothing is edited by hand."
    echo
    # "== title" (and "--- title") lines become headings; Markdown table rows stay tables,
    # everything else is shown as printed (code blocks).
    awk '
        function close_code() { if (code) print "```"; code = 0 }
        /^(==|---) / { close_code(); sub(/^(==|---) /, ""); print ""; print "## " $0; print ""; next }
        /^\|/ { close_code(); print; next }
        /^[[:space:]]*$/ { if (!code) { print; next } }
        { if (!code) { print "```"; code = 1 } print }
        END { close_code() }' "$T/out"
} | cat -s >"$T/page" && cp "$T/page" "$PAGE" && echo "bench: written to $PAGE"
