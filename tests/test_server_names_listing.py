"""Issue 13 on the server: one display name per bot, the options that apply, a list of tables in play.

- "every bot has one name, the same in lobby, table, history and API, translated": the registry gives each bot
  its German and English name, and every answer that names a bot carries them (``GET /api/variants``,
  ``/api/bots``, the ``players`` of a table and of the history, the list of tables in play);
- "the house rules of Dreierschnapsen list partner options": options that do not apply to a variant are not
  offered (three players have no partner);
- ""Tables in play" fills with long-finished tables": the list shows running tables and those whose game ended
  a short while ago;
- regressions said fixed before: an unknown variant's error names the table variants too (terminal and web).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.bots import bot_info, bot_names, bot_titles
from bummerl.cli import main
from bummerl.errors import UnknownVariantError
from bummerl.server import rooms
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.variants import find_table_variant

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def play_to_the_end(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Play the table's first game to its end (always the last legal action); the last state."""
    with client.websocket_connect(table["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": table["token"]})
        ws.receive_json()
        state: dict[str, Any] = ws.receive_json()
        while state["status"] != "game_over":
            if state["your_turn"]:
                ws.send_json({"type": "action", "action": state["legal"][-1]})
            state = ws.receive_json()
    return state


# ------------------------------------------------------------------ one name per bot
def test_every_listed_bot_has_one_name_in_each_language() -> None:
    """The names the issue saw mixed up ("Strong" in the lobby, "hard" at the table, "search" untranslated)
    are one name per bot and language, and no two bots share one."""
    # The bots Bummerl ships (other test modules register bots of their own for the run, without names).
    names = [n for n in bot_names() if not bot_info(n).description.startswith("test")]
    assert {"random", "heuristic", "search", "easy", "medium", "hard", "expert"} <= set(names)
    for lang in ("de", "en"):
        titles = [bot_info(n).title(lang) for n in names]
        assert len(set(titles)) == len(titles), titles
        assert all(t and t not in names for t in titles), titles  # a real name, not the registry's id
    assert bot_titles("hard") == {"de": "Stark", "en": "Strong"}
    assert bot_titles("search")["de"] != "search"
    # A bot the registry does not know (a program, an older table's) keeps its name in both languages.
    assert bot_titles("cmd:./mybot") == {"de": "cmd:./mybot", "en": "cmd:./mybot"}


def test_the_api_names_each_bot_from_the_registry(client: TestClient) -> None:
    variants = client.get("/api/variants").json()
    for v in variants:
        assert set(v["bot_titles"]) == set(v["bots"])
        assert all(v["bot_titles"][b] == bot_titles(b) for b in v["bots"])
    bots = client.get("/api/bots").json()["bots"]
    assert all(b["titles"] == bot_titles(b["name"]) for b in bots)


def test_a_table_its_summary_and_the_history_name_bots_alike(client: TestClient) -> None:
    table = client.post("/api/tables", json={"variant": "dreierschnapsen", "seats": ["random", "search"]}).json()
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert [p["titles"] for p in summary["players"]] == [None, bot_titles("random"), bot_titles("search")]
    listed = next(t for t in client.get("/api/tables").json() if t["table_id"] == table["table_id"])
    assert listed["titles"] == [None, bot_titles("random"), bot_titles("search")]
    state = play_to_the_end(client, client.post("/api/tables", json={"opponent": "hard", "name": "Anna"}).json())
    assert [p["titles"] for p in state["players"]] == [None, {"de": "Stark", "en": "Strong"}]
    games = client.get("/api/games?finished=true").json()["games"]
    assert games and games[0]["seats"][1]["titles"] == {"de": "Stark", "en": "Strong"}
    assert games[0]["seats"][0]["titles"] is None


# ------------------------------------------------------------------ options that apply
def test_dreierschnapsen_offers_no_partner_options(client: TestClient) -> None:
    """Three players have no partner: the partner options are neither offered nor accepted."""
    by_name = {v["name"]: {o["name"] for o in v["options"]} for v in client.get("/api/variants").json()}
    partner = {"bettler_partner_plays", "gang_partner_plays"}
    assert partner <= by_name["bauernschnapsen"]
    assert not partner & by_name["dreierschnapsen"]
    assert {"raise_after_talon", "may_skip_talon"} <= by_name["dreierschnapsen"]
    assert not {"raise_after_talon", "may_skip_talon"} & by_name["bauernschnapsen"]
    with pytest.raises(UnknownVariantError, match="no option 'gang_partner_plays'"):
        find_table_variant("dreierschnapsen", gang_partner_plays=True)
    refused = client.post("/api/tables", json={"variant": "dreierschnapsen", "options": {"gang_partner_plays": True}})
    assert refused.status_code == 400 and "gang_partner_plays" in refused.json()["detail"]["message"]


# ------------------------------------------------------------------ the list of tables in play
def test_tables_in_play_leave_the_list_a_while_after_their_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
    done = client.post("/api/tables", json={"opponent": "random", "name": "Bert"}).json()
    assert play_to_the_end(client, done)["status"] == "game_over"
    newer = client.post("/api/tables", json={"opponent": "random", "name": "Cleo"}).json()
    order = [t["table_id"] for t in client.get("/api/tables").json()]
    listed = {t["table_id"]: t for t in client.get("/api/tables").json()}
    # A game that ended just now stays in view (its spectators may look at the result), after the running tables,
    # which come newest first ...
    assert listed[done["table_id"]]["status"] == "game_over"
    assert order == [newer["table_id"], running["table_id"], done["table_id"]]
    # ... but not once LISTED_AFTER_GAME seconds have passed since its last move (here: none); a running table stays.
    monkeypatch.setattr(rooms, "LISTED_AFTER_GAME", 0.0)
    shown = {t["table_id"] for t in client.get("/api/tables").json()}
    assert done["table_id"] not in shown and running["table_id"] in shown


def test_a_finished_table_loaded_again_is_not_listed(tmp_path: Path) -> None:
    """A table whose game ended before a restart is not "in play" when somebody opens its link later."""
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as first:
        done = first.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
        play_to_the_end(first, done)
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as again:
        assert again.get(f"/api/tables/{done['table_id']}").json()["status"] == "game_over"  # loaded into memory
        assert done["table_id"] not in {t["table_id"] for t in again.get("/api/tables").json()}


# ------------------------------------------------------------------ regressions said fixed before
def test_an_unknown_variant_names_the_table_variants_too(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13: "the error for an unknown variant omits the table variants" (terminal and web)."""
    assert main(["play", "--variant", "skat"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'skat'" in err and "bauernschnapsen" in err and "dreierschnapsen" in err
    answer = client.post("/api/tables", json={"variant": "skat"})
    message = answer.json()["detail"]["message"]
    assert answer.status_code == 400 and "bauernschnapsen" in message and "dreierschnapsen" in message
