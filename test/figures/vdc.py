"""vdc.py - the manoeuvres' numbers from hilstep-vdc CSVs (test/tire/vdc_test.py and
test/figures/fig_vdc.py share them): the sine with dwell's yaw-rate ratios and lateral
displacement of FMVSS 126 S5.2, the stop's distance and drift, the slowly increasing steer's
regression. Plain Python: the test needs no numpy."""
import csv
import subprocess

G = 9.81
# FMVSS 126 S5.2.1-S5.2.3 (light vehicles, GVWR <= 3500 kg): lateral stability and responsiveness
YRR_1S_MAX, YRR_175S_MAX, LAT_MIN, LAT_T = 35.0, 20.0, 1.83, 1.07
F_SINE, DWELL, T0 = 0.7, 0.5, 0.5   # hs_drv_default: 0.7 Hz, 0.5 s dwell, begin of steer at 0.5 s
V80 = 80.0 / 3.6
LANE = 3.5


def run(vdc, args, csv_path):
    r = subprocess.run([vdc] + args + ["--csv", csv_path, "--every", "1"], capture_output=True, text=True)
    if r.returncode != 0 or "status=ok" not in r.stdout:
        raise RuntimeError("%s: exit %d, %s %s" % (" ".join([vdc] + args), r.returncode, r.stdout, r.stderr))
    rows = list(csv.DictReader(open(csv_path)))
    return {k: [float(x[k]) for x in rows] for k in rows[0]}, r.stdout.strip()


def at(c, key, t):
    """the column's value at the first row at or after t"""
    for tt, v in zip(c["t"], c[key]):
        if tt >= t - 1e-9:
            return v
    return c[key][-1]


def telemetry(path):
    """a hilstep-rt --log CSV of the car as hilstep-vdc's columns (t, steer, yaw_rate, Y, ...)"""
    rows = list(csv.DictReader(open(path)))
    c = {"t": [float(x["t_s"]) for x in rows]}
    for k in rows[0]:
        if k.startswith(("in_", "out_")):
            c[k.split("_", 1)[1].split("[")[0]] = [float(x[k]) for x in rows]
    return c


def bos(c):
    """begin of steer: the last row before the steering first leaves 0"""
    k = next(i for i, d in enumerate(c["steer"]) if d != 0.0)
    return c["t"][max(k - 1, 0)]


def sine_dwell(c, t0=T0):
    """FMVSS 126 S5.2: the first yaw-rate peak after the steering changes sign, the yaw-rate
    ratios at 1.0 s and 1.75 s after the completion of steer (percent of that peak) and the
    lateral displacement of the centre of gravity 1.07 s after the begin of steer"""
    t, r = c["t"], c["yaw_rate"]
    t_sign, t_cos = t0 + 0.5 / F_SINE, t0 + 1.0 / F_SINE + DWELL
    i = next(k for k, tt in enumerate(t) if tt >= t_sign)
    # the second lobe turns the car to the right (r < 0): the first local minimum of r
    while i + 1 < len(r) and not (r[i] < 0.0 and r[i + 1] > r[i]):
        i += 1
    peak = r[i]
    return {"peak": peak, "t_peak": t[i], "t_cos": t_cos,
            "yrr1": 100.0 * at(c, "yaw_rate", t_cos + 1.0) / peak,
            "yrr175": 100.0 * at(c, "yaw_rate", t_cos + 1.75) / peak,
            "lat": at(c, "Y", t0 + LAT_T) - at(c, "Y", t0),
            "psi_end": c["psi"][-1], "beta_max": max(abs(b) for b in c["beta"]),
            # what the manoeuvre (and the ESC's braking) costs in speed: entry at the begin of
            # steer against 1.75 s after its completion, the last instant the standard judges
            "v_bos": at(c, "speed", t0), "v_175": at(c, "speed", t_cos + 1.75)}


def stop(c, v_end=0.5):
    """distance and time to v_end, largest lateral deviation |Y| and yaw angle |psi| on the way"""
    x0 = c["X"][0]
    k = next((i for i, v in enumerate(c["speed"]) if v < v_end), len(c["t"]) - 1)
    return {"dist": c["X"][k] - x0, "time": c["t"][k], "ymax": max(abs(y) for y in c["Y"][:k + 1]),
            "psimax": max(abs(p) for p in c["psi"][:k + 1]), "psi_end": c["psi"][k], "y_end": c["Y"][k]}


def ramp(c, l=2.7):
    """slowly increasing steer: least-squares line of the steering angle over a_y between 0.1
    and 0.375 g (FMVSS 126 S6.3.2), the angle at 0.3 g and the slope less l/v^2 (the
    understeer gradient, rad s^2/m)"""
    pts = [(a, d, v) for a, d, v in zip(c["a_y"], c["steer"], c["speed"]) if 0.1 * G <= a <= 0.375 * G]
    n = float(len(pts))
    v = sum(p[2] for p in pts) / n
    ma, md = sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    slope = sum((a - ma) * (d - md) for a, d, _ in pts) / sum((a - ma) ** 2 for a, _, _ in pts)
    return {"d03": md + slope * (0.3 * G - ma), "slope": slope, "kus": slope - l / (v * v), "n": len(pts), "v": v}
