#!/usr/bin/python3
"""standstill_test.py SIM - a braked car at rest reads 0 whatever brake profile brought it
there (issue 33 item 2): the hand-written car (--model car --param external=1) and
model/mech/vehicles/car.hsm from 80 km/h with the default method at h = 1 ms under four brake
profiles: the ABS demo's recorded commands (test/tire/abs_stop_inputs.csv: what
`make run MODEL=car` sends), the locked-wheel ramp of `hilstep-ecu --control brake` (10 kN m/s
to 2500 N m), a gentle 300 N m stop, and a hard stop whose brakes are eased to 150 N m after
the car has stopped. From 1 s after the speed first falls below 0.01 m/s (the car rocks back on
its tread springs once the wheels hold: a 1500 kg car on 4 x 180 kN/m, about 3.5 Hz, settling
within that second) to the end, every
wheel's spin must stay below 0.01 rad/s (a wheel-speed sensor then reads < 3 mm/s), and in the
run's last second the car's speed below 1 mm/s. Before the brake's fix car.hsm's front left wheel cycled between
-0.2 and 10.2 rad/s under the ABS profile from 2.5 s on with the car stopped.
Prints "standstill: N passed, N failed"."""
import csv
import os
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(sys.argv[0]))
from tally import check, finish  # noqa: E402 (this folder's shared check lines)


def profile(rows):
    f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    f.write("t,brake_fl,brake_fr,brake_rl,brake_rr\n")
    for t, b in rows:
        f.write("%.6f,%s\n" % (t, ",".join(["%.6f" % b] * 4)))
    f.close()
    return f.name


ramp = profile([(0.0, 0.0), (0.25, 2500.0)])                      # 10 kN m/s, then held
gentle = profile([(0.0, 0.0), (0.25, 300.0)])
eased = profile([(0.0, 0.0), (0.25, 2500.0), (4.0, 2500.0), (4.5, 150.0)])
# name, inputs, interpolation, end (s), earliest start of the check (s): easing the brake
# lets the tread springs the stop wound up turn the wheels back until the weaker brake holds
PROFILES = [("ABS recording", os.path.join(HERE, "abs_stop_inputs.csv"), "hold", 10.0, 0.0),
            ("locked ramp", ramp, "linear", 8.0, 0.0),
            ("300 N m", gentle, "linear", 16.0, 0.0),
            ("eased to 150 N m", eased, "linear", 10.0, 5.5)]
CARS = [("car", ["--model", "car", "--param", "external=1"]),
        ("car.hsm", ["--model-file", "model/mech/vehicles/car.hsm", "--param", "v0=22.2222222222222222"])]

for cname, cargs in CARS:
    for pname, path, interp, T, t_min in PROFILES:
        with tempfile.NamedTemporaryFile(suffix=".csv") as out:
            cmd = [SIM] + cargs + ["--inputs", path, "--interp", interp, "--h", "1e-3", "--t", str(T),
                                   "--csv", out.name, "--every", "10"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0 or "status=ok" not in r.stdout:
                check(False, "%s, %s: %s exits 0 with status=ok" % (cname, pname, " ".join(cmd)))
                continue
            rows = list(csv.DictReader(open(out.name)))
        om = [k for k in rows[0] if k.startswith("out_omega_")]
        sp = [k for k in rows[0] if k.startswith("out_speed")][0]
        t = [float(x["t"]) for x in rows]
        i0 = next((i for i, x in enumerate(rows) if abs(float(x[sp])) < 0.01), None)
        if i0 is None:
            check(False, "%s, %s: the car stops (speed < 0.01 m/s) within %g s" % (cname, pname, T))
            continue
        t1 = max(t[i0] + 1.0, t_min)
        late = [x for x in rows if float(x["t"]) >= t1]
        wmax = max(abs(float(x[k])) for x in late for k in om)
        vend = max(abs(float(x[sp])) for x in rows if float(x["t"]) >= T - 1.0)
        check(len(late) > 100 and wmax < 0.01 and vend < 1e-3,
              "%s, %s: stopped at %.2f s; from %.2f s to %g s max |omega| %.2e rad/s < 0.01; last second max |v| %.2e m/s < 1e-3"
              % (cname, pname, t[i0], t1, T, wmax, vend))
for p in (ramp, gentle, eased):
    os.unlink(p)
finish("standstill")
