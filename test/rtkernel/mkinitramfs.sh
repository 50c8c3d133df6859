#!/bin/sh
# Builds the guest of make rtkernel-test: an uncompressed newc initramfs holding busybox-static,
# the modules of the installed PREEMPT_RT kernel it needs (can, can-raw, vcan, virtio_pci,
# virtio_blk and what modules.dep says they need), the hilstep binaries, candump/cansend/cangen, cyclictest, every shared
# library they load (from ldd), the DBC files of hil/ when there are any, and test/rtkernel/init.
# No root needed and nothing root-owned left behind: no device nodes (the guest mounts
# devtmpfs), ownership 0:0 is written into the archive by cpio -R, and the staging tree is
# under OUT. Unpacking an uncompressed archive is the quickest thing for an emulated CPU.
# Usage: mkinitramfs.sh OUT_DIR KVER BUILD_DIR. Writes OUT_DIR/initramfs.cpio, OUT_DIR/modules.txt.
# Environment (make rtkernel-run, test/rtkernel/user_run.sh): HS_EXTRA_MODULES, paths as
# modules.dep names them, and HS_EXTRA_TOOLS, commands on PATH, go in as well.
set -e
OUT=$1; KVER=$2; B=$3
HERE=$(dirname "$0")
MODDIR=/lib/modules/$KVER
[ -f "$MODDIR/modules.dep" ] || { echo "mkinitramfs: $MODDIR/modules.dep missing (linux-image-rt-amd64 not installed?)" >&2; exit 1; }
R=$OUT/root
rm -rf "$R"
mkdir -p "$R/bin" "$R/sbin" "$R/usr/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/out" "$R/lib/hs-modules" "$R/hs"

# busybox and its applets as links (the guest's sh, mount, ip, insmod, tar, stty, poweroff...).
BB=$(command -v busybox)
# A dynamic busybox (Debian's `busybox` package) would need its libraries too: insist on the static one.
if ldd "$BB" >/dev/null 2>&1; then echo "mkinitramfs: $BB is not static (install busybox-static)" >&2; exit 1; fi
cp "$BB" "$R/bin/busybox"
for a in $("$BB" --list); do
    [ "$a" = busybox ] || ln -sf busybox "$R/bin/$a"
done

# Binaries with their shared libraries at the paths ldd names (the dynamic loader included).
add_bin() {  # SRC DEST_IN_ROOT
    cp "$1" "$R$2"
    ldd "$1" 2>/dev/null | sed -nE 's/.*=> (\/[^ ]+) .*/\1/p; s/^[[:space:]]*(\/[^ ]+) .*/\1/p' | while read -r lib; do
        [ -f "$R$lib" ] && continue
        mkdir -p "$R$(dirname "$lib")"
        cp -L "$lib" "$R$lib"
    done
}
for p in hilstep-rt hilstep-ecu hilstep-sim hilstep-can-spoof; do
    [ -x "$B/$p" ] || { echo "mkinitramfs: $B/$p not built" >&2; exit 1; }
    add_bin "$B/$p" "/usr/bin/$p"
done
for p in candump cansend cangen cyclictest ${HS_EXTRA_TOOLS:-}; do
    src=$(command -v "$p") || { echo "mkinitramfs: $p not installed (can-utils, rt-tests)" >&2; exit 1; }
    add_bin "$src" "/usr/bin/$p"
done

# Modules: modules.dep lists every module's dependencies, transitively, in the order modprobe
# loads them from right to left; each is taken once. Debian 12 ships them uncompressed;
# .xz/.zst/.gz ones are unpacked here for busybox insmod.
# virtio_pci + virtio_blk: the disk the results go back on (an emulated 8250 under the RT
# kernel's threaded interrupts stalled after ~100 KB: "irq 3: nobody cared").
want="kernel/net/can/can.ko kernel/net/can/can-raw.ko kernel/drivers/net/can/vcan.ko
      kernel/drivers/virtio/virtio_pci.ko kernel/drivers/block/virtio_blk.ko ${HS_EXTRA_MODULES:-}"
order=""
for w in $want; do
    line=$(awk -F: -v m="$w" '$1 == m || $1 == m ".xz" || $1 == m ".zst" || $1 == m ".gz" { print; exit }' "$MODDIR/modules.dep")
    [ -n "$line" ] || { echo "mkinitramfs: $w not in $MODDIR/modules.dep" >&2; exit 1; }
    for m in $(echo "${line#*:}" | tr ' ' '\n' | sed '/^$/d' | tac) "${line%%:*}"; do
        case " $order " in *" $m "*) ;; *) order="$order $m";; esac
    done
done
: >"$OUT/modules.txt"
for m in $order; do
    base=$(basename "$m"); base=${base%.xz}; base=${base%.zst}; base=${base%.gz}
    case "$m" in
        *.xz) xz -dc "$MODDIR/$m" >"$R/lib/hs-modules/$base";;
        *.zst) zstd -qdc "$MODDIR/$m" >"$R/lib/hs-modules/$base";;
        *.gz) gzip -dc "$MODDIR/$m" >"$R/lib/hs-modules/$base";;
        *) cp "$MODDIR/$m" "$R/lib/hs-modules/$base";;
    esac
    echo "$base" >>"$OUT/modules.txt"
done
cp "$OUT/modules.txt" "$R/lib/hs-modules/order"

# The scenario script and whatever CAN data the tree ships (DBC files, for the CAN scenario).
cp "$HERE/init" "$R/init"
chmod 755 "$R/init"
cp "$HERE/../can/scenario.sh" "$R/hs/scenario.sh"
cp "$HERE/../can/spoof.sh" "$R/hs/spoof.sh"
cp "$HERE/../can/circular_track_fd.dbc" "$HERE/../can/circular_track_secoc.dbc" "$R/hs/"
for f in hil/*.dbc hil/dbc/*.dbc model/*.dbc; do
    [ -f "$f" ] && cp "$f" "$R/hs/"
done
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$OUT/initramfs.cpio.tmp"
mv "$OUT/initramfs.cpio.tmp" "$OUT/initramfs.cpio"
