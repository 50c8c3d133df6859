#!/usr/bin/python3
"""check.py - the figures check run by `make test` (suite figures-test).

Regenerates the data of Fig. 1 and Fig. 6 at reduced resolution from build/hilstep-sim runs
and asserts them against [BAE] (plain Python, no plotting):

  Fig. 1  On a 13 x 11 grid of (h^2 a, h b) in [0, 12] x [0, 5], each of explicit, J1, J2,
          J3, J_exact is run on q'' = -a q - b q' for 10000 steps at h = 1 ms from the
          scaled state (q, h u) = (1, 1). A run is unstable when it faults (non-ok status) or
          its scaled state grows by more than 1e6. Every grid point whose paper class does
          not change within +-0.25 in h^2 a and +-0.1 in h b must match the class of the
          paper's section 2 inequalities.
          Why those numbers: a growth factor of 1e6 in 10000 steps is reached by any
          spectral radius rho >= 1 + ln(1e6)/10000 = 1.0014. Outside the band every
          paper-unstable grid point has rho >= 1.12 (amplification matrices of
          hsrun.amplification), so it exceeds 1e6 by hundreds of orders of magnitude, and
          every paper-stable point has rho <= 1 and grows at most 7.1e3 (the linear growth of
          the a = 0 Jordan block from u0 != 0). Inside the band rho - 1 can be arbitrarily
          small, so a finite run cannot decide there.
  Fig. 6  J2 on the car axle over [0, 3] for h = 0.1, 0.3, 1, 3, 10 ms, for index-1 and
          index-2, each unstabilized, with Baumgarte (alpha = 1/h, beta = 1/h^2) and with
          one-step projection. The least-squares slope of log max|g| vs log h (points above
          the round-off floor 1e-13) must be within +-0.3 of the paper's order: 1, 2, 3.
          Why +-0.3: the orders differ by 1, so +-0.3 still tells each order from its
          neighbours, while leaving room for the pre-asymptotic bias at the large-h end
          (the spring mode is 44.7 rad/s, h omega = 0.45 at h = 10 ms).
          Also: every run ends with status=ok, and at h <= 1 ms projection has a smaller
          max|g| than Baumgarte (paper sec. 5: smaller by a factor of h).
          Asymptotic order of the unstabilized drift: slope 1 +- 0.3 over h = 10, 20, 50,
          100 us, for index-1 and index-2.
  Known disagreements go in KNOWN_FIG6 (printed as `xfail`, counted neither way; `xpass`
          when they go away). Empty since hilstep's index-1 multipliers follow sec. 3.1 (from
          M, then step (3)); taking them from the step matrix had given slope 1.37.

Prints one line per assertion and ends with the line `N passed, N failed`; exits non-zero on
any failure.
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hsrun  # noqa: E402

CHECK_NA, CHECK_NB = 13, 11
BAND_A, BAND_B = 0.25, 0.1
CHECK_H = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2]
SLOPE_TOL = 0.3
# (form, stab) pairs of Fig. 6 whose full-range slope is a diagnosed disagreement with the
# paper (see the docstring); remove an entry when it is resolved.
KNOWN_FIG6 = {}  # emptied once the index-1 multiplier followed sec. 3.1 (from M, then step (3))


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def known(self, ok, name, detail, why):
        """A known, diagnosed disagreement: reported, not counted."""
        print("%s - %s: %s (known disagreement: %s)" % ("xpass" if ok else "xfail", name, detail, why))
        sys.stdout.flush()

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            print("ok   - %s%s" % (name, (": " + detail) if detail else ""))
        else:
            self.failed += 1
            print("FAIL - %s%s" % (name, (": " + detail) if detail else ""))
        sys.stdout.flush()


def check_fig1(sim, tally):
    grid = hsrun.fig1_grid(CHECK_NA, CHECK_NB)
    jobs = [(m, A, B) for m in hsrun.FIG1_METHODS for (A, B) in grid]
    res = sim.map(lambda j: hsrun.fig1_run(sim, *j), jobs)
    by = {}
    for (m, A, B), (stable, growth, status) in zip(jobs, res):
        by.setdefault(m, []).append((A, B, stable, growth, status))
    for m in hsrun.FIG1_METHODS:
        used = bad = 0
        worst = []
        for A, B, stable, growth, status in by[m]:
            if hsrun.near_boundary(m, A, B, BAND_A, BAND_B):
                continue
            used += 1
            if stable != hsrun.paper_stable(m, A, B):
                bad += 1
                if len(worst) < 4:
                    worst.append("h2a=%g hb=%g run=%s paper=%s growth=%.3g status=%s" % (
                        A, B, "stable" if stable else "unstable",
                        "stable" if hsrun.paper_stable(m, A, B) else "unstable", growth, status))
        nst = sum(1 for A, B, s, g, st in by[m] if s)
        tally.check(bad == 0 and used > 0,
                    "fig1 %s stability classification matches [BAE] sec. 2" % m,
                    "%d/%d decisive grid points agree, %d of %d runs stable%s" % (
                        used - bad, used, nst, len(by[m]),
                        ("; " + "; ".join(worst)) if worst else ""))
    # The headline claim on its own line: explicit Euler is unstable for b = 0, a > 0.
    row = [(A, s) for A, B, s, g, st in by["explicit"] if B == 0.0 and A > 0.0]
    tally.check(row and not any(s for A, s in row),
                "fig1 explicit Euler unstable for b = 0, a > 0",
                "%d of %d points unstable" % (sum(1 for A, s in row if not s), len(row)))


def check_fig6(sim, tally):
    jobs = [(f, s, h) for (f, s) in hsrun.CAR_COMBOS for h in CHECK_H]

    def one(j):
        f, s, h = j
        r = sim.run("car_axle", hsrun.CAR_METHOD, f, s, h=h, t=hsrun.CAR_T, csv=False)
        return float(r["kv"].get("max_abs_g", "nan")), r["kv"].get("status"), r["rc"]

    res = dict(zip(jobs, sim.map(one, jobs)))
    notok = ["%s/%s h=%g status=%s" % (f, s, h, res[(f, s, h)][1])
             for (f, s, h) in jobs if res[(f, s, h)][1] != "ok" or res[(f, s, h)][2] != 0]
    tally.check(not notok, "fig6 all car axle runs end with status=ok", "; ".join(notok))
    for f, s in hsrun.CAR_COMBOS:
        ys = [res[(f, s, h)][0] for h in CHECK_H]
        slope, _, n = hsrun.loglog_slope(CHECK_H, ys)
        exp = hsrun.EXPECTED_SLOPE[s]
        ok = n >= 3 and abs(slope - exp) <= SLOPE_TOL
        name = "fig6 %s %s %s: slope of max|g| vs h on 0.1-10 ms is %.2f (paper %g +- %g)" % (
            hsrun.CAR_METHOD, f, s, slope, exp, SLOPE_TOL)
        detail = "points used %d, max|g| = %s" % (n, " ".join("%.2e" % y for y in ys))
        if (f, s) in KNOWN_FIG6:
            tally.known(ok, name, detail, KNOWN_FIG6[(f, s)])
        else:
            tally.check(ok, name, detail)
    ajobs = [(f, "none", h) for f in ("index1", "index2") for h in hsrun.ASYM_H]
    ares = dict(zip(ajobs, sim.map(one, ajobs)))
    for f in ("index1", "index2"):
        ys = [ares[(f, "none", h)][0] for h in hsrun.ASYM_H]
        slope, _, n = hsrun.loglog_slope(hsrun.ASYM_H, ys)
        tally.check(n >= 3 and abs(slope - 1.0) <= SLOPE_TOL and
                    all(ares[(f, "none", h)][1] == "ok" for h in hsrun.ASYM_H),
                    "fig6 %s %s none: asymptotic slope on 10-100 us is %.2f (order 1 +- %g)" % (
                        hsrun.CAR_METHOD, f, slope, SLOPE_TOL),
                    "max|g| = %s" % " ".join("%.2e" % y for y in ys))
    for f in ("index1", "index2"):
        worse = [h for h in CHECK_H if h <= 1e-3 and
                 not (res[(f, "projection", h)][0] < res[(f, "baumgarte", h)][0])]
        tally.check(not worse, "fig6 %s: projection drift below Baumgarte drift at h <= 1 ms" % f,
                    ("fails at h = %s" % worse) if worse else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="build/hilstep-sim")
    ap.add_argument("--workers", type=int, default=0)
    a = ap.parse_args()
    tally = Tally()
    t0 = time.time()
    try:
        sim = hsrun.Sim(a.sim, a.workers or None)
    except SystemExit as e:
        print("FAIL - %s" % e)
        print("0 passed, 1 failed")
        return 1
    try:
        for part in (check_fig1, check_fig6):
            try:
                part(sim, tally)
            except Exception as e:  # a crash of one part is one failure, not a lost suite
                tally.check(False, "%s raised %s: %s" % (part.__name__, type(e).__name__, e))
    finally:
        sim.close()
    print("figures-test: %d simulator runs in %.1f s" % (sim.runs, time.time() - t0))
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
