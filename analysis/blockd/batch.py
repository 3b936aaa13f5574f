"""Random self-play of many Blockd games per call (the runner's fast path): seeds, deals, tallies.

`tally_block(game, match, start, stop)` plays games start..stop-1 when every agent is one of
the random agents (the same random policy in every seat) and the compiled kernel plays the
definition's rules, and returns their summary tally, counted from the kernel's arrays without
a record per game (what `simulate` uses); `play_block` plays the same games and returns their
`GameRecord`s (for the results store and the reports, and the twin the tests hold the tally
equal to).  Otherwise both return None and the runner plays the games one by one through the
reference engine (`engine.BlockdState`).  The games themselves are played by
`kernel.play_deals` (compiled with numba); this module gives it the deals.

Randomness, and what matches the reference path:
- deals are the reference path's deals: deal d is `engine.random_deal(game, Random(derive_seed(seed,
  CHANCE_STREAM, d)))` (the seeds are computed for many deals at once by `derive_seeds`, an
  exact vectorised copy of numpy's SeedSequence that tests compare with `derive_seed`);
- the agents' choices are not the reference path's (that would need one Python rng per
  seat): the move of game i at its turn t is picked by the uniform number
  `splitmix64(derive_seed(seed, BATCH_STREAM, i) + (t + 1) * golden)` (`uniforms`).  So a
  game's result is a function of (seed, i) alone: the same whatever the block size or the
  worker count, but not the same game as the reference path plays with that seed.  Win rates
  and lengths agree in distribution, which the slow tests check.

>>> from boardlab.layouts import load
>>> from boardlab.analysis.blockd.engine import make_game
>>> from boardlab.analysis.blockd.kernel import play_deals
>>> game = make_game(load("blockd"), 4)
>>> result = play_deals(game, deal_cards(game, [11]), [5], recorded=1)
>>> moves = result.history(0)
>>> len(moves) == int(result.length[0]), moves[0][0]          # seat 0 moves first
(True, 0)
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Sequence

import numpy as np

from boardlab.analysis.blockd import kernel
from boardlab.analysis.mersenne import first_draws
from boardlab.analysis.runner import CHANCE_STREAM, GameRecord, derive_seed  # noqa: F401 (doctests compare with it)
from boardlab.analysis.seeds import derive_seeds
from boardlab.analysis.blockd.tally import BlockdTally
from boardlab.analysis.tally import SummaryTally

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame
    from boardlab.analysis.runner import Match

#: stream of the batch path's move choices (the runner uses 0 for deals and 1 for agents)
BATCH_STREAM = 2
#: games per runner block when this path plays them: large, so that numpy calls are long
BATCH_BLOCK = 4096

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def uniforms(keys: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """Uniform numbers in [0, 1): draw `turns` (0, 1, ...) of the splitmix64 stream of each key.

    >>> u = uniforms(np.array([1, 1, 2], dtype=np.uint64), np.array([0, 1, 0]))
    >>> bool((0 <= u).all() and (u < 1).all()), bool(u[0] == u[1]), bool(u[0] == u[2])
    (True, False, False)
    """
    with np.errstate(over="ignore"):
        z = keys.astype(np.uint64) + (turns.astype(np.uint64) + np.uint64(1)) * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


# -- the games --------------------------------------------------------------------------------
def deal_cards(game: BlockdGame, deal_seeds: Sequence[int] | np.ndarray) -> np.ndarray:
    """The card id on every cell for each deal: `engine.deal` with `Random(seed)`, vectorised.

    Each deal's key is the first 64-bit draw of `random.Random(seed)`, as in `engine.deal`
    (computed for every seed at once by `mersenne.first_draws`); the per-cell sort keys and
    the stable sort are done for every deal at once.
    """
    keys = first_draws(deal_seeds)
    cells = np.arange(1, len(game.cards) + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = keys[:, None] + cells[None, :] * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return np.argsort(z, axis=1, kind="stable").astype(np.int64).reshape(len(deal_seeds), game.grid.cells)


# -- the runner's hook ------------------------------------------------------------------------
def weighting_of(game: BlockdGame, match: Match) -> int | None:
    """The kernel weighting when every seat of `match` plays the same random policy, else None."""
    policies = {factory(game).random_policy for factory in match.agents}
    if len(policies) != 1:
        return None
    return kernel.WEIGHTINGS.get(policies.pop())


def unsupported(game: BlockdGame, match: Match | None = None) -> str | None:
    """Why the batch path cannot play this match (None when it can)."""
    why = kernel.unsupported(game)
    if why is None and match is not None and weighting_of(game, match) is None:
        why = "not every seat plays the same random agent"
    return why


def block_size(game: BlockdGame, match: Match) -> int | None:
    """The runner's block size for this match: `BATCH_BLOCK` when the batch path plays it."""
    return BATCH_BLOCK if unsupported(game, match) is None else None


