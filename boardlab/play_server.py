"""The web server of `boardlab play`: a JSON API over `boardlab.playtest.Session`s and one static page.

Starlette (imported here only, so that other commands never load it) serves, for one game
definition:

==============================  ===========================================================
GET  /                          the page (boardlab/static/play.html and play.js: plain JS)
GET  /art/NAME.svg              a printed component's SVG (printkit.table: cards, board...)
GET  /api/setup                 the game, its player range, its agents, the default seats
GET  /api/warm                  whether the agents' compiled code is ready (`Warmup`)
POST /api/games                 a new game: {"seed", "players", "seats"} (each optional);
                                its "token" is the host's, its seats' "token"s the join links'
GET  /api/games/ID              the game as the token's page sees it (see `state_json`)
POST /api/games/ID/move         a person's move: {"ply": P, "index": I}
POST /api/games/ID/step         the agent to move plays: {"ply": P}
POST /api/games/ID/undo         take back the last person's move (and what followed): the host
GET  /api/games/ID/record       the record file (boardlab.playtest): the host, a seat at the end
GET  /api/games/ID/hint         the AI's view of the position (`Hints`): each legal move's win
                                chance and visit share, for the page whose seat is to move
GET  /api/games/ID/review       a finished game: the moves played by hand that lost most win
                                chance against the AI's choice (`Hints.review`)
==============================  ===========================================================

Every request about a game carries a token (header X-Boardlab-Token, or ?token= for a link)
(`Seating`): the host's (the page that started the game: it plays the seats played by hand
that nobody joined, hot seat) or a seat's (a join link: that page sees that seat's hand alone
and moves only for it); 403 without one.

Games live in memory, at most `limit` of them; a new game beyond that drops the one used
least recently of those nobody is at (no page asked for 6 s; 503 when every game has players
at it, so that a flood of new games never pushes out a game being played).  With a results
store they are kept there too, after every change, and a server started again on the same
definition resumes them (same ids and tokens: the pages reconnect by themselves).  A bad request gets a 4xx status with {"error": "one line"}: 400 malformed
(not JSON, wrong types, unknown agent), 404 unknown game id, 409 refused by the game (an
illegal move, out of turn, a stale ply, the game over), 413 a body over `MAX_BODY` bytes.

Only the server's own pages can drive it (`Guard`): a request whose Host header names another
server (a DNS-rebinding page: evil.example resolved to 127.0.0.1) gets 421, whatever it asks; a
POST must be JSON (415 otherwise: a cross-site form or `text/plain` fetch is sent without asking
first, a JSON one is not) and must not come from another origin (403 for an Origin or
Sec-Fetch-Site header naming another site).  Requests without those headers (a script, curl)
are not a browser acting for some other site and pass.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from boardlab.analysis.hint import HINT_SECONDS, REVIEW_SECONDS
from boardlab.layouts.errors import BoardlabError, one_line
from boardlab.layouts.registry import game_part
from boardlab.playtest import PERSON, PlayError, Session

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Receive, Scope, Send

    from boardlab.analysis.hint import HintAgent
    from boardlab.analysis.protocol import Game
    from boardlab.analysis.store import ResultStore
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.pages import Component
    from boardlab.printkit.table import TableArt

#: the largest request body accepted, in bytes (a move is a few dozen)
MAX_BODY = 4096
#: the largest record a page may upload to play it back (a long game's moves and positions)
MAX_RECORD = 4 * 1024 * 1024
#: games kept in memory unless told otherwise
DEFAULT_LIMIT = 32
#: the largest seed a request may give
MAX_SEED = 2 ** 63 - 1
STATIC = Path(__file__).resolve().parent / "static"
#: the page's icon: a die face on a board square (SVG, also answered for /favicon.ico)
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
           'fill="#2d3436"/><rect x="6" y="6" width="20" height="20" rx="4" fill="#fff"/><circle cx="11" cy="11" '
           'r="2.4" fill="#2d3436"/><circle cx="16" cy="16" r="2.4" fill="#2d3436"/><circle cx="21" cy="21" r="2.4" '
           'fill="#2d3436"/></svg>')


class RequestError(Exception):
    """A request refused with `status` and a one-line reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = one_line(reason)


def host_name(header: str) -> str:
    """The name (or address) in a Host header, without its port, lower case.

    >>> host_name("LocalHost:8765"), host_name("[::1]:80"), host_name("10.0.0.2"), host_name("example.org.")
    ('localhost', '::1', '10.0.0.2', 'example.org')
    """
    name = header.strip().lower()
    if name.startswith("["):
        name = name[1:name.find("]")] if "]" in name else name[1:]
    elif name.count(":") == 1:
        name = name.split(":")[0]
    return name.rstrip(".")


