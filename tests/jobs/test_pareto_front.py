#!/usr/bin/env python3
"""The sweep's Pareto front (hifsim.report.pareto `front`), fast enough for 10^5 points, is
exactly the set of points no other point dominates: checked against the definition, pair by pair,
on random point sets full of ties and duplicates (where an off-by-one in <= vs < shows)."""
import random
import sys
import time
import unittest

from hifsim.report.pareto import front  # noqa: E402  (PYTHONPATH=<build>/python, set by CMake)


def dominates(p, q):  # lower energy, higher accuracy, lower area; strictly better in one
    return p[0] <= q[0] and p[1] >= q[1] and p[2] <= q[2] and p != q


def by_definition(points):
    return [i for i, p in enumerate(points) if not any(dominates(q, p) for q in points)]


class ParetoFront(unittest.TestCase):
    def test_matches_the_definition_with_ties(self):
        rng = random.Random(12345)
        for trial in range(400):
            n = rng.randint(1, 60)
            levels = rng.choice([2, 3, 5, 50])  # few levels: many ties and duplicates
            pts = [(rng.randint(0, levels), rng.randint(0, levels), rng.randint(0, levels)) for _ in range(n)]
            self.assertEqual(front(pts), by_definition(pts), f"trial {trial}: {pts}")

    def test_hand_cases(self):
        self.assertEqual(front([(1, 5, 1), (1, 5, 1)]), [0, 1])          # equal points: both stay
        self.assertEqual(front([(1, 5, 1), (2, 5, 1)]), [0])             # worse only in energy
        self.assertEqual(front([(1, 5, 1), (1, 4, 1)]), [0])             # worse only in accuracy
        self.assertEqual(front([(1, 5, 2), (1, 5, 1)]), [1])             # worse only in area
        self.assertEqual(front([(1, 1, 1), (2, 2, 2), (3, 3, 3)]), [0, 1, 2])  # a trade-off

    def test_large_sets_are_fast(self):
        rng = random.Random(7)
        pts = [(rng.random(), rng.random(), rng.random()) for _ in range(100000)]
        t0 = time.perf_counter()
        idx = front(pts)
        print(f"front of 10^5 random points: {len(idx)} points in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
        sample = rng.sample(range(len(pts)), 200)  # spot-check against the definition
        on = set(idx)
        for i in sample:
            self.assertEqual(i in on, not any(dominates(q, pts[i]) for q in pts), i)


if __name__ == "__main__":
    unittest.main()
