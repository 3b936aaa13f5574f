"""CPython's Mersenne Twister (`random.Random`), compiled: one generator at a time, and the
first draw of many seeds at once.

One generator (`seed_state`, `next_uint32`, `randrange`): the 6x6 kernel draws exactly what
`random.Random(seed).randrange(n)` draws, in the same order.  A state is 625 uint32
(`STATE_WORDS`): the 624 words and the index of the next one.  `twister_matches_python`
checks, once per process, that these draws are the running Python's.

Many seeds (`first_draws`): a deal's key is the first 64-bit draw of `random.Random(seed)` (`blockd.engine.random_deal`);
seeding a Python generator per deal costs more than playing the game, so `first_draws` does
the same arithmetic for thousands of seeds together, one seed per vector lane:

- `Random(seed)` with an int seed runs MT19937's `init_by_array` on the 32-bit words of
  `abs(seed)`, least significant first (one word for a seed below 2**32, two up to 2**64);
- `init_by_array` starts from `init_genrand(19650218)` (the same for every seed: `_BASE`) and
  mixes the key into all 624 words in two passes;
- `getrandbits(64)` takes two tempered outputs, the first as the low 32 bits.  Only the first
  two words of the twisted state are needed, so the twist is done for those two only.

The tests compare `first_draws` with `random.Random(s).getrandbits(64)` on many seeds.

>>> import random
>>> int(first_draws(np.array([12345], dtype=np.uint64))[0]) == random.Random(12345).getrandbits(64)
True
"""

from __future__ import annotations

import array
import functools
import random
from collections.abc import Sequence

import numpy as np
from boardlab.analysis.jit import njit

_N, _M = 624, 397
_MASK = 0xFFFFFFFF


def _init_genrand(seed: int) -> np.ndarray:
    """MT19937's `init_genrand`: the state before the key is mixed in."""
    mt = [seed]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & _MASK)
    return np.array(mt, dtype=np.uint64)


_BASE = _init_genrand(19650218)
_BASE32 = _BASE.astype(np.uint32)
#: the uint32 words of one generator's state: the 624 words and the index of the next one
STATE_WORDS = _N + 1
#: an `array.array` type code of unsigned words of at least 32 bits, and its numpy type
_WORD = "I" if array.array("I").itemsize >= 4 else "L"
_WORD_DTYPE = np.dtype(f"u{array.array(_WORD).itemsize}")
_MATRIX_A, _UPPER, _LOWER = np.uint32(0x9908B0DF), np.uint32(0x80000000), np.uint32(0x7FFFFFFF)


# -- one generator ---------------------------------------------------------------------------
@njit(cache=True)
def seed_state(mt: np.ndarray, seed: int) -> None:
    """`random.Random(seed)` for a seed below 2**64 into `mt` (`STATE_WORDS` uint32):
    `init_by_array` over the seed's 32-bit words, least significant first."""
    low = np.uint32(seed & np.uint64(0xFFFFFFFF))
    high = np.uint32(seed >> np.uint64(32))
    keylen = 2 if high else 1
    mt[:_N] = _BASE32
    i, j = 1, 0
    for _ in range(max(_N, keylen)):
        prev = mt[i - 1]
        key = low if j == 0 else high
        mt[i] = np.uint32((mt[i] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))) + key + np.uint32(j))
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= keylen:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = np.uint32((mt[i] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))) - np.uint32(i))
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = np.uint32(0x80000000)
    mt[_N] = _N


@njit(cache=True)
def _twist(mt: np.ndarray) -> None:
    for kk in range(_N):
        y = (mt[kk] & _UPPER) | (mt[(kk + 1) % _N] & _LOWER)
        value = mt[(kk + _M) % _N] ^ (y >> np.uint32(1))
        if y & np.uint32(1):
            value ^= _MATRIX_A
        mt[kk] = value
    mt[_N] = 0


@njit(cache=True)
def next_uint32(mt: np.ndarray) -> np.uint32:
    """The generator's next 32-bit output (`getrandbits(32)`)."""
    if mt[_N] >= _N:
        _twist(mt)
    y = mt[mt[_N]]
    mt[_N] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit(cache=True)
def randrange(mt: np.ndarray, n: int) -> np.int64:
    """`random.Random.randrange(n)` for 0 < n < 2**32: rejection over `getrandbits(n.bit_length())`."""
    k = 0
    while (n >> k) > 0:
        k += 1
    while True:
        r = np.int64(next_uint32(mt) >> np.uint32(32 - k)) if k else np.int64(0)
        if r < n:
            return r


@njit(cache=True)
def getrandbits64(mt: np.ndarray) -> np.uint64:
    """`random.Random.getrandbits(64)`: two outputs, the first as the low 32 bits."""
    low = np.uint64(next_uint32(mt))
    return low | (np.uint64(next_uint32(mt)) << np.uint64(32))


