#!/bin/sh
# mac-bench: callgrind instruction counts of hs_mac_tag and hs_mac_check per call (inclusive:
# the HMAC from the precomputed ipad/opad states), 1000 frames each of 1 value (68 bytes,
# the circular track's ECU -> plant frame), 4 and 64 values.
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-macbench.XXXXXX"); trap 'rm -rf "$T"' EXIT
for n in 1 4 64; do
    valgrind --tool=callgrind --callgrind-out-file="$T/cg$n" "$B/hilstep-mac-bench" $n >/dev/null 2>&1 \
        || { echo "mac-bench: valgrind or the bench failed"; exit 1; }
    # version 3: 32-byte header, the values, the run's challenge (8), the tag (16), the CRC (4)
    line="mac-bench: $n value(s), $((32 + 8 * n + 8 + 16 + 4))-byte frame:"
    for f in hs_mac_tag hs_mac_check; do
        ir=$(callgrind_annotate --inclusive=yes "$T/cg$n" 2>/dev/null | awk -v f="$f" '$0 ~ ":"f" " { gsub(",", "", $1); print $1; exit }')
        line="$line $f $((ir / 1000))"
    done
    echo "$line instructions per frame"
done
