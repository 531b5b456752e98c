#!/usr/bin/env bash
# Bummerl's two entry points on a fresh machine (README quick start):
#   ./run.sh start  set up and start Bummerl: the web app on 127.0.0.1 (SQLite in the user's data folder)
#   ./run.sh play   set up and play in the terminal instead
#   ./run.sh test   set up and run every check: the browser app's (ESLint, Prettier, node --test), ruff (lint and
#                   format), mypy --strict, the import contract (lint-imports, pyproject.toml), pytest (browser
#                   tests too, in two workers); `./run.sh test PYTEST-ARGS` runs only those tests, in one process
# Everything Python is installed into .venv next to this script, with the extras the command needs (start: the web
# app's; play: none; test: every extra); a second run reuses it.
# The browser tests drive Debian's Chromium (/usr/bin/chromium) and the PostgreSQL tests start a throwaway cluster
# of Debian's postgresql, the JavaScript checks need node and npm: `test` installs what is missing of Debian's
# chromium, postgresql, nodejs and npm with apt-get when we are root (as in CI).
# Playwright's own browser download is never used.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
VENV=.venv

# The extras each command needs (pyproject.toml): `play` the engine alone, `start` the web app, `test` all of them.
SERVE_EXTRAS="web"
TEST_EXTRAS="dev web browser postgres openspiel pettingzoo ray tournament"

# setup [force] EXTRA...: install Bummerl with these extras into .venv, once. The stamp file names the extras
# installed so far: a command that needs one more (`test` after `start`) installs it, and every install keeps what
# was there, so `start` after `test` installs nothing.
setup() {
  local force=""
  if [ "${1:-}" = force ]; then
    force=1
    shift
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
  fi
  # Re-install when the build's inputs changed since the last setup: pyproject.toml, setup.py and the C cores.
  local stamp="$VENV/.bummerl-installed"
  local have="" changed="" missing="" extra
  if [ -f "$stamp" ]; then
    have=$(cat "$stamp")
    changed=$(find pyproject.toml setup.py src/bummerl \( -name '*.c' -o -name '*.toml' -o -name setup.py \) \
      -newer "$stamp" 2>/dev/null | head -1 || true)
  fi
  for extra in "$@"; do
    case " $have " in *" $extra "*) ;; *) missing="$missing $extra" ;; esac
  done
  if [ ! -f "$stamp" ] || [ -n "$changed$missing$force" ]; then
    local want
    # shellcheck disable=SC2086  # the lists are words
    want=$(printf '%s\n' $have "$@" | sort -u | tr '\n' ' ' | sed 's/ *$//')
    echo "== installing Bummerl into $VENV${want:+ with: $want}"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e ".${want:+[${want// /,}]}"
    echo "$want" >"$stamp"
  fi
}

cmd=${1:-start}
shift || true
case "$cmd" in
  start)
    extras=$SERVE_EXTRAS
    # PostgreSQL (a --database-url or BUMMERL_DATABASE_URL that names it) needs its driver too.
    case " $* ${BUMMERL_DATABASE_URL:-}" in *postgres*) extras="$extras postgres" ;; esac
    # shellcheck disable=SC2086
    setup $extras
    exec "$VENV/bin/bummerl" serve "$@"
    ;;
  play)
    # The terminal game imports nothing outside the standard library.
    setup
    exec "$VENV/bin/bummerl" play "$@"
    ;;
  test)
    # shellcheck disable=SC2086
    setup $TEST_EXTRAS
    # System packages the tests use: Debian's chromium (browser tests) and PostgreSQL (a throwaway cluster for
    # the PostgreSQL storage tests). Installed only when missing and when we may (root with apt-get).
    need=""
    [ -x /usr/bin/chromium ] || need="$need chromium"
    command -v npm >/dev/null || need="$need nodejs npm"
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
    if [ -n "$need" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "== installing Debian packages:$need"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    fi
    # The browser app's checks (package.json): ESLint, Prettier and node's test runner, from the lockfile.
    command -v npm >/dev/null || { echo "./run.sh test needs node and npm (Debian: nodejs npm)" >&2; exit 1; }
    [ package-lock.json -ot node_modules/.package-lock.json ] || npm ci --no-audit --no-fund
    echo "== eslint"; npm run --silent lint
    echo "== prettier"; npm run --silent format:check
    echo "== node --test"; npm test --silent
    echo "== ruff"; "$VENV/bin/ruff" check src tests bench examples conftest.py
    echo "== ruff format"; "$VENV/bin/ruff" format --check src tests bench examples conftest.py
    echo "== mypy --strict"; "$VENV/bin/mypy"
    echo "== import contract"; "$VENV/bin/lint-imports"
    if [ $# -gt 0 ]; then
      echo "== pytest $*"; exec "$VENV/bin/python" -m pytest "$@"
    fi
    # The whole suite in two workers (pytest-xdist, a test file per worker: its fixtures start once), in two runs:
    # a worker that has driven Playwright's sync API keeps an event loop that breaks later asyncio.run() tests, so
    # the browser tests run last and apart (as a single run orders them anyway: tests/browser sorts last).
    workers=${BUMMERL_TEST_WORKERS:-2}
    # Both parts run, whatever the first gives: one CI run reports every failure.
    rc=0
    echo "== pytest (all but the browser, $workers workers)"
    "$VENV/bin/python" -m pytest -n "$workers" --dist loadfile --ignore=tests/browser || rc=$?
    echo "== pytest (browser, $workers workers)"
    "$VENV/bin/python" -m pytest -n "$workers" --dist loadfile tests/browser || rc=$?
    exit "$rc"
    ;;
  setup)
    # shellcheck disable=SC2086
    setup force $TEST_EXTRAS
    ;;
  *)
    echo "usage: ./run.sh start|play|test|setup [args]" >&2
    exit 2
    ;;
esac