def twister_of(rng: random.Random) -> np.ndarray:
    """The Mersenne Twister state of a `random.Random` (624 words and the index), for a compiled
    search to draw from; `give_back` hands it back.  (Through `array.array`: numpy converts a
    tuple of 625 Python ints about 2.5 times slower.)"""
    return np.frombuffer(array.array(_WORD, rng.getstate()[1]), dtype=_WORD_DTYPE).astype(np.uint32)


def give_back(rng: random.Random, mt: np.ndarray) -> None:
    """Set `rng` to the twister state `mt` (the draws a compiled search made are then its own);
    the rest of its state (the version, the spare Gaussian) is what it was."""
    rng.setstate((rng.VERSION, tuple(mt.tolist()), getattr(rng, "gauss_next")))  # typeshed omits it


@functools.lru_cache(maxsize=1)
def twister_matches_python() -> bool:
    """Whether `seed_state` and `randrange` draw what the running Python's `random` draws."""
    mt = np.zeros(STATE_WORDS, dtype=np.uint32)
    for seed in (0, 1, 12345, 2**32 - 1, 2**32, 2**64 - 1):
        rng = random.Random(seed)
        seed_state(mt, np.uint64(seed))
        for n in (1, 2, 3, 6, 7, 36, 2**31, 1000):
            for _ in range(3):
                if randrange(mt, n) != rng.randrange(n):
                    return False
    return True


# -- the first draw of many seeds ------------------------------------------------------------
#: seeds per pass: the state of this many generators (624 words each) stays in the cache
_LANES = 64


@njit(cache=True)
def _temper(y: np.uint32) -> np.uint32:
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    return y ^ (y >> np.uint64(18))


@njit(cache=True)
def _twisted(upper: np.uint32, lower: np.uint32, far: np.uint32) -> np.uint32:
    """A word of the twisted state: `far ^ (y >> 1) ^ (y odd ? 0x9908B0DF : 0)`."""
    y = (upper & np.uint64(0x80000000)) | (lower & np.uint64(0x7FFFFFFF))
    return far ^ (y >> np.uint64(1)) ^ ((y & np.uint64(1)) * np.uint64(0x9908B0DF))


@njit(cache=True)
def _first_draws(seeds: np.ndarray, base: np.ndarray, out: np.ndarray) -> None:
    mask = np.uint64(0xFFFFFFFF)
    lanes = min(seeds.shape[0], _LANES)
    mt = np.empty((624, lanes), dtype=np.uint64)
    even = np.empty(lanes, dtype=np.uint64)  # what step 1 adds on even and odd key positions
    odd = np.empty(lanes, dtype=np.uint64)
    for first in range(0, seeds.shape[0], lanes):
        width = min(lanes, seeds.shape[0] - first)
        for k in range(width):
            low = seeds[first + k] & mask
            high = seeds[first + k] >> np.uint64(32)
            even[k] = low
            odd[k] = high + np.uint64(1) if high else low  # two key words, or one
        for i in range(624):
            for k in range(width):
                mt[i, k] = base[i]
        # init_by_array, step 1: 624 words with the key words added in turn (i = 1 .. 623, then 1)
        for step in range(624):
            i = step + 1 if step < 623 else 1
            if i == 1 and step:
                for k in range(width):
                    mt[0, k] = mt[623, k]
            add = even if step % 2 == 0 else odd
            for k in range(width):
                prev = mt[i - 1, k]
                mt[i, k] = ((mt[i, k] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)) & mask))
                            + add[k]) & mask
        # step 2: i = 2 .. 623, then 1
        for step in range(623):
            i = step + 2 if step < 622 else 1
            if i == 1:
                for k in range(width):
                    mt[0, k] = mt[623, k]
            for k in range(width):
                prev = mt[i - 1, k]
                mt[i, k] = ((mt[i, k] ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)) & mask))
                            - np.uint64(i)) & mask
        for k in range(width):
            low = _temper(_twisted(np.uint64(0x80000000), mt[1, k], mt[397, k]))
            high = _temper(_twisted(mt[1, k], mt[2, k], mt[398, k]))
            out[first + k] = low | (high << np.uint64(32))


def first_draws(seeds: Sequence[int] | np.ndarray) -> np.ndarray:
    """`random.Random(s).getrandbits(64)` for every seed s of a sequence (non-negative, below
    2**64), as a uint64 array.

    :raises ValueError: when a seed is negative or not below 2**64.
    """
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        values = seeds.ravel()
    else:
        ints = [int(s) for s in seeds]
        if any(not 0 <= s < 1 << 64 for s in ints):
            raise ValueError("seeds must be in 0 .. 2**64 - 1")
        values = np.array(ints, dtype=np.uint64)
    out = np.empty(len(values), dtype=np.uint64)
    if len(values):
        _first_draws(values, _BASE, out)
    return out
