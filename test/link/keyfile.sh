#!/bin/sh
# Key files (issue 31): hilstep-rt and hilstep-ecu accept only a regular file of this user with
# no group/other permission bits holding a key that is not all zero; anything else is refused
# at once with exit 2 and a message naming the file and the reason. A FIFO must not hang the
# start (before: the plant hung), a world-writable key only warned, an all-zero key passed.
# Usage: keyfile.sh BUILD_DIR. Ends with "N passed, N failed".
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-keyfile.XXXXXX")
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
trap 'rm -rf "$T"' EXIT
export XDG_CONFIG_HOME="$T/cfg"
umask 077
od -An -tx1 -N32 /dev/urandom >"$T/good.key"
cp "$T/good.key" "$T/g644.key"; chmod 644 "$T/g644.key"
cp "$T/good.key" "$T/g606.key"; chmod 606 "$T/g606.key"
cp "$T/good.key" "$T/g620.key"; chmod 620 "$T/g620.key"
printf '# zero\n%064d\n' 0 >"$T/zero.key"
printf '0011223344556677\n' >"$T/short.key"
head -c 5000 /dev/zero | tr '\0' ' ' >"$T/big.key"; od -An -tx1 -N32 /dev/urandom >>"$T/big.key"
mkfifo "$T/fifo.key"
ln -s "$T/good.key" "$T/link.key"
mkdir "$T/dir.key"
others=""
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    cp "$T/good.key" "$T/theirs.key"; chown nobody "$T/theirs.key"; others=theirs
fi
for tool in hilstep-rt hilstep-ecu; do
    extra=""; [ $tool = hilstep-rt ] && extra="--log none"
    for k in fifo dev link g644 g606 g620 zero short big dir $others; do
        f="$T/$k.key"; [ $k = dev ] && f=/dev/zero
        case $k in
            fifo) want="a FIFO, not a regular file: refused";;
            dev) want="a character device, not a regular file: refused";;
            link) want="a symbolic link: refused";;
            g644) want="mode 0644 gives group or others access: refused";;
            g606) want="mode 0606 gives group or others access: refused";;
            g620) want="mode 0620 gives group or others access: refused";;
            zero) want="key of 32 bytes is all zero";;
            short) want="too short";;
            big) want="larger than the limit of 4096 bytes";;
            dir) want="a directory, not a regular file: refused";;
            theirs) want="owned by uid $(id -u nobody), not by this user";;
        esac
        # 5 s: a FIFO opened without O_NONBLOCK would block here for good
        timeout -k 1 5 "$B/$tool" --key "$f" --duration 0.1 $extra --listen 127.0.0.1:1 >"$T/o" 2>"$T/e"; rc=$?
        [ $rc -eq 2 ] && grep -q "$f" "$T/e" && grep -q "$want" "$T/e" \
            && ok "$tool --key $k: exit 2, '$(head -n 1 "$T/e" | sed "s#$T/##" | cut -c1-110)'" \
            || ko "$tool --key $k: exit $rc (want 2 and '$want'), '$(cat "$T/e")'"
    done
done
# The default key: never replaced, and a file of the wrong mode there is refused, not fixed.
mkdir -p "$T/cfg/hilstep"; chmod 700 "$T/cfg/hilstep"
cp "$T/good.key" "$T/cfg/hilstep/link.key"; chmod 640 "$T/cfg/hilstep/link.key"
"$B/hilstep-rt" --duration 0.01 --log none --listen 127.0.0.1:1 >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 2 ] && grep -q "link.key: mode 0640" "$T/e" && cmp -s "$T/good.key" "$T/cfg/hilstep/link.key" \
    && ok "a per-user key of mode 0640 is refused (exit 2) and left as it was" || ko "default key 0640: exit $rc '$(cat "$T/e")'"
# Two starts at once create one key, both use it (link() never replaces).
rm -rf "$T/cfg"
"$B/hilstep-rt" --duration 0.01 --log none --listen 127.0.0.1:1 >"$T/o1" 2>&1 &
"$B/hilstep-ecu" --timeout-ms 1 --listen 127.0.0.1:2 >"$T/o2" 2>&1
wait
k1=$(grep -o "key [^ ,)]*" "$T/o1" | head -n 1); k2=$(grep -o "key [^ ,)]*" "$T/o2" | head -n 1)
n=$(ls "$T/cfg/hilstep" | wc -l)
[ "$n" = 1 ] && [ "$k1" = "$k2" ] && [ -n "$k1" ] && ok "concurrent first use: one key file, both tools read it ($k1)" \
    || ko "concurrent first use: $n files, '$k1' '$k2'"
# No HOME and no XDG_CONFIG_HOME: a clear error, not a key in the current directory.
env -u HOME -u XDG_CONFIG_HOME "$B/hilstep-rt" --duration 0.01 --log none --listen 127.0.0.1:1 >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 2 ] && grep -q "neither XDG_CONFIG_HOME nor HOME" "$T/e" && ok "no HOME: exit 2, '$(head -c 100 "$T/e")'" \
    || ko "no HOME: exit $rc '$(cat "$T/e")'"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
