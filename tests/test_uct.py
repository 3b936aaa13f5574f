"""The compiled tree (`analysis/uct.py`) against its readable twin, `analysis/mcts.py`: the same
games, seeds and budgets grow the same tree, node for node (its move, mover, visits and summed
results, children in the same order), draw the same numbers and play the same move.

The search around the tree is written here in Python, as `MCTS._iterate` is, with the tree's
decisions (expand, select, back up, the final choice) taken by the compiled functions; the one
draw the tree makes uses the rng's own Mersenne Twister state, handed over and back."""

from __future__ import annotations

import random

import numpy as np
import pytest

from test_mcts import Nim, Tree, end

from boardlab.analysis import uct
from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.mcts import MCTS, Node


def twister(rng: random.Random) -> np.ndarray:
    return np.array(rng.getstate()[1], dtype=np.uint32)


def hand_back(rng: random.Random, mt: np.ndarray) -> None:
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(mt.tolist()), gauss))


def compiled_search(search: MCTS, state, rng: random.Random):
    """(ints, value, kids) of `search`'s budget from `state` with the compiled tree."""
    ints, value, pool, kids = uct.new_tree(search.iterations, 1, 2)  # a small pool, so that it grows
    used, count = 0, 1
    path = np.zeros(search.iterations + 1, dtype=np.int64)
    for _ in range(search.iterations):
        s = state.clone()
        node, depth = 0, 1
        while not s.is_terminal():
            player = s.current_player()
            if not uct.reached(ints, node):
                codes = np.array(list(s.legal_codes()), dtype=np.int64).reshape(-1, 1)
                pool, kids, used = uct.open_node(ints, pool, kids, used, node, codes, len(codes))
            expanding = uct.untried(ints, node)
            if expanding:
                mt = twister(rng)
                node = uct.expand(ints, pool, kids, node, count, player, mt)
                hand_back(rng, mt)
                count += 1
            else:
                node = uct.select(ints, value, kids, node, search.exploration)
            s.apply_code(int(ints[node, uct.MOVE]))
            path[depth] = node
            depth += 1
            if expanding:
                break
        returns = np.array(search._roll_out(s, rng), dtype=np.float64)
        uct.back_up(ints, value, path, depth, returns)
    return ints, value, kids


def python_tree(node: Node) -> tuple:
    return (node.move, node.mover, node.visits, node.value, [python_tree(child) for child in node.children.values()])


def compiled_tree(ints, value, kids, node: int = 0) -> tuple:
    at = ints[node, uct.AT]
    children = [compiled_tree(ints, value, kids, kids[at + i]) for i in range(ints[node, uct.CHILDREN])]
    move = None if node == 0 else int(ints[node, uct.MOVE])
    return move, int(ints[node, uct.MOVER]), int(ints[node, uct.VISITS]), float(value[node]), children


def random_tree(rng: random.Random, players: int, depth: int):
    """A game tree without chance: up to 4 moves a node, coded 0..9 in a shuffled order."""
    if depth == 0 or rng.random() < 0.2:
        return end(*sorted(rng.sample(range(players), rng.randint(0, players))))
    codes = rng.sample(range(10), rng.randint(1, 4))
    return ("move", rng.randrange(players), {code: random_tree(rng, players, depth - 1) for code in codes})


def same_search(state, seed: int, iterations: int, exploration: float = 1.4) -> None:
    search = MCTS(iterations, RandomAgent(), exploration)
    a, b = random.Random(seed), random.Random(seed)
    root = search.search(state, a)
    ints, value, kids = compiled_search(search, state, b)
    assert compiled_tree(ints, value, kids) == python_tree(root)
    assert a.getstate() == b.getstate()
    assert int(ints[uct.best(ints, value, kids), uct.MOVE]) == search.best_move(root)


@pytest.mark.parametrize("iterations", [1, 2, 7, 60, 400])
def test_the_compiled_tree_grows_as_the_python_tree_on_nim(iterations):
    for left in (1, 5, 9, 13):
        for seed in range(3):
            same_search(Nim(left, most=3), seed, iterations)


def test_the_compiled_tree_grows_as_the_python_tree_on_random_games_of_three():
    """Small trees are searched past their size: terminal nodes are selected, fully expanded ones too."""
    rng = random.Random(41)
    for case in range(30):
        game = random_tree(rng, 3, rng.randint(1, 4))
        if game[0] == "end":
            continue
        same_search(Tree(game, 3), case, rng.choice([3, 30, 150]), exploration=rng.choice([0.0, 0.7, 1.4]))
