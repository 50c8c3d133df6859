#!/bin/sh
# QEMU test stage: runs the firmware images of build/cortex-m under QEMU and checks what they
# print and how they exit. Usage: run_tests.sh CM_DIR HOST_SIM HOST_FLOAT_SIM
# Ends with "N passed, N failed" alone on the last line; exit status 1 when anything failed.
#
# Every timed run uses -icount shift=0,sleep=off: one guest instruction per ns, so one SysTick
# count is 40 instructions and runs repeat exactly. Every QEMU is wrapped in `timeout`.
# Independent runs go two at a time (the CI machine has 2 cores).
set -u
CM=${1:?cortex-m build dir}
SIM=${2:?host simulator}
SIMF=${3:?host float simulator}
HERE=$(dirname "$0")
OUT=$CM/qemu-test
rm -rf "$OUT"; mkdir -p "$OUT"
T0=$(date +%s)
# A hang guard, not a speed check (icount makes the runs exact): generous for a loaded machine
# with make test running two suites at once (the M7 unit image takes about 13 s of CPU).
QTIMEOUT=${QEMU_TIMEOUT:-300}

pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# The methods the boards run, a choice (the Euler baselines, galpha and the default); the
# --stab values each takes come from the stepper's table (hilstep-sim --list-methods), and a
# name the table does not know is a failure, not a silently shorter run.
BOARD_METHODS="explicit symplectic j1 j2 j3 galpha sdirk"
"$SIM" --list-methods > "$OUT/methods" 2>/dev/null || bad "$SIM --list-methods"
takes() { grep -q "^$1 .*\<$2\>" "$OUT/methods"; }
for me in $BOARD_METHODS; do
    takes "$me" projection || bad "board method $me: no row of the method table takes it with --stab projection"
done

machine() { cat "$CM/$1/qemu-machine" 2>/dev/null || echo "?"; }
sim_for() { case $1 in m7) echo "$SIM" ;; m4f) echo "$SIMF" ;; esac; }

# ---- job list: name board image args ----
JOBS=$OUT/jobs
: > "$JOBS"
job() { echo "$*" >> "$JOBS"; }
# The unit tests are the longest: start them first.
job unit-m4f m4f hilstep-unit.elf
job unit-m7  m7  hilstep-unit.elf
for b in m7 m4f; do
    for me in $BOARD_METHODS; do
        for st in projection baumgarte; do
            # galpha is index 3, sdirk's stages acceleration-level: neither takes Baumgarte
            takes $me $st || continue
            job "run-$b-$me-$st" $b hilstep-test.elf run $me $st 3000
        done
    done
    job run-$b-mb    $b hilstep-test.elf run j2 projection 3000 car_axle_mb
    job calib-$b     $b hilstep-test.elf calib
    job inject-$b    $b hilstep-test.elf inject
    job stop-$b      $b hilstep-test-stop.elf inject
    job nan-$b       $b hilstep-test.elf nan
    job infout-$b    $b hilstep-test.elf infout
    job udf-$b       $b hilstep-test.elf udf
    job hardfault-$b $b hilstep-test.elf hardfault
    job divzero-$b   $b hilstep-test.elf divzero
done

# One QEMU run: stdout (UART) and stderr (semihosting, QEMU) to NAME.log, exit status to NAME.rc.
cat > "$OUT/one.sh" <<EOS
#!/bin/sh
name=\$1; b=\$2; img=\$3; shift 3
# The board's QEMU machine, written beside its images by its board.mk (cortex-m.mk).
m=\$(cat "$CM/\$b/qemu-machine" 2>/dev/null)
timeout $QTIMEOUT qemu-system-arm -M \$m -display none -monitor none -serial stdio \\
  -semihosting-config enable=on,target=native -icount shift=0,sleep=off \\
  -kernel "$CM/\$b/\$img" -append "\$*" > "$OUT/\$name.log" 2>&1
