"""Random self-play of many Blockd games at once, with numpy arrays (the runner's fast path).

`play_block(game, match, start, stop)` plays games start..stop-1 when every agent is the
common random agent and returns their `GameRecord`s; otherwise it returns None and the
runner plays the games one by one through the reference engine (`engine.BlockdState`).

How it is fast: all games advance together, one seat per game per step.  The walk tables of
the engine (`walks.walk_table`: per cell and step counts, the minimal masks of cells a walk
enters, with its destination) are stacked into one int32 array (int64 on boards of more than
30 cells) per step-count class, padded with a walk that is always blocked.  For the games in
a class, in chunks that fit the cache, one row gather, one AND with each game's blocked mask
and one OR-reduction of the destination bits of the open walks give the destinations; a walk
whose blocked cells are exactly one face-down card gives a destination after restoring that
card (only destinations not reachable without a restore are kept, then `plain` is OR-ed in).
The random agent chooses uniformly among *moves* (restore or not, destination), as
`RandomAgent` does over `BlockdState.legal_moves()`: the moves are counted exactly per
restored card (popcounts), numbered in the engine's order, and one uniform number picks one.

Every rule option of the definition is honoured: torus or flat (through the walk tables),
`pawns` pass / block / stack, `stacked_flip` last / always, `eliminated_card` flip / stay, `elimination` immediate /
end_of_round (with the most-recent-mover tie-break), `restore_bonus`, `start_steps` and
`max_turns`; turn order, rounds, the cap and the statistics follow `BlockdState._advance`
exactly.  Boards of more than 62 cells fall back to the reference path (masks are int64).

Randomness, and what matches the reference path:
- deals are the reference path's deals: deal d is `engine.deal(game, Random(derive_seed(seed,
  CHANCE_STREAM, d)))` (the seeds are computed for many deals at once by `derive_seeds`, an
  exact vectorised copy of numpy's SeedSequence that tests compare with `derive_seed`);
- the agents' choices are not the reference path's (that would need one Python rng per
  seat): the move of game i at its turn t is picked by the uniform number
  `splitmix64(derive_seed(seed, BATCH_STREAM, i) + (t + 1) * golden)`.  So a game's result
  is a function of (seed, i) alone: the same whatever the block size or the worker count,
  but not the same game as the reference path plays with that seed.  Win rates and lengths
  agree in distribution, which the slow tests check.

`play_games(...)` is the engine room; with `record` it keeps the full move sequence of chosen
games, so that tests can replay them through the reference engine.

>>> from boardlab.layouts import load
>>> from boardlab.analysis.blockd.engine import make_game
>>> game = make_game(load("blockd"), 4)
>>> result = play_games(game, deal_seeds=[11], move_keys=[5], record={0})
>>> moves = result.histories[0]
>>> len(moves) == int(result.length[0]), moves[0][0]          # seat 0 moves first
(True, 0)
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.blockd.walks import walk_table
from boardlab.analysis.runner import CHANCE_STREAM, GameRecord, derive_seed  # noqa: F401 (doctests compare with it)

#: stream of the batch path's move choices (the runner uses 0 for deals and 1 for agents)
BATCH_STREAM = 2
#: games per runner block when this path plays them: large, so that numpy calls are long
BATCH_BLOCK = 4096
#: positions per numpy pass of `move_masks` (half a MB of walks at most: stays in the cache)
CHUNK = 512
#: the largest board whose cells fit an int64 mask with a spare bit for the padding walk
MAX_CELLS = 62

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


# -- seeds ----------------------------------------------------------------------------------
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


def derive_seeds(seed: int, stream: int, indices) -> np.ndarray:
    """`derive_seed(seed, stream, i)` for every i of `indices` at once (uint64 array).

    A vectorised copy of numpy's `SeedSequence(seed, spawn_key=(stream, i)).generate_state(2)`
    (its hash mixing in uint32 arithmetic); indices must be below 2**32.

    >>> int(derive_seeds(1, 0, [5])[0]) == derive_seed(1, 0, 5)
    True

    :raises ValueError: when an index is negative or not below 2**32.
    """
    last = np.asarray(indices, dtype=np.int64)
    if last.size and (last.min() < 0 or last.max() >= 1 << 32):
        raise ValueError("indices must be in 0 .. 2**32 - 1")
    run = _words(seed)
    run += [0] * (_POOL - len(run))
    entropy = [np.full(last.shape, w, np.uint32) for w in run + _words(stream)] + [last.astype(np.uint32)]
    u32 = np.uint32
    shift = u32(16)
    with np.errstate(over="ignore"):
        hash_const = u32(_INIT_A)

        def hashmix(value):
            nonlocal hash_const
            value = value ^ hash_const
            hash_const = u32(hash_const * u32(_MULT_A))
            value = value * hash_const
            return value ^ (value >> shift)

        def mix(x, y):
            result = u32(_MIX_L) * x - u32(_MIX_R) * y
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


# -- tables ---------------------------------------------------------------------------------
class BatchTables:
    """The engine's walk tables stacked per step-count class, and per-card lookups.

    `masks[c][cell]` and `ends[c][cell]` are the walks of a pawn on `cell` standing on a card
    of class c (entered cells, destination bit), padded to one width per class with a walk
    that enters only the `sentinel` bit, which every blocked mask holds: it is never open.
    Masks are int32 when the board and the sentinel fit 31 bits, int64 otherwise.
    """

    def __init__(self, game):
        grid = game.grid
        self.cells = grid.cells
        if self.cells > MAX_CELLS:
            raise ValueError(f"{self.cells} cells do not fit the batch path's int64 masks")
        self.dtype = np.int32 if self.cells < 31 else np.int64
        self.sentinel = self.dtype(1 << self.cells)
        self.players = game.players
        step_classes: list[tuple[int, ...]] = []
        card_class, card_suit, card_blind = [], [], []
        for card in game.cards:
            card_suit.append(card.suit)
            card_blind.append(card.is_blind)
            if card.is_blind:
                card_class.append(-1)
                continue
            steps = game.step_counts(card)
            if steps not in step_classes:
                step_classes.append(steps)
            card_class.append(step_classes.index(steps))
        self.card_class = np.array(card_class, dtype=np.int64)
        self.card_suit = np.array(card_suit, dtype=np.int64)
        self.card_blind = np.array(card_blind, dtype=bool)
        self.masks, self.ends, self.dest = [], [], []
        for steps in step_classes:
            rows = [walk_table(grid, cell, steps) for cell in range(self.cells)]
            width = max(len(r) for r in rows)
            masks = np.full((self.cells, width), self.sentinel, dtype=self.dtype)
            ends = np.zeros((self.cells, width), dtype=self.dtype)
            dest = np.zeros((self.cells, width), dtype=np.int64)
            for cell, row in enumerate(rows):
                for j, (mask, destination) in enumerate(row):
                    masks[cell, j] = mask
                    ends[cell, j] = 1 << destination
                    dest[cell, j] = destination
            self.masks.append(masks)
            self.ends.append(ends)
            self.dest.append(dest)
        self.bit = (np.ones(1, dtype=self.dtype) << np.arange(self.cells, dtype=self.dtype))


def tables_of(game) -> BatchTables:
    """The game's `BatchTables`, built once per game object."""
    tables = getattr(game, "_batch_tables", None)
    if tables is None:
        tables = BatchTables(game)
        game._batch_tables = tables
    return tables


