"""Games with a rules engine, and the agents each engine offers.

An engine module (the `engine` part of a game in `boardlab.layouts.registry`) provides
`make_game(definition, players) -> Game` and `AGENTS`, a dict of agent name -> factory(game)
(`RandomAgent` and the other COMMON_AGENTS are added here).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from boardlab.analysis.agents import COMMON_AGENTS, AgentTable
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.registry import game_part


def engine_module(game_id: str) -> ModuleType:
    """The engine module of a game.

    :raises BoardlabError: when the game has no engine yet.
    """
    return game_part(game_id, "engine")


def make_game(definition: Any, players: int | None = None) -> Any:
    """A `Game` for a loaded definition; players defaults to the definition's maximum (Any: the
    game's own `Game` subclass, whose own figures and methods its callers read).

    :raises BoardlabError: when the player count is outside the definition's range.
    """
    info = definition.game
    players = info.max_players if players is None else players
    info.check_players(players)
    return engine_module(info.id).make_game(definition, players)


def agent_factories(game_id: str) -> AgentTable:
    """Agent name -> factory(game) for a game: the common agents plus the engine's own."""
    agents = getattr(engine_module(game_id), "AGENTS", None)
    if not isinstance(agents, dict):
        raise BoardlabError(f"{game_id}: its engine offers no agents (AGENTS, a table of agent names)")
    if isinstance(agents, AgentTable):  # keeps numbered names such as mcts-500 resolvable
        return agents.merged(COMMON_AGENTS)
    return AgentTable({**COMMON_AGENTS, **agents})
