"""Pile's rules engine: one chance node (the die), then decisions; positions read and written."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, IllegalMoveError, State
from boardlab.layouts.errors import BoardlabError

AGENTS: dict = {}
#: the line of `describe_summary`, per language (a language missing here writes the English)
SUMMARY = {"en": "start piles: {piles}", "es": "montones al empezar: {piles}"}


class PileGame(Game):
    reads_positions = True

    def new_initial_state(self) -> "PileState":
        return PileState(self)

    def summarize(self, records: list) -> dict:
        starts = Counter(r.stats["start"] for r in records)
        return {"start_piles": {str(k): starts[k] for k in sorted(starts)}}

    def describe_summary(self, figures: dict) -> str:
        """In the language being written, from the game's own table (a plugin's words are in no
        terms table of boardlab's), the list and its numbers as the language writes them."""
        from boardlab.analysis.report.wording import number, series
        from boardlab.layouts.terms import language

        piles = series(f"{k}: {number(v, 'd')}" for k, v in figures["start_piles"].items())
        return SUMMARY.get(language(), SUMMARY["en"]).format(piles=piles)

    def state_from_position(self, data) -> "PileState":
        if not isinstance(data, dict) or set(data) != {"game", "pile", "to_move"}:
            raise BoardlabError('a position is {"game": "toygame", "pile": N, "to_move": SEAT}')
        state = PileState(self)
        state.pile, state.mover, state.start = data["pile"], data["to_move"], data["pile"]
        if type(state.pile) is not int or state.pile < 1 or state.mover not in range(self.players):
            raise BoardlabError("pile: a whole number of at least 1; to_move: a seat")
        return state


class PileState(State):
    def __init__(self, game: PileGame):
        self.game = game
        self.pile = game.definition.rules.start
        self.start = self.pile
        self.mover = CHANCE
        self.turns = 0
        self.won: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.game.players

    def current_player(self) -> int:
        return self.mover

    def legal_moves(self) -> list[int]:
        if self.mover < 0:
            return []
        return list(range(1, min(self.game.definition.rules.take_max, self.pile) + 1))

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        faces = Counter(self.game.definition.rules.die_faces)
        total = sum(faces.values())
        return [(face, Fraction(count, total)) for face, count in sorted(faces.items())]

    def apply(self, move) -> None:
        if self.mover == CHANCE:
            self.pile += move
            self.start = self.pile
            self.mover = 0
            return
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r} from {self.pile}")
        self.pile -= move
        self.turns += 1
        if self.pile == 0:
            self.won, self.mover = (self.mover,), TERMINAL
        elif self.turns >= self.game.definition.rules.max_turns:
            self.mover = TERMINAL
        else:
            self.mover = (self.mover + 1) % self.players

    def clone(self) -> "PileState":
        other = PileState.__new__(PileState)
        other.__dict__.update(self.__dict__)
        return other

    def winners(self) -> tuple[int, ...]:
        return self.won

    def is_unfinished(self) -> bool:
        return self.mover == TERMINAL and not self.won

    def length(self) -> int:
        return self.turns

    def stats(self) -> dict:
        return {"start": self.start}

    def transposition_key(self) -> tuple:
        return self.pile, self.mover, self.turns

    def to_position(self) -> dict:
        return {"game": "toygame", "pile": self.pile, "to_move": self.mover}


def make_game(definition, players: int) -> PileGame:
    return PileGame(definition, players)
