"""`boardlab play GAME`: play a prototype in the browser against the engine's agents (a local web server)."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from boardlab.common import stopping
from boardlab.arguments import add_game_arguments, add_seed_argument, add_store_arguments, at_most, game_definition
from boardlab.layouts import BoardlabError

#: the largest --limit (games held in memory)
MAX_LIMIT = 1000

#: the command's line in `boardlab --help`
HELP = "play a game in the browser against the agents"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play", help=HELP,
        description="Start a local web server and print its address: a page that draws the table from the print "
                    "art, lets a person play any seat by clicking (only legal moves are accepted), plays the other "
                    "seats with the engine's agents and saves finished games as record files.")
    add_game_arguments(p, players="the game's minimum")
    p.add_argument("--agents", metavar="A,B,...", default="person,random",
                   help="who plays each seat of a new game: 'person' (by hand) or an agent "
                        "(random, greedy, mcts-N, ...); one name for every seat (default: person,random; "
                        "the page can change them)")
    add_seed_argument(p)
    p.add_argument("--host", default="127.0.0.1", metavar="H",
                   help="address to listen on (default: 127.0.0.1, this computer only)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name the pages may use besides the address (repeatable; say the name "
                        "playtesters type, e.g. table.local: requests naming any other host are refused)")
    p.add_argument("--port", type=at_most(65535, 0), default=8765, metavar="P",
                   help="port to listen on (default: 8765; 0 picks a free one)")
    p.add_argument("--limit", type=at_most(MAX_LIMIT), default=32, metavar="G",
                   help="games held in memory; a new one beyond drops the least recently used (default: 32)")
    add_store_arguments(p, backend=False)
    p.add_argument("--no-store", action="store_true",
                   help="keep games in memory only (default: kept in the results store, resumed on a restart)")
    p.set_defaults(run=run)


def _needs(module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise BoardlabError(f"needs the '{module}' package: pip install 'boardlab[play]' (make does)") from None


def run(args: argparse.Namespace) -> int:
    definition = game_definition(args.game, args.variant)
    for module in ("starlette", "uvicorn"):
        _needs(module)
    import socket

    import uvicorn

    from boardlab.play_server import make_app

    players = args.players if args.players is not None else definition.game.min_players
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    allowed = [*args.allow_host]
    try:
        ipaddress.ip_address(args.host)
    except ValueError:
        allowed.append(args.host)  # served by name: the pages may use that name
    for name in allowed:
        if not name or not all(c.isalnum() or c in "-._" for c in name):
            raise BoardlabError(f"--allow-host '{name[:60]}' is not a host name (letters, digits, '-', '.')")
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        sock.listen(128)  # listening before the address is printed: a client may connect at once
    except OSError as err:
        raise BoardlabError(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}") from None
    host, port = sock.getsockname()[:2]
    store = None
    try:
        if not args.no_store:
            from boardlab.analysis.store import ResultStore

            store = ResultStore(args.store)
        app = make_app(definition, players, tuple(names), limit=args.limit, seed=args.seed, served=host,
                       allow_hosts=tuple(allowed), store=store, warm=True)
    except BaseException:
        sock.close()
        if store is not None:
            store.close()
        raise
    shown = _reachable(host)
    shown = f"[{shown}]" if ":" in shown else shown
    resumed = app.state.games.resumed
    print(f"boardlab play {args.game}: http://{shown}:{port}/ (Ctrl-C stops the server)"
          + (f"; {resumed} game{'s' if resumed != 1 else ''} resumed from {args.store}" if resumed else ""), flush=True)
    # errors only: a stranger's malformed request ("Invalid HTTP request received") is not news
    config = uvicorn.Config(app, log_level="error", access_log=False, lifespan="off", timeout_graceful_shutdown=1)
    server = _server_class()(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        if store is not None:
            store.close()
    if server.stopped_by is not None:
        raise stopping.Stopped(server.stopped_by)  # the one line and status of every stopped command
    if server.should_exit and not server.started:
        print("boardlab play: the server did not start", file=sys.stderr)
        return 2
    return 0


def _reachable(host: str) -> str:
    """The address to open the page at: `host`, or for a wildcard (0.0.0.0, ::) the address this
    computer reaches its network by (so the join links the page hands out work from elsewhere)."""
    import socket

    if not ipaddress.ip_address(host).is_unspecified:
        return host
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect(("2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1", 9))  # sends nothing
        return probe.getsockname()[0]
    except OSError:
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    finally:
        probe.close()


def _server_class() -> type:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, stopped by boardlab's signals at once: open connections and an agent
        still thinking are not waited for (a watchdog ends the process a second later)."""

        stopped_by: int | None = None

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            previous = {number: signal.getsignal(number) for number in stopping.SIGNALS}
            for number, handler in previous.items():
                if handler is not signal.SIG_IGN:
                    signal.signal(number, self.stop)
            try:
                yield
            finally:
                for number, handler in previous.items():
                    signal.signal(number, handler)

        def stop(self, signum: int, frame: FrameType | None) -> None:
            if self.stopped_by is None:
                self.stopped_by = signum
                # the requests cut short (an agent thinking) are not news either: one line, then out
                logging.getLogger("uvicorn.error").disabled = True
                stopping.exit_within(0.8, signum)
            self.should_exit = self.force_exit = True

    return Server

