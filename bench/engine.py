"""Engine benchmark: random full games per second per variant, next to a baseline.

    python bench/engine.py                     # every variant, the baseline if installed
    python bench/engine.py --variant schnapsen --seconds 2 --json
    python bench/engine.py --games 2000 --baseline

The same as ``bummerl bench``; the code lives in :mod:`bummerl.commands.bench`
so that the installed command works without this checkout.  See
``bench/README.md`` for what is measured and the latest figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from bummerl.commands.bench import main
except ImportError:  # run from a checkout without installing: use ../src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from bummerl.commands.bench import main

if __name__ == "__main__":
    sys.exit(main())
