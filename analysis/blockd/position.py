"""Blockd positions in the JSON form of docs/positions/blockd.md, both ways.

    {"game": "blockd", "grid": ["R0 B3 G5 Y1 X", ...], "down": [[0, 1]],
     "pawns": {"red": [2, 3]}, "to_move": "red", "restore": false}

Tokens are a suit's letter and a value, or the letter of the card back (`print.back_colour`)
for a blind card; every letter comes from the definition's colours.  A blind card listed in
`down` is accepted (it is always face down); `to_position` lists only the other cards.

>>> from boardlab.analysis.blockd.engine import _dealt_state
>>> state = _dealt_state()
>>> again = state.game.state_from_position(position_of(state))
>>> position_of(again) == position_of(state)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.analysis.protocol import TERMINAL
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState
    from boardlab.layouts.blockd import Definition

KEYS = ("game", "grid", "down", "pawns", "to_move", "restore")


def _cell(game: BlockdGame, pair: Any, what: str) -> int:
    grid = game.grid
    if (not isinstance(pair, list) or len(pair) != 2 or not all(type(v) is int for v in pair)):
        raise BoardlabError(f"{what}: {pair!r} is not a cell (write [row, column])")
    row, column = pair
    if not (0 <= row < grid.rows and 0 <= column < grid.columns):
        raise BoardlabError(f"{what}: [{row}, {column}] is off the {grid.rows} x {grid.columns} grid")
    return grid.cell(row, column)


def parse_position(game: BlockdGame, data: Any) -> BlockdState:
    """A `BlockdState` (a snapshot with `to_move` to move) from a position's JSON data.

    :raises BoardlabError: when the position is malformed, naming what is wrong.
    """
    from boardlab.analysis.blockd.engine import BlockdState

    if not isinstance(data, dict):
        raise BoardlabError("a position must be a JSON object with grid, pawns and to_move")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise BoardlabError(f"unknown key '{unknown[0]}' in the position (keys: {', '.join(KEYS)})")
    if data.get("game", "blockd") != game.definition.game.id:
        raise BoardlabError(f"the position is for '{data['game']}', not {game.definition.game.id}")
    for key in ("grid", "pawns", "to_move"):
        if key not in data:
            raise BoardlabError(f"the position has no '{key}'")
    grid = game.grid
    card_ids = _parse_grid(game, data["grid"])
    state = BlockdState(game)
    state.deal = deal = game.deal_of(card_ids)

    down = data.get("down", [])
    if not isinstance(down, list):
        raise BoardlabError("down: must be a list of [row, column] cells")
    for pair in down:
        cell = _cell(game, pair, "down")
        if not deal.blind >> cell & 1:
            state.down |= 1 << cell

    pawns = data["pawns"]
    if not isinstance(pawns, dict):
        raise BoardlabError('pawns: must map colours to cells, e.g. {"%s": [0, 0]}' % game.suits[0])
    seats = {suit: seat for seat, suit in enumerate(game.suits[:game.players])}
    occupied: dict[int, str] = {}
    for colour, pair in pawns.items():
        if colour not in seats:
            raise BoardlabError(f"pawns: '{colour}' is not a colour of a seat in a {game.players}-player game "
                                f"(colours: {', '.join(seats)})")
        cell = _cell(game, pair, f"pawns.{colour}")
        r, c = grid.row_column(cell)
        if deal.blind >> cell & 1:
            raise BoardlabError(f"pawns.{colour}: [{r}, {c}] is the blind card")
        if state.down >> cell & 1 and not (game.rules.pawns == "stack" and game.flip_at_once):
            raise BoardlabError(f"pawns.{colour}: [{r}, {c}] is a face-down card (a pawn stays on a face-down "
                                f"card only with pawns = \"stack\" and stacked_flip = \"always\")")
        if cell in occupied and game.rules.pawns != "stack":
            raise BoardlabError(f"pawns.{colour}: [{r}, {c}] already holds the {occupied[cell]} pawn "
                                f"(pawns share a cell only with pawns = \"stack\")")
        occupied[cell] = colour
        state.pawns[seats[colour]] = cell

    to_move = data["to_move"]
    if not isinstance(to_move, str) or to_move not in pawns:
        raise BoardlabError(f"to_move: {to_move!r} has no pawn on the board (pawns: {', '.join(pawns) or 'none'})")
    restore = data.get("restore", False)
    if not isinstance(restore, bool):
        raise BoardlabError(f"restore: must be true or false, not {restore!r}")
    if restore and not game.rules.restore_bonus:
        raise BoardlabError("restore: true, but this definition has no restore bonus (rules.restore_bonus = false)")
    mover = seats[to_move]
    state.restore[mover] = restore
    state.mover = mover
    return state


def check_reachable(game: BlockdGame, state: BlockdState) -> None:
    """Refuse a position that no game can reach (each reason in one line); `boardlab moves` asks.

    `parse_position` takes any well-formed snapshot (tests and analyses build positions freely);
    these are the contradictions between its parts:

    :raises BoardlabError: naming the contradiction.

    - The restore bonus is earned by ending a turn on a card of one's own colour, and the pawn
      has not moved since: with `restore` true the mover stands on its own colour.
    - Without the restore bonus a face-down card never comes back up.  A pawn leaving its start
      card turns it face down (unless, with stacked pawns under `stacked_flip = "last"`, another
      pawn stays on it), so a pawn on its own start card has never moved; since seat 1 moves
      first and every seat moves in turn, the game is then in its first round, that seat's first
      turn has not come: it is the first such seat, the player to move, every later seat is
      still on its start card too, and each earlier seat turned at most one card face down.
    """
    grid, deal = game.grid, state.deal
    assert deal is not None  # parse_position deals
    mover = state.mover

    def where(cell: int) -> str:
        return "[{}, {}]".format(*grid.row_column(cell))

    if state.restore[mover] and deal.suit[state.pawns[mover]] != mover:
        raise BoardlabError(f"restore: true, but the {game.suits[mover]} pawn stands on {where(state.pawns[mover])}, "
                            f"not on a {game.suits[mover]} card (the bonus is earned by ending a turn on one's own colour)")
    if game.rules.restore_bonus or (game.rules.pawns == "stack" and not game.flip_at_once):
        return
    present = [seat for seat, cell in enumerate(state.pawns) if cell >= 0]
    for seat in present:
        start = deal.start[seat]
        if state.pawns[seat] != start and not state.down >> start & 1:
            raise BoardlabError(f"the {game.suits[seat]} pawn has left its start card {where(start)}, so that card "
                                f"is face down (no restore bonus in this definition); the position lists it face up")
    unmoved = [seat for seat in present if state.pawns[seat] == deal.start[seat]]
    if not unmoved:
        return
    first = unmoved[0]
    name = game.suits[first]
    moved_later = [seat for seat in present if seat > first and seat not in unmoved]
    if moved_later:
        raise BoardlabError(f"the {name} pawn is still on its start card, so its first turn has not come, but the "
                            f"{game.suits[moved_later[0]]} pawn, which plays after it, has moved")
    if mover != first:
        raise BoardlabError(f"to_move: the {name} pawn is still on its start card, so it is {name}'s first turn "
                            f"(the first seat that has not moved), not {game.suits[mover]}'s")
    down = bin(state.down).count("1")
    if down > first:
        raise BoardlabError(f"down: {down} face-down card{'s' if down != 1 else ''}, but only {first} turn"
                            f"{'s' if first != 1 else ''} can have been played before {name}'s first "
                            f"(each turns at most one card face down)")


def _parse_grid(game: BlockdGame, rows: Any) -> list[int]:
    grid = game.grid
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise BoardlabError(f"grid: must be a list of {grid.rows} strings of {grid.columns} tokens")
    if len(rows) != grid.rows:
        raise BoardlabError(f"grid: {len(rows)} rows, the board has {grid.rows}")
    ids_of: dict[str, list[int]] = {}
    for card_id in range(len(game.cards)):
        ids_of.setdefault(game.token(card_id).upper(), []).append(card_id)
    free = {token: list(ids) for token, ids in ids_of.items()}
    card_ids = []
    for r, row in enumerate(rows):
        tokens = row.split()
        if len(tokens) != grid.columns:
            raise BoardlabError(f"grid row {r}: {len(tokens)} tokens, the board has {grid.columns} columns")
        for c, token in enumerate(tokens):
            key = token.upper()
            if key not in ids_of:
                raise BoardlabError(f"grid [{r}, {c}]: unknown card '{token}' (a colour letter "
                                    f"{', '.join(game.letters)} and a value, or {game.blind_letter} for the blind card)")
            if not free[key]:
                raise BoardlabError(f"grid [{r}, {c}]: the card {key} appears more often than the deck holds it "
                                    f"({len(ids_of[key])})")
            card_ids.append(free[key].pop(0))
    return card_ids


def position_of(state: BlockdState) -> dict:
    """A state's position in the JSON form (the mover's colour as `to_move`).

    :raises ValueError: at the chance node or a finished game (no one is to move).
    """
    game = state.game
    if state.deal is None or state.mover == TERMINAL:
        raise ValueError("a position needs a dealt, unfinished game")
    grid = game.grid
    rows = []
    for r in range(grid.rows):
        rows.append(" ".join(game.token(state.deal.card_ids[grid.cell(r, c)]) for c in range(grid.columns)))
    return {
        "game": game.definition.game.id,
        "grid": rows,
        "down": [list(grid.row_column(cell)) for cell in range(grid.cells) if state.down >> cell & 1],
        "pawns": {game.suits[seat]: list(grid.row_column(cell)) for seat, cell in enumerate(state.pawns) if cell >= 0},
        "to_move": game.suits[state.mover],
        "restore": bool(state.restore[state.mover]),
    }


def moves(definition: Definition, data: Any) -> list[dict]:
    """The legal moves of a position in the JSON form of `boardlab moves` (the `moves` part of the registry entry).

    :raises BoardlabError: when the position is malformed or no game can reach it.

    >>> from boardlab.analysis.blockd.engine import _dealt_state
    >>> state = _dealt_state()
    >>> moves(state.game.definition, position_of(state))[:2]
    [{'to': [0, 1]}, {'to': [0, 2]}]
    """
    from boardlab.analysis.blockd.engine import make_game

    state = make_game(definition, definition.game.max_players).state_from_position(data)
    check_reachable(state.game, state)
    columns = state.game.grid.columns
    return [move.to_json(columns) for move in state.legal_moves()]
