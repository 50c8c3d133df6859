#!/usr/bin/python3
"""ramp_test.py SIM - the tire element's road normal from the profile's slope (normal=profile,
issue 33 item 4) through hilstep-sim, default method, 1 ms.

A wheel (20 kg, spin free on a 30 kg carrier whose orientation is held upright by two
perpendicular rows, pitch free) stands at rest on a straight ramp of slope -0.1 (a profile
t=-100,100 v=10,-10: downhill along +x) with gravity vertical, and rolls. The same wheel on the
flat road with gravity tilted by the same angle (the existing way of a slope, its contact frame
untouched by this change) is the reference: the two are one system seen in rotated axes, so the
speed along the slope must agree at every printed time (to 1e-6 relative), and the speed
normal to the road stay 0 (1e-9 m/s). With the default normal=vertical the ramp gives no
longitudinal force (the issue's "a bump gives no longitudinal force"): the wheel stays, below
1 % of that speed. Prints "ramp: N passed, N failed"."""
import csv
import math
import os
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
from tally import check, finish  # noqa: E402 (this folder's shared check lines)


S = -0.1
PHI = math.atan(-S)
G, MC, MW, R0, CZ = 9.81, 30.0, 20.0, 0.3, 190000.0
D = R0 - (MC + MW) * G * math.cos(PHI) / CZ  # the loaded centre's distance from the road


def hsm(ramp, normal):
    if ramp:
        n = (-S / math.sqrt(1 + S * S), 0.0, 1.0 / math.sqrt(1 + S * S))
        c, grav = (D * n[0], D * n[2]), "0,0,-9.81"
        prof = " t=-100,100 v=%r,%r%s" % (-100 * S, 100 * S, " normal=" + normal if normal else "")
    else:
        c, grav, prof = (0.0, D), "%r,0,%r" % (G * math.sin(PHI), -G * math.cos(PHI)), ""
    return ("model ramp dim=3\ngravity %s\ninput d\ninput b\n"
            "body car spatial mass=%r inertia=1,1,1 pos=%r,0,%r\n"
            "body w spatial mass=%r inertia=0.6,1,0.6 pos=%r,0,%r\n"
            "joint ax revolute a=w b=car axis=0,1,0\n"
            "joint px perpendicular a=car@1,0,0 b=car c=ground@0,1,0 d=ground\n"
            "joint pz perpendicular a=car@0,0,1 b=car c=ground@0,1,0 d=ground\n"
            "force t tire a=w b=car axis=0,1,0 l0=%r k=%r in=d%s\n"
            "output pos car\noutput vel car\n") % (grav, MC, c[0], c[1], MW, c[0], c[1], R0, CZ, prof)


def run(text, tilted_axes):
    with tempfile.TemporaryDirectory() as d:
        f, out = os.path.join(d, "m.hsm"), os.path.join(d, "o.csv")
        open(f, "w").write(text)
        r = subprocess.run([SIM, "--model-file", f, "--h", "1e-3", "--t", "2", "--csv", out, "--every", "500"],
                           capture_output=True, text=True)
        if r.returncode != 0 or "status=ok" not in r.stdout:
            return None
        res = []
        c = 1.0 / math.sqrt(1 + S * S)
        for x in csv.DictReader(open(out)):
            vx, vz = float(x["out_car.vx[m/s]"]), float(x["out_car.vz[m/s]"])
            # along the ramp t = (1, 0, s)/|.|, normal n = (-s, 0, 1)/|.|
            res.append((float(x["t"]), (vx + vz * S) * c, (-S * vx + vz) * c) if tilted_axes else (float(x["t"]), vx, vz))
        return res


prof = run(hsm(True, "profile"), True)
ref = run(hsm(False, None), False)
vert = run(hsm(True, None), True)
if prof is None or ref is None or vert is None:
    check(False, "the three ramp runs exit 0 with status=ok")
else:
    e = max(abs(a[1] - b[1]) / max(abs(b[1]), 1e-9) for a, b in zip(prof[1:], ref[1:]))
    vn = max(abs(a[2]) for a in prof)
    check(e <= 1e-6 and vn <= 1e-9 and ref[-1][1] > 1.0,
          "wheel on a -0.1 ramp with normal=profile = the same wheel on the flat road under gravity tilted by atan 0.1: speed along the slope %s m/s (reference %s), worst %.1e relative; normal speed max %.1e m/s"
          % (", ".join("%.6f" % a[1] for a in prof[1:]), ", ".join("%.6f" % b[1] for b in ref[1:]), e, vn))
    vv = max(abs(a[1]) for a in vert)
    check(vv < 0.01 * ref[-1][1], "the same ramp with normal=vertical (the default): no longitudinal force from the slope, speed along it at most %.2e m/s (< 1 %% of %.3f)" % (vv, ref[-1][1]))
finish("ramp")
