#!/bin/sh
# runner-test: test/run_suites.sh against a scratch Makefile whose suites sleep, print and
# exit as told, so every line the runner prints can be checked against what must happen:
#   - "--- start NAME" before the suite's block, the block whole, "--- end NAME (S s): P
#     passed, F failed" after it, with P and F the suite's own result line;
#   - a suite without a result line, or with a non-zero exit and 0 failed, counts 1 failure;
#   - the total line is the sum, alone, last; the exit status is non-zero when anything failed;
#   - the tools build is announced ("--- start build", "--- end build"), a TEST_EARLY suite
#     starts before the build (a 5 s tool) ends, the others only after it;
#   - TEST_TIMES gets one line per suite and the build, with the CPU seconds of what ran
#     (a busy loop has some, a sleep none).
# Ends with "runner: N passed, N failed".
HERE=$(cd "$(dirname "$0")" && pwd)
RUN="$HERE/../run_suites.sh"
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-runner-test.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
cat >"$D/Makefile" <<'MK'
tool.a:
	@sleep 5; touch $@
good: tool.a
	@echo "good runs"; echo "good: 3 passed, 0 failed"
bad: tool.a
	@echo "bad runs"; echo "2 passed, 1 failed"; exit 1
silent:
	@echo "no result here"; exit 1
liar: tool.a
	@echo "liar: 4 passed, 0 failed"; exit 3
early:
	@echo "early runs"; sleep 1; echo "early: 5 passed, 0 failed"
busy:
	@i=0; while [ $$i -lt 200000 ]; do i=$$((i + 1)); done; echo "busy: 1 passed, 0 failed"
MK
# make test's own runner exports TEST_PREBUILD and TEST_SERIAL: not for the scratch suites
( cd "$D" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u TEST_PREBUILD -u TEST_SERIAL TEST_EARLY=early TEST_TIMES="$D/times" \
    sh "$RUN" -j 2 good bad silent liar early busy >"$D/out" 2>&1 ); rc=$?
sed 's/^/    | /' "$D/out"
line() { grep -n -F -x -- "$1" "$D/out" | head -n 1 | cut -d: -f1; }
lre() { grep -n -E -- "$1" "$D/out" | head -n 1 | cut -d: -f1; }
[ "$(tail -n 1 "$D/out")" = "15 passed, 3 failed" ] && ok "the total is the sum (3+2+0+4+5+1 passed; 0+1+1+1+0+0 failed), alone on the last line" \
    || ko "last line '$(tail -n 1 "$D/out")', want '15 passed, 3 failed'"
[ $rc -ne 0 ] && ok "exit status $rc when a suite failed" || ko "exit status 0 with failures"
for s in good bad silent liar early; do
    st=$(lre "^--- start $s \\(at [0-9]+ s\\)$"); hd=$(lre "^=== suite $s \\([0-9]+ s\\)$"); en=$(lre "^--- end $s \\([0-9]+ s\\): ")
    if [ -n "$st" ] && [ -n "$hd" ] && [ -n "$en" ] && [ "$st" -lt "$hd" ] && [ "$hd" -lt "$en" ]; then
        ok "$s: start line $st, block at $hd, end line $en, in that order"
    else
        ko "$s: start '${st:-none}', block '${hd:-none}', end '${en:-none}'"
    fi
done
# each block is whole: the suite's own lines come right after its header
b=$(lre '^=== suite good '); [ -n "$b" ] && [ "$(sed -n "$((b + 1))p;$((b + 2))p" "$D/out" | tr '\n' '|')" = "good runs|good: 3 passed, 0 failed|" ] \
    && ok "good's block is its two lines, together under its header" || ko "good's block is not whole"
grep -qE '^--- end good \([0-9]+ s\): 3 passed, 0 failed$' "$D/out" && ok "end line of good: its own 3 passed, 0 failed" || ko "end line of good"
grep -qE '^--- end bad \([0-9]+ s\): 2 passed, 1 failed$' "$D/out" && ok "end line of bad: 2 passed, 1 failed" || ko "end line of bad"
grep -qE '^--- end silent \([0-9]+ s\): 0 passed, 1 failed$' "$D/out" && grep -q '^suite silent: no result line' "$D/out" \
    && ok "a suite without a result line: 1 failure, said so" || ko "silent suite"
grep -qE '^--- end liar \([0-9]+ s\): 4 passed, 1 failed$' "$D/out" && grep -q '^suite liar: exit status' "$D/out" \
    && ok "0 failed but a non-zero exit: 1 failure, said so" || ko "liar suite"
sb=$(line '--- start build (the tools of 6 suites; first those of early)'); eb=$(lre '^--- end build \([0-9]+ s\)$')
se=$(lre '^--- start early '); ee=$(lre '^--- end early '); sg=$(lre '^--- start good ')
if [ -n "$sb" ] && [ -n "$eb" ] && [ -n "$se" ] && [ -n "$ee" ] && [ -n "$sg" ] \
   && [ "$sb" -lt "$se" ] && [ "$se" -lt "$eb" ] && [ "$eb" -lt "$sg" ]; then
    ok "the build (a 5 s tool) is announced; the early suite starts inside it, good after it"
else
    ko "build $sb-$eb, early $se-$ee, good starts $sg"
fi
[ "$(awk '{ print $1 }' "$D/times" 2>/dev/null | sort | tr '\n' ' ')" = "bad build busy early good liar silent total " ] \
    && awk '$2 !~ /^[0-9]+$/ { exit 1 }' "$D/times" && ok "TEST_TIMES: a line per suite, the build and the total, whole seconds" \
    || ko "TEST_TIMES: $(tr '\n' ';' <"$D/times" 2>/dev/null)"
b=$(awk '$1 == "build" { print $2 }' "$D/times" 2>/dev/null)
[ "${b:-0}" -ge 5 ] && ok "the build took ${b} s >= the tool's 5 s sleep" || ko "build time '${b:-?}'"
# the CPU column: busy's shell loop of 200000 iterations costs CPU, early's sleep does not
bc=$(awk '$1 == "busy" { print $3 }' "$D/times" 2>/dev/null); ec=$(awk '$1 == "early" { print $3 }' "$D/times" 2>/dev/null)
awk -v b="${bc:-0}" -v e="${ec:-9}" 'BEGIN { exit !(b > 0.05 && e < 0.05) }' \
    && ok "TEST_TIMES cpu: busy ${bc} s (a loop), early ${ec} s (a sleep)" || ko "TEST_TIMES cpu: busy '${bc:-?}', early '${ec:-?}'"
echo "runner: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
