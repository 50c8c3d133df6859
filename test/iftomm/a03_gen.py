#!/usr/bin/env python3
"""test/iftomm/a03_gen.py > model/mech/iftomm/a03_andrews.hsm - writes IFToMM benchmark A03,
Andrews' squeezing mechanism, as a description in absolute coordinates. The data (masses,
centroidal inertias, lengths, spring, motor torque, the consistent initial relative angles)
are those of the Test Set for IVP Solvers (problem andrews; E. Hairer, G. Wanner: Solving ODE
II, sec. VII.7; W. Schiehlen: Multibody Systems Handbook). The format has no trigonometric
functions, so the bodies' initial positions and angles are computed here from the seven
relative angles beta .. epsilon and written as numbers (17 digits)."""
from math import cos, sin

P = dict(m1=.04325, m2=.00365, m3=.02373, m4=.00706, m5=.07050, m6=.00706, m7=.05498,
         xa=-.06934, ya=-.00227, xb=-0.03635, yb=.03273, xc=.014, yc=.072, c0=4530.0,
         i1=2.194e-6, i2=4.410e-7, i3=5.255e-6, i4=5.667e-7, i5=1.169e-5, i6=5.667e-7,
         i7=1.912e-5, d=28e-3, da=115e-4, e=2e-2, ea=1421e-5, rr=7e-3, ra=92e-5, l0=7785e-5,
         ss=35e-3, sa=1874e-5, sb=1043e-5, sc=18e-3, sd=2e-2, ta=2308e-5, tb=916e-5, u=4e-2,
         ua=1228e-5, ub=449e-5, zf=2e-2, zt=4e-2, fa=1421e-5, mom=33e-3)
# the test set's consistent initial relative angles (velocities 0)
BE, TH, GA, PH, DE, OM, EP = (-0.0617138900142764496358948458001, 0.0,
                              0.455279819163070380255912382449, 0.222668390165885884674473185609,
                              0.487364979543842550225598953530, -0.222668390165885884674473185609,
                              1.23054744454982119249735015568)
p = type("P", (), P)

def rot(a, v):
    return (cos(a) * v[0] - sin(a) * v[1], sin(a) * v[0] + cos(a) * v[1])

def add(a, b):
    return (a[0] + b[0], a[1] + b[1])

# Each body's frame: its angle and the centre of mass in the frame of the test set's figure.
# Bodies 3, 5 and 7 turn about fixed points and there is no gravity, so only the distance of
# their centre of mass from the pivot enters the motion (the test set's m3 (sa^2 + sb^2) etc.);
# the direction chosen here is the OpenSim benchmark page's for body 3 (sb, -sa from B).
c3, c5, c7 = (p.sb, -p.sa), (p.ta, p.tb), (-p.ub, -p.ua)
bodies = [
    # name, mass, inertia, angle, centre of mass (ground)
    ("K1", p.m1, p.i1, BE, rot(BE, (p.ra, 0.0))),
    ("K2", p.m2, p.i2, BE + TH, add(rot(BE, (p.rr, 0.0)), rot(BE + TH, (-p.da, 0.0)))),
    ("K3", p.m3, p.i3, GA, add((p.xb, p.yb), rot(GA, c3))),
    ("K4", p.m4, p.i4, PH + DE, add(add((p.xa, p.ya), rot(DE, (p.zt, 0.0))),
                                    rot(PH + DE, (0.0, -(p.e - p.ea))))),
    ("K5", p.m5, p.i5, DE, add((p.xa, p.ya), rot(DE, c5))),
    ("K6", p.m6, p.i6, OM + EP, add(add((p.xa, p.ya), rot(EP, (0.0, -p.u))),
                                    rot(OM + EP, (p.zf - p.fa, 0.0)))),
    ("K7", p.m7, p.i7, EP, add((p.xa, p.ya), rot(EP, c7))),
]
f = lambda x: repr(float(x))
v = lambda a: "%s,%s" % (f(a[0]), f(a[1]))
E2 = (p.da - p.d, 0.0)                                  # E on K2
joints = [
    ("O", "K1@%s" % v((-p.ra, 0.0)), "ground@0,0"),
    ("F", "K1@%s" % v((p.rr - p.ra, 0.0)), "K2@%s" % v((p.da, 0.0))),
    ("B", "K3@%s" % v((-c3[0], -c3[1])), "ground@%s" % v((p.xb, p.yb))),
    ("E3", "K3@%s" % v((-c3[0], -p.ss - c3[1])), "K2@%s" % v(E2)),
    ("A5", "K5@%s" % v((-c5[0], -c5[1])), "ground@%s" % v((p.xa, p.ya))),
    ("G", "K4@%s" % v((0.0, p.e - p.ea)), "K5@%s" % v((p.zt - c5[0], -c5[1]))),
    ("E4", "K4@%s" % v((0.0, -p.ea)), "K2@%s" % v(E2)),
    ("A7", "K7@%s" % v((-c7[0], -c7[1])), "ground@%s" % v((p.xa, p.ya))),
    ("H", "K6@%s" % v((-(p.zf - p.fa), 0.0)), "K7@%s" % v((-c7[0], -p.u - c7[1]))),
    ("E6", "K6@%s" % v((p.fa, 0.0)), "K2@%s" % v(E2)),
]
print("\n".join(
    "# " + l if l else "#" for l in (
        "a03_andrews.hsm - IFToMM benchmark A03, Andrews' squeezing mechanism: seven planar",
        "bodies K1..K7 joined by ten revolute joints (one degree of freedom), no gravity, a",
        "constant motor torque of 0.033 N m on the crank K1 (about O) and a spring (4530 N/m,",
        "rest length 0.07785 m) from point D of K3 to the ground point C. Starts at rest; runs",
        "0.03 s (the crank turns 15.8 rad). Data and initial angles: the Test Set for IVP Solvers,",
        "problem andrews. Written by test/iftomm/a03_gen.py (the format has no trigonometric",
        "functions: the initial positions are computed there). Reference: test/iftomm/a03_ref.c",
        "(the test set's relative angles, RK4) and the test set's solution at 0.03 s.",
        "Coordinates of the CSV: K1.x K1.y K1.theta ... K7.theta; beta = K1.theta,",
        "theta = K2.theta - K1.theta, gamma = K3.theta, phi = K4.theta - K5.theta, delta = K5.theta,",
        "omega = K6.theta - K7.theta, epsilon = K7.theta.")))
print("model iftomm_a03 dim=2")
for n, m, i, a, c in bodies:
    print("body %s planar mass=%s inertia=%s pos=%s angle=%s" % (n, f(m), f(i), v(c), f(a)))
for n, a, b in joints:
    print("joint %s revolute a=%s b=%s" % (n, a, b))
D3 = (p.sd - c3[0], -p.sc - c3[1])
print("force spring spring a=K3@%s b=ground@%s k=%s l0=%s" % (v(D3), v((p.xc, p.yc)), f(p.c0), f(p.l0)))
print("force motor consttorque a=K1 tau=%s" % f(p.mom))
print("output pos K1")
print("output energy")