echo \$? > "$OUT/\$name.rc"
EOS
xargs -P 2 -L 1 sh "$OUT/one.sh" < "$JOBS"

rc_of()  { cat "$OUT/$1.rc" 2>/dev/null || echo none; }
log_of() { cat "$OUT/$1.log" 2>/dev/null; }
has()    { grep -qF -- "$2" "$OUT/$1.log" 2>/dev/null; }

# ---- 1. images link nothing from a C library's allocator or stdio ----
for b in m7 m4f; do
    for img in hilstep-demo.elf hilstep-test.elf hilstep-test-stop.elf hilstep-unit.elf; do
        f=$CM/$b/$img
        if [ ! -f "$f" ]; then bad "image $b/$img was not built"; continue; fi
        found=$(arm-none-eabi-nm "$f" | awk '{print $NF}' \
            | grep -E '^_?(malloc|free|calloc|realloc|printf|sprintf|snprintf|vprintf|puts|_sbrk|sbrk|_malloc_r|_free_r)$' | tr '\n' ' ')
        if [ -z "$found" ]; then ok "symbols $b/$img: no malloc/free/printf/sbrk"
        else bad "symbols $b/$img: links $found"; fi
    done
done

# ---- 2. unit tests of rt/ and model/ on the boards ----
for b in m7 m4f; do
    n=unit-$b; rc=$(rc_of $n)
    line=$(log_of $n | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ "$rc" = 0 ] && [ -n "$line" ] && echo "$line" | grep -q ' 0 failed'; then
        ok "unit tests on $b: $line"
    else
        log_of $n | grep -E 'FAIL|FAULT' | head -n 20
        bad "unit tests on $b: exit $rc, '${line:-no result line}'"
    fi
done

# ---- 3. SysTick-driven runs: zero overruns, hash equal to the host build's, cost table ----
COST=$OUT/step-cost.txt
: > "$COST"
for b in m7 m4f; do
    for me in $BOARD_METHODS; do
        for st in projection baumgarte; do
            takes $me $st || continue
            n=run-$b-$me-$st; rc=$(rc_of $n)
            fw=$(log_of $n | grep '^trajectory-hash ')
            host=$($(sim_for $b) --model car_axle --method $me --form index2 --stab $st \
                   --h 1e-3 --t 3 --hash 2>/dev/null | grep '^trajectory-hash ')
            frame=$(log_of $n | grep '^frame ticks=')
            if [ "$rc" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ]; then
                ok "$b $me $st: 3000 ticks, 0 overruns, hash equals host: ${fw#trajectory-hash }"
            else
                bad "$b $me $st: exit $rc; board '$fw' host '$host'; $frame"
                log_of $n | grep -E '^check failed|FAULT|fault' | head -n 5
            fi
            cost=$(log_of $n | grep '^step-cost ')
            echo "$b $cost" >> "$COST"
        done
    done
    # The pinned value: a numeric change anywhere must be a conscious re-pin.
    pinned=$(grep "^$b " "$HERE/pinned.txt" | sed -E "s/^$b +//")
    fw=$(log_of run-$b-j2-projection | grep '^trajectory-hash ')
    if [ -n "$pinned" ] && [ "$fw" = "$pinned" ]; then ok "$b pinned hash: $fw"
    else bad "$b pinned hash: board '$fw', pinned '$pinned' (test/qemu/pinned.txt)"; fi
    # ...galpha (issue 8's second-order method) and the library default (sdirk), pinned alongside
    for me in galpha sdirk; do
        pinned=$(grep "^$b-$me " "$HERE/pinned.txt" | sed -E "s/^$b-$me +//")
        fw=$(log_of run-$b-$me-projection | grep '^trajectory-hash ')
        if [ -n "$pinned" ] && [ "$fw" = "$pinned" ]; then ok "$b pinned hash ($me): $fw"
        else bad "$b pinned hash ($me): board '$fw', pinned '$pinned' (test/qemu/pinned.txt)"; fi
    done
    # The multibody description through its generated tables (model/gen/mb_car_axle_mb.c) gives
    # the host's --model-file bits (issue 10).
    fw=$(log_of run-$b-mb | grep '^trajectory-hash ')
    host=$($(sim_for $b) --model-file "$HERE/../../model/mech/car_axle.hsm" --method j2 --stab projection --h 1e-3 --t 3 --hash 2>/dev/null | grep '^trajectory-hash ')
    if [ "$(rc_of run-$b-mb)" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ]; then
        ok "$b car_axle.hsm via generated tables: hash equals host --model-file: ${fw#trajectory-hash }"
    else bad "$b car_axle.hsm via generated tables: board '$fw' host --model-file '$host'"; fi
    echo "$b $(log_of run-$b-mb | grep '^step-cost ')" >> "$COST"