#: SELECT[v, k]: the position of the k-th (0-based) set bit of the byte v
SELECT = np.zeros((256, 8), dtype=np.int64)
for _value in range(256):
    _bits = [b for b in range(8) if _value >> b & 1]
    SELECT[_value, :len(_bits)] = _bits


def nth_cell(masks: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per row, the cell of the n-th (0-based) set bit of the mask (a byte at a time).

    >>> nth_cell(np.array([0b10110, 0b10110, 1 << 20 | 1]), np.array([0, 2, 1])).tolist()
    [1, 4, 20]
    """
    little = np.ascontiguousarray(masks, dtype=masks.dtype.newbyteorder("<"))
    octets = little.view(np.uint8).reshape(len(masks), masks.dtype.itemsize)
    counts = np.bitwise_count(octets)
    cumulative = np.cumsum(counts, axis=1, dtype=np.int64)
    byte = np.argmax(cumulative > n[:, None], axis=1)
    at = np.arange(len(masks))
    before = cumulative[at, byte] - counts[at, byte]
    return byte * 8 + SELECT[octets[at, byte], n - before]


def move_masks(tables: BatchTables, rules, cell_class: np.ndarray, cells: np.ndarray,
               blocked: np.ndarray, others: np.ndarray, restorable: np.ndarray):
    """The moves of many positions at once, as masks of cells.

    Per position: the mover's pawn cell and the step-count class of its card, the blocked
    cells (face-down and blind), the other pawns' cells and the cards it may restore (0 when
    it has no restore bonus).  Returns (plain, via): `plain` is the mask of destinations
    without a restore; `via[k, r]` the mask of destinations after restoring card r, for the
    k-th position with a restorable card (`np.flatnonzero(restorable)`), `plain` included.
    Both honour the landing rule of `pawns` (pass and block: never on another pawn).
    """
    n = len(cells)
    dtype = tables.dtype
    plain = np.zeros(n, dtype=dtype)
    can = np.flatnonzero(restorable)
    slot = np.full(n, -1)
    slot[can] = np.arange(can.size)
    via = np.zeros((can.size, tables.cells), dtype=dtype)
    wall = blocked | tables.sentinel
    if rules.pawns == "block":
        wall |= others
    for c in range(len(tables.masks)):
        in_class = np.flatnonzero(cell_class == c)
        for low in range(0, in_class.size, CHUNK):  # chunks that stay in the cache
            rows = in_class[low:low + CHUNK]
            hit = tables.masks[c][cells[rows]]
            hit &= wall[rows, None]
            ends = tables.ends[c][cells[rows]]
            sub = np.flatnonzero(slot[rows] >= 0)
            ends_sub = ends[sub]
            ends *= hit == 0
            reach = np.bitwise_or.reduce(ends, axis=1)
            plain[rows] = reach
            if sub.size:  # walks blocked by exactly one restorable card, to a cell not reached yet
                h = hit[sub]
                single = np.bitwise_count(h) == 1
                single &= (h & restorable[rows[sub], None]) != 0
                ends_sub &= ~reach[sub, None]
                single &= ends_sub != 0
                i, j = np.nonzero(single)
                if i.size:
                    restored = np.bitwise_count(h[i, j] - 1)  # the index of the one bit
                    np.bitwise_or.at(via, (slot[rows[sub[i]]], restored), ends_sub[i, j])
    if rules.pawns != "stack":
        plain &= ~others
        via &= ~others[can, None]
    via |= plain[can, None]
    return plain, via


def count_moves(tables: BatchTables, plain, via, restorable):
    """(moves without a restore, moves per restored card [k, card], all moves) per position,
    for the `move_masks` of positions with `restorable` cards."""
    counts_plain = np.bitwise_count(plain).astype(np.int64)
    can = np.flatnonzero(restorable)
    counts_via = np.where((restorable[can, None] & tables.bit) != 0, np.bitwise_count(via), 0).astype(np.int64)
    total = counts_plain.copy()
    total[can] += counts_via.sum(axis=1)
    return counts_plain, counts_via, total


def pick_moves(tables: BatchTables, plain, via, restorable, counts_plain, counts_via, rows, pick):
    """The `pick[i]`-th move of position `rows[i]` as (restored card or -1, destination).

    Moves are numbered: first the destinations without a restore (ascending cells), then per
    restorable card (ascending) the destinations after restoring it, as the engine lists them;
    so a uniform `pick` in [0, total) is a uniform choice among the engine's legal moves.
    """
    can = np.flatnonzero(restorable)
    restored = np.full(rows.size, -1, dtype=np.int64)
    targets = plain[rows]
    nth = np.asarray(pick, dtype=np.int64).copy()
    late = np.flatnonzero(nth >= counts_plain[rows])
    if late.size:
        k = np.searchsorted(can, rows[late])  # rows of these positions in `via`
        rest = nth[late] - counts_plain[rows[late]]
        per_card = counts_via[k]
        cumulative = np.cumsum(per_card, axis=1)
        r = np.argmax(cumulative > rest[:, None], axis=1)
        at = np.arange(r.size)
        restored[late] = r
        targets[late] = via[k, r]
        nth[late] = rest - (cumulative[at, r] - per_card[at, r])
    return restored, nth_cell(targets, nth)


# -- the games --------------------------------------------------------------------------------
@dataclass
class BatchResult:
    """Per game (in the order of the inputs) and, for recorded games, the move lists.

    A history is a list of (seat, restore, to) per turn, restore -1 when none.
    """

    winners: list[tuple[int, ...]]
    unfinished: np.ndarray
    length: np.ndarray
    stats: list[dict]
    histories: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)


def deal_cards(game, deal_seeds: Sequence[int]) -> np.ndarray:
    """The card id on every cell for each deal: `engine.deal` with `Random(seed)`, vectorised.

    Each deal's key is the first 64-bit draw of `random.Random(seed)`, as in `engine.deal`;
    the per-cell sort keys and the stable sort are done for every deal at once.
    """
    keys = np.array([random.Random(int(s)).getrandbits(64) for s in deal_seeds], dtype=np.uint64)
    cells = np.arange(1, len(game.cards) + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = keys[:, None] + cells[None, :] * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return np.argsort(z, axis=1, kind="stable").astype(np.int64).reshape(len(deal_seeds), game.grid.cells)


def play_games(game, deal_seeds: Sequence[int] | None = None, move_keys=None, *, card_ids=None,
               record: set[int] = frozenset()) -> BatchResult:
    """Play one random game per entry: deal from `deal_seeds` (or given `card_ids` rows), moves
    picked with the uniform stream of `move_keys`; keep the histories of the games in `record`.

    :raises ValueError: when the board is larger than the batch path handles.
    """
    tables = tables_of(game)
    rules = game.rules
    if card_ids is None:
        card_ids = deal_cards(game, deal_seeds)
    card_ids = np.asarray(card_ids, dtype=np.int64)
    g_count, cells = card_ids.shape
    players = game.players
    dtype = tables.dtype
    one = dtype(1)
    keys = np.asarray(move_keys, dtype=np.uint64)
    immediate = rules.elimination == "immediate"
    flip = rules.eliminated_card == "flip"
    stack = not game.flip_at_once  # stacked_flip = "last": a shared card stays up
    restore_on = rules.restore_bonus
    seats = np.arange(players)

    suit = tables.card_suit[card_ids]  # (games, cells)
    cell_class = tables.card_class[card_ids]
    blind = np.bitwise_or.reduce(np.where(tables.card_blind[card_ids], tables.bit, dtype(0)), axis=1)
    pawns = np.empty((g_count, players), dtype=np.int64)
    for seat in range(players):  # a seat's pawn starts on its suit's start card
        pawns[:, seat] = np.argmax(card_ids == game.start_card(seat), axis=1)

    down = np.zeros(g_count, dtype=dtype)
    marked = np.zeros((g_count, players), dtype=bool)
    bonus = np.zeros((g_count, players), dtype=bool)
    seat_of = np.zeros(g_count, dtype=np.int64)  # the seat to examine next
    turns = np.zeros(g_count, dtype=np.int64)
    rounds = np.ones(g_count, dtype=np.int64)
    last_mover = np.full(g_count, -1, dtype=np.int64)
    winner = np.full(g_count, -1, dtype=np.int64)
    unfinished = np.zeros(g_count, dtype=bool)
    tiebreak = np.zeros(g_count, dtype=bool)
    done = np.zeros(g_count, dtype=bool)
    earned = np.zeros(g_count, dtype=np.int64)
    used = np.zeros(g_count, dtype=np.int64)
    out_round = np.zeros((g_count, players), dtype=np.int64)  # round of elimination, 0: none
    out_step = np.zeros((g_count, players), dtype=np.int64)
    recorded = np.zeros(g_count, dtype=bool)
    recorded[list(record)] = True
    log: list[tuple[np.ndarray, ...]] = []
    step = 0

    def pawn_bits(rows):
        p = pawns[rows]
        return np.where(p >= 0, one << np.maximum(p, 0).astype(dtype), dtype(0))

    def leave(rows, leaving):
        """The pawns of `leaving` (bool per row and seat) leave the board."""
        cells_left = np.where(leaving, pawns[rows], -1)
        out_round[rows] = np.where(leaving, rounds[rows][:, None], out_round[rows])
        out_step[rows] = np.where(leaving, step, out_step[rows])
        pawns[rows] = np.where(leaving, -1, pawns[rows])
        marked[rows] &= ~leaving
        bonus[rows] &= ~leaving
        if flip:  # the cards under them turn down, unless a pawn still stands there (stack, last)
            still = np.bitwise_or.reduce(pawn_bits(rows), axis=1) if stack else dtype(0)
            gone = np.bitwise_or.reduce(
                np.where(cells_left >= 0, one << np.maximum(cells_left, 0).astype(dtype), dtype(0)), axis=1)
            down[rows] |= gone & ~still

    def finish_if_decided(rows, at_round_end: bool):
        """Games with one pawn left end with its seat winning; at a round's end with none
        left, the most recent mover wins.  Returns the rows still going."""
        on = pawns[rows] >= 0
        left = on.sum(axis=1)
        single = left == 1
        winner[rows[single]] = np.argmax(on[single], axis=1)
        finished = single
        if at_round_end:
            none = left == 0
            tiebreak[rows[none]] = last_mover[rows[none]] >= 0
            winner[rows[none]] = last_mover[rows[none]]
            finished = single | none
        done[rows[finished]] = True
        return rows[~finished]

    def advance(rows):
        """Point each game at the next seat to examine, ending rounds as the engine does."""
        eligible = (pawns[rows] >= 0) & ~marked[rows] & (seats > seat_of[rows, None])
        has_next = eligible.any(axis=1)
        seat_of[rows[has_next]] = np.argmax(eligible[has_next], axis=1)
        ending = rows[~has_next]
        if ending.size:
            if not immediate:
                leave(ending, marked[ending].copy())
            ending = finish_if_decided(ending, at_round_end=True)
            rounds[ending] += 1
            first = (pawns[ending] >= 0) & ~marked[ending]
            seat_of[ending] = np.argmax(first, axis=1)

    active = np.arange(g_count)
    while active.size:
        step += 1
        rows = active
        seat = seat_of[rows]
        cell = pawns[rows, seat]
        bits = pawn_bits(rows)
        bits[np.arange(rows.size), seat] = 0
        others = np.bitwise_or.reduce(bits, axis=1)
        if restore_on:
            restorable = np.where(bonus[rows, seat], down[rows], dtype(0))
        else:
            restorable = np.zeros(rows.size, dtype=dtype)
        plain, via = move_masks(tables, rules, cell_class[rows, cell], cell, down[rows] | blind[rows],
                                others, restorable)
        counts_plain, counts_via, total = count_moves(tables, plain, via, restorable)

        stuck = total == 0
        capped = ~stuck & (turns[rows] >= rules.max_turns)
        unfinished[rows[capped]] = True
        done[rows[capped]] = True
        moving = ~stuck & ~capped

        # the moves: one uniform number per game picks one of its `total` moves
        m = np.flatnonzero(moving)
        if m.size:
            g = rows[m]
            s = seat[m]
            pick = np.minimum((uniforms(keys[g], turns[g]) * total[m]).astype(np.int64), total[m] - 1)
            restored, to = pick_moves(tables, plain, via, restorable, counts_plain, counts_via, m, pick)
            late = np.flatnonzero(restored >= 0)
            if late.size:
                down[g[late]] &= ~(one << restored[late].astype(dtype))
                used[g[late]] += 1
            left = cell[m]
            left_bit = one << left.astype(dtype)
            pawns[g, s] = to
            if stack:  # the card left turns down only when no other pawn stays on it
                down[g] |= np.where(others[m] & left_bit, dtype(0), left_bit)
            else:
                down[g] |= left_bit
            gain = suit[g, to] == s if restore_on else np.zeros(m.size, dtype=bool)
            bonus[g, s] = gain
            earned[g] += gain
            turns[g] += 1
            last_mover[g] = s
            if record:
                keep = recorded[g]
                if keep.any():
                    log.append((g[keep], s[keep], restored[keep], to[keep]))

        # players without a move
        x = np.flatnonzero(stuck)
        going = rows[moving]
        if x.size:
            g = rows[x]
            if immediate:
                leave(g, seats == seat[x][:, None])
                going = np.concatenate([going, finish_if_decided(g, at_round_end=False)])
            else:
                marked[g, seat[x]] = True
                going = np.concatenate([going, g])
        advance(going)
        active = rows[~done[rows]]

    winners = [(w,) if w >= 0 and not u else () for w, u in zip(winner.tolist(), unfinished.tolist())]
    # eliminations in the engine's order: by the step they happened, seats ascending within one
    gone = out_round > 0
    order = np.argsort(np.where(gone, out_step * players + seats, np.iinfo(np.int64).max), axis=1, kind="stable")
    pairs = np.stack([np.take_along_axis(out_round, order, axis=1), order], axis=2).tolist()
    stats = [{"eliminations": pair[:count], "restores_earned": e, "restores_used": u, "tiebreak": t, "rounds": r}
             for pair, count, e, u, t, r in zip(pairs, gone.sum(axis=1).tolist(), earned.tolist(), used.tolist(),
                                                 tiebreak.tolist(), rounds.tolist())]
    histories: dict[int, list] = {g: [] for g in record}
    for g, s, r, t in log:
        for gi, si, ri, ti in zip(g.tolist(), s.tolist(), r.tolist(), t.tolist()):
            histories[gi].append((si, ri, ti))
    return BatchResult(winners, unfinished, turns, stats, histories)


# -- the runner's hook ------------------------------------------------------------------------
def unsupported(game, match=None) -> str | None:
    """Why the batch path cannot play this match (None when it can)."""
    if game.grid.cells > MAX_CELLS:
        return f"{game.grid.cells} cells (the batch path handles at most {MAX_CELLS})"
    if match is not None:
        for factory in match.agents:
            if type(factory(game)) is not RandomAgent:
                return "not every agent is the random agent"
    return None


def block_size(game, match) -> int | None:
    """The runner's block size for this match: `BATCH_BLOCK` when the batch path plays it."""
    return BATCH_BLOCK if unsupported(game, match) is None else None


