"""Which games have a rules engine, and the agents each engine offers.

An engine module provides `make_game(definition, players) -> Game` and `AGENTS`, a dict of
agent name -> factory(game) (`RandomAgent` and the other COMMON_AGENTS are added here).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from boardlab.analysis.agents import COMMON_AGENTS, AgentTable
from boardlab.layouts.errors import BoardlabError

#: game id -> module of its engine
ENGINES: dict[str, str] = {
    "blockd": "boardlab.analysis.blockd.engine",
    "sixbysix": "boardlab.analysis.sixbysix.engine",
    "links": "boardlab.analysis.links.engine",
    "deblockle": "boardlab.analysis.deblockle.engine",
}


def engine_module(game_id: str) -> ModuleType:
    """The engine module of a game.

    :raises BoardlabError: when the game has no engine yet.
    """
    if game_id not in ENGINES:
        have = ", ".join(ENGINES) or "none yet"
        raise BoardlabError(f"{game_id}: no rules engine for this game (engines: {have})")
    return importlib.import_module(ENGINES[game_id])


def make_game(definition, players: int | None = None):
    """A `Game` for a loaded definition; players defaults to the definition's maximum.

    :raises BoardlabError: when the player count is outside the definition's range.
    """
    info = definition.game
    players = info.max_players if players is None else players
    if not info.min_players <= players <= info.max_players:
        raise BoardlabError(f"{info.id}: {players} players is not allowed "
                            f"({info.min_players}..{info.max_players} in {definition.source})")
    return engine_module(info.id).make_game(definition, players)


def agent_factories(game_id: str) -> dict:
    """Agent name -> factory(game) for a game: the common agents plus the engine's own."""
    agents = getattr(engine_module(game_id), "AGENTS", {})
    if isinstance(agents, AgentTable):  # keeps numbered names such as mcts-500 resolvable
        return agents.merged(COMMON_AGENTS)
    return AgentTable({**COMMON_AGENTS, **agents})