done

# ---- 3b. the time base: one SysTick count is 40 instructions under -icount shift=0 ----
# 50000 loop instructions plus the two time reads (a few dozen) must be 1250 counts and at
# most 2 more: a wrong clock source or divider shows up as a factor, not a few counts.
for b in m7 m4f; do
    n=calib-$b; rc=$(rc_of $n)
    c=$(log_of $n | sed -n 's/^calibration loop of 50000 instructions took \([0-9]*\) SysTick counts$/\1/p')
    if [ "$rc" = 0 ] && [ -n "$c" ] && [ "$c" -ge 1250 ] && [ "$c" -le 1252 ]; then
        ok "$b time base: 50000 instructions = $c SysTick counts (40 instructions per count)"
    else bad "$b time base: exit $rc, counts '${c:-?}' (expected 1250..1252)"; fi
done

# ---- 4. overruns: counted once per late tick; stop policy exits 3 ----
for b in m7 m4f; do
    n=inject-$b; rc=$(rc_of $n)
    line=$(log_of $n | grep '^overrun-test ')
    if [ "$rc" = 0 ] && echo "$line" | grep -q 'injected-late-ticks=6 counted=6 ticks=1006 steps=1000$'; then
        ok "$b skip policy: $line"
    else bad "$b skip policy: exit $rc, '$line'"; fi
    n=stop-$b; rc=$(rc_of $n)
    if [ "$rc" = 3 ] && has $n 'overrun: stop policy, tick 102 steps 100, outputs safe, exit 3' \
       && has $n 'safe-state: outputs to their fallbacks after 100 committed steps'; then
        ok "$b stop policy: exit 3 at the first late tick (tick 102, after 100 steps), outputs safe"
    else bad "$b stop policy: exit $rc"; log_of $n | tail -n 3; fi
done

# ---- 5. faults end in a report and a non-zero exit, never a hang ----
for b in m7 m4f; do
    n=nan-$b; rc=$(rc_of $n)
    # The plant's refused-step policy (hil/FRAME.md): frames 501..510 refused and held, the
    # 10th exhausts the fault hold: safe outputs, exit 4.
    if [ "$rc" = 4 ] && has $n 'step fault: code -13 at frame 510' \
       && has $n 'safe-state: outputs to their fallbacks after 500 committed steps, stepper faults=10 last=-13'; then
        ok "$b forced NaN: frames 501-510 refused (HS_E_NONFINITE) and held, state kept, then safe outputs, exit 4"
    else bad "$b forced NaN: exit $rc"; log_of $n | tail -n 3; fi
    n=infout-$b; rc=$(rc_of $n)
    # A committed step whose output is +Inf is refused the same way (hs_plant: nonfinite_output,
    # -64): frames 501..510 hold the last finite outputs, then safe outputs, exit 4.
    if [ "$rc" = 4 ] && has $n 'step fault: code -64 at frame 510' \
       && has $n 'stepper faults=10 last=-64 (nonfinite_output'; then
        ok "$b forced Inf output: frames 501-510 refused (nonfinite_output) and held, then safe outputs, exit 4"
    else bad "$b forced Inf output: exit $rc"; log_of $n | tail -n 3; fi
    for f in "udf UsageFault UNDEFINSTR 70" "hardfault HardFault FORCED 67" "divzero UsageFault DIVBYZERO 70"; do
        set -- $f
        n=$1-$b; rc=$(rc_of $n)
        if [ "$rc" = "$4" ] && has $n "FAULT $2 exception=" && has $n "FAULT cause" \
           && log_of $n | grep '^FAULT cause' | grep -qw "$3"; then
            ok "$b $1: $(log_of $n | grep '^FAULT cause'), exit $rc"
        else bad "$b $1: exit $rc"; log_of $n | tail -n 4; fi
    done
