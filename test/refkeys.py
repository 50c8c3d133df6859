#!/usr/bin/python3
"""refkeys.py - cites the literature by reference key instead of by paper file number.

The papers were first filed as numbered files ("seed 000" .. "seed 004", index in the shared
seeds/README.md); the documents cite them by the keys of rt/METHODS.md's "Reference key", and
code and scripts must too (test/docs_check.sh fails on a file number left in code). This
rewrites, in the files given (directories are walked), every "seed 00N" to its key and every
file name made from a number (seed000.py, fig_seed001_*.png, figures-seed000, ...) to the name
the file carries now. Comment and message text only: no identifier the compiler sees changes.

  refkeys.py [--check] PATH...    rewrite in place (--check: only list what would change;
                                  exit 1 when something would)

Run on the whole tree: /usr/bin/python3 test/refkeys.py rt model hil port test
(test/fuzz/corpus is skipped: those files are fuzzer inputs, kept byte for byte).
"""
import os
import re
import sys

# file number -> reference key (rt/METHODS.md "Reference key"; titles in seeds/README.md)
KEY = {
    "000": "L2",   # Lacoursiere: Regularized, stabilized, variational methods for multibodies (SPOOK)
    "001": "L1",   # Lacoursiere: A regularized time stepper for multibody systems
    "002": "WM",   # Wendlandt, Marsden: Mechanical integrators derived from a discrete variational principle
    "003": "W",    # Witkin: Differential constraints (lecture notes)
    "004": "BAE",  # Burgermeister, Arnold, Esterl: DAE time integration for real-time applications
}

# File names and the names derived from them, most specific first (the files carry these now).
NAMES = [
    ("seed001.md", "l1.md"),
    ("fig_seed001_", "fig_l1_"),
    ("seed001.py", "l1_examples.py"),
    ("import seed001", "import l1_examples"),
    ("seed001.", "l1_examples."),
    ("seed000.py", "l2_ladder.py"),
    ("seed000_fig", "l2_fig"),
    ("figures-seed000", "figures-l2"),
    ("figures/seed000", "figures/l2"),
    ("seed000", "l2"),
]

CITE = re.compile(r"\b([Ss])eeds? (00[0-4])\b('s)?")
SKIP_DIRS = {".git", "build", "corpus"}
SUFFIXES = (".c", ".h", ".py", ".sh", ".mk", ".md", ".hsm", ".txt", "Makefile")


def rewrite(text):
    def cite(m):
        return "[%s]%s" % (KEY[m.group(2)], m.group(3) or "")
    text = CITE.sub(cite, text)
    # "the seed's 1e-5 m" (the paper's): no number to map, the same internal word
    text = re.sub(r"\bthe seed's\b", "the paper's", text)
    for old, new in NAMES:
        text = text.replace(old, new)
    return text


def files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for n in sorted(names):
                if n.endswith(SUFFIXES):
                    yield os.path.join(root, n)


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    changed = 0
    for f in files(paths):
        if f.endswith("refkeys.py"):
            continue  # this file's own tables
        try:
            with open(f, encoding="utf-8") as fh:
                old = fh.read()
        except UnicodeDecodeError:
            continue
        new = rewrite(old)
        if new == old:
            continue
        changed += 1
        n = sum(1 for a, b in zip(old.splitlines(), new.splitlines()) if a != b)
        print("%s: %d line%s" % (f, n, "" if n == 1 else "s"))
        if not check:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(new)
    print("refkeys: %d file%s %s" % (changed, "" if changed == 1 else "s",
                                      "to rewrite" if check else "rewritten"))
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
