"""The settings of ``bummerl serve``: flag beats environment variable beats default (docs/web.md, "Settings")."""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from bummerl.commands.serve import add_parser, edge_settings, play_settings, settings
from bummerl.server.config import ENV_PREFIX, ServeSettings, SettingError, check_settings, serve_settings


def parse(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    return parser.parse_args(["serve", *flags])


def test_defaults_without_flags_or_variables() -> None:
    assert settings(parse(), {}) == ServeSettings()


def test_every_setting_has_a_variable_and_a_flag() -> None:
    names = {f.name for f in dataclasses.fields(ServeSettings)}
    flags = set(vars(parse()))
    assert names <= flags


def test_variables_fill_every_setting() -> None:
    env = {
        "BUMMERL_HOST": "0.0.0.0",
        "BUMMERL_PORT": "9001",
        "BUMMERL_DATABASE_URL": "postgresql+psycopg://u@h/db",
        "BUMMERL_DATA_DIR": "/srv/bummerl",
        "BUMMERL_BOT_WORKERS": "3",
        "BUMMERL_ANALYSIS_LEVEL": "hard",
        "BUMMERL_BOT_DELAY": "0",
        "BUMMERL_LOG_LEVEL": "info",
        "BUMMERL_PUBLIC_URL": "https://bummerl.example",
        "BUMMERL_ALLOWED_ORIGINS": "https://a.example, https://b.example",
        "BUMMERL_CLUSTER": "false",
        "BUMMERL_LEASE_SECONDS": "5.5",
        "BUMMERL_MAX_CONNECTIONS": "200",
        "BUMMERL_MAX_CONNECTIONS_PER_CLIENT": "0",
        "BUMMERL_CLOCK_GRACE_SECONDS": "12.5",
        "BUMMERL_CLOCK_STRIKES": "2",
        "BUMMERL_QUICK_MATCH_SECONDS": "0",
        "BUMMERL_QUICK_MATCH_MAX_WAITING": "50",
        "BUMMERL_TOURNAMENT_MOVE_SECONDS": "90",
        "BUMMERL_TOURNAMENT_MAX_MOVE_SECONDS": "120",
    }
    s = settings(parse(), env)
    assert s == ServeSettings(
        host="0.0.0.0",
        port=9001,
        database_url="postgresql+psycopg://u@h/db",
        data_dir=Path("/srv/bummerl"),
        bot_workers=3,
        analysis_level="hard",
        bot_delay=0.0,
        log_level="info",
        public_url="https://bummerl.example",
        allowed_origins=("https://a.example", "https://b.example"),
        cluster=False,
        lease_seconds=5.5,
        max_connections=200,
        max_connections_per_client=0,
        clock_grace_seconds=12.5,
        clock_strikes=2,
        quick_match_seconds=0,
        quick_match_max_waiting=50,
        tournament_move_seconds=90,
        tournament_max_move_seconds=120,
    )
    assert set(env) == {ENV_PREFIX + f.name.upper() for f in dataclasses.fields(ServeSettings)}


def test_a_flag_beats_its_variable() -> None:
    env = {"BUMMERL_PORT": "9001", "BUMMERL_ALLOWED_ORIGINS": "https://a.example", "BUMMERL_CLUSTER": "yes"}
    s = settings(parse("--port", "9002", "--allowed-origin", "https://c.example", "--no-cluster"), env)
    assert (s.port, s.allowed_origins, s.cluster) == (9002, ("https://c.example",), False)


def test_an_empty_variable_of_an_optional_setting_is_none() -> None:
    assert serve_settings({}, {"BUMMERL_BOT_WORKERS": "", "BUMMERL_CLUSTER": "on"}).bot_workers is None


@pytest.mark.parametrize(
    ("var", "value", "why"),
    [
        ("BUMMERL_PORT", "eighty", "is not a whole number"),
        ("BUMMERL_BOT_DELAY", "soon", "is not a number"),
        ("BUMMERL_CLUSTER", "maybe", "is not a yes or no"),
        ("BUMMERL_MAX_CONNECTIONS", "1.5", "is not a whole number"),
    ],
)
def test_a_bad_value_names_its_variable(var: str, value: str, why: str) -> None:
    with pytest.raises(SettingError, match=f"^{var}: '{value}' {why}"):
        serve_settings({}, {var: value})


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity"])
def test_a_number_that_is_not_finite_is_refused(value: str) -> None:
    with pytest.raises(SettingError, match=f"^BUMMERL_BOT_DELAY: '{value}' is not a finite number"):
        serve_settings({}, {"BUMMERL_BOT_DELAY": value})


@pytest.mark.parametrize(
    ("var", "value", "why"),
    [
        ("BUMMERL_PORT", "70000", "is not a port"),
        ("BUMMERL_PORT", "-1", "is not a port"),
        ("BUMMERL_LOG_LEVEL", "loud", "is not a log level"),
        ("BUMMERL_QUICK_MATCH_SECONDS", "4", "is not a time per move"),
        ("BUMMERL_QUICK_MATCH_MAX_WAITING", "0", "is not a positive whole number"),
        ("BUMMERL_TOURNAMENT_MOVE_SECONDS", "0", "is not a time per move"),
        ("BUMMERL_TOURNAMENT_MAX_MOVE_SECONDS", "601", "is not a time per move"),
    ],
)
def test_a_value_outside_its_setting_is_refused(var: str, value: str, why: str) -> None:
    with pytest.raises(SettingError, match=f"^{var}: '{value}' {why}"):
        serve_settings({}, {var: value})


def test_a_log_level_is_read_in_any_case() -> None:
    assert serve_settings({}, {"BUMMERL_LOG_LEVEL": "INFO"}).log_level == "info"


def test_edge_settings_follow_the_variables() -> None:
    s = settings(parse(), {"BUMMERL_HOST": "127.0.0.1", "BUMMERL_PORT": "9003"})
    assert edge_settings(s)["public_url"] == "http://127.0.0.1:9003"


def test_serve_refuses_a_bad_variable_with_its_name(tmp_path: Path) -> None:
    env = {"BUMMERL_PORT": "eighty", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bummerl", "serve", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "BUMMERL_PORT: 'eighty' is not a whole number" in done.stderr


@pytest.mark.parametrize(
    ("flags", "why"),
    [
        (["--quick-match-seconds", "3"], "--quick-match-seconds: 3 is not a time per move"),
        (["--tournament-max-move-seconds", "9999"], "--tournament-max-move-seconds: 9999 is not a time per move"),
        (["--tournament-move-seconds", "200", "--tournament-max-move-seconds", "100"], "is more than"),
    ],
)
def test_a_flag_outside_its_bounds_is_refused(flags: list[str], why: str) -> None:
    """The flags of quick match and the tournaments' clock are held to the bounds their variables are."""
    with pytest.raises(SettingError, match=why):
        check_settings(settings(parse(*flags), {}))


def test_the_bounds_reach_the_app() -> None:
    """``bummerl serve``'s flags become the quick-match and tournament settings of the app it starts."""
    s = settings(parse("--quick-match-seconds", "0", "--tournament-move-seconds", "45"), {})
    check_settings(s)
    made = play_settings(s)
    assert (made["quickmatch"].move_seconds, made["quickmatch"].max_waiting) == (0, 1000)
    assert (made["tournaments"].move_seconds, made["tournaments"].max_move_seconds) == (45, 300)