done

# ---- 6. evidence: step cost, stack, memory ----
echo "--- step cost per board (hs_stepper_step only; SysTick counts x 40 under -icount shift=0)"
awk '{ sub(/^step-cost /, "", $2); min=$6; max=$7; sub(/min=/, "", min); sub(/max=/, "", max);
       r = (min > 0) ? max / min : 0;
       printf "%-4s %-11s %-10s min=%6d max=%6d max/min=%.4f\n", $1, $4, $5, min, max, r }' "$COST"
# ...and the firmware's own lines verbatim (the contract benchmarks read), board by board
for b in m7 m4f; do
    echo "board $b (QEMU $(machine $b))"
    grep "^$b " "$COST" | sed -E "s/^$b //"
done
for b in m7 m4f; do
    n=run-$b-j2-projection
    used=$(log_of $n | sed -n 's/^stack used=\([0-9]*\) of \([0-9]*\) bytes$/\1/p')
    size=$(log_of $n | sed -n 's/^stack used=\([0-9]*\) of \([0-9]*\) bytes$/\2/p')
    static=$(/usr/bin/python3 "$HERE/stack_bound.py" "$CM/$b/obj" "$CM/$b/hilstep-test.elf" 2>&1)
    srs=$?
    echo "stack $b: measured (painted high-water, whole run incl. ISR path) ${used:-?} bytes of ${size:-?}; $static"
    if [ -n "$used" ] && [ "$used" -gt 0 ] && [ "$used" -lt "$size" ] && [ "$srs" = 0 ]; then
        bound=$(echo "$static" | sed -n 's/.*worst-case bound \([0-9]*\) bytes.*/\1/p')
        if [ -n "$bound" ] && [ "$bound" -ge "$used" ] && [ "$bound" -lt "$size" ]; then
            ok "stack $b: measured $used <= static bound $bound < $size bytes"
        else bad "stack $b: measured $used, static bound '${bound:-?}', size $size"; fi
    else bad "stack $b: measured '${used:-?}' of '${size:-?}', static analysis exit $srs"; fi
done
echo "--- memory (arm-none-eabi-size; text = flash incl. vectors, data+bss = RAM incl. stack)"
for b in m7 m4f; do
    for img in hilstep-demo.elf hilstep-test.elf hilstep-unit.elf; do
        arm-none-eabi-size "$CM/$b/$img" | awk -v n="$b/$img" 'NR==2 { printf "%-26s flash=%d ram=%d (text %d data %d bss %d)\n", n, $1+$2, $2+$3, $1, $2, $3 }'
    done
done
# ---- 7. the board with inputs: make qemu-run INPUTS=file.csv (test/qemu/replay_test.sh) ----
echo "--- the board with inputs (make qemu-run INPUTS=..., real time: about 15 s)"
sh "$HERE/replay_test.sh" "$(dirname "$CM")" "$SIM" >"$OUT/replay.out" 2>&1
cat "$OUT/replay.out"
rl=$(grep -E '^replay: [0-9]+ passed, [0-9]+ failed$' "$OUT/replay.out")
if [ -n "$rl" ]; then
    set -- $rl
    pass=$((pass + $2)); fail=$((fail + $4))
else
    bad "replay_test.sh: no result line"
fi
T1=$(date +%s)
echo "qemu stage wall time: $((T1 - T0)) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
