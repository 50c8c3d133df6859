#!/usr/bin/python3
"""index1_variant.py - diagnostic for the Fig. 6 disagreement (not run by make).

A small numpy re-implementation, written from seed 004 and shared/problems/car_axle.md, of
the J2 linear-implicit Euler step for the car axle, index-1, unstabilized, with the index-1
multiplier computed two ways:

  step   (hilstep's choice)  [[A, -G^T], [G, 0]] [u'; lambda] = [f + h fq u_n; -gamma],
                             A = M - h fu - h^2 fq, u_{n+1} = u_n + h u'
  paper  (sec. 3.1)          lambda from M: (G M^-1 G^T) lambda = -gamma - G M^-1 f, then the
                             linear-implicit step u_{n+1} = u_n + h A^-1 (f + h fq u_n + G^T lambda)

Both use q_{n+1} = q_n + h u_n and finite-difference fq, fu. Prints max |g| over [0, 3] per h
and the least-squares slope for each variant (default: the seven h of Fig. 6; about 7 s).
Measured: step 6.101e-04 ... 3.866e-01, slope 1.37 (= hilstep's numbers); paper 5.008e-04,
1.019e-03, 2.663e-03, 5.548e-03, 1.023e-02, 1.869e-02, 1.121e-01, slope 1.08. Usage:
    /usr/bin/python3 test/figures/index1_variant.py [h ...]
"""
import math
import sys

import numpy as np

EPS, MM, L, L0, R, W, GR = 1e-2, 10.0, 1.0, 0.5, 0.1, 10.0, 1.0
K = MM * EPS ** 2 / 2


def road(t):
    yb = R * math.sin(W * t)
    xb = math.sqrt(L * L - yb * yb)
    ybd = R * W * math.cos(W * t)
    ybdd = -R * W * W * math.sin(W * t)
    xbd = -yb * ybd / xb
    xbdd = -(ybd ** 2 + yb * ybdd + xbd ** 2) / xb
    return xb, yb, xbd, ybd, xbdd, ybdd


def force(t, q):
    xb, yb = road(t)[:2]
    xl, yl, xr, yr = q
    ll = math.hypot(xl, yl)
    lr = math.hypot(xr - xb, yr - yb)
    return np.array([(L0 - ll) * xl / ll, (L0 - ll) * yl / ll - K * GR,
                     (L0 - lr) * (xr - xb) / lr, (L0 - lr) * (yr - yb) / lr - K * GR])


def constraint(t, q):
    xb, yb = road(t)[:2]
    xl, yl, xr, yr = q
    dx, dy = xl - xr, yl - yr
    g = np.array([xb * xl + yb * yl, dx * dx + dy * dy - L * L])
    G = np.array([[xb, yb, 0, 0], [2 * dx, 2 * dy, -2 * dx, -2 * dy]])
    return g, G


def gamma(t, q, u):
    xb, yb, xbd, ybd, xbdd, ybdd = road(t)
    xl, yl = q[0], q[1]
    dxd, dyd = u[0] - u[2], u[1] - u[3]
    return np.array([2 * (xbd * u[0] + ybd * u[1]) + xbdd * xl + ybdd * yl,
                     2 * (dxd * dxd + dyd * dyd)])


def run(h, variant, T=3.0):
    q = np.array([0.0, 0.5, 1.0, 0.5])
    u = np.array([-0.5, 0.0, -0.5, 0.0])
    M = K * np.eye(4)
    Mi = np.eye(4) / K
    gmax = 0.0
    for k in range(int(round(T / h))):
        t = k * h
        f = force(t, q)
        fq = np.zeros((4, 4))
        for j in range(4):  # the force does not depend on u: fu = 0
            d = 1e-7 * max(1.0, abs(q[j]))
            e = np.zeros(4)
            e[j] = d
            fq[:, j] = (force(t, q + e) - f) / d
        A = M - h * h * fq
        r = f + h * fq @ u
        _, G = constraint(t, q)
        c = -gamma(t, q, u)
        if variant == "step":
            S = np.block([[A, -G.T], [G, np.zeros((2, 2))]])
            up = np.linalg.solve(S, np.concatenate([r, c]))[:4]
            un = u + h * up
        else:
            lam = np.linalg.solve(G @ Mi @ G.T, c - G @ Mi @ f)
            un = u + h * np.linalg.solve(A, r + G.T @ lam)
        q = q + h * u
        u = un
        gmax = max(gmax, float(np.max(np.abs(constraint((k + 1) * h, q)[0]))))
    return gmax


def main():
    hs = [float(x) for x in sys.argv[1:]] or [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2]
    for variant in ("step", "paper"):
        ys = [run(h, variant) for h in hs]
        x = np.log10(hs)
        y = np.log10(ys)
        s = np.polyfit(x, y, 1)[0]
        print("%-6s %s  slope %.2f" % (variant, " ".join("h=%g:%.3e" % (h, g) for h, g in zip(hs, ys)), s))


if __name__ == "__main__":
    main()
