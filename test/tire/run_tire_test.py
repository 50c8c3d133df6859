#!/usr/bin/python3
"""run_tire_test.py TIRETEST SIM TIREMB VDC - runs the tire element's C checks, the TMeasy reference
comparison, the car runs through hilstep-sim, the multibody tire element's checks and the
car.hsm runs, the truck-trailer descriptions against their C models (tt_hsm_test.py), the wheel
spin-up runs (spin_test.py), the bore torque at standstill (bore_test.py), the manoeuvres under the ABS and ESC laws (vdc_test.py),
and sums their result lines into one "tire-test: N passed, N failed"."""
import re
import subprocess
import sys

here = sys.argv[0].rsplit("/", 1)[0]
total_p = total_f = 0
for cmd in ([sys.argv[1]], ["/usr/bin/python3", here + "/tmeasy_ref.py", sys.argv[1]],
            ["/usr/bin/python3", here + "/car_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/trailer_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/iso3888_test.py", sys.argv[2]],
            [sys.argv[3]],
            ["/usr/bin/python3", here + "/car_hsm_test.py", sys.argv[2], "model/mech/vehicles/car.hsm"],
            ["/usr/bin/python3", here + "/tt_hsm_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/standstill_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/mu_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/lambda_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/ramp_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/spin_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/bore_test.py", sys.argv[2]],
            ["/usr/bin/python3", here + "/vdc_test.py", sys.argv[4]]):
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    m = re.search(r"(\d+) passed, (\d+) failed\s*$", r.stdout)
    if m is None:
        print("  FAIL no result line from", " ".join(cmd))
        total_f += 1
        continue
    total_p += int(m.group(1))
    total_f += int(m.group(2)) + (1 if r.returncode != 0 and int(m.group(2)) == 0 else 0)
print("tire-test: %d passed, %d failed" % (total_p, total_f))
sys.exit(1 if total_f else 0)
