"""Links positions in JSON (docs/positions/links.md), for `boardlab moves links`.

A position is what the player to move sees: their hand, the lines on the table, the captured
piles, the other hands' sizes and the deck's size.  `parse_position` checks it against the
deck of the definition and the player count and returns an `Observation`; `moves` lists its
legal moves in JSON form.

>>> from boardlab.layouts import load
>>> position = {"game": "links", "players": 2, "to_move": 1, "hand": ["R1-B2", "ONE", "Y2-Y2", "B1-G2"],
...             "deck": 33, "lines": [{"cards": ["G1-R1"]}]}
>>> [m["card"] + " " + str(m["line"]) for m in moves(load("links"), position)]
['ONE 0', 'R1-B2 0', 'B1-G2 1', 'B1-G2 1', 'ONE 1', 'R1-B2 1', 'R1-B2 1', 'Y2-Y2 1']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.analysis.links.cards import EMPTY, GAME, MASTER, WILD, LinksDeck
from boardlab.analysis.links.engine import LinksGame, LinksState, Observation, make_game
from boardlab.analysis.links.table import Line, Move, capture_size, legal_plays
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.layouts.links import Definition, Rules

KEYS = ("game", "players", "to_move", "hand", "lines", "captured", "hand_sizes", "deck")
#: marks a capturing card that stayed on the table (written before the card: "*B1-Y1")
STAYED = "*"


def _card(deck: LinksDeck, text: Any, where: str) -> int:
    try:
        return deck.kind_of(text)
    except BoardlabError as err:
        raise BoardlabError(f"{where}: {err}") from None


def _int(data: dict, key: str, low: int, high: int | None = None) -> int:
    value = data[key]
    if type(value) is not int or value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more"
        raise BoardlabError(f"{key}: {value!r} is not a whole number in {allowed}")
    return value


def _table_card(deck: LinksDeck, rules: Rules, text: Any, end: int, where: str) -> tuple[int, int]:
    """(kind, exposed end) of a card written on the table, checked against the end it touches.

    A game card (and a master under `master_links = "match"`) is written touching end first:
    `R1-B2`, or `ONE:B1` for a master exposing B1.
    """
    if not isinstance(text, str):
        raise BoardlabError(f"{where}: {text!r} is not a card")
    if text.startswith(STAYED):
        end, text = WILD, text[len(STAYED):]  # laid against cards captured since: no link to check
    name, _, shown = text.partition(":")
    kind = _card(deck, name, where)
    k = deck.kinds[kind]
    if k.ends is None:
        if shown:
            raise BoardlabError(f"{where}: {name} links to anything and shows no end (write '{name}')")
        return kind, WILD
    if k.category == GAME:
        if shown:
            raise BoardlabError(f"{where}: write a game card touching end first, e.g. '{deck.text(kind)}'")
        touching, exposed = (deck.face(t) for t in name.split("-"))
    else:
        if not shown:
            raise BoardlabError(f"{where}: a master with ends needs its open end, e.g. '{name}:"
                                f"{deck.face_texts[k.ends[1]]}'")
        exposed = deck.face(shown)
        if exposed not in k.ends:
            raise BoardlabError(f"{where}: {name} has no end {shown}")
        touching = k.ends[1] if exposed == k.ends[0] else k.ends[0]
    if end != WILD and touching != end:
        raise BoardlabError(f"{where}: {text} does not link to the open end {deck.face_texts[end]}")
    return kind, exposed


def _line(game: LinksGame, data: Any, slot: int) -> Line:
    deck, rules = game.deck, game.rules
    where = f"lines[{slot}]"
    if not isinstance(data, dict) or set(data) - {"cards", "counted"} or "cards" not in data:
        raise BoardlabError(f'{where}: write {{"cards": [...], "counted": N}} ("counted" is optional)')
    if not isinstance(data["cards"], list):
        raise BoardlabError(f"{where}.cards: must be a list of cards")
    line = Line()
    for i, text in enumerate(data["cards"]):
        line.cards.append(_table_card(deck, rules, text, line.end, f"{where}.cards[{i}]"))
        if isinstance(text, str) and text.startswith(STAYED):
            if rules.capturing_card != "stays" or deck.kinds[line.cards[-1][0]].category == EMPTY:
                raise BoardlabError(f"{where}.cards[{i}]: {text} cannot be a capturing card that stayed "
                                    f"(capturing_card = \"{rules.capturing_card}\")")
            # a capture takes every card after the line's last restart point and the capturing
            # card takes their place, so it lies right after a restart point (under either
            # idle_master reading: an idle master lies in the run and goes with the capture)
            if i > 0 and i - 1 not in line.stayed and deck.kinds[line.cards[i - 1][0]].category != EMPTY:
                raise BoardlabError(f"{where}.cards[{i}]: {text} cannot have stayed after {data['cards'][i - 1]}: "
                                    f"a capture takes the cards back to the last restart point (the central card, "
                                    f"an empty or a starred card)")
            line.stayed.append(i)
    # the run is every card after the last restart point on the table (the engine restarts the
    # count there and nowhere else)
    restarts = [i for i, (kind, _) in enumerate(line.cards) if deck.kinds[kind].category == EMPTY]
    since = max(restarts + line.stayed, default=-1) + 1
    counted = data.get("counted", len(line.cards) - since)
    if type(counted) is not int or not 0 <= counted <= len(line.cards):
        raise BoardlabError(f"{where}.counted: {counted!r} is not a number of cards 0..{len(line.cards)}")
    if counted != len(line.cards) - since:
        raise BoardlabError(f"{where}.counted: {counted}, but {len(line.cards) - since} card"
                            f"{'s' if len(line.cards) - since != 1 else ''} lie after the line's last restart "
                            f"point (an empty card, a capturing card that stayed, or the central card)")
    line.run_start = len(line.cards) - counted
    for kind, _ in line.cards[line.run_start:]:
        k = deck.kinds[kind]
        if k.category == MASTER and line.count >= k.value - 1:
            raise BoardlabError(f"{where}: {deck.text(kind)} laid on a count of {line.count} would have captured")
        if k.category == MASTER and rules.idle_master == "barred":
            raise BoardlabError(f"{where}: {deck.text(kind)} cannot lie on a count of {line.count} "
                                f"(idle_master = \"barred\")")
        if k.category not in (GAME, MASTER):
            raise BoardlabError(f"{where}.counted: the count restarts after an empty card")
        line.count += k.category == GAME
    if line.count >= rules.capture_count:
        raise BoardlabError(f"{where}: a count of {line.count} would have captured at {rules.capture_count}")
    return line


def parse_position(definition: Definition, data: Any) -> Observation:
    """The observation of the player to move, from a position's JSON data.

    :raises BoardlabError: when the position is malformed or impossible, naming what is wrong.
    """
    if not isinstance(data, dict):
        raise BoardlabError("a position must be a JSON object with players, hand, lines and deck")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise BoardlabError(f"unknown key '{unknown[0]}' in the position (keys: {', '.join(KEYS)})")
    if data.get("game", definition.game.id) != definition.game.id:
        raise BoardlabError(f"the position is for '{data['game']}', not {definition.game.id}")
    for key in ("players", "hand", "lines", "deck"):
        if key not in data:
            raise BoardlabError(f"the position has no '{key}'")
    info = definition.game
    players = _int(data, "players", info.min_players, info.max_players)
    game = make_game(definition, players)
    deck, rules = game.deck, game.rules
    to_move = _int(data, "to_move", 0, players - 1) if "to_move" in data else 0
    if not isinstance(data["hand"], list):
        raise BoardlabError("hand: must be a list of cards")
    hand = [_card(deck, text, f"hand[{i}]") for i, text in enumerate(data["hand"])]
    if not isinstance(data["lines"], list) or len(data["lines"]) > rules.lines:
        raise BoardlabError(f"lines: must be a list of at most {rules.lines} lines")
    lines = [_line(game, line, i) for i, line in enumerate(data["lines"])]
    lines += [Line() for _ in range(rules.lines - len(lines))]
    captured_data = data.get("captured", [[] for _ in range(players)])
    if not isinstance(captured_data, list) or len(captured_data) != players or \
            not all(isinstance(p, list) for p in captured_data):
        raise BoardlabError(f"captured: must be a list of {players} lists of cards, one per seat")
    captured = [[_card(deck, t, f"captured[{s}][{i}]") for i, t in enumerate(p)] for s, p in enumerate(captured_data)]
    deck_size = _int(data, "deck", 0)
    _check_counts(game, hand, lines, captured)
    visible = len(hand) + sum(len(line.cards) for line in lines) + sum(map(len, captured))
    hand_sizes = data.get("hand_sizes")
    if hand_sizes is None:
        rest = len(game.cards) - visible - deck_size
        if rest < 0:
            raise BoardlabError(f"{visible} cards seen and {deck_size} in the deck, but the deck holds "
                                f"{len(game.cards)} with {players} players")
        hand_sizes = [len(hand) if s == to_move else 0 for s in range(players)]
        hand_sizes[(to_move + 1) % players] += rest  # unknown split: only the total matters for the moves
    else:
        if not isinstance(hand_sizes, list) or len(hand_sizes) != players or \
                not all(type(v) is int and v >= 0 for v in hand_sizes):
            raise BoardlabError(f"hand_sizes: must be a list of {players} card counts")
        if hand_sizes[to_move] != len(hand):
            raise BoardlabError(f"hand_sizes[{to_move}] is {hand_sizes[to_move]}, but the hand holds {len(hand)}")
        total = visible - len(hand) + sum(hand_sizes) + deck_size
        if total != len(game.cards):
            raise BoardlabError(f"the cards add up to {total} (hands, deck, table, captured), but the deck "
                                f"holds {len(game.cards)} with {players} players")
    plays = sum(len(line.cards) for line in lines) + sum(map(len, captured))
    moves = legal_plays(deck, rules, lines, hand, plays == 0)
    return Observation(game, to_move, to_move, tuple(sorted(hand)), tuple(line.key() for line in lines),
                       tuple(tuple(p) for p in captured), tuple(hand_sizes), deck_size, 0, plays, tuple(moves))


def _check_hand_sizes(game: LinksGame, lines: Sequence[Line], captured: Sequence[Sequence[int]], deck_size: int,
                      hand_sizes: Sequence[int], held: int, to_move: int) -> None:
    """Hands no game makes them, and a mover the turns so far do not give.

    Hands larger than any game makes them: while no player can have passed, every hand holds
    the deal: each turn lays one card and draws one.  Nobody can have passed while a side of the central
    card was free at every turn (any card starts a line there, as at the first play) and `must_play` holds; lines never
    empty under `capturing_card = "stays"`, and under "taken" only by a capture.  The draw pile
    not empty means every draw was made.  The rest is `_check_turns`.
    """
    rules = game.rules
    started = sum(1 for line in lines if line.cards)
    no_pass = rules.must_play and started < rules.lines and (rules.capturing_card == "stays" or
                                                              not any(captured)) and first_play_is_certain(game)
    sizes = [(to_move, held)] + [(s, n) for s, n in enumerate(hand_sizes) if s != to_move]
    if no_pass and deck_size > 0:
        deal = game.deck.hand_size
        for seat, size in sizes:
            if size > deal:
                raise BoardlabError(f"{_hand(seat, to_move)} holds {size} card{'s' if size != 1 else ''}, but with a "
                                    f"free side of the central card nobody can have passed (must_play), so no hand "
                                    f"holds more than the {deal} dealt while the deck lasts")
    _check_turns(game, lines, captured, deck_size, sizes, to_move)


def _hand(seat: int, to_move: int) -> str:
    return "the hand" if seat == to_move else f"hand_sizes[{seat}]"


def _turns_of(seat: int, turns: int, players: int) -> int:
    """How many of the first `turns` turns were `seat`'s (turns go round from seat 0, a seat
    without a play taking its turn too: it only draws)."""
    return max(0, (turns - seat + players - 1) // players)


def first_play_is_certain(game: LinksGame) -> bool:
    """Whether seat 0 lays a card at the game's first turn whatever it was dealt: any card starts
    a line there, except a master other than value 1 under `idle_master = "barred"`."""
    deal = game.deck.hand_size
    if game.rules.idle_master != "barred":
        return deal > 0
    barred = sum(game.copies[kind] for kind in game.deck.master_kinds if game.deck.kinds[kind].value > 1)
    return deal > barred


def _check_turns(game: LinksGame, lines: Sequence[Line], captured: Sequence[Sequence[int]], deck_size: int,
                 sizes: list[tuple[int, int]], to_move: int) -> None:
    """The turns a position implies, against its mover and its hands.

    Every turn, with or without a play, draws one card while the deck lasts, and turns go round
    from seat 0.  So while the deck lasts the turns so far are the cards drawn since the deal,
    they decide the seat to move, and a hand holds the deal plus the turns it did not lay a card
    (at least the deal, at most the deal plus its turns; seat 0 lays a card at the first turn).
    Once the deck is used up a hand holds at most the deal plus the draws its seat made.
    """
    n, deal = game.players, game.deck.hand_size
    to_draw = len(game.cards) - n * deal  # left to draw after the deal
    laid = sum(len(line.cards) for line in lines) + sum(map(len, captured))
    if deck_size > to_draw:
        raise BoardlabError(f"deck: {deck_size} cards left to draw, but the deal leaves {to_draw} with {n} players")
    drawn = to_draw - deck_size
    first = first_play_is_certain(game)
    if deck_size > 0:
        turns = drawn
        if turns % n != to_move:
            raise BoardlabError(f"to_move: {to_move}, but with {deck_size} cards left to draw {turns} turn"
                                f"{'s have' if turns != 1 else ' has'} been taken (each draws one), "
                                f"so seat {turns % n} is to move")
        if laid > turns:
            raise BoardlabError(f"{laid} cards have been laid, but with {deck_size} cards left to draw only {turns} "
                                f"turn{'s have' if turns != 1 else ' has'} been taken (each lays one card at most)")
        for seat, size in sizes:
            own = _turns_of(seat, turns, n)
            most = deal + own - (seat == 0 and own > 0 and first)
            if size < deal:
                raise BoardlabError(f"{_hand(seat, to_move)} holds {size} card{'s' if size != 1 else ''}, but while the "
                                    f"deck lasts every turn draws a card, so no hand holds fewer than the {deal} dealt")
            if size > most:
                raise BoardlabError(f"{_hand(seat, to_move)} holds {size} cards, but seat {seat} has had {own} turn"
                                    f"{'s' if own != 1 else ''}{' (the first a play)' if seat == 0 and own and first else ''}"
                                    f", each adding one card at most to the {deal} dealt")
        return
    for seat, size in sizes:
        draws = _turns_of(seat, drawn, n)
        most = deal + draws - (seat == 0 and drawn > 0 and first)
        if size > most:
            raise BoardlabError(f"{_hand(seat, to_move)} holds {size} cards, but seat {seat} drew {draws} before the "
                                f"deck ran out{' and laid the first card' if seat == 0 and drawn and first else ''}: "
                                f"{most} at most")


def _check_captured(game: LinksGame, lines: Sequence[Line], captured: Sequence[Sequence[int]]) -> None:
    """Captured piles no capture makes.  An empty card restarts the count, so no capture reaches
    one.  Under `capturing_card = "stays"` every capture leaves its capturing card on the table for
    good (a starred card) and takes the game cards counted before it, at most `capture_count` - 1;
    a master is captured only lying idle, which `idle_master = "barred"` forbids."""
    deck, rules = game.deck, game.rules
    for seat, pile in enumerate(captured):
        if deck.empty in pile:
            raise BoardlabError(f"captured[{seat}]: an empty card is never captured (it restarts the count, so no "
                                f"capture takes it)")
    if rules.capturing_card != "stays":
        return
    if rules.idle_master == "barred":
        for seat, pile in enumerate(captured):
            for kind in pile:
                if deck.kinds[kind].category == MASTER:
                    raise BoardlabError(f"captured[{seat}]: {deck.text(kind)} cannot have been captured: a master "
                                        f"is laid only where it captures, and stays (idle_master = \"barred\")")
    stars = sum(len(line.stayed) for line in lines)
    taken = sum(1 for pile in captured for kind in pile if deck.kinds[kind].category == GAME)
    if taken > stars * (rules.capture_count - 1):
        raise BoardlabError(f"captured: {taken} game card{'s' if taken != 1 else ''}, but the table shows {stars} "
                            f"capture{'s' if stars != 1 else ''} (starred cards), each taking {rules.capture_count - 1} "
                            f"game cards at most (capturing_card = \"stays\")")


def _check_counts(game: LinksGame, hand: list[int], lines: Sequence[Line], captured: Sequence[Sequence[int]]) -> None:
    """No kind appears more often than the deck holds it (a card in two places, a card too many)."""
    deck = game.deck
    places: dict[int, list[str]] = {}
    for kind in hand:
        places.setdefault(kind, []).append("hand")
    for slot, line in enumerate(lines):
        for kind, _ in line.cards:
            places.setdefault(kind, []).append(f"lines[{slot}]")
    for seat, pile in enumerate(captured):
        for kind in pile:
            places.setdefault(kind, []).append(f"captured[{seat}]")
    for kind, where in sorted(places.items()):
        if len(where) > game.copies[kind]:
            holds = game.copies[kind]
            raise BoardlabError(f"{deck.text(kind)} appears {len(where)} time{'s' if len(where) > 1 else ''} ({', '.join(where)}), but the deck "
                                f"holds {holds} with {game.players} players")


def move_json(observation: Observation, move: Move) -> dict:
    """One move in the JSON form of `boardlab moves links`."""
    if move.is_pass:
        return {"pass": True}
    deck, rules = observation.game.deck, observation.game.rules
    lines = observation.table_lines()
    line = lines[move.line]
    return {"card": deck.text(move.kind), "line": move.line, "new_line": line.is_free,
            "exposes": deck.face_text(move.exposes),
            "captures": capture_size(deck, rules, line, move.kind)}


def moves(definition: Definition, data: Any) -> list[dict]:
    """The legal moves of a position, sorted: a pass first, then by line, card, exposed end.

    :raises BoardlabError: when the position is malformed or impossible.
    """
    observation = parse_position(definition, data)
    # hands no game makes, checked here, for positions people give, and not in parse_position:
    # the engine's own determinised states (the unseen cards all in one hand) read back through it
    _check_hand_sizes(observation.game, observation.table_lines(), observation.captured, observation.deck_size,
                      data.get("hand_sizes") or [], len(observation.hand), observation.mover)
    _check_captured(observation.game, observation.table_lines(), observation.captured)
    listed = [move_json(observation, m) for m in observation.legal_moves()]
    return sorted(listed, key=lambda m: ("pass" not in m, m.get("line", -1), m.get("card", ""),
                                         m.get("exposes") or ""))


def line_json(deck: LinksDeck, line: Line) -> dict:
    """A line in the JSON form of positions: cards touching end first, and the counted run.

    >>> from boardlab.layouts import load
    >>> from boardlab.analysis.links.engine import make_game
    >>> deck = make_game(load("links"), 2).deck
    >>> line_json(deck, Line([(deck.kind_of("R1-B2"), deck.face("R1"))], 0, 1))
    {'cards': ['B2-R1'], 'counted': 1}
    """
    cards = []
    for i, (kind, exposed) in enumerate(line.cards):
        k = deck.kinds[kind]
        mark = STAYED if i in line.stayed else ""
        if k.ends is None:
            cards.append(mark + deck.text(kind))
            continue
        a, b = k.ends
        touching = b if exposed == a else a
        if k.category == GAME:
            cards.append(f"{mark}{deck.face_texts[touching]}-{deck.face_texts[exposed]}")
        else:
            cards.append(f"{mark}{deck.text(kind)}:{deck.face_texts[exposed]}")
    return {"cards": cards, "counted": len(line.cards) - line.run_start}


def state_from_position(definition: Definition, data: Any, rng: random.Random) -> LinksState:
    """A full `LinksState` for a position: the unseen cards dealt at random (`rng`) to the other
    hands and the deck, consistently with it.

    :raises BoardlabError: when the position is malformed or impossible.
    """
    observation = parse_position(definition, data)
    return observation.game.determinise(observation, rng)


def position_of(state: LinksState, seat: int | None = None) -> dict:
    """The position `seat` (default: the player to move) sees, in the JSON form of positions.

    >>> import random
    >>> from boardlab.layouts import load
    >>> from boardlab.analysis.links.engine import make_game
    >>> state = make_game(load("links"), 2).new_initial_state()
    >>> state.apply(state.sample_chance(random.Random(1)))
    >>> position = position_of(state)
    >>> again = state_from_position(load("links"), position, random.Random(2))
    >>> position_of(again) == position and again.legal_moves() == state.legal_moves()
    True
    """
    seat = state.current_player() if seat is None else seat
    deck = state.game.deck
    lines = [line_json(deck, line) for line in state.lines]
    while lines and not lines[-1]["cards"]:
        lines.pop()
    return {"game": state.game.id, "players": state.players, "to_move": seat,
            "hand": deck.kinds_text(sorted(state.hands[seat])), "lines": lines,
            "captured": [deck.kinds_text(pile) for pile in state.captured],
            "hand_sizes": [len(hand) for hand in state.hands], "deck": len(state.deck)}