def block_deals(game: BlockdGame, match: Match, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deal, rotation, card id per cell) of games `indices`: the deals `runner.play_one` makes.

    Deal d is the reference path's `engine.deal` from `derive_seed(seed, CHANCE_STREAM, d)`;
    when the runner turns deals round the table (one agent in every seat), game i gets it turned
    by `BlockdGame.rotate_deal` as `runner.play_one` does.
    """
    if match.seat_rotation:  # as `Match.seating`: every deal once per rotation of the seats
        deal_of, rotation_of = np.divmod(indices, game.players)
    else:
        deal_of, rotation_of = indices, np.zeros_like(indices)
    deals, row_of_game = np.unique(deal_of, return_inverse=True)
    card_ids = deal_cards(game, derive_seeds(match.seed, CHANCE_STREAM, deals))[row_of_game]
    if match.rotate_deals:
        identity = tuple(range(len(game.cards)))
        relabel = np.array([game.rotate_deal(identity, r) for r in range(game.players)], dtype=card_ids.dtype)
        card_ids = relabel[rotation_of[:, None], card_ids]
    return deal_of, rotation_of, card_ids


def play_block(game: BlockdGame, match: Match, start: int, stop: int) -> list[GameRecord] | None:
    """Records of games start..stop-1 of `match`, or None when the batch path does not apply."""
    if unsupported(game, match) is not None:
        return None
    # A block allocates thousands of small acyclic objects (records, statistics): the cyclic
    # garbage collector would walk them again and again for nothing, so it pauses meanwhile.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _play_block(game, match, start, stop)
    finally:
        if paused:
            gc.enable()


def _played(game: BlockdGame, match: Match, start: int, stop: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, kernel.KernelResult]:
    """(indices, deal per game, rotation per game, `kernel.KernelResult`) of games start..stop-1."""
    indices = np.arange(start, stop)
    deal_of, rotation_of, card_ids = block_deals(game, match, indices)
    keys = derive_seeds(match.seed, BATCH_STREAM, indices)
    weighting = weighting_of(game, match)
    assert weighting is not None  # the batch path plays only matches it supports (`unsupported`)
    return indices, deal_of, rotation_of, kernel.play_deals(game, card_ids, keys, weighting)


def _play_block(game: BlockdGame, match: Match, start: int, stop: int) -> list[GameRecord]:
    indices, deal_of, rotation_of, result = _played(game, match, start, stop)
    names: dict[int, tuple[str, ...]] = {}
    for index, rotation in zip(indices.tolist(), rotation_of.tolist()):
        if rotation not in names:
            names[rotation] = tuple(match.agent_names[a] for a in match.seating(index)[2])
    out = result.out.tolist()
    elim = result.elim.tolist()
    return [GameRecord(index, deal, rotation, names[rotation], *kernel.record_fields(st, gone))
            for index, deal, rotation, st, gone
            in zip(indices.tolist(), deal_of.tolist(), rotation_of.tolist(), out, elim)]


def tally_block(game: BlockdGame, match: Match, start: int, stop: int) -> SummaryTally | None:
    """The summary tally of games start..stop-1 of `match` from the kernel's arrays (no record
    built), or None when the batch path does not apply.

    Equal to the tally of `play_block`'s records of the same games (the tests hold them equal).
    """
    if unsupported(game, match) is not None:
        return None
    indices, _, _, result = _played(game, match, start, stop)
    out = result.out
    tally = SummaryTally(match)
    tally.add_arrays(indices, out[:, kernel.WINNER], out[:, kernel.UNFINISHED] != 0, out[:, kernel.TURNS])
    own = tally.own
    assert isinstance(own, BlockdTally)  # Blockd's own figures (`BlockdGame.tally`)
    own.add_arrays(out, result.elim)
    return tally
