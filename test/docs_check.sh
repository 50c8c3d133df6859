#!/bin/sh
# docs-test: the user documents keep their promises. README.md is a guide of at most 400 lines
# with a table of contents; every relative link in the documents resolves; no internal words
# (paper file numbers, issue numbers, commit ids) in the documents or in any tool's --help;
# every image the README shows exists and the command that writes it is named beside it.
#   docs_check.sh BUILD_DIR
B=${1:-build}
pass=0; fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL $1"; fi; }
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-docs.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
DOCS="README.md $(ls rt/*.md model/*.md hil/*.md port/*/README.md test/README.md test/figures/README.md test/bench/MEASUREMENTS.md 2>/dev/null | tr '\n' ' ')"

n=$(wc -l <README.md)
t "README.md has $n lines (<= 400)" '[ "$n" -le 400 ]'
t "README.md has a table of contents" 'grep -q "^## Contents" README.md'
# Relative links: [text](path) with path not a URL or an anchor; resolved from the file's directory.
for f in $DOCS; do
    dir=$(dirname "$f")
    grep -o '\](\([^)#][^)]*\))' "$f" | sed 's/^](//; s/)$//; s/#.*//' | grep -v '^[a-z]*:' | sort -u | while read -r l; do
        [ -e "$dir/$l" ] || echo "$f: $l"
    done
done >"$D/broken"
t "every relative link resolves ($(wc -l <"$D/broken") broken)" '[ ! -s "$D/broken" ] || { sed "s/^/    /" "$D/broken"; false; }'
# Internal words: file numbers of the papers ("seed 004"), issue numbers, commit ids.
pat='seed [0-9]{3}|\bissues? [0-9]+|\bcommit [0-9a-f]{7}'
grep -n -i -E "$pat" $DOCS >"$D/words"
t "no internal words in the documents" '[ ! -s "$D/words" ] || { sed "s/^/    /" "$D/words"; false; }'
for tool in hilstep-sim hilstep-rt hilstep-ecu hilstep-mbgen hilstep-plot; do
    [ -x "$B/$tool" ] || continue
    "$B/$tool" --help >"$D/help" 2>&1
    t "no internal words in $tool --help" '! grep -q -i -E "$pat" "$D/help"'
done
# Every option a tool parses (each "--name" string literal of its main source) is in its --help.
for ts in hilstep-sim:port/host/sim_main.c hilstep-rt:port/linux-rt/hilstep_rt.c \
          hilstep-ecu:port/linux-rt/hilstep_ecu.c hilstep-mbgen:port/host/mbgen_main.c; do
    tool=${ts%%:*}; src=${ts#*:}
    [ -x "$B/$tool" ] || { t "$tool built" false; continue; }
    "$B/$tool" --help >"$D/help" 2>&1
    miss=$(grep -o '"--[a-z][a-z0-9-]*"' "$src" | tr -d '"' | sort -u | while read -r o; do
        grep -q -e "$o\([^a-z0-9-]\|$\)" "$D/help" || printf ' %s' "$o"; done)
    t "$tool --help lists every option it parses${miss:+ (missing:$miss)}" '[ -z "$miss" ]'
done
# Images: each exists, and the lines just before it name the command that writes it.
grep -n '^!\[' README.md | while IFS=: read -r ln img; do
    p=$(printf '%s\n' "$img" | sed 's/.*](\(.*\))/\1/')
    [ -f "$p" ] || { echo "missing $p"; continue; }
    sed -n "$((ln > 8 ? ln - 8 : 1)),${ln}p" README.md | grep -q "$(basename "$p" .png | sed 's/_columns$//')" || echo "no command beside $p"
done >"$D/img"
t "README images exist, each with the command that writes it beside it" '[ ! -s "$D/img" ] || { sed "s/^/    /" "$D/img"; false; }'
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
