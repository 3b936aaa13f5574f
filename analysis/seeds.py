"""Many games' seeds at once: `derive_seeds`, the vectorised twin of `runner.derive_seed`.

The batched and compiled fast paths of every game key game i's stream by
`derive_seed(seed, stream, i)`; computing those one `SeedSequence` at a time would cost more
than the games themselves, so this module reproduces numpy's seed hashing over arrays.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from boardlab.analysis.runner import derive_seed  # noqa: F401 (the doctest compares with it)

_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4


def _words(value: int) -> list[int]:
    """An int as little-endian 32-bit words (numpy's coercion of seeds and spawn keys)."""
    out = []
    while True:
        out.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return out


def derive_seeds(seed: int, stream: int, indices: ArrayLike, *more: ArrayLike) -> np.ndarray:
    """`derive_seed(seed, stream, i, *m)` for every i of `indices` at once (uint64 array), with
    `more` further keys (ints or arrays broadcast against `indices`, e.g. the seat of an agent).

    A vectorised copy of numpy's `SeedSequence(seed, spawn_key=(stream, i, ...)).generate_state(2)`
    (its hash mixing in uint32 arithmetic); indices and further keys must be below 2**32.

    >>> int(derive_seeds(1, 0, [5])[0]) == derive_seed(1, 0, 5)
    True
    >>> [int(v) for v in derive_seeds(1, 1, [7, 7], [0, 1])] == [derive_seed(1, 1, 7, s) for s in (0, 1)]
    True

    :raises ValueError: when an index or key is negative or not below 2**32.
    """
    keys = np.broadcast_arrays(*(np.asarray(k, dtype=np.int64) for k in (indices,) + more))
    for key in keys:
        if key.size and (key.min() < 0 or key.max() >= 1 << 32):
            raise ValueError("indices must be in 0 .. 2**32 - 1")
    shape = keys[0].shape
    run = _words(seed)
    run += [0] * (_POOL - len(run))
    entropy = [np.full(shape, w, np.uint32) for w in run + _words(stream)] + [k.astype(np.uint32) for k in keys]
    u32 = np.uint32
    shift = u32(16)
    with np.errstate(over="ignore"):
        hash_const = u32(_INIT_A)

        def hashmix(value: np.ndarray) -> np.ndarray:
            nonlocal hash_const
            value = value ^ hash_const
            hash_const = u32(hash_const * u32(_MULT_A))
            value = value * hash_const
            return value ^ (value >> shift)

        def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            result: np.ndarray = u32(_MIX_L) * x - u32(_MIX_R) * y
            return result ^ (result >> shift)

        pool = [hashmix(entropy[i]) for i in range(_POOL)]
        for src in range(_POOL):
            for dst in range(_POOL):
                if src != dst:
                    pool[dst] = mix(pool[dst], hashmix(pool[src]))
        for src in range(_POOL, len(entropy)):
            for dst in range(_POOL):
                pool[dst] = mix(pool[dst], hashmix(entropy[src]))
        hash_b = u32(_INIT_B)
        words = []
        for i in range(2):
            value = pool[i] ^ hash_b
            hash_b = u32(hash_b * u32(_MULT_B))
            value = value * hash_b
            words.append(value ^ (value >> shift))
    return words[0].astype(np.uint64) << np.uint64(32) | words[1].astype(np.uint64)
