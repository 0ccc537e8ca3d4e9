#!/usr/bin/env python3
"""Independent implementation of the project's generator, for the golden values in
tests/native/rng_test.cpp: SplitMix64 seeding xoshiro256** (Blackman & Vigna), uniform
(x >> 11)·2^-53 and Marsaglia's polar method for normals. Run: python3 scripts/golden_rng.py"""
import math

M = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


class Xoshiro256ss:
    def __init__(self, seed):
        st, self.s, self.spare = seed & M, [], None
        for _ in range(4):
            st = (st + GOLDEN) & M
            z = st
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
            self.s.append(z ^ (z >> 31))

    def next(self):
        a = self.s
        r = (rotl((a[1] * 5) & M, 7) * 9) & M
        t = (a[1] << 17) & M
        a[2] ^= a[0]; a[3] ^= a[1]; a[1] ^= a[2]; a[0] ^= a[3]; a[2] ^= t
        a[3] = rotl(a[3], 45)
        return r

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53

    def normal(self):
        if self.spare is not None:
            v, self.spare = self.spare, None
            return v
        while True:
            u, v = 2 * self.uniform() - 1, 2 * self.uniform() - 1
            s = u * u + v * v
            if 0 < s < 1:
                break
        f = math.sqrt(-2 * math.log(s) / s)
        self.spare = v * f
        return u * f


if __name__ == "__main__":
    r = Xoshiro256ss(0); print("seed 0 u64:", [hex(r.next()) for _ in range(4)])
    r = Xoshiro256ss(20261129); print("seed 20261129 u64:", [hex(r.next()) for _ in range(3)])
    r = Xoshiro256ss((7 + 3 * GOLDEN) & M); print("stream(7, 3) u64:", [hex(r.next()) for _ in range(2)])
    r = Xoshiro256ss(0); print("seed 0 uniform:", [repr(r.uniform()) for _ in range(3)])
    r = Xoshiro256ss(0); print("seed 0 normal:", [repr(r.normal()) for _ in range(6)])
    r = Xoshiro256ss(12345); print("seed 12345 normal:", [repr(r.normal()) for _ in range(4)])
