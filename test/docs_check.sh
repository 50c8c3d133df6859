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
# Internal words: file numbers of the papers ("seed" and three digits), issue numbers, commit ids.
pat='seed [0-9]{3}|\bissues? [0-9]+|\bcommit [0-9a-f]{7}'
grep -n -i -E "$pat" $DOCS >"$D/words"
t "no internal words in the documents" '[ ! -s "$D/words" ] || { sed "s/^/    /" "$D/words"; false; }'
for tool in hilstep-sim hilstep-rt hilstep-ecu hilstep-mbgen hilstep-plot hilstep-vdc; do
    [ -x "$B/$tool" ] || continue
    "$B/$tool" --help >"$D/help" 2>&1
    t "no internal words in $tool --help" '! grep -q -i -E "$pat" "$D/help"'
done
# Every option a tool parses (each "--name" string literal of its main source) is in its --help.
for ts in hilstep-sim:port/host/sim_main.c hilstep-rt:port/linux-rt/hilstep_rt.c \
          hilstep-ecu:port/linux-rt/hilstep_ecu.c hilstep-mbgen:port/host/mbgen_main.c \
          hilstep-vdc:port/host/vdc_main.c; do
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
# ==== stale claims (begin): each check below compares a claim of the documents with what the
# tools do or what their sources say; each failed on the documents as they were before the claim
# was corrected. ====
SIM=$B/hilstep-sim
# The method names, from the stepper's table.
METHODS=$("$SIM" --methods 2>/dev/null | sed -n 's/^| `\([a-z0-9]*\)`.*/\1/p' | tr '\n' ' ')
t "hilstep-sim --methods lists the methods" '[ -n "$METHODS" ]'
# 1. A method README's pick table offers is accepted (--method M --help exits 0) by each tool
#    its intro names, or the intro names it as an exception.
awk '/^When to pick another/ { f = 1 } f { print } f && /\):$/ { exit }' README.md >"$D/intro"
awk '/^When to pick another/ { f = 1 } f && /^\|/ { print; t = 1; next } t { exit }' README.md \
    | awk -F'|' 'NR > 2 { print $3 }' | grep -o '`[a-z0-9]*[` ]' | tr -d '` ' | sort -u >"$D/offered"
miss=""
for tool in hilstep-sim hilstep-rt; do
    grep -q "$tool" "$D/intro" || continue
    for m in $(cat "$D/offered"); do
        "$B/$tool" --method "$m" --help >/dev/null 2>&1 || grep -q "\`$m\`" "$D/intro" || miss="$miss $tool:$m"
    done
done
t "README's pick table offers only methods its tools accept, or says which refuse them${miss:+ (refused:$miss)}" \
    '[ -s "$D/offered" ] && [ -z "$miss" ]'
# 2. The promise of a projection at the end of every step holds only if no step goes without:
#    --stab none runs, and the free-body path projects nothing; the promise must name both.
"$SIM" --model pendulum --h 1e-3 --t 0.01 --stab none >"$D/none" 2>&1
"$SIM" --model-file model/mech/rigid_body.hsm --h 1e-3 --t 0.01 >"$D/fb" 2>&1
awk '/joints never drift apart/ { f = 1; print; next } f && /^- \*\*/ { exit } f { print }' README.md >"$D/promise"
t "README's projection promise names what runs without one (--stab none, the free-body path)" \
    '{ ! grep -q "stab=none" "$D/none" || grep -q -e "--stab none" "$D/promise"; } &&
     { ! grep -q "path=free_body" "$D/fb" || grep -q "free-body path" "$D/promise"; } &&
     { ! grep -q -e "stab=none" -e "path=free_body" "$D/none" "$D/fb" ||
       ! grep -q -i -E "every step (ends|finishes) with (a|the|one) (newton )?projection" "$D/promise"; }'
# 3. hil/hs_plant.h's default names the method the plant runs by default (the library's, which
#    hilstep-sim reports with nothing chosen) and no other.
def=$("$SIM" --model pendulum --h 1e-3 --t 0.001 2>/dev/null | sed -n 's/.* method=\([a-z0-9]*\).*/\1/p')
awk '/^\/\*/ { c = "" } { c = c $0 "\n" } /^hs_plant_def hs_plant_default_def\(void\);/ { printf "%s", c; exit }' \
    hil/hs_plant.h >"$D/plantdef"
other=$(for m in $METHODS; do [ "$m" = "$def" ] || ! grep -q -i -w -e "$m" "$D/plantdef" || printf ' %s' "$m"; done)
t "hil/hs_plant.h: hs_plant_default_def's comment names the default method $def${other:+ (and names:$other)}" \
    'grep -q "hs_stepper_default_def()" hil/hs_plant.c && [ -n "$def" ] && grep -q -w "$def" "$D/plantdef" && [ -z "$other" ]'
# 4. rt/METHODS.md names every script or fuzz dictionary that lists more than half of the
#    methods by hand (and then cannot say nothing does).
nm=$(echo $METHODS | wc -w)
byhand=$(find test port -type f \( -name '*.sh' -o -name '*.py' -o -name '*.dict' -o -name '*.mk' \) | sort | while read -r f; do
    n=0; for m in $METHODS; do grep -q -w -e "$m" "$f" && n=$((n + 1)); done
    [ $((2 * n)) -gt "$nm" ] && echo "$f"; done | tr '\n' ' ')
