# The lab core's random numbers in Python: xoshiro256** seeded by SplitMix64 and Marsaglia's polar normals, bit for bit (NumPy only).
"""The random numbers of the sqrtdk Lab core, so that a Python script draws exactly the core's Q and K.

It mirrors, line for line:
  wasm/src/rng.cpp   SplitMix64::next, Rng::Rng(seed), Rng::stream(seed, stream) = Rng(seed + stream * 0x9E3779B97F4A7C15),
                     Rng::next_u64 (xoshiro256** 1.0, Blackman & Vigna 2021), Rng::uniform = (x >> 11) * 2^-53,
                     Rng::normal (Marsaglia's polar method: u, v = 2U - 1 until 0 < s = u^2 + v^2 < 1,
                     then u * f and v * f with f = sqrt(-2 ln s / s), the second kept for the next call)
  wasm/src/experiment_common.cpp  draw_tensor(seed, stream, n, sigma) = float32(sigma * normal()), n times

`Xoshiro256ss` is the plain one-number-at-a-time transcription (the golden values of the core's
tests, tests/native/rng_test.cpp, come from it). `Stream` gives the same numbers fast: xoshiro256**'s
state update is linear over GF(2), so the stream is cut into chunks whose start states come from the
256x256 bit matrix of the update raised to the chunk length, and NumPy runs the chunks side by side.
The polar method consumes uniforms in pairs, so its normals are the accepted pairs in order.
"""
import math

import numpy as np

M = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


def splitmix_state(seed):
    """The four 64-bit words of Rng(seed): four successive SplitMix64 outputs started at seed."""
    st, out = seed & M, []
    for _ in range(4):
        st = (st + GOLDEN) & M
        z = st
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        out.append(z ^ (z >> 31))
    return out


class Xoshiro256ss:
    """Rng of rng.cpp, one number at a time (Python integers)."""

    def __init__(self, seed):
        self.s, self.spare = splitmix_state(seed), None

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


_U = np.uint64


def _step(s):
    """One xoshiro256** step on arrays of states s = [s0, s1, s2, s3] (uint64 arrays); returns the outputs."""
    r = s[1] * _U(5)
    r = ((r << _U(7)) | (r >> _U(57))) * _U(9)
    t = s[1] << _U(17)
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
    s[3] = (s[3] << _U(45)) | (s[3] >> _U(19))
    return r


def _to_bits(s):
    """States [4, n] uint64 -> bits [256, n] (bit b of word w at row 64 w + b)."""
    b = np.arange(64, dtype=np.uint64)
    return ((s[:, None, :] >> b[None, :, None]) & _U(1)).reshape(256, -1).astype(np.float64)


def _from_bits(bits):
    """Bits [256, n] -> states [4, n] uint64."""
    b = bits.reshape(4, 64, -1).astype(np.uint64) << np.arange(64, dtype=np.uint64)[None, :, None]
    return np.bitwise_or.reduce(b, axis=1)


def _mul2(a, b):
    return np.mod(a @ b, 2.0)  # GF(2) product: sums of at most 256 ones are exact in float64


CHUNK = 256  # steps each chunk runs
_JUMPS = []  # _JUMPS[k]: the update's bit matrix raised to CHUNK * 2^k


def _jump(k):
    if not _JUMPS:
        unit = np.zeros((4, 256), dtype=np.uint64)
        for i in range(256):
            unit[i // 64, i] = _U(1) << _U(i % 64)
        _step(unit)
        t = _to_bits(unit)  # column i: the update of the state with only bit i set
        for _ in range(8):  # 2^8 = CHUNK
            t = _mul2(t, t)
        _JUMPS.append(t)
    while len(_JUMPS) <= k:
        _JUMPS.append(_mul2(_JUMPS[-1], _JUMPS[-1]))
    return _JUMPS[k]


class Stream:
    """Rng::stream(seed, stream) of rng.cpp: its uniforms and normals, in order, vectorised."""

    def __init__(self, seed, stream=0):
        words = splitmix_state((int(seed) + int(stream) * GOLDEN) & M)
        self.state = np.array(words, dtype=np.uint64).reshape(4, 1)
        self.pending = np.zeros(0)  # normals drawn but not yet returned (the spare)
        self.ubuf = np.zeros(0)  # uniforms drawn but not yet used

    def uniforms(self, n):
        """The next n uniforms in [0, 1) (float64), exactly Rng::uniform's."""
        have = self.ubuf.size
        if have >= n:
            out, self.ubuf = self.ubuf[:n], self.ubuf[n:]
            return out
        chunks = -(-(n - have) // CHUNK)
        bits = _to_bits(self.state)  # [256, 1]
        k = 0
        while bits.shape[1] < chunks + 1:  # start states of chunks 0 .. chunks (the last: the state after)
            bits = np.concatenate([bits, _mul2(_jump(k), bits)], axis=1)
            k += 1
        starts = _from_bits(bits[:, : chunks + 1])
        self.state = starts[:, chunks:].copy()
        s = [starts[w, :chunks].copy() for w in range(4)]
        raw = np.empty((CHUNK, chunks), dtype=np.uint64)
        for i in range(CHUNK):
            raw[i] = _step(s)
        new = (raw.T.reshape(-1) >> _U(11)).astype(np.float64) * 2.0 ** -53
        allu = np.concatenate([self.ubuf, new])
        out, self.ubuf = allu[:n], allu[n:]  # whole chunks are drawn: the rest waits for the next call
        return out

    def normals(self, n):
        """The next n N(0, 1) draws (float64), exactly Rng::normal's."""
        parts, have = [self.pending], self.pending.size
        while have < n:
            pairs = int((n - have) / 2 / (math.pi / 4) * 1.02) + 64
            if have == 0 and parts[0].size == 0:
                parts = []
            u01 = self.uniforms(2 * pairs)
            u, v = 2.0 * u01[0::2] - 1.0, 2.0 * u01[1::2] - 1.0
            s = u * u + v * v
            ok = (s < 1.0) & (s != 0.0)
            u, v, s = u[ok], v[ok], s[ok]
            # the C library's log (math.log), not NumPy's: NumPy's vectorised log may differ in the last bit
            ln = np.fromiter(map(math.log, s.tolist()), dtype=np.float64, count=s.size)
            f = np.sqrt(-2.0 * ln / s)
            z = np.stack([u * f, v * f], axis=1).reshape(-1)
            parts.append(z)
            have += z.size
        allz = np.concatenate(parts) if len(parts) > 1 else parts[0]
        self.pending = allz[n:]
        return allz[:n]


def draw_tensor(seed, stream, shape, sigma=1.0):
    """draw_tensor of experiment_common.cpp: float32(sigma * normal()) for every entry, row-major."""
    n = int(np.prod(shape))
    return (sigma * Stream(seed, stream).normals(n)).astype(np.float32).reshape(shape)
