# Independent reference values for results/alpharank_test.go and
# nash_test.go (not run by the tests; the numbers are pinned there).
# Run: /usr/bin/python3 results/testdata/alpharank_ref.py  (needs numpy only)
#
# α-Rank: fixation probabilities by the explicit sum of products of the
# Moran process (no log-space tricks), the chain as in Omidshafiei et al.
# 2019, and the stationary distribution as the left eigenvector of
# eigenvalue 1 (numpy.linalg.eig), not a linear solve.
import numpy as np

def fitness_diff(A, m, k, r, s):
    fr = ((k - 1) * A[r][r] + (m - k) * A[r][s]) / (m - 1)
    fs = (k * A[s][r] + (m - k - 1) * A[s][s]) / (m - 1)
    return fr - fs

def rho(A, m, alpha, r, s):
    total = 0.0
    for l in range(1, m):
        prod = 1.0
        for k in range(1, l + 1):
            prod *= np.exp(-alpha * fitness_diff(A, m, k, r, s))
        total += prod
    return 1.0 / (1.0 + total)

def alpharank(A, m, alpha):
    A = np.asarray(A, dtype=float)
    n = len(A)
    C = np.zeros((n, n))
    for s in range(n):
        for r in range(n):
            if r != s:
                C[s, r] = rho(A, m, alpha, r, s) / (n - 1)
        C[s, s] = 1 - C[s].sum()
    w, v = np.linalg.eig(C.T)
    k = np.argmin(abs(w - 1))
    pi = np.real(v[:, k])
    return pi / pi.sum()

# Nash of a general 3-cycle by brute force over a fine simplex grid is
# closed-form instead: p ∝ (z, y, x) (see nash_test.go); here α-Rank only.
cyc = [[0, 0.1, -0.3], [-0.1, 0, 0.2], [0.3, -0.2, 0]]
four = [[0, 0.1, -0.3, 0.25], [-0.1, 0, 0.2, 0.05], [0.3, -0.2, 0, -0.15], [-0.25, -0.05, 0.15, 0]]
np.set_printoptions(precision=17)
for name, A, m, alpha in [("cyc", cyc, 50, 1.0), ("cyc", cyc, 10, 5.0), ("four", four, 50, 1.0), ("four", four, 20, 3.0)]:
    print(name, m, alpha, repr(alpharank(A, m, alpha).tolist()))

# Nash equilibria by support enumeration (independent of the LP): for each
# support S, solve A[S,S] p = 0 with sum(p) = 1 and keep p >= 0 with
# A p <= 0 everywhere.
import itertools
def nash_enum(A):
    A = np.asarray(A, dtype=float)
    n = len(A)
    found = []
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            M = np.vstack([A[np.ix_(S, S)], np.ones(size)])
            b = np.zeros(size + 1); b[-1] = 1
            q, res, rank, _ = np.linalg.lstsq(M, b, rcond=None)
            if rank < size or np.abs(M @ q - b).max() > 1e-12 or (q < -1e-12).any():
                continue
            p = np.zeros(n); p[list(S)] = q
            if (A @ p <= 1e-12).all():
                found.append(p)
    return found
for p in nash_enum(four):
    print("nash four", repr(p.tolist()), "scores", repr((np.asarray(four) @ p).tolist()))

# Beta posterior edges of TestRateMetaGameCycle: P(θ > ½) for
# θ ~ Beta(½ + points, ½ + opponent's points), by the midpoint rule.
from math import lgamma, exp, log
def beta_upper(a, b, steps=2_000_000):
    h = 0.5 / steps
    c = lgamma(a + b) - lgamma(a) - lgamma(b)
    return sum(exp(c + (a - 1) * log(x) + (b - 1) * log(1 - x)) for x in (0.5 + (i + 0.5) * h for i in range(steps))) * h
edges = [beta_upper(6.5, 2.5), beta_upper(6.5, 2.5), beta_upper(7.0, 2.0)]
print("edges", repr(edges), "cycle", repr(edges[0] * edges[1] * edges[2]))
