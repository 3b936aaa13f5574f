"""Deblockle positions in JSON (docs/positions/deblockle.md), both ways.

    {"game": "deblockle",
     "blocks": [{"owner": 1, "at": "c1", "top": "Cross", "north": "Slider"}, ...],
     "to_move": 1}

Owners are players 1 and 2 (seats 0 and 1); `top` and `north` name the faces on those sides
of the cube, which fixes its orientation.  A position is a snapshot: the player `to_move`
moves, even when they have no move (then the list of moves is empty).

>>> from boardlab.layouts import load
>>> data = {"game": "deblockle", "to_move": 1,
...         "blocks": [{"owner": 1, "at": "c1", "top": "Stop", "north": "Cross"}]}
>>> moves(load("deblockle"), data)[:2]          # tipped north, X comes up: a diagonal hop from c2
[{'from': 'c1', 'tip': 'N', 'to': 'b1'}, {'from': 'c1', 'tip': 'N', 'to': 'b3'}]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.analysis.protocol import TERMINAL
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.engine import DeblockleGame, DeblockleState
    from boardlab.layouts.deblockle import Definition

KEYS = ("game", "blocks", "to_move")
BLOCK_KEYS = ("owner", "at", "top", "north")


def parse_position(game: DeblockleGame, data: Any) -> DeblockleState:
    """A `DeblockleState` (a snapshot with `to_move` to move) from a position's JSON data.

    :raises BoardlabError: when the position is malformed or impossible, naming what is wrong.
    """
    from boardlab.analysis.deblockle.engine import DeblockleState

    if not isinstance(data, dict):
        raise BoardlabError("a position must be a JSON object with blocks and to_move")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise BoardlabError(f"unknown key '{unknown[0]}' in the position (keys: {', '.join(KEYS)})")
    game_id = game.definition.game.id
    if data.get("game", game_id) != game_id:
        raise BoardlabError(f"the position is for '{data['game']}', not {game_id}")
    for key in ("blocks", "to_move"):
        if key not in data:
            raise BoardlabError(f"the position has no '{key}'")
    blocks = data["blocks"]
    if not isinstance(blocks, list):
        raise BoardlabError('blocks: must be a list of {"owner", "at", "top", "north"} objects')
    board, cube = game.board, game.cube
    state = DeblockleState(game)
    faces = ", ".join(cube.faces)
    for i, block in enumerate(blocks):
        where = f"blocks[{i}]"
        if not isinstance(block, dict):
            raise BoardlabError(f'{where}: must be an object with {", ".join(BLOCK_KEYS)}')
        for key in BLOCK_KEYS:
            if key not in block:
                raise BoardlabError(f"{where}: no '{key}'")
        extra = [k for k in block if k not in BLOCK_KEYS]
        if extra:
            raise BoardlabError(f"{where}: unknown key '{extra[0]}' (keys: {', '.join(BLOCK_KEYS)})")
        owner = block["owner"]
        if type(owner) is not int or owner not in (1, 2):
            raise BoardlabError(f"{where}: owner {owner!r} is not a player (1 or 2)")
        cell = board.cell(block["at"])
        if cell is None:
            last = board.name(board.cells - 1)
            raise BoardlabError(f"{where}: {block['at']!r} is not a square of the board (a1..{last})")
        if cell in game.stars:
            raise BoardlabError(f"{where}: {block['at']} is a star square (a block never rests on a star)")
        if state.owner[cell] >= 0:
            raise BoardlabError(f"{where}: {block['at']} already holds a block")
        for side in ("top", "north"):
            if block[side] not in cube.faces:
                raise BoardlabError(f"{where}: unknown face {block[side]!r} on {side} (faces: {faces})")
        orientation = cube.find(block["top"], block["north"])
        if orientation is None:
            raise BoardlabError(f"{where}: {block['north']} cannot face north with {block['top']} on top "
                                "(it is the top face or the face opposite it)")
        seat = owner - 1
        most = game.rules.counts[seat]
        if state.left[seat] == most:
            raise BoardlabError(f"{where}: player {owner} has more than {most} block{'s' if most != 1 else ''} "
                                f"(rules.blocks)")
        state.place(seat, cell, orientation)
    to_move = data["to_move"]
    if type(to_move) is not int or to_move not in (1, 2):
        raise BoardlabError(f"to_move: {to_move!r} is not a player (1 or 2)")
    state.mover = to_move - 1
    return state


def position_of(state: DeblockleState) -> dict:
    """A state's position in the JSON form.

    :raises ValueError: at the chance node or a finished game (no one is to move).
    """
    if state.mover < 0 or state.mover == TERMINAL:
        raise ValueError("a position needs a set-up, unfinished game")
    game = state.game
    blocks = [{"owner": state.owner[c] + 1, "at": game.board.name(c), "top": game.cube.top(o),
               "north": game.cube.north(o)}
              for c, o in enumerate(state.orientation) if o >= 0]
    return {"game": game.definition.game.id, "blocks": blocks, "to_move": state.mover + 1}


def moves(definition: Definition, data: Any) -> list[dict]:
    """The legal moves of a position in the JSON form of `boardlab moves` (the `moves` part of the registry entry).

    :raises BoardlabError: when the position is malformed or impossible.
    """
    from boardlab.analysis.deblockle.engine import make_game

    game = make_game(definition, 2)
    state = parse_position(game, data)
    return [move.to_json(game.board) for move in state.legal_moves()]
