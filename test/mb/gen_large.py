#!/usr/bin/python3
"""gen_large.py - writes the large descriptions of model/mech/large/ (issue 32 item 4, issue 35):
    /usr/bin/python3 test/mb/gen_large.py model/mech/large
fourbar40.hsm: the IFToMM benchmark A02, the N-four-bar with N = 40: 2N + 1 = 81 rods of 1 m and
1 kg (inertia m L^2 / 12), N + 1 = 41 cranks hinged to ground 1 m apart, N = 40 couplers
joining the cranks' tips; the cranks start vertical, point B0 (the first crank's tip) at 1 m/s
in +x, gravity 9.81 m/s^2 in -y. At every horizontal position the mechanism is singular (its
degrees of freedom go from 1 to N + 1).
towerN.hsm: N boxes of 0.2 m (1 kg) stacked on the floor, friction mu = 0.5 (model/mech/stack.hsm
with N boxes): N box contacts of 4 points each, 3 rows per point."""
import math
import os
import sys

HEAD = "# %s - written by test/mb/gen_large.py (/usr/bin/python3 test/mb/gen_large.py model/mech/large);\n"


def fourbar(n):
    L = []
    L.append(HEAD % ("fourbar%d.hsm" % n))
    L.append("# the IFToMM multibody benchmark A02, the N-four-bar mechanism with N = %d: %d rods of\n" % (n, 2 * n + 1))
    L.append("# 1 m and 1 kg, %d cranks hinged to ground 1 m apart (vertical at t = 0), %d couplers\n" % (n + 1, n))
    L.append("# joining their tips; the first crank's tip B0 starts at 1 m/s in +x. With equal links every\n")
    L.append("# window is a parallelogram: all cranks keep one angle and the couplers translate\n")
    L.append("# (model/README.md \"Sizes\" checks it against the one-degree-of-freedom equation).\n")
    L.append("# The horizontal positions are singular (1 to N + 1 degrees of freedom): steps of 1 ms\n")
    L.append("# straddle them, the joints stay rigid (the benchmark's ideal joints).\n")
    L.append("model fourbar%d dim=2\n" % n)
    L.append("gravity 0,-9.81\n")
    I = 1.0 / 12.0
    for i in range(n + 1):
        L.append("body crank%d planar mass=1 inertia=%r pos=%d,0.5 angle=%r vel=0.5,0 omega=-1\n" % (i, I, i, math.pi / 2))
    for i in range(n):
        L.append("body coupler%d planar mass=1 inertia=%r pos=%r,1 angle=0 vel=1,0 omega=0\n" % (i, I, i + 0.5))
    for i in range(n + 1):
        L.append("joint pivot%d revolute a=crank%d@-0.5,0 b=ground@%d,0\n" % (i, i, i))
    for i in range(n):
        L.append("joint left%d revolute a=coupler%d@-0.5,0 b=crank%d@0.5,0\n" % (i, i, i))
        L.append("joint right%d revolute a=coupler%d@0.5,0 b=crank%d@0.5,0\n" % (i, i, i + 1))
    L.append("output pos crank0\n")
    L.append("output pos crank%d\n" % (n // 2))
    L.append("output pos crank%d\n" % n)
    L.append("output energy\n")
    return "".join(L)


def tower(n):
    L = []
    L.append(HEAD % ("tower%d.hsm" % n))
    L.append("# %d boxes of 0.2 m (1 kg) stacked on the floor, friction mu = 0.5 (model/mech/stack.hsm with\n" % n)
    L.append("# %d boxes): %d contacts of 4 points, %d unilateral rows.\n" % (n, n, 12 * n))
    L.append("model tower%d dim=3\n" % n)
    L.append("param mu = 0.5\n")
    L.append("gravity 0,0,-9.81\n")
    for i in range(1, n + 1):
        L.append("body b%d spatial mass=1 inertia=0.0066667,0.0066667,0.0066667 pos=0,0,%r quat=1,0,0,0\n" % (i, round(0.2 * i - 0.1, 10)))
    L.append("shape floor plane body=ground\n")
    for i in range(1, n + 1):
        L.append("shape s%d box body=b%d half=0.1,0.1,0.1\n" % (i, i))
    L.append("contact c1 a=s1 b=floor mu=mu\n")
    for i in range(2, n + 1):
        L.append("contact c%d a=s%d b=s%d mu=mu\n" % (i, i, i - 1))
    L.append("output pos b%d\n" % n)
    return "".join(L)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "model/mech/large"
    files = {"fourbar40.hsm": fourbar(40), "tower20.hsm": tower(20), "tower50.hsm": tower(50)}
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
        print("  %s/%s" % (out, name))


if __name__ == "__main__":
    main()
