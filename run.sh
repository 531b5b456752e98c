#!/usr/bin/env bash
# Bummerl's two entry points on a fresh machine (README quick start):
#   ./run.sh play   set up and start Bummerl (for now: play in the terminal)
#   ./run.sh test   set up and run every check: ruff, mypy --strict, pytest
# Everything is installed into .venv next to this script; a second run reuses it.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
VENV=.venv

setup() {
  if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
  fi
  # Re-install when pyproject.toml changed since the last setup.
  local stamp="$VENV/.bummerl-installed"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "${1:-}" = force ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e ".[dev]"
    touch "$stamp"
  fi
}

cmd=${1:-play}
shift || true
case "$cmd" in
  play)
    setup
    exec "$VENV/bin/bummerl" play "$@"
    ;;
  test)
    setup
    echo "== ruff"; "$VENV/bin/ruff" check src tests bench
    echo "== mypy --strict"; "$VENV/bin/mypy"
    echo "== pytest"; exec "$VENV/bin/python" -m pytest "$@"
    ;;
  setup)
    setup force
    ;;
  *)
    echo "usage: ./run.sh play|test|setup [args]" >&2
    exit 2
    ;;
esac
