"""The compiled random numbers of every game's numba kernel: SplitMix64 over 64-bit keys.

Random number t of a stream with key k is `splitmix(k + (t + 1) * GOLDEN)`: counter-based, so a
kernel needs no generator state and a game's numbers depend only on its key (its seed).
"""

from __future__ import annotations

import numpy as np
from boardlab.analysis.jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def splitmix(z: np.uint64) -> np.uint64:
    """SplitMix64's output mix of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def to_unit(z: np.uint64) -> float:
    """A uint64 as a uniform float in [0, 1) (its top 53 bits)."""
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
