"""The compiled Mersenne Twister against its slow twin, CPython's own `random.Random`: one generator's
`randrange` draws, and `first_draws` (`random.Random(seed).getrandbits(64)`) for many seeds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis.mersenne import STATE_WORDS, first_draws, randrange, seed_state, twister_matches_python


def cpython(seeds) -> list[int]:
    return [random.Random(int(s)).getrandbits(64) for s in seeds]


def test_first_draws_equal_cpythons_on_many_seeds():
    rng = np.random.default_rng(13)
    wide = rng.integers(0, 2**63, 3000, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, 3000, dtype=np.uint64)
    narrow = rng.integers(0, 2**32, 500, dtype=np.uint64)  # one key word instead of two
    edges = np.array([0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1], dtype=np.uint64)
    seeds = np.concatenate([wide, narrow, edges])  # 3509: several passes of lanes, the last one partial
    assert [int(v) for v in first_draws(seeds)] == cpython(seeds)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=70))
def test_first_draws_of_python_ints_equal_cpythons(seeds):
    assert [int(v) for v in first_draws(seeds)] == cpython(seeds)


def test_first_draws_refuse_seeds_out_of_range():
    for bad in ([-1], [2**64]):
        with pytest.raises(ValueError):
            first_draws(bad)
    assert first_draws([]).shape == (0,)


def test_the_twister_draws_what_python_draws():
    mt = np.zeros(STATE_WORDS, dtype=np.uint32)
    rng = random.Random(4)
    for _ in range(40):
        seed = rng.choice([0, 1, 2**32 - 1, 2**32, 2**64 - 1, rng.getrandbits(64), rng.getrandbits(20)])
        reference = random.Random(seed)
        seed_state(mt, np.uint64(seed))
        for _ in range(700):  # past one twist of the 624 words
            n = rng.choice([1, 2, 3, 6, 7, 35, 36, 210, 2**31 + 5])
            assert randrange(mt, n) == reference.randrange(n)
    assert twister_matches_python()
