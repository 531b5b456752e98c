"""The ``ray`` backend (issue 14) against a local Ray started by this module: the same reports as ``process`` for
the same seed, results as tasks finish with a bounded number in flight, task errors as raised in the worker,
``--backend``/``--address`` on the command line, and the error without the extra.

One local Ray with two CPUs serves the whole module (starting one takes seconds).  While it runs, the
``process`` side of each comparison uses one job, in this process: forking a process that holds Ray's threads
is not safe, and ``tests/test_arena.py::test_results_do_not_depend_on_jobs`` already holds one job equal to two.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="needs the 'ray' extra: pip install -e '.[ray]'")

from bummerl.arena import ArenaConfig, make_backend, run_arena  # noqa: E402
from bummerl.arena.backends import MissingExtraError  # noqa: E402
from bummerl.arena.ray_backend import RAY_MISSING, RayBackend, in_flight_limit  # noqa: E402
from bummerl.cli import main  # noqa: E402
from bummerl.tournament import TournamentConfig, run_tournament  # noqa: E402

#: What differs between two runs of the same configuration: the wall times and the workers.
TIMING = {"seconds", "jobs"}


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """The report minus wall times and the number of workers: what must not depend on the backend."""
    out = {k: v for k, v in report.items() if k not in TIMING}
    for side in ("a", "b"):
        out[side] = {k: v for k, v in report[side].items() if not k.startswith("move_seconds")}
    return out


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayBackend]:
    """A local Ray with two CPUs, started by a :class:`RayBackend` (``address=None``) and stopped by it."""
    # Ray sets RAY_AUTH_MODE for the cluster it starts: put both back for the modules after this one.
    before = {key: os.environ.get(key) for key in ("RAY_USAGE_STATS_ENABLED", "RAY_AUTH_MODE")}
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # no usage report leaves this machine
    backend = RayBackend(jobs=2)
    try:
        yield backend
    finally:
        backend.close()
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    assert not ray.is_initialized(), "the backend that started Ray must stop it"


def test_a_backend_started_without_address_runs_a_local_ray(cluster: RayBackend) -> None:
    """``address=None``: this backend started Ray, with ``jobs`` CPUs, and plans for them."""
    assert cluster.started and ray.is_initialized()
    assert cluster.jobs == 2 == cluster.cluster_cpus()


@pytest.mark.parametrize(
    ("variant", "unit", "deals"),
    [("schnapsen", "game", 30), ("schnorps", "bummerl", 6), ("dreierschnapsen", "game", 4)],
)
def test_ray_report_equals_process_report(cluster: RayBackend, variant: str, unit: str, deals: int) -> None:
    """Issue 14: "the same results for the same seed on either backend": every key of the report and every game
    of the log, timings aside."""
    config = ArenaConfig(variant, "heuristic", "random", deals=deals, seed=7, unit=unit)
    on_ray = run_arena(config, game_log=True, backend=cluster)
    with make_backend("process", jobs=1) as process:
        in_process = run_arena(config, game_log=True, backend=process)
    assert on_ray["jobs"] == 2
    assert len(on_ray["game_log"]) == on_ray["games"] > 0
    assert without_timing(on_ray) == without_timing(in_process)


def test_results_come_as_they_finish_with_few_tasks_in_flight(cluster: RayBackend) -> None:
    """Every item once, with its index; never more than ``in_flight_limit(jobs)`` tasks submitted and not yet
    collected, however many items there are."""
    submitted: list[int] = []
    remote = cluster._remote

    class Counting:
        def remote(self, *args: Any) -> Any:
            submitted.append(1)
            return remote.remote(*args)

    cluster._remote = Counting()
    try:
        items = list(range(-40, 0))
        results = []
        for collected, pair in enumerate(cluster.imap_unordered(abs, items), start=1):
            assert len(submitted) - collected < in_flight_limit(cluster.jobs)
            results.append(pair)
    finally:
        cluster._remote = remote
    assert len(submitted) == len(items)
    assert sorted(results) == [(i, abs(x)) for i, x in enumerate(items)]
    assert in_flight_limit(cluster.jobs) == 4 < len(items)


def test_a_failing_task_raises_what_the_worker_raised(cluster: RayBackend) -> None:
    """The task's exception, its type and message, as the process backend raises it; the backend stays usable."""
    with make_backend("process", jobs=1) as process, pytest.raises(TypeError) as locally:
        list(process.imap_unordered(abs, [1, "x"]))
    with pytest.raises(TypeError) as remotely:
        list(cluster.imap_unordered(abs, [1, "x", 2]))
    assert str(remotely.value) == str(locally.value) == "bad operand type for abs(): 'str'"
    assert sorted(cluster.imap_unordered(abs, [-1, -2])) == [(0, 1), (1, 2)]


def test_stopping_early_leaves_the_backend_usable(cluster: RayBackend) -> None:
    """A caller that stops reading (the tournament interrupted) cancels the rest; the next map runs normally."""
    results = cluster.imap_unordered(abs, list(range(-30, 0)))
    first = next(results)
    results.close()
    assert first[1] == abs(range(-30, 0)[first[0]])
    assert sorted(cluster.imap_unordered(abs, [-5, 5])) == [(0, 5), (1, 5)]


def test_a_running_ray_is_used_and_left_running(cluster: RayBackend) -> None:
    """Ray initialised already (here by the module's backend): used as it is, jobs from its CPUs unless given,
    and not shut down by a backend that did not start it."""
    with make_backend("ray") as found:
        assert isinstance(found, RayBackend) and not found.started
        assert found.jobs == 2
        assert sorted(found.imap_unordered(abs, [-3])) == [(0, 3)]
    assert ray.is_initialized()
    with make_backend("ray", jobs=5) as planned:
        assert planned.jobs == 5 and in_flight_limit(planned.jobs) == 10
    assert ray.is_initialized()


