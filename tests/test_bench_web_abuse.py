"""bench/web_abuse.py's quick-match flood runs (issue 24: "bench/web_abuse.py gains ... a quick-match flood"), in CI
with a three-second window so that it cannot rot: the flood's players ask and are seated, the two honest clients
ask together and are seated, the normal tables play meanwhile, and the server logs no traceback.  The bench's
numbers (how much the flood costs the others) are docs/security.md's, measured on a quiet machine, never here.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="needs httpx (the 'dev' extra)")

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="web_abuse binds 127.0.0.0/8 addresses (Linux)")
def test_the_quick_match_flood_runs() -> None:
    command = [sys.executable, str(ROOT / "bench" / "web_abuse.py"), "--parts", "quickmatch", "--seconds", "3"]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=240, check=True)
    result = json.loads(done.stdout)
    qm = result["quickmatch"]
    flood, honest = qm["flood"], qm["honest"]
    assert flood["players"] == 128 and flood["seated_per_s"] > 0 and "failed" not in flood
    assert honest["pairs"] >= 1 and honest["outcomes"].get("seated", 0) >= 1
    assert all(seat["turn"]["n"] > 0 for seat in qm["seats"])
    assert result["server_logs"]["quickmatch"]["tracebacks"] == 0
