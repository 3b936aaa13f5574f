"""`seeds.derive_seeds`, the vectorised copy of numpy's SeedSequence, against `runner.derive_seed`
(numpy's own SeedSequence, one at a time) with further keys (the seat of an agent's stream)."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.analysis.runner import derive_seed
from boardlab.analysis.seeds import derive_seeds


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32 + 5, 2**64 + 3])
def test_seat_keyed_seeds_equal_derive_seed(seed):
    indices = np.array([0, 1, 63, 2**31, 2**32 - 1])
    seats = np.arange(6)
    got = derive_seeds(seed, 1, indices[:, None], seats[None, :])
    assert got.shape == (5, 6)
    assert got.tolist() == [[derive_seed(seed, 1, int(i), int(s)) for s in seats] for i in indices]


def test_a_key_out_of_range_is_refused():
    with pytest.raises(ValueError):
        derive_seeds(1, 1, [0], [2**32])
    with pytest.raises(ValueError):
        derive_seeds(1, 1, [0], [-1])