ARENA = ["arena", "--variant", "bauernschnapsen", "--a", "heuristic", "--b", "random", "--deals", "4", "--seed", "3"]


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main([*ARENA, *argv, "--json", "--game-log"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_cli_ray_json_equals_process_json(cluster: RayBackend, capsys: pytest.CaptureFixture[str]) -> None:
    """``bummerl arena --backend ray ... --json`` prints the JSON of ``--backend process``, timings aside."""
    on_ray = _cli_json(capsys, "--backend", "ray")
    in_process = _cli_json(capsys, "--backend", "process", "--jobs", "1")
    assert on_ray["jobs"] == 2 and len(on_ray["game_log"]) == 8
    assert without_timing(on_ray) == without_timing(in_process)
    assert ray.is_initialized()


def test_cli_address_joins_a_running_cluster(cluster: RayBackend, capsys: pytest.CaptureFixture[str]) -> None:
    """``--address HOST:PORT`` from another process joins the module's cluster, plays the same games, and
    leaves the cluster running for others."""
    address = ray.get_runtime_context().gcs_address
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    # A local Ray authenticates with a token by default; a driver given an address sends it only when told to.
    env.setdefault("RAY_AUTH_MODE", "token")
    argv = [*ARENA, "--backend", "ray", "--address", address, "--json", "--game-log"]
    done = subprocess.run(
        [sys.executable, "-m", "bummerl", *argv], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    joined = json.loads(done.stdout)
    assert joined["jobs"] == 2  # the cluster's CPUs
    assert without_timing(joined) == without_timing(_cli_json(capsys, "--jobs", "1"))
    assert sorted(cluster.imap_unordered(abs, [-7])) == [(0, 7)]  # still running


def test_cli_address_is_for_ray_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARENA, "--address", "127.0.0.1:6379"]) == 2
    assert capsys.readouterr().err == "bummerl arena: error: --address is for the ray backend only\n"


def test_without_the_extra_the_cli_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No Ray installed (``import ray`` fails): exit status 2 and the ``pip install``, not a traceback."""
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'bummerl\[ray\]'") as missing:
        make_backend("ray")
    assert isinstance(missing.value, ImportError)
    assert main([*ARENA, "--backend", "ray"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"bummerl arena: error: {RAY_MISSING}\n" and captured.out == ""


def test_a_cluster_that_cannot_be_reached_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ray's ``ConnectionError`` (no cluster at ``auto``, a refused address) names the address; the CLI exits 1.
    (A real unreachable host makes Ray retry for minutes, so Ray's side is simulated here.)"""
    calls: list[dict[str, Any]] = []

    def refuse(**kwargs: Any) -> None:
        calls.append(kwargs)
        raise ConnectionError("Could not find any running Ray instance.")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with pytest.raises(ConnectionError, match=r"cannot reach the Ray cluster at 'auto': Could not find") as refused:
        make_backend("ray", address="auto")
    assert "needs RAY_AUTH_MODE=token" in str(refused.value)
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    with pytest.raises(ConnectionError) as refused:
        make_backend("ray", address="auto")
    assert "RAY_AUTH_MODE" not in str(refused.value)
    assert calls[0]["address"] == "auto" and calls[0]["num_cpus"] is None  # a cluster's CPUs are its own
    assert main([*ARENA, "--backend", "ray", "--address", "10.0.0.5:6379"]) == 1
    assert "cannot reach the Ray cluster at '10.0.0.5:6379'" in capsys.readouterr().err


def test_a_closed_backend_does_not_start_another_ray(cluster: RayBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray gone (closed, or shut down by its owner): an error, not a new local Ray started by ``ray.put``."""
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(RuntimeError, match="the ray backend is closed"):
        next(cluster.imap_unordered(abs, [-1]))


def test_a_local_ray_gets_the_jobs_as_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """``address=None`` starts a new local Ray (``"local"``: never a cluster found by chance) with ``jobs`` CPUs."""
    calls: list[dict[str, Any]] = []

    def record(**kwargs: Any) -> None:
        calls.append(kwargs)
        raise ConnectionError("recorded")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", record)
    with pytest.raises(ConnectionError):
        make_backend("ray", jobs=3)
    assert calls[0]["address"] == "local" and calls[0]["num_cpus"] == 3
    assert calls[0]["include_dashboard"] is False and calls[0]["log_to_driver"] is False


def test_a_tournament_on_ray_equals_one_in_processes(cluster: RayBackend, tmp_path: Path) -> None:
    """Issue 14: the same results for the same seed on either backend, for ``tournament`` as for ``arena``:
    the same pairings, standings, ratings and records (a knock-out, whose later rounds depend on results)."""
    config = TournamentConfig("knock-out", "schnapsen", ["random", "heuristic", "easy"], games=2, seed=5)
    reports, records = [], []
    for name, backend in (("ray", cluster), ("process", make_backend("process", jobs=2))):
        out = tmp_path / name
        report = run_tournament(config, out, backend=backend, plot=False)
        # Where and how it ran (the folder, the backend, its workers, the wall time) is all that may differ.
        reports.append({k: v for k, v in report.items() if k not in {"out", "run"}})
        records.append(
            {p.relative_to(out).as_posix(): p.read_text() for p in (out / "records").rglob("*") if p.is_file()}
        )
    assert reports[0] == reports[1]
    assert records[0] == records[1] and records[0]
