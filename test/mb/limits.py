#!/usr/bin/python3
"""limits.py - one description per capacity of the build (model/mb/hs_mb.h, model/lang/hs_mb_parse.h),
each one over it, with the refusal hilstep-sim must print (model/README.md "Sizes"):
    /usr/bin/python3 test/mb/limits.py DIR      -> DIR/NAME.hsm and DIR/NAME.expect per case
The capacities are read from the headers (their defaults: the build the suite tests)."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def caps():
    c = {}
    for h in ("model/mb/hs_mb.h", "model/lang/hs_mb_parse.h"):
        for m in re.finditer(r"#define (HS_MB_MAX_[A-Z]+) +([0-9]+)", open(os.path.join(ROOT, h)).read()):
            c.setdefault(m.group(1), int(m.group(2)))
    return c


def msg(need, what, lim, cap, atleast=False):
    return "%s%d %s exceed %s = %d; build with -D%s=%d or more (make %s=%d)" % (
        "at least " if atleast else "", need, what, lim, cap, lim, need, lim, need)


def cases(C):
    out = []
    head2 = ["model lim dim=2", "gravity 0,-9.81"]
    head3 = ["model lim dim=3", "gravity 0,0,-9.81"]
    box = "body b%d spatial mass=1 inertia=0.0066667,0.0066667,0.0066667 pos=0,0,%r quat=1,0,0,0"
    # bodies: one over, two more after it (the need counts them all)
    n = C["HS_MB_MAX_BODIES"]
    L = head2 + ["body p%d point2 mass=1 pos=%d,0" % (i, i) for i in range(n + 3)]
    out.append(("bodies", L, len(head2) + n + 1, "body", msg(n + 3, "bodies", "HS_MB_MAX_BODIES", n)))
    n = C["HS_MB_MAX_JOINTS"]
    L = head2 + ["body p point2 mass=1 pos=1,0"] + ["joint j%d distance a=p b=ground length=1" % i for i in range(n + 1)]
    out.append(("joints", L, len(head2) + 1 + n + 1, "joint", msg(n + 1, "joints", "HS_MB_MAX_JOINTS", n)))
    n = C["HS_MB_MAX_FORCES"]
    L = head2 + ["body p point2 mass=1 pos=1,0"] + ["force f%d spring a=p b=ground k=1 l0=1" % i for i in range(n + 2)]
    out.append(("forces", L, len(head2) + 1 + n + 1, "force", msg(n + 2, "force elements", "HS_MB_MAX_FORCES", n)))
    n = C["HS_MB_MAX_OUTPUTS"]
    L = head2 + ["body p point2 mass=1 pos=1,0"] + ["output pos p"] * (n + 1)
    out.append(("outputs", L, len(head2) + 1 + n + 1, "output", msg(n + 1, "outputs", "HS_MB_MAX_OUTPUTS", n)))
    n = C["HS_MB_MAX_NIN"]
    L = head2 + ["input i%d unit=N min=-1 max=1 fallback=0 stale=20" % i for i in range(n + 1)] + ["body p point2 mass=1 pos=1,0"]
    out.append(("inputs", L, len(head2) + n + 1, "input", msg(n + 1, "inputs", "HS_MB_MAX_NIN", n)))
    n = C["HS_MB_MAX_PARAMS"]
    L = head2 + ["param k%d = 1" % i for i in range(n + 1)] + ["body p point2 mass=1 pos=1,0"]
    out.append(("params", L, len(head2) + n + 1, "param", msg(n + 1, "params", "HS_MB_MAX_PARAMS", n)))
    n = C["HS_MB_MAX_POINTS"]
    L = head2 + ["point a%d at=%d,0" % (i, i) for i in range(n + 1)] + ["body p point2 mass=1 pos=1,0"]
    out.append(("points", L, len(head2) + n + 1, "point", msg(n + 1, "named points", "HS_MB_MAX_POINTS", n)))
    n = C["HS_MB_MAX_SHAPES"]
    L = head3 + [box % (1, 0.1)] + ["shape s%d sphere body=b1 radius=0.01" % i for i in range(n + 1)]
    out.append(("shapes", L, len(head3) + 1 + n + 1, "shape", msg(n + 1, "shapes", "HS_MB_MAX_SHAPES", n)))
    n = C["HS_MB_MAX_CONTACTS"]
    L = head3 + [box % (1, 0.1), "shape floor plane body=ground", "shape s1 sphere body=b1 radius=0.1"] + \
        ["contact c%d a=s1 b=floor" % i for i in range(n + 1)]
    out.append(("contacts", L, len(head3) + 3 + n + 1, "contact", msg(n + 1, "contacts", "HS_MB_MAX_CONTACTS", n)))
    n = C["HS_MB_MAX_STOPS"]
    L = head2 + ["body rod planar mass=1 inertia=0.083333 pos=0.5,0 angle=0", "joint hinge revolute a=rod@-0.5,0 b=ground"] + \
        ["stop s%d joint=hinge min=-1" % i for i in range(n + 1)]
    out.append(("stops", L, len(head2) + 2 + n + 1, "stop", msg(n + 1, "end stops", "HS_MB_MAX_STOPS", n)))
    # output signals: a spatial body's pos gives 7; refused at the output that goes over, the need
    # a lower bound (the later outputs' signals are not counted)
    n = C["HS_MB_MAX_NOUT"]
    k = n // 7 + 1
    L = head3 + [box % (1, 0.1)] + ["output pos b1"] * k
    out.append(("signals", L, len(head3) + 1 + k, "output", msg(7 * k, "output signals", "HS_MB_MAX_NOUT", n, True)))
    # coordinates: spatial bodies (7 each) past HS_MB_MAX_NQ within HS_MB_MAX_BODIES; refused at
    # the first body over it, the need counts every body
    n = C["HS_MB_MAX_NQ"]
    nb = n // 7 + 2
    L = head3 + [box % (i, 0.2 * i) for i in range(1, nb + 1)]
    out.append(("coordinates", L, len(head3) + n // 7 + 1, "body", msg(7 * nb, "coordinates", "HS_MB_MAX_NQ", n)))
    # constraint rows: spatial revolute joints (5 rows each) of one body to ground past HS_MB_MAX_NC;
    # the need is a lower bound (a row per later joint, a norm row per spatial body)
    n = C["HS_MB_MAX_NC"]
    nj = n // 5 + 1
    L = head3 + [box % (1, 0.1)] + ["joint j%d revolute a=b1 b=ground axis=0,0,1" % i for i in range(nj)]
    out.append(("rows", L, len(head3) + 1 + nj, "joint", msg(n + 1 + 1, "constraint rows", "HS_MB_MAX_NC", n, True)))
    # unilateral rows: box-plane contacts (4 points x 3 rows with friction) past HS_MB_MAX_CT
    n = C["HS_MB_MAX_CT"]
    nc = n // 12 + 2
    L = head3 + [box % (1, 0.1), "shape floor plane body=ground", "shape s1 box body=b1 half=0.1,0.1,0.1"] + \
        ["contact c%d a=s1 b=floor mu=0.5" % i for i in range(nc)]
    out.append(("unilateral", L, len(head3) + 3 + n // 12 + 1, "contact",
                msg(12 * nc, "unilateral rows (contact points x rows per point)", "HS_MB_MAX_CT", n)))
    return out


def main():
    d = sys.argv[1]
    for name, lines, line, field, text in cases(caps()):
        p = os.path.join(d, name + ".hsm")
        open(p, "w").write("\n".join(lines) + "\n")
        open(os.path.join(d, name + ".expect"), "w").write("%s:%d: field '%s': %s\n" % (p, line, field, text))
        print(name)


if __name__ == "__main__":
    main()
