#!/bin/sh
# setup-test: `make run` and `make test` install their tools before anything compiles, and
# the scripts keep their scratch files under build/ or in mktemp directories.
# Ends with "setup: N passed, N failed".
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-setup-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A clean make environment: the suite runner's flags must not leak into the dry runs.
M="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory"

# 1. Dry runs with every target out of date (-B): the install line comes first, the first
#    compile after it. (-n still runs the sub-make, which prints what it would compile.)
for goal in run "run TARGET=qemu" test; do
    $M -n -B $goal >"$T/dry.txt" 2>&1
    inst=$(grep -n 'test/install_deps.sh' "$T/dry.txt" | head -n 1 | cut -d: -f1)
    comp=$(grep -nE '(^| )(cc|gcc|clang|arm-none-eabi-gcc) |run_suites.sh' "$T/dry.txt" | head -n 1 | cut -d: -f1)
    if [ -n "$inst" ] && [ -n "$comp" ] && [ "$inst" -lt "$comp" ]; then
        ok "make -n -B $goal: install_deps.sh at line $inst, first build step at line $comp"
    else
        ko "make -n -B $goal: install line '${inst:-none}', first build step '${comp:-none}'"
        head -n 5 "$T/dry.txt"
    fi
done

# 2. A machine without the tools: PATH holds only sh and mkdir, apt-get is a stub that logs
#    its arguments. install_deps.sh must ask for every toolchain package.
mkdir -p "$T/bin" "$T/cwd"
ln -s "$(command -v sh)" "$T/bin/sh"
ln -s "$(command -v mkdir)" "$T/bin/mkdir"
cat >"$T/fake-apt" <<EOS
#!/bin/sh
echo "\$*" >> "$T/apt.args"
EOS
chmod +x "$T/fake-apt"
here=$(pwd)
(cd "$T/cwd" && PATH="$T/bin" HS_APT="$T/fake-apt" sh "$here/test/install_deps.sh") >"$T/inst.out" 2>&1
rc=$?
missing=""
for pkg in gcc clang cppcheck valgrind gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm tshark \
           busybox-static cpio qemu-system-x86 can-utils rt-tests; do
    grep -qw -- "$pkg" "$T/apt.args" 2>/dev/null || missing="$missing $pkg"
done
[ $rc -eq 0 ] && [ -z "$missing" ] && grep -q '^update' "$T/apt.args" \
    && ok "bare PATH: install_deps.sh runs apt-get update, then install of every toolchain package" \
    || { ko "bare PATH: exit $rc, not requested:$missing"; cat "$T/inst.out"; }
[ -f "$T/cwd/build/hilstep-apt.log" ] && ok "apt log written to build/hilstep-apt.log" \
    || ko "apt log not under build/"

# 3. No fixed scratch paths outside build/: every /tmp use in the scripts and fragments goes
#    through mktemp.
bad=$(grep -nE '/tmp/' Makefile test/*.sh test/*/*.sh test/*/*.mk port/*/*.mk port/*/*.sh 2>/dev/null \
      | grep -v mktemp | grep -v 'setup_test.sh')
[ -z "$bad" ] && ok "no fixed /tmp paths in scripts or make fragments" || ko "fixed /tmp paths: $bad"
echo "setup: $pass passed, $fail failed"
[ $fail -eq 0 ]
