"""The process backend (:mod:`bummerl.arena.backends`): what the ray tests in test_backends.py leave out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from bummerl.arena.backends import ProcessBackend, make_backend


def test_results_come_with_their_index_whatever_the_order() -> None:
    with ProcessBackend(2) as backend:
        got = list(backend.imap_unordered(abs, [-5, 3, -1, 0]))
    assert sorted(got) == [(0, 5), (1, 3), (2, 1), (3, 0)]
    with make_backend("process", jobs=1) as serial:
        assert list(serial.imap_unordered(abs, [-2, 1])) == [(0, 2), (1, 1)]


def test_a_killed_run_leaves_no_worker_behind() -> None:
    """SIGKILL of a run (a crashed tournament) kills its idle pool workers too (PR_SET_PDEATHSIG).

    Without it the forked workers waited on their call queue forever, and a resumed run started more beside them.
    """
    code = (
        "import time\n"
        "from bummerl.arena.backends import ProcessBackend\n"
        "b = ProcessBackend(2)\n"
        "print(sorted(b.imap_unordered(abs, [-1, -2, -3])), flush=True)\n"
        "assert b._pool is not None\n"
        "print(' '.join(str(p) for p in b._pool._processes), flush=True)\n"
        "time.sleep(60)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert run.stdout is not None
    assert run.stdout.readline().strip() == "[(0, 1), (1, 2), (2, 3)]"
    workers = [int(pid) for pid in run.stdout.readline().split()]
    assert len(workers) == 2
    run.kill()
    run.wait()

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived the killed run"
