"""MCTS against exact game values: Nim by minimax, hand-made trees by expectimax and max-n."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardlab.analysis.agents import Agent, RandomAgent
from boardlab.analysis.mcts import MCTS, MCTSAgent
from boardlab.analysis.protocol import CHANCE, TERMINAL, State


class Nim(State):
    """Take 1..`most` from one pile; whoever takes the last object wins."""

    players = 2

    def __init__(self, left: int, most: int = 3, to_move: int = 0):
        self.left, self.most, self.to_move = left, most, to_move

    def current_player(self):
        return TERMINAL if self.left == 0 else self.to_move

    def legal_moves(self):
        return list(range(1, min(self.most, self.left) + 1)) if self.left else []

    def apply(self, move):
        assert move in self.legal_moves()
        self.left -= move
        self.to_move = 1 - self.to_move

    def clone(self):
        return Nim(self.left, self.most, self.to_move)

    def winners(self):
        return (1 - self.to_move,)


def nim_wins(left: int, most: int) -> bool:
    """Exact minimax: does the player to move win?"""
    table = [False] * (left + 1)
    for n in range(1, left + 1):
        table[n] = any(not table[n - k] for k in range(1, min(most, n) + 1))
    return table[left]


class Tree(State):
    """A game given as a tree.

    Nodes: ("move", seat, {move: node}), ("chance", {outcome: (weight, node)}), ("end", winners).
    """

    def __init__(self, root, players: int):
        self.node, self._players = root, players

    @property
    def players(self):
        return self._players

    def current_player(self):
        kind = self.node[0]
        return TERMINAL if kind == "end" else CHANCE if kind == "chance" else self.node[1]

    def legal_moves(self):
        return list(self.node[2]) if self.node[0] == "move" else []

    def chance_outcomes(self):
        branches = self.node[1]
        total = sum(w for w, _ in branches.values())
        return [(o, Fraction(w, total)) for o, (w, _) in branches.items()]

    def apply(self, move):
        if self.node[0] == "chance":
            self.node = self.node[1][move][1]
        else:
            self.node = self.node[2][move]

    def clone(self):
        return Tree(self.node, self._players)

    def winners(self):
        return self.node[1]


def exact_values(node, players: int) -> tuple[Fraction, ...]:
    """Max-n with chance (expectimax): every seat maximises its own expected result.

    Ties between moves with different results for the other seats raise, so that a tree used
    in a test has one right answer.
    """
    kind = node[0]
    if kind == "end":
        winners = node[1]
        return tuple(Fraction(1, len(winners)) if s in winners else Fraction(0) for s in range(players))
    if kind == "chance":
        total = sum(w for w, _ in node[1].values())
        out = [Fraction(0)] * players
        for w, child in node[1].values():
            for s, v in enumerate(exact_values(child, players)):
                out[s] += Fraction(w, total) * v
        return tuple(out)
    seat = node[1]
    options = sorted((exact_values(child, players) for child in node[2].values()), key=lambda v: v[seat])
    if len(options) > 1 and options[-1][seat] == options[-2][seat] and options[-1] != options[-2]:
        raise AssertionError("tie in the test tree")
    return options[-1]


def best_exact(node, players: int):
    seat = node[1]
    return max(node[2], key=lambda m: exact_values(node[2][m], players)[seat])


def end(*winners):
    return ("end", tuple(winners))


@pytest.mark.parametrize("left", [n for n in range(2, 14) if n % 4])
def test_mcts_finds_the_winning_nim_move(left):
    assert nim_wins(left, 3)
    search = MCTS(iterations=3000, rollout=RandomAgent())
    root = search.search(Nim(left), random.Random(left))
    move = search.best_move(root)
    assert not nim_wins(left - move, 3), f"{left}: took {move}"
    assert root.visits == 3000 == sum(c.visits for c in root.children.values())


def test_mcts_finds_the_winning_move_with_five_choices():
    # take 1..5: lose exactly on multiples of 6; from 17 the only winning move takes 5
    assert [m for m in range(1, 6) if not nim_wins(17 - m, 5)] == [5]
    assert MCTSAgent(4000).choose(Nim(17, most=5), random.Random(3)) == 5


def test_chance_is_sampled_with_exact_weights_and_values_converge():
    # seat 0 chooses a gamble; each gamble is a weighted chance node
    safe = ("chance", {"hit": (3, end(0)), "miss": (1, end(1))})      # 3/4 for seat 0
    risky = ("chance", {"hit": (1, end(0)), "miss": (2, end(1))})     # 1/3 for seat 0
    root_node = ("move", 0, {"safe": safe, "risky": risky})
    assert best_exact(root_node, 2) == "safe"
    search = MCTS(iterations=4000)
    root = search.search(Tree(root_node, 2), random.Random(7))
    assert search.best_move(root) == "safe"
    child = root.children["safe"]
    assert child.mean() == pytest.approx(0.75, abs=0.03)
    hits = child.children["hit"].visits
    assert hits / child.visits == pytest.approx(0.75, abs=0.03)


def test_three_players_each_maximise_their_own_result():
    # After A, seat 1 prefers a shared win with seat 0 (1/2) over seat 2 winning (0).
    # After B, seat 1 prefers winning with seat 2 (1/2) over a three-way share (1/3).
    # So A gives seat 0 one half and B gives it nothing; a search that treated the other
    # seats as one opponent minimising seat 0 would see 0 on both sides.
    tree = ("move", 0, {
        "A": ("move", 1, {"a1": end(0, 1), "a2": end(2)}),
        "B": ("move", 1, {"b1": end(1, 2), "b2": ("move", 2, {"x": end(0, 1, 2), "y": end(0)})}),
    })
    assert best_exact(tree, 3) == "A"
    assert exact_values(tree, 3) == (Fraction(1, 2), Fraction(1, 2), Fraction(0))
    search = MCTS(iterations=2000)
    root = search.search(Tree(tree, 3), random.Random(11))
    assert search.best_move(root) == "A"
    assert root.children["A"].mean() == pytest.approx(0.5, abs=0.05)
    assert search.best_move(root.children["B"]) == "b1"


def random_tree(rng: random.Random, depth: int, players: int, seat: int = 0):
    if depth == 0:  # any non-empty set of winners
        mask = rng.randrange(1, 2 ** players)
        return end(*(s for s in range(players) if mask >> s & 1))
    if rng.random() < 0.3:
        return ("chance", {k: (rng.randint(1, 4), random_tree(rng, depth - 1, players, seat)) for k in range(2)})
    return ("move", seat, {m: random_tree(rng, depth - 1, players, (seat + 1) % players)
                           for m in range(rng.randint(2, 3))})


def test_mcts_agrees_with_expectimax_on_random_trees():
    agreed = 0
    tried = 0
    for seed in range(200):
        rng = random.Random(seed)
        players = 2 + seed % 2
        tree = ("move", 0, {m: random_tree(rng, 3, players, 1 % players) for m in range(3)})
        try:
            values = {m: exact_values(child, players)[0] for m, child in tree[2].items()}
        except AssertionError:
            continue  # ties somewhere: max-n has no single answer
        ranked = sorted(values.values())
        if ranked[-1] - ranked[-2] < Fraction(1, 5):
            continue
        tried += 1
        search = MCTS(iterations=1500)
        move = search.best_move(search.search(Tree(tree, players), random.Random(seed)))
        agreed += move == max(values, key=values.get)
        if tried == 25:
            break
    assert tried == 25
    assert agreed == tried


def test_search_is_a_function_of_the_rng():
    def summary(seed):
        search = MCTS(iterations=500)
        root = search.search(Nim(11), random.Random(seed))
        return [(m, c.visits, c.value) for m, c in root.children.items()]
    assert summary(5) == summary(5)
    assert summary(5) != summary(6)


class CountingAgent(Agent):
    def __init__(self):
        self.calls = 0

    def choose(self, state, rng):
        self.calls += 1
        return state.legal_moves()[0]


def test_rollouts_use_the_given_agent_and_leave_the_state_alone():
    rollout = CountingAgent()
    state = Nim(20)
    MCTS(iterations=50, rollout=rollout).search(state, random.Random(1))
    assert rollout.calls > 50
    assert state.left == 20 and state.to_move == 0


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError):
        MCTS(iterations=0)
    with pytest.raises(ValueError):
        MCTS(iterations=10, exploration=-1)
    with pytest.raises(ValueError):
        MCTS(iterations=10).search(Nim(0), random.Random(1))


def test_truncated_rollouts_back_up_the_evaluation():
    """With rollouts cut at 0 plies, a leaf's value is the evaluation: an oracle that knows Nim
    (the player to move wins unless the pile is a multiple of 4) makes the search exact quickly."""
    def oracle(state):
        mover_wins = nim_wins(state.left, state.most)
        return (1.0, 0.0) if mover_wins == (state.to_move == 0) else (0.0, 1.0)

    rollout = CountingAgent()
    search = MCTS(iterations=60, rollout=rollout, rollout_plies=0, evaluate=oracle)
    root = search.search(Nim(13), random.Random(2))
    assert rollout.calls == 0 and search.best_move(root) == 1  # leave 12, a multiple of 4
    with pytest.raises(ValueError):
        MCTS(iterations=10, rollout_plies=3)  # a limit without an evaluation


def test_candidates_narrow_the_moves_a_node_tries():
    search = MCTS(iterations=80, candidates=lambda state: [m for m in state.legal_moves() if m != 1] or [1])
    root = search.search(Nim(13), random.Random(3))
    assert set(root.children) == {2, 3}
