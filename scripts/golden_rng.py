#!/usr/bin/env python3
"""Golden values of the project's generator for tests/native/rng_test.cpp, from the independent Python
implementation the exported scripts also use (web/public/python/sqrtdk_rng.py: SplitMix64 seeding
xoshiro256** (Blackman & Vigna), uniform (x >> 11)·2^-53 and Marsaglia's polar method for normals).
Run: python3 scripts/golden_rng.py"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "public", "python"))
from sqrtdk_rng import GOLDEN, M, Xoshiro256ss  # noqa: E402


if __name__ == "__main__":
    r = Xoshiro256ss(0); print("seed 0 u64:", [hex(r.next()) for _ in range(4)])
    r = Xoshiro256ss(20261129); print("seed 20261129 u64:", [hex(r.next()) for _ in range(3)])
    r = Xoshiro256ss((7 + 3 * GOLDEN) & M); print("stream(7, 3) u64:", [hex(r.next()) for _ in range(2)])
    r = Xoshiro256ss(0); print("seed 0 uniform:", [repr(r.uniform()) for _ in range(3)])
    r = Xoshiro256ss(0); print("seed 0 normal:", [repr(r.normal()) for _ in range(6)])
    r = Xoshiro256ss(12345); print("seed 12345 normal:", [repr(r.normal()) for _ in range(4)])