def block_deals(game, match, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deal, rotation, card id per cell) of games `indices`: the layouts `runner.play_one` deals.

    Deal d is the reference path's `engine.deal` from `derive_seed(seed, CHANCE_STREAM, d)`;
    when the runner turns deals round the table (one agent in every seat), game i gets it turned
    by `BlockdGame.rotate_deal` as `runner.play_one` does.
    """
    if match.seat_rotation:  # as `Match.seating`: every deal once per rotation of the seats
        deal_of, rotation_of = np.divmod(indices, game.players)
    else:
        deal_of, rotation_of = indices, np.zeros_like(indices)
    deals, row_of_game = np.unique(deal_of, return_inverse=True)
    card_ids = deal_cards(game, derive_seeds(match.seed, CHANCE_STREAM, deals).tolist())[row_of_game]
    if match.rotate_deals:
        identity = tuple(range(len(game.cards)))
        relabel = np.array([game.rotate_deal(identity, r) for r in range(game.players)], dtype=card_ids.dtype)
        card_ids = relabel[rotation_of[:, None], card_ids]
    return deal_of, rotation_of, card_ids


def play_block(game, match, start: int, stop: int) -> list[GameRecord] | None:
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


def _play_block(game, match, start: int, stop: int) -> list[GameRecord]:
    indices = np.arange(start, stop)
    deal_of, rotation_of, card_ids = block_deals(game, match, indices)
    keys = derive_seeds(match.seed, BATCH_STREAM, indices)
    result = play_games(game, move_keys=keys, card_ids=card_ids)
    names: dict[int, tuple[str, ...]] = {}
    for index, rotation in zip(indices.tolist(), rotation_of.tolist()):
        if rotation not in names:
            names[rotation] = tuple(match.agent_names[a] for a in match.seating(index)[2])
    return [GameRecord(index, deal, rotation, names[rotation], winners, unfinished, length, stats)
            for index, deal, rotation, winners, unfinished, length, stats
            in zip(indices.tolist(), deal_of.tolist(), rotation_of.tolist(), result.winners,
                   result.unfinished.tolist(), result.length.tolist(), result.stats)]
