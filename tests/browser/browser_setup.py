"""What every browser test module needs before it runs, checked in one place.

A module first skips itself without the ``web`` or ``browser`` extra (``pytest.importorskip`` with the extra's
name in the reason, so that CI, which installs every extra, fails instead: the root ``conftest.py``), then calls
:func:`require_chromium` after its imports: without Debian's Chromium at ``/usr/bin/chromium`` it is skipped
with the package to install.
"""

from __future__ import annotations

from pathlib import Path

import pytest

#: Debian's Chromium; Playwright's own browser download is never used.
CHROMIUM = Path("/usr/bin/chromium")
#: How long a locator waits (ms) in every browser context of the tests. Twice what a page ever needed alone: under
#: two test workers and other work on a 2-core machine (load average 10) a table page took over 15 s to draw.
WAIT_MS = 30000


def require_chromium() -> None:
    """Skip the calling module unless Debian's Chromium is installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            "browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
            allow_module_level=True,
        )