def host_allowed(header: str, served: str, names: frozenset[str] = frozenset()) -> bool:
    """Whether a Host header names this server: the address `served` (any address when it is a
    wildcard such as 0.0.0.0: an address cannot be rebound to another server as a name can),
    the loopback names when it serves on loopback, or one of `names` that the designer allows.

    >>> host_allowed("127.0.0.1:8765", "127.0.0.1"), host_allowed("localhost:8765", "127.0.0.1")
    (True, True)
    >>> host_allowed("evil.example:8765", "127.0.0.1"), host_allowed("10.0.0.2", "127.0.0.1")
    (False, False)
    >>> host_allowed("10.0.0.2:80", "0.0.0.0"), host_allowed("table.lan", "0.0.0.0", frozenset({"table.lan"}))
    (True, True)
    """
    name = host_name(header)
    if name in names:
        return True
    served_address = ipaddress.ip_address(served.split("%")[0])
    if name == "localhost":
        return served_address.is_loopback or served_address.is_unspecified
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False  # a name nobody allowed: a page of another site whose name now points here
    if served_address.is_unspecified:
        return True
    return address == served_address or (address.is_loopback and served_address.is_loopback)


class Guard:
    """ASGI middleware: refuses what another site's page could send (see the module's docstring).

    `served` is the address the server listens on, `names` the host names allowed besides.
    """

    #: methods that change nothing
    SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

    def __init__(self, app: ASGIApp, served: str, names: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.served = served
        self.names = names

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, reason) for a request to refuse, None for one to serve."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if not host_allowed(host, self.served, self.names):
            allowed = sorted(self.names | {self.served})
            return 421, (f"this server answers to {', '.join(allowed)}, not '{host_name(host)[:60]}' "
                         f"(boardlab play --allow-host NAME allows a name)")
        if scope.get("method", "GET") in self.SAFE:
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, f"a request from another site ({site}) cannot change a game"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return 403, f"a request from another origin ({origin[:60]}) cannot change a game"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, f"a request that changes a game must be JSON (Content-Type: application/json), not '{kind[:40]}'"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refused = self.refusal(scope)
            if refused is not None:
                from starlette.responses import JSONResponse

                status, reason = refused
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await JSONResponse({"error": one_line(reason)}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Tables:
    """The game's `TableArt` per player count and the SVG of every component, made once."""

    def __init__(self, definition: GameDefinition) -> None:
        self.definition = definition
        self.module = game_part(definition.game.id, "print")
        self._tables: dict[int, TableArt[Any, Any, Any]] = {}
        self._svgs: dict[str, str] = {}
        self._components: dict[str, Component] | None = None
        self.lock = threading.Lock()

    def table(self, game: Game[Any]) -> TableArt[Any, Any, Any]:
        with self.lock:
            if game.players not in self._tables:
                self._tables[game.players] = self.module.table_art(self.definition, game)
            return self._tables[game.players]

    def render_all(self, game: Game[Any]) -> None:
        """Every component's SVG made now (the server's start), so the first page's art comes at once."""
        with self.lock:
            if self._components is None:
                self._components = self.module.table_art(self.definition, game).components()
            names = list(self._components)
        for name in names:
            self.svg(name, game)

    def svg(self, name: str, game: Game[Any]) -> str | None:
        from boardlab.printkit.svg import render_svg

        with self.lock:
            if name not in self._svgs:
                if self._components is None:
                    self._components = self.module.table_art(self.definition, game).components()
                component = self._components.get(name)
                if component is None:
                    return None
                self._svgs[name] = render_svg(component)
            return self._svgs[name]


#: seconds since a seat's page last asked within which the lobby calls it connected (pages ask every 1.5 s)
CONNECTED_SECONDS = 6.0
#: the request header (or `?token=` query) that carries a page's token
TOKEN_HEADER = "x-boardlab-token"


class Seating:
    """Who may see and do what in one game: the token of the page that opened it (the host: it
    plays every seat by hand that no other page has joined, hot seat, and may undo) and an
    unguessable token per seat played by hand (a join link: that page sees that seat's hand only
    and moves only for it).  A seat becomes remote when a page first uses its token."""

    def __init__(self, session: Session) -> None:
        self.host = secrets.token_urlsafe(18)
        self.tokens = [secrets.token_urlsafe(18) if agent is None else None for agent in session.agents]
        self.seen = [0.0] * len(self.tokens)  # time.monotonic() of a seat's page's last request, 0 never
        self.host_seen = time.monotonic()  # of the host's page's last request
        self.last_local: int | None = None  # the host's seat last shown (kept while an agent moves)
        self.last: tuple[int, dict] | None = None  # (ply, `last_move`) kept
        self.hides = False  # whether a seat sees less than everything (hands): hot seat hands the screen over

    def role(self, token: str | None) -> int | None:
        """-1 for the host's token, the seat of a seat's token; None for anything else."""
        if not token:
            return None
        given = token.encode("utf-8", "replace")  # compare_digest takes ASCII text only: compare bytes
        if secrets.compare_digest(given, self.host.encode()):
            return -1
        for seat, own in enumerate(self.tokens):
            if own is not None and secrets.compare_digest(given, own.encode()):
                return seat
        return None

    def remote(self, seat: int) -> bool:
        return self.seen[seat] > 0

    def in_use(self, now: float) -> bool:
        """Whether a page of the game (the host's or a seat's) asked within `CONNECTED_SECONDS`."""
        return now - self.host_seen <= CONNECTED_SECONDS or any(self.connected(s, now) for s in range(len(self.seen)))

    def connected(self, seat: int, now: float) -> bool:
        return self.seen[seat] > 0 and now - self.seen[seat] <= CONNECTED_SECONDS

    def local(self) -> list[int]:
        """The seats played by hand at the host's page."""
        return [s for s, token in enumerate(self.tokens) if token is not None and not self.remote(s)]


class Games:
    """The games in memory, least recently used first, each a `Session` with its `Seating`."""

    def __init__(self, definition: GameDefinition, players: int | None, seats: tuple[str, ...], limit: int,
                 store: ResultStore | None = None) -> None:
        from boardlab.analysis import engines
        from boardlab.analysis.store import definition_hash

        self.definition = definition
        self.default_game = engines.make_game(definition, players)
        self.seats = seats
        self.limit = limit
        self.tables = Tables(definition)
        self._games: OrderedDict[str, tuple[Session, Seating]] = OrderedDict()
        self.lock = threading.Lock()
        self.store = store  # a ResultStore keeping the games (None: memory only)
        self.definition_id = definition_hash(definition)
        self.store_lock = threading.Lock()
        self._dropped: list[str] = []  # ids dropped from memory, to drop from the store
        self.resumed = 0
        if store is not None:
            self._resume(store)

    def _resume(self, store: ResultStore) -> None:
        """The games the store keeps for this definition, as they stood (the most recent `limit`)."""
        from boardlab.analysis import engines

        kept = store.open_games(self.definition.game.id, self.definition_id)
        dropped = [ident for ident, _ in kept[:-self.limit]] if len(kept) > self.limit else []
        for ident, content in kept[len(dropped):]:
            try:
                game = engines.make_game(self.definition, content["players"])
                session = Session(self.definition, game.players, content["seats"], content["seed"],
                                  table=self.tables.table(game))
                session.replay_moves([(index, seconds) for index, seconds in content["moves"]])
                seating = Seating(session)
                seating.host, seating.tokens = content["host"], content["tokens"]
                seating.seen = [1e-9 if remote else 0.0 for remote in content["remote"]]
                seating.hides = hides_hands(session)
            except (BoardlabError, KeyError, TypeError, ValueError):
                dropped.append(ident)  # kept by another version of the rules' code: cannot be resumed
                continue
            self._games[ident] = (session, seating)
            self.resumed += 1
        if dropped:
            store.drop_open_games(dropped)

    def save(self, game_id: str) -> None:
        """Keep the game as it stands in the store (and forget those dropped from memory)."""
        if self.store is None:
            return
        with self.lock:
            found = self._games.get(game_id)
            gone, self._dropped = self._dropped, []
        with self.store_lock:
            if gone:
                self.store.drop_open_games(gone)
            if found is None:
                return
            session, seating = found
            with session.lock:
                moves = [[entry[2], seconds] for entry, seconds in zip(session.entries, session.thinking)
                         if entry[0] == "move"]
                content = {"players": session.game.players, "seed": session.seed, "seats": list(session.seats),
                           "moves": moves, "host": seating.host, "tokens": seating.tokens,
                           "remote": [seating.remote(s) for s in range(session.game.players)]}
            self.store.put_open_game(game_id, self.definition.game.id, self.definition_id, content)

    def new(self, seed: int, players: int | None, seats: tuple[str, ...] | None) -> tuple[str, Session, Seating]:
        from boardlab.analysis import engines

        try:
            game = engines.make_game(self.definition, players if players is not None else self.default_game.players)
            session = Session(self.definition, game.players, seats if seats is not None else self.seats, seed,
                              table=self.tables.table(game))
        except BoardlabError as err:
            raise RequestError(400, str(err)) from None
        game_id = secrets.token_hex(6)
        seating = Seating(session)
        seating.hides = hides_hands(session)
        with self.lock:
            if len(self._games) >= self.limit:  # make room: the least recently used games nobody is at
                now = time.monotonic()
                idle = [ident for ident, (_, held) in self._games.items() if not held.in_use(now)]
                if len(self._games) - len(idle) >= self.limit:
                    raise RequestError(503, f"this server holds {self.limit} games with players at them (--limit): "
                                            f"try again when one is left")
                for ident in idle[:len(self._games) - self.limit + 1]:
                    del self._games[ident]
                    self._dropped.append(ident)
            self._games[game_id] = (session, seating)
        self.save(game_id)
        return game_id, session, seating

    def get(self, game_id: str) -> tuple[Session, Seating]:
        with self.lock:
            found = self._games.get(game_id)
            if found is None:
                raise RequestError(404, f"no game '{game_id[:40]}' on this server (finished with, dropped "
                                        f"after {self.limit} newer games, or never started): start a new game")
            self._games.move_to_end(game_id)
            return found

    def __len__(self) -> int:
        return len(self._games)


def table_of(session: Session) -> TableArt[Any, Any, Any]:
    """The table of a session the server plays: each is made with `Tables.table`'s, never without."""
    assert session.table is not None, "every session of the server has its table"
    return session.table


def last_move(session: Session, seating: Seating | None = None) -> dict | None:
    """The last move's seat and the keys its clicks went to (the page outlines them), or None
    before the first move; kept per ply in `seating`."""
    from boardlab.playtest import replay_entries

    moves = [k for k, entry in enumerate(session.entries) if entry[0] == "move"]
    if not moves:
        return None
    ply = session.ply()
    if seating is not None and seating.last is not None and seating.last[0] == ply:
        return seating.last[1]
    k = moves[-1]
    before = replay_entries(session.game, session.seed, session.entries[:k])
    seat, index = session.entries[k][1], session.entries[k][2]
    found = {"seat": seat, "keys": list(table_of(session).targets(before, before.legal_moves()[index]))}
    if seating is not None:
        seating.last = (ply, found)
    return found


def hides_hands(session: Session) -> bool:
    """Whether the first seat sees other art than the all-seeing view (cards face down)."""
    def arts(seat: int | None) -> list[str]:
        return sorted(item["art"] for item in table_of(session).view(session.state, seat).items if "art" in item)
    with session.lock:
        return arts(None) != arts(0)


def viewer(session: Session, seating: Seating | None = None, role: int = -1) -> int | None:
    """The seat whose eyes a page shows.  A seat's page: that seat.  The host's page: the seat to
    move when it is played by hand there, else the one it showed last, else its first seat played
    by hand; None (everything face up) when agents play every seat; `session.game.players` (a seat
    that is nobody: no hand face up) when every seat played by hand has joined from elsewhere."""
    if role >= 0:
        return role
    mover = session.mover()
    people = [s for s, agent in enumerate(session.agents) if agent is None]
    if not people:
        return None
    local = seating.local() if seating is not None else people
    if mover in local:
        return mover
    if not local:
        return session.game.players
    if seating is not None and seating.last_local in local:
        return seating.last_local
    return local[0]


def state_json(game_id: str, session: Session, seating: Seating | None = None, role: int = -1) -> dict:
    """What a page shows: the table as its viewer sees it, the legal moves when it may move for
    the seat to move (index, text, JSON form, click path), the move list, the seats (who plays
    them, which have joined from elsewhere and are connected) and the result.  The host's page
    also gets the join token of each seat played by hand."""

    with session.lock:
        table = table_of(session)
        state = session.state
        seat = viewer(session, seating, role)
        if role < 0 and seating is not None and seat is not None and 0 <= seat < session.game.players:
            seating.last_local = seat
        mover = session.mover()
        may_move = session.person_to_move() and (
            mover == role if role >= 0 else seating is None or mover in seating.local())
        moves = []
        if may_move:
            moves = [{"index": i, "text": table.move_text(state, m), "move": table.move_json(state, m),
                      "targets": list(table.targets(state, m))}
                     for i, m in enumerate(session.legal_moves())]
        names = table.seat_names()
        history = []
        for k, (entry, seconds) in enumerate(zip(session.texts, session.thinking)):
            item = {"text": entry["text"], "entry": k}
            if "seat" in entry:
                item["seat"] = entry["seat"]
            if seconds is not None:
                item["seconds"] = round(seconds, 3)
            history.append(item)
            history.extend({"text": line, "quiet": True} for line in entry.get("then", ()))
        now = time.monotonic()
        seats = []
        for s in range(session.game.players):
            about: dict[str, Any] = {"name": names[s], "agent": session.seats[s]}
            if seating is not None and seating.tokens[s] is not None:
                about["remote"] = seating.remote(s)
                about["connected"] = seating.connected(s, now)
                if role < 0:
                    about["token"] = seating.tokens[s]
            seats.append(about)
        out = {"id": game_id, "game": session.game.id, "variant": session.game.variant, "seed": session.seed,
               "last": last_move(session, seating),
               "ply": session.ply(), "mover": mover, "viewer": seat,
               "role": "host" if role < 0 else "seat", "seat": role if role >= 0 else None,
               "seats": seats, "view": table.view(state, seat).to_json(), "moves": moves, "history": history,
               "over": state.is_terminal(), "result": session.result()}
        if seating is not None:
            out["hides"] = seating.hides
            if role < 0:
                out["token"] = seating.host
        return out


#: the texts of the hint on the page (layouts/terms/LANG.toml), sent with /api/setup
HINT_TERMS = ("play.hint.toggle", "play.hint.hide", "play.hint.title", "play.hint.agent", "play.hint.source.skilled",
              "play.hint.source.budget", "play.hint.source.uct", "play.hint.margin", "play.hint.visits",
              "play.hint.cut", "play.hint.move", "play.hint.win", "play.hint.share", "play.hint.choice",
              "play.hint.untried", "play.hint.thinking", "play.hint.none", "play.hint.busy", "play.hint.review",
              "play.hint.reviewing", "play.hint.reviewed", "play.hint.loss", "play.hint.no_loss",
              "play.hint.untried_move")
#: positions and reviews whose hint is kept
HINTS_KEPT = 256


def page_terms(language: str | None) -> tuple[str, dict[str, str]]:
    """The page's language (`language` when layouts/terms has it, else English) and its hint texts.

    >>> page_terms("es")[1]["play.hint.move"], page_terms("xx")[0]
    ('Jugada', 'en')
    """
    from boardlab.layouts.terms import SOURCE_LANGUAGE, TERMS, table

    known = sorted(p.stem for p in TERMS.glob("*.toml"))
    lang = language if language in known else SOURCE_LANGUAGE
    words = table(lang)
    return lang, {key: words[key] for key in HINT_TERMS}


class Hints:
    """The AI's view for the pages (`analysis.hint`): the rating of a position by the hint's agent
    (one search at a time, bounded by `hint.HINT_SECONDS`, off the event loop), and the review of
    a finished game (one at a time, bounded by `hint.REVIEW_SECONDS`).  Both are kept per game
    and position (the entries so far: an undo and another move is another position)."""

    def __init__(self, definition: GameDefinition) -> None:
        self.definition = definition
        self._agents: dict[int, HintAgent] = {}
        self.searching = threading.Lock()  # the CPU is shared: one search at a time
        self.reviewing = threading.Lock()
        self.lock = threading.Lock()
        self.kept: OrderedDict[tuple, dict] = OrderedDict()

    def agent(self, game: Game[Any]) -> HintAgent:
        from boardlab.analysis.hint import hint_agent

        with self.lock:
            if game.players not in self._agents:
                self._agents[game.players] = hint_agent(self.definition, game)
            return self._agents[game.players]

    def _kept(self, key: tuple) -> dict | None:
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
            return found

    def _keep(self, key: tuple, value: dict) -> dict:
        with self.lock:
            self.kept[key] = value
            while len(self.kept) > HINTS_KEPT:
                self.kept.popitem(last=False)
        return value

    def about(self, hint: HintAgent) -> dict:
        from boardlab.analysis.hint import budget_of

        return {"agent": hint.name, "source": hint.source, "budget": budget_of(hint.agent), "margin": hint.margin}

    def position(self, game_id: str, session: Session) -> dict:
        """The rating of the position `session` stands at (a seat to move).

        :raises RequestError: 503 when another search holds the CPU past the time of one hint.
        """
        from boardlab.analysis import hint

        with session.lock:
            key = ("position", game_id, tuple(session.entries))
            state = session.state.clone()
            ply = session.ply()
            seed = session.seed
        kept = self._kept(key)
        if kept is not None:
            return kept
        agent = self.agent(session.game)
        if not self.searching.acquire(timeout=hint.HINT_SECONDS + 1):
            raise RequestError(503, "the AI is rating another position: try again in a moment")
        try:
            rating = hint.rate(agent, state, hint.hint_seed(seed, ply), time.monotonic() + hint.HINT_SECONDS)
        finally:
            self.searching.release()
        out = {**rating.to_json(), **self.about(agent), "ply": ply}
        for move in out["moves"]:
            move["text"] = table_of(session).move_text(state, state.legal_moves()[move["index"]])
        return self._keep(key, out)

    def review(self, game_id: str, session: Session) -> dict:
        """The review of a finished game: its moves played by hand rated in order (`hint.review`).

        :raises RequestError: 503 while another game is being reviewed.
        """
        from boardlab.analysis import hint
        from boardlab.playtest import chance_outcome

        with session.lock:
            key = ("review", game_id, tuple(session.entries))
            entries = list(session.entries)
            people = {s for s, agent in enumerate(session.agents) if agent is None}
            seed, game = session.seed, session.game
        kept = self._kept(key)
        if kept is not None:
            return kept
        positions = []
        state = game.new_initial_state()
        for ply, entry in enumerate(entries):
            if entry[0] == "chance":
                state.apply(chance_outcome(state, seed, entry[1]))
                continue
            if entry[1] in people:
                positions.append((ply, state.clone(), entry[2]))
            state.apply(state.legal_moves()[entry[2]])
        agent = self.agent(game)
        if not self.reviewing.acquire(blocking=False):
            raise RequestError(503, "the AI is going over another game: try again in a moment")
        try:
            found = hint.review(agent, positions, seed, hint.REVIEW_SECONDS,
                                lambda at, index: table_of(session).move_text(at, at.legal_moves()[index]))
        finally:
            self.reviewing.release()
        return self._keep(key, {**found.to_json(), **self.about(agent)})


async def read_json(request: Request, keys: dict[str, type | tuple], limit: int = MAX_BODY) -> dict:
    """The request's JSON object (at most `limit` bytes), with only `keys`, each of its type.

    :raises RequestError: 413 for a larger body, 400 for anything malformed.
    """
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise RequestError(413, f"the request body is over {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RequestError(413, f"the request body is over {limit} bytes")
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise RequestError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError(400, "the request body must be a JSON object")
    for key, value in data.items():
        if key not in keys:
            raise RequestError(400, f"unknown key '{key[:40]}' (keys: {', '.join(keys) or 'none'})")
        wanted = keys[key]
        if value is not None and (type(value) is bool or not isinstance(value, wanted)):
            raise RequestError(400, f"'{key}' has the wrong type ({type(value).__name__})")
    return data


class Warmup:
    """The agents of a new game's default seats, each made to play a move once in a thread of its
    own when the server starts, so that numba compiles their fast paths (once after an install,
    up to a minute) before a person waits for their first move; `state()` is what the page shows."""

    def __init__(self, definition: GameDefinition, players: int, agents: Sequence[str],
                 hints: Hints | None = None) -> None:
        self.definition, self.players = definition, players
        self.hints = hints  # its agent rates a first position too (Links' search is compiled code)
        self.agents = [name for name in dict.fromkeys(agents) if name != PERSON]
        self.started: float | None = None
        self.finished: float | None = None
        self.failed: str | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self._run, name="boardlab-play-warmup", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for name in self.agents:
                session = Session(self.definition, self.players, (name,), 0)
                session.step()
            if self.hints is not None:
                from boardlab.analysis.hint import rate

                session = Session(self.definition, self.players, (PERSON,), 0)
                rate(self.hints.agent(session.game), session.state, 0, time.monotonic() + 60)
        except Exception as err:  # a warm-up that fails leaves the real game to say why
            self.failed = one_line(str(err)) or type(err).__name__
        self.finished = time.monotonic()

    def state(self) -> dict:
        if self.started is None or not self.agents:
            return {"ready": True, "agents": self.agents, "seconds": 0.0}
        end = self.finished if self.finished is not None else time.monotonic()
        out = {"ready": self.finished is not None, "agents": self.agents, "seconds": round(end - self.started, 1)}
        if self.failed:
            out["failed"] = self.failed
        return out


def make_app(definition: GameDefinition, players: int | None = None, seats: tuple[str, ...] = (PERSON, "random"),
             limit: int = DEFAULT_LIMIT, seed: int = 1, served: str = "127.0.0.1",
             allow_hosts: tuple[str, ...] = (), store: ResultStore | None = None, warm: bool = False) -> Starlette:
    """The Starlette application for one definition; `seats` are the default seats of a new game.
    It answers only requests whose Host header names `served` (the address it listens on) or one
    of `allow_hosts` (`Guard`).  With `store` (a `ResultStore`), its games are kept there after
    every change and those kept for this definition are resumed (`app.state.games.resumed`).
    With `warm`, the default seats' agents play a move each at once (`Warmup`, GET /api/warm).

    :raises BoardlabError: for a player count or seat names the game refuses.
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

    from boardlab.analysis import engines
    from boardlab.playtest import seat_names

    game = engines.make_game(definition, players)
    seats = seat_names(game.id, game.players, seats)
    games = Games(definition, game.players, seats, limit, store)
    hints = Hints(definition)
    warmup = Warmup(definition, game.players, seats, hints)
    if warm:
        threading.Thread(target=games.tables.render_all, args=(game,), name="boardlab-play-art", daemon=True).start()
        warmup.start()

    def refused(err: RequestError) -> JSONResponse:
        return JSONResponse({"error": err.reason}, status_code=err.status)

    def handled(endpoint: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await endpoint(request)
            except RequestError as err:
                return refused(err)
            except PlayError as err:
                return refused(RequestError(409, str(err)))
            except BoardlabError as err:
                return refused(RequestError(400, str(err)))
        return run

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "play.html", media_type="text/html")

    async def script(request: Request) -> Response:
        return FileResponse(STATIC / "play.js", media_type="text/javascript")

    async def favicon(request: Request) -> Response:
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def component(request: Request) -> Response:
        name = request.path_params["name"]
        svg = await run_in_threadpool(games.tables.svg, name, game)
        if svg is None:
            raise RequestError(404, f"no component '{name[:40]}' in this game's art")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})

    async def setup(request: Request) -> Response:
        known = engines.agent_factories(game.id)
        info = definition.game
        lang, words = page_terms(request.query_params.get("lang"))
        return JSONResponse({"game": game.id, "name": info.name, "variant": game.variant,
                             "players": game.players, "min_players": info.min_players,
                             "max_players": info.max_players, "seats": list(seats), "seed": seed,
                             "agents": [PERSON, *known], "agent_families": [f"{b}-N" for b in known.families],
                             "limit": limit, "warm": warmup.state(), "lang": lang, "terms": words,
                             "hint": {**hints.about(hints.agent(game)), "seconds": HINT_SECONDS,
                                      "review_seconds": REVIEW_SECONDS}})

    async def warm_state(request: Request) -> Response:
        return JSONResponse(warmup.state())

    async def new_game(request: Request) -> Response:
        data = await read_json(request, {"seed": int, "players": int, "seats": list})
        chosen = data.get("seed", seed)
        if chosen is None or not 0 <= chosen <= MAX_SEED:
            raise RequestError(400, f"the seed must be a whole number from 0 to {MAX_SEED}")
        names = data.get("seats")
        if names is not None and not all(isinstance(n, str) for n in names):
            raise RequestError(400, "seats must be a list of agent names")
        game_id, session, seating = await run_in_threadpool(games.new, chosen, data.get("players"),
                                                            tuple(names) if names is not None else None)
        return JSONResponse(await run_in_threadpool(state_json, game_id, session, seating), status_code=201)

    def entered(request: Request) -> tuple[str, Session, Seating, int]:
        """The game a request names, and the role of its token (-1 the host, else a seat).

        :raises RequestError: 404 for an unknown game, 403 for a missing or wrong token.
        """

        game_id = request.path_params["game"]
        session, seating = games.get(game_id)
        token = request.headers.get(TOKEN_HEADER) or request.query_params.get("token")
        role = seating.role(token)
        if role is None:
            raise RequestError(403, "this game is open only to its players: use the link you were given "
                                    "(its token)" if token else "this game needs its link's token")
        if role < 0:
            seating.host_seen = time.monotonic()
        if role >= 0:
            joined = seating.remote(role)
            seating.seen[role] = time.monotonic()
            if not joined:  # kept as joined after a restart
                games.save(game_id)
        return game_id, session, seating, role

    async def answer(game_id: str, session: Session, seating: Seating, role: int) -> Response:
        return JSONResponse(await run_in_threadpool(state_json, game_id, session, seating, role))

    async def show(request: Request) -> Response:
        return await answer(*entered(request))

    async def move(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        data = await read_json(request, {"ply": int, "index": int})
        if "index" not in data or data["index"] is None:
            raise RequestError(400, "a move needs its 'index' in the legal moves")

        def play() -> None:
            with session.lock:
                mover = session.mover()
                if session.person_to_move() and (mover != role if role >= 0 else mover not in seating.local()):
                    names = table_of(session).seat_names()
                    raise RequestError(403, f"{names[mover]} is played on another page: "
                                            + (f"you play {names[role]}" if role >= 0 else "wait for their move"))
                session.play(data["index"], data.get("ply"))
            games.save(game_id)
        await run_in_threadpool(play)
        return await answer(game_id, session, seating, role)

    async def step(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        data = await read_json(request, {"ply": int})

        def play() -> None:
            with session.lock:  # two pages stepping the same position: one agent move, the other told
                if data.get("ply") is not None and data["ply"] != session.ply():
                    raise PlayError(f"the position has changed (ply {session.ply()}, not {data['ply']}): reload it")
                session.step()
            games.save(game_id)
        await run_in_threadpool(play)
        return await answer(game_id, session, seating, role)

    async def undo(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        await read_json(request, {})
        if role >= 0:
            raise RequestError(403, "only the page that started the game can take moves back")
        await run_in_threadpool(session.undo)
        await run_in_threadpool(games.save, game_id)
        return await answer(game_id, session, seating, role)

    async def record(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        if role >= 0 and not session.state.is_terminal():
            raise RequestError(403, "the record shows every hand: it is yours once the game is over")
        data = await run_in_threadpool(session.record)
        name = f"{session.game.id}-seed{session.seed}-{game_id}.json"
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def hint(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        with session.lock:
            mover = session.mover()
            over = session.state.is_terminal()
            may = session.person_to_move() and (mover == role if role >= 0 else mover in seating.local())
        if over or not may:
            raise RequestError(409, "the AI rates the moves of the seat this page plays, when it is to move")
        return JSONResponse(await run_in_threadpool(hints.position, game_id, session))

    async def review(request: Request) -> Response:
        game_id, session, seating, role = entered(request)
        if not session.state.is_terminal():
            raise RequestError(409, "the review of the moves comes when the game is over")
        return JSONResponse(await run_in_threadpool(hints.review, game_id, session))

    # -- playtests: a finished game filed in the store, stored and saved records played back ------
    replays: OrderedDict[str, dict] = OrderedDict()

    def host_only(request: Request) -> None:
        """:raises RequestError: 403 unless the request carries the host token of a game here (the
        playtests hold names and notes: never shown to a remote seat)."""
        token = request.headers.get(TOKEN_HEADER) or request.query_params.get("token")
        with games.lock:
            hosts = {seating.host for _, seating in games._games.values()}
        if not token or token not in hosts:
            raise RequestError(403, "the playtests are shown only on the page that started a game here")

    def kept() -> Any:
        if games.store is None:
            raise RequestError(409, "this server keeps no results store (--no-store): save the record and "
                                    "use boardlab playtests import")
        return games.store

    async def file_playtest(request: Request) -> Response:
        from boardlab.playtest_filing import table_game_from_record

        game_id, session, seating, role = entered(request)
        data = await read_json(request, {"names": list, "notes": str})
        if role >= 0:
            raise RequestError(403, "only the page that started the game can file it as a playtest")
        store = kept()
        names = data.get("names")
        if names is not None and not all(isinstance(n, str) for n in names):
            raise RequestError(400, "names must be a list of texts, one per seat")

        def file() -> tuple[str, bool]:
            game = table_game_from_record(definition, session.record(), names, notes=data.get("notes") or "")
            with games.store_lock:
                added, _ = store.put_playtests([game])
            return (added[0] if added else game.identity()), bool(added)
        ident, filed = await run_in_threadpool(file)
        return JSONResponse({"id": ident[:8], "filed": filed}, status_code=201 if filed else 200)

    async def playtest_list(request: Request) -> Response:
        host_only(request)
        store = kept()
        found = await run_in_threadpool(store.playtests, game.id)
        return JSONResponse([{"id": ident[:8], "date": g.date, "variant": g.variant, "seats": list(g.seats),
                              "winners": list(g.winners), "length": g.length, "unit": g.unit,
                              "source": g.source, "replay": g.record is not None} for ident, g in found
                             if g.variant == game.variant])

    async def new_replay(request: Request) -> Response:
        data = await read_json(request, {"record": dict, "playtest": str}, limit=MAX_RECORD)
        if data.get("playtest"):
            host_only(request)
            prefix = data["playtest"]
            found = [g for ident, g in await run_in_threadpool(kept().playtests, game.id)
                     if ident.startswith(prefix) and g.record is not None]
            if len(found) != 1:
                raise RequestError(404, f"no playtest '{prefix[:40]}' with a record to play back")
            record = found[0].record
        elif data.get("record") is not None:
            record = data["record"]
        else:
            raise RequestError(400, "give a 'record' (a saved record) or a 'playtest' id")
        from boardlab.playtest_filing import move_count, replay_session

        await run_in_threadpool(replay_session, definition, record, 0)  # checked whole before it is kept
        replay_id = secrets.token_hex(6)
        replays[replay_id] = record
        while len(replays) > limit:
            replays.popitem(last=False)
        return JSONResponse({"id": replay_id, "moves": move_count(record)}, status_code=201)

    async def show_replay(request: Request) -> Response:
        from boardlab.playtest_filing import move_count, replay_session

        replay_id = request.path_params["replay"]
        record = replays.get(replay_id)
        if record is None:
            raise RequestError(404, f"no replay '{replay_id[:40]}' on this server: load the record again")
        try:
            ply = int(request.query_params.get("move", move_count(record)))
        except ValueError:
            raise RequestError(400, "move must be a whole number") from None
        shown = max(0, min(ply, move_count(record)))
        session = await run_in_threadpool(replay_session, definition, record, shown, games.tables.table(game))
        out = await run_in_threadpool(state_json, replay_id, session, None, -1)
        out["replay"] = {"move": shown, "moves": move_count(record), "seats": list(record["seats"])}
        return JSONResponse(out)

    routes = [Route("/", page), Route("/play.js", script),
              Route("/favicon.svg", favicon), Route("/favicon.ico", favicon),
              Route("/art/{name}.svg", handled(component)),
              Route("/api/setup", handled(setup)), Route("/api/warm", warm_state),
              Route("/api/games", handled(new_game), methods=["POST"]),
              Route("/api/games/{game}", handled(show)),
              Route("/api/games/{game}/move", handled(move), methods=["POST"]),
              Route("/api/games/{game}/step", handled(step), methods=["POST"]),
              Route("/api/games/{game}/undo", handled(undo), methods=["POST"]),
              Route("/api/games/{game}/record", handled(record)),
              Route("/api/games/{game}/hint", handled(hint)),
              Route("/api/games/{game}/review", handled(review)),
              Route("/api/games/{game}/file", handled(file_playtest), methods=["POST"]),
              Route("/api/playtests", handled(playtest_list)),
              Route("/api/replays", handled(new_replay), methods=["POST"]),
              Route("/api/replays/{replay}", handled(show_replay))]
    app = Starlette(routes=routes, middleware=[
        Middleware(Guard, served=served, names=frozenset(host_name(n) for n in allow_hosts))])
    app.state.games = games
    app.state.warmup = warmup
    app.state.hints = hints
    return app
