"""`random.Random(seed).getrandbits(64)` for many seeds at once, compiled: CPython's Mersenne Twister.

A deal's key is the first 64-bit draw of `random.Random(seed)` (`blockd.engine.random_deal`);
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

import numpy as np
from numba import njit

_N, _M = 624, 397
_MASK = 0xFFFFFFFF


def _init_genrand(seed: int) -> np.ndarray:
    """MT19937's `init_genrand`: the state before the key is mixed in."""
    mt = [seed]
    for i in range(1, _N):
        mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & _MASK)
    return np.array(mt, dtype=np.uint64)


_BASE = _init_genrand(19650218)
#: seeds per pass: the state of this many generators (624 words each) stays in the cache
_LANES = 64


@njit(cache=True)
def _temper(y):
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    return y ^ (y >> np.uint64(18))


@njit(cache=True)
def _twisted(upper, lower, far):
    """A word of the twisted state: `far ^ (y >> 1) ^ (y odd ? 0x9908B0DF : 0)`."""
    y = (upper & np.uint64(0x80000000)) | (lower & np.uint64(0x7FFFFFFF))
    return far ^ (y >> np.uint64(1)) ^ ((y & np.uint64(1)) * np.uint64(0x9908B0DF))


@njit(cache=True)
def _first_draws(seeds, base, out):
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


def first_draws(seeds) -> np.ndarray:
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
