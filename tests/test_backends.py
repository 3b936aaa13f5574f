"""The runner's backends without Dask: the local backend, and sweeps that hand every block of
every configuration to the backend at once (tests/test_cluster.py runs the Dask backend)."""

from __future__ import annotations

from boardlab.analysis import engines
from boardlab.analysis.report.jobs import Job, play_jobs
from boardlab.analysis.runner import LocalBackend, make_match, play_block
from boardlab.analysis.store import ResultStore
from boardlab.layouts import load


class RecordingBackend(LocalBackend):
    """The local backend in this process, remembering what each `play` call was given."""

    def __init__(self):
        super().__init__(workers=1)
        self.calls = []

    def play(self, jobs, player=None):
        self.calls.append(list(jobs))
        return super().play(jobs, player)


def test_the_local_backend_plays_every_job_once():
    game = engines.make_game(load("sixbysix"), 3)
    known = engines.agent_factories("sixbysix")
    match = make_match(game, [known["greedy"], known["random"], known["greedy"]], seed=1,
                       agent_names=["greedy", "random", "greedy"])
    results = list(LocalBackend(2).play([(match, (0, 5)), (match, (5, 9))]))
    assert sorted((r.job, r.start, r.stop) for r in results) == [(0, 0, 5), (1, 5, 9)]
    for r in results:
        assert r.output == play_block(match, r.start, r.stop)


def test_a_sweep_hands_every_block_of_every_configuration_over_at_once(tmp_path):
    backend = RecordingBackend()
    jobs = [Job(load("blockd"), players, ("greedy",) * players, 70, seed=2) for players in (2, 3)]
    with ResultStore(tmp_path / "store.sqlite") as store:
        outcomes = play_jobs(jobs, store, progress=False, backend=backend)
        assert len(backend.calls) == 1 and len(backend.calls[0]) == 4  # 2 configurations x 2 blocks of 64
        assert [o.summary["games"] for o in outcomes] == [70, 70]
        again = play_jobs(jobs, store, progress=False, backend=backend)  # all stored: nothing more to play
    assert len(backend.calls) == 1 and [o.records for o in again] == [o.records for o in outcomes]