miss=$(for f in $byhand; do grep -q "$f" rt/METHODS.md || printf ' %s' "$f"; done)
t "rt/METHODS.md names the files that list methods by hand${miss:+ (not named:$miss)}" \
    '[ -z "$miss" ] && { [ -z "$byhand" ] || ! grep -q -i "nothing lists methods by hand" rt/METHODS.md; }'
# 5. A --form value README.md, rt/README.md or rt/METHODS.md offers that hilstep-rt refuses is
#    said to be so on the same line (the pages about both tools; port/host/README.md is
#    hilstep-sim's own).
miss=$(grep -n -o -e '--form [a-z0-9|]*' README.md rt/README.md rt/METHODS.md | while IFS=: read -r f ln o; do
    for v in $(echo "${o#--form }" | tr '|' ' '); do
        "$B/hilstep-rt" --form "$v" --help >/dev/null 2>&1 || sed -n "${ln}p" "$f" | grep -q hilstep-rt || printf ' %s:%s:%s' "$f" "$ln" "$v"
    done; done)
t "every --form value offered to both tools is hilstep-rt's too, or the line says it is not${miss:+ (not said:$miss)}" '[ -z "$miss" ]'
# 6. --param: README's promise names the tools that read a description (--model-file) without
#    taking --param.
noparam=$(for ts in hilstep-sim:port/host/sim_main.c hilstep-rt:port/linux-rt/hilstep_rt.c \
                    hilstep-ecu:port/linux-rt/hilstep_ecu.c; do
    grep -q '"--model-file"' "${ts#*:}" && ! grep -q '"--param"' "${ts#*:}" && printf ' %s' "${ts%%:*}"; done)
grep -A 2 -e '`--param m_s=350` overrides' README.md >"$D/param"
miss=$(for tool in $noparam; do grep -q "$tool" "$D/param" || printf ' %s' "$tool"; done)
t "README's --param promise names the tools without --param${noparam:+ ($noparam)}" \
    '[ -s "$D/param" ] && [ -z "$miss" ] && { [ -z "$noparam" ] || ! grep -q "every tool" "$D/param"; }'
# 7. model/README.md says how the file loaders compile a description: the argument each
#    passes to hs_mb_load_file* (HS_MB_PACK_AUTO: by size).
auto=$(for ts in hilstep-sim:port/host/sim_main.c hilstep-rt:port/linux-rt/hilstep_rt.c \
                 hilstep-ecu:port/linux-rt/hilstep_ecu.c; do
    grep 'hs_mb_load_file[a-z_]*(' "${ts#*:}" | grep -q HS_MB_PACK_AUTO && printf ' %s' "${ts%%:*}"; done)
awk 'BEGIN { RS = "" } /file\n?[ ]*loaders/' model/README.md >"$D/loaders"
miss=$(for tool in $auto; do grep -q "$tool" "$D/loaders" || printf ' %s' "$tool"; done)
t "model/README.md: the file loaders that compile by size (HS_MB_PACK_AUTO:$auto) are named so" \
    '[ -s "$D/loaders" ] && [ -z "$miss" ] && { [ -z "$auto" ] || grep -q HS_MB_PACK_AUTO "$D/loaders"; }'
# 8. README's `auto` names what --method auto falls back to when neither em nor dvp takes the
#    model (the spatial four-bar's compliant hinge: both refuse compliance).
fb=$("$SIM" --model-file model/mech/fourbar_spatial.hsm --method auto --h 1e-3 --t 0.01 2>/dev/null \
     | sed -n 's/.* method=\([a-z0-9]*\).*/\1/p')
t "README's auto row names its fallback (auto ran $fb on model/mech/fourbar_spatial.hsm)" \
    '[ -n "$fb" ] && { [ "$fb" = em ] || [ "$fb" = dvp ] ||
     grep "^| .*| \`auto\`" README.md | grep -q -e "else the default" -e "else $fb"; }'
# ==== stale claims (end) ====
# ==== reference keys (begin): code and scripts cite the literature by the keys of
# rt/METHODS.md's "Reference key" ([BAE], [L1], ...), not by the papers' file numbers, in text
# or in file names. This fails until test/refkeys.py has run on the whole tree
# (/usr/bin/python3 test/refkeys.py rt model hil port test): rt/, model/, hil/ and port/ were
# being edited by others when it was written, so the lead runs it after the merge. The fuzz
# corpus is left out: its files are fuzzer inputs, kept byte for byte. ====
find rt model hil port test -path test/fuzz/corpus -prune -o -type f \( -name '*.c' -o -name '*.h' \
    -o -name '*.py' -o -name '*.sh' -o -name '*.mk' -o -name '*.hsm' \) -print | grep -v '^test/refkeys.py$' \
    | sort | xargs grep -n -i -E 'seed ?0[0-9]{2}' >"$D/seeds"
t "no paper file numbers in code ($(wc -l <"$D/seeds") places; test/refkeys.py rewrites them)" \
    '[ ! -s "$D/seeds" ] || { head -n 5 "$D/seeds" | sed "s/^/    /"; false; }'
find rt model hil port test -path test/fuzz/corpus -prune -o -iname '*seed0*' -print >"$D/seednames"
t "no paper file numbers in file names" '[ ! -s "$D/seednames" ] || { sed "s/^/    /" "$D/seednames"; false; }'
# ==== reference keys (end) ====
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
