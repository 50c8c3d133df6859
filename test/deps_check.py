#!/usr/bin/python3
"""deps_check.py - the dependency order of rt/ and model/ (make deps-test).

    deps_check.py BUILD

1. Includes: every `#include "x.h"` of a file in rt/ names a header of rt/; one of a file in
   model/ROOM/ names a header of rt/, of ROOM itself or of a room that model/ROOMS lets ROOM
   include. A break is named as FILE:LINE with the header, its room and the rule.
2. Calls: the objects BUILD/obj/rt/*.o and BUILD/obj/model/*/*.o as a graph, one edge from an
   object to each other object that defines a symbol it uses (nm); no strongly connected set of
   two or more objects (a dependency circle) is allowed. A circle is named by its files.

Ends with "deps: N passed, N failed".
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def rooms():
    """[(room, [rooms it may include])] from model/ROOMS, lowest first."""
    out = []
    with open(os.path.join(ROOT, "model", "ROOMS")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                out.append((line[0], line[1:]))
    return out


def headers(d):
    p = os.path.join(ROOT, d)
    return {f for f in os.listdir(p) if f.endswith(".h") or f.endswith(".c")} if os.path.isdir(p) else set()


def check_includes(room_list, fails):
    names = [r for r, _ in room_list]
    where = {}                      # header name -> room ("rt" for rt/)
    for r in names:
        for h in headers(os.path.join("model", r)):
            where.setdefault(h, r)
    for h in headers("rt"):
        where[h] = "rt"
    allowed = {r: set(a) | {r, "rt"} for r, a in room_list}
    allowed["rt"] = {"rt"}
    for r in names:
        for a in allowed[r] - {"rt"}:
            if a not in names:
                fails.append("model/ROOMS: room %s may include %s, which is no room" % (r, a))
            elif names.index(a) > names.index(r):
                fails.append("model/ROOMS: room %s may include %s, listed above it (rooms are lowest first)" % (r, a))
    n = 0
    for r in ["rt"] + names:
        d = "rt" if r == "rt" else os.path.join("model", r)
        for f in sorted(headers(d)):
            with open(os.path.join(ROOT, d, f)) as fh:
                for i, line in enumerate(fh, 1):
                    m = INC.match(line)
                    if not m:
                        continue
                    n += 1
                    h = os.path.basename(m.group(1))
                    src = where.get(h)
                    if src is None:
                        continue    # a header of hil/ or port/ would fail to compile; not ours to judge
                    if src not in allowed[r]:
                        rule = "rt/ includes rt/ only" if r == "rt" else \
                            "model/ROOMS lets %s include %s" % (r, " ".join(sorted(allowed[r] - {r, "rt"})) or "nothing else")
                        fails.append("%s/%s:%d includes %s of %s (%s)" % (d, f, i, h, src if src == "rt" else "model/" + src, rule))
    return n


def nm(path, undefined):
    args = ["nm", "-u" if undefined else "--defined-only", path]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    syms = set()
    for line in out.splitlines():
        p = line.split()
        if undefined and p:
            syms.add(p[-1])
        elif len(p) == 3 and p[1] in "TDRBCVW" and p[1].isupper():
            syms.add(p[2])
    return syms


def sccs(graph):
    """Tarjan's strongly connected components of {node: set(nodes)}."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_calls(build, room_list, fails):
    objs = []
    o = os.path.join(build, "obj", "rt")
    objs += [os.path.join(o, f) for f in sorted(os.listdir(o)) if f.endswith(".o")] if os.path.isdir(o) else []
    for r, _ in room_list:
        o = os.path.join(build, "obj", "model", r)
        objs += [os.path.join(o, f) for f in sorted(os.listdir(o)) if f.endswith(".o")] if os.path.isdir(o) else []
    # objects of sources that are gone (a file moved or removed since that build) are not ours
    objs = [p for p in objs if os.path.isfile(os.path.join(ROOT, os.path.relpath(p, os.path.join(build, "obj"))[:-2] + ".c"))]
    if not objs:
        fails.append("no objects under %s/obj (build them first: make %s/hilstep-sim)" % (build, build))
        return 0
    name = {p: os.path.relpath(p, os.path.join(build, "obj"))[:-2] + ".c" for p in objs}
    owner = {}
    for p in objs:
        for s in nm(p, False):
            owner.setdefault(s, p)
    graph = {p: {owner[s] for s in nm(p, True) if s in owner and owner[s] != p} for p in objs}
    for comp in sccs(graph):
        if len(comp) > 1:
            fails.append("dependency circle of %d files: %s" % (len(comp), " ".join(name[p] for p in comp)))
    return len(objs)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    room_list = rooms()
    passed = failed = 0
    f1 = []
    n = check_includes(room_list, f1)
    for f in f1:
        print("FAIL " + f)
    if f1:
        failed += 1
    else:
        print("ok   %d includes of rt/ and model/ follow model/ROOMS (%s)" % (n, " < ".join(r for r, _ in room_list)))
        passed += 1
    f2 = []
    n = check_calls(build, room_list, f2)
    for f in f2:
        print("FAIL " + f)
    if f2:
        failed += 1
    else:
        print("ok   no dependency circle among the %d objects of rt/ and model/ (nm)" % n)
        passed += 1
    print("deps: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
