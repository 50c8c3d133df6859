#!/bin/sh
# make mb-gen: the C tables of every shipped description, written into model/gen/ (committed).
#   mb_gen.sh GEN MODEL_DIR FILE.hsm...
# For each FILE.hsm whose first statement is `model NAME ...`: MODEL_DIR/mb_NAME.c; then
# MODEL_DIR/mb_gen.h (declarations, sizes, largest sizes) and MODEL_DIR/mb_gen.c (the list).
# Each file is written to a temporary name and moved into place only when the generator
# succeeded, so a refused description leaves the committed tables as they were.
# `make mb-test` fails when any committed file differs from what this writes, or when a
# model/gen/mb_*.c has no description left (test/mb/test_mb_gen.c).
set -eu
GEN=${1:?generator}; DIR=${2:?model dir}; shift 2
[ $# -gt 0 ] || { echo "mb_gen.sh: no description files" >&2; exit 2; }
put() { # target, generator arguments...
    t=$1; shift
    if "$GEN" "$@" > "$t.tmp"; then mv "$t.tmp" "$t"; else rm -f "$t.tmp"; echo "mb_gen.sh: $GEN $* failed" >&2; exit 2; fi
}
for f in "$@"; do
    name=$(sed -n 's/^[[:space:]]*model[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\1/p' "$f" | head -n 1)
    [ -n "$name" ] || { echo "mb_gen.sh: $f: no model statement" >&2; exit 2; }
    put "$DIR/mb_$name.c" "$f"
    echo "  $f -> $DIR/mb_$name.c"
done
put "$DIR/mb_gen.h" --header "$@"
put "$DIR/mb_gen.c" --list "$@"
echo "  -> $DIR/mb_gen.h, $DIR/mb_gen.c ($# descriptions)"
