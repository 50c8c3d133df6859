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
# ---- method lists (begin): every list of method names is the stepper's table or checked
# against it; the table is `hilstep-sim --list-methods` (rt/hs_methods.c). ----
if "$B/hilstep-sim" --list-methods >"$D/ml" 2>/dev/null && [ -s "$D/ml" ]; then
    cut -d' ' -f1 "$D/ml" | sort >"$D/mtab"
    { cat "$D/mtab"; echo auto; } | sort >"$D/mtab_auto"
    # the fuzz dictionaries of hilstep-sim's and hilstep-rt's options hold every method
    for dict in test/fuzz/cli.dict test/fuzz/rtcli.dict; do
        miss=$(while read -r me; do grep -qx "\"$me\"" "$dict" || printf ' %s' "$me"; done <"$D/mtab")
        t "$dict holds every method of the table${miss:+ (missing:$miss)}" '[ -z "$miss" ]'
    done
    if [ -x "$B/hilstep-rt" ]; then
        "$B/hilstep-rt" --help >"$D/rthelp" 2>&1
        miss=$(while read -r me; do grep -qE "^ +$me " "$D/rthelp" || printf ' %s' "$me"; done <"$D/mtab")
        t "hilstep-rt --help lists every method of the table${miss:+ (missing:$miss)}" '[ -z "$miss" ]'
    fi
    # README's "when to pick another" table: each pick is a method of the table (or auto)
    sed -n '/^| situation | pick |/,/^$/p' README.md | sed 1,2d | awk -F'|' '{ print $3 }' \
        | grep -oE '`[a-z0-9]+( [^`]*)?`' | sed -E 's/^`([a-z0-9]+).*/\1/' | sort -u >"$D/picks"
    bad=$(comm -23 "$D/picks" "$D/mtab_auto" | tr '\n' ' ')
    t "README's method picks are methods of the table${bad:+ (not: $bad)}" '[ -s "$D/picks" ] && [ -z "$bad" ]'
    # rt/METHODS.md's grid (make methods-table): a row for every method and auto, no other
    sed -n '/<!-- method-grid/,/<!-- \/method-grid/p' rt/METHODS.md | sed -n 's/^| `\([a-z0-9]*\)`.*/\1/p' \
        | sort -u >"$D/grid"
    t "rt/METHODS.md's method grid has the table's methods and auto, no other" 'cmp -s "$D/grid" "$D/mtab_auto"'
else
    t "hilstep-sim --list-methods prints the method table" false
fi
# ---- method lists (end) ----
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
