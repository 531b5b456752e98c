"""Phrases at a table (bummerl.server.phrases; docs/web.md "Phrases", docs/security.md, issue 24).

No free text: a seat sends the id of a fixed phrase or emote, every seat and
spectator gets it; an unknown id, a spectator and a sender over the rate get an
``error`` that nobody else sees.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from bummerl.server.app import create_app
from bummerl.server.config import STATIC_DIR, ServerConfig
from bummerl.server.phrases import BURST, EMOTES, EVERY, PHRASES, PhraseBucket
from test_server_clock import Sockets, friend_table, seated
from test_server_ws import drain

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def phrases_in(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "phrase"]


@pytest.fixture
def table(client: TestClient) -> Iterator[Sockets]:
    """Anna (seat 0) and Bert (seat 1) at a friend table, and a spectator."""
    made, friend = friend_table(client)
    with seated(client, made, friend) as (sockets, _states):
        for ws in sockets:
            drain(ws)
        yield sockets


def test_a_phrase_reaches_every_seat_and_spectator(
    table: Sockets,
) -> None:
    anna, bert, watcher = table
    anna.send_json({"type": "phrase", "id": "servus"})
    bert.send_json({"type": "phrase", "id": "clap"})
    expected_anna = {"type": "phrase", "seat": 0, "id": "servus"}
    expected_bert = {"type": "phrase", "seat": 1, "id": "clap", "emote": EMOTES["clap"]}
    for ws in (anna, bert, watcher):
        got = phrases_in(drain(ws))
        assert expected_anna in got and expected_bert in got and len(got) == 2


def test_an_unknown_phrase_is_refused_to_its_sender_only(
    table: Sockets,
) -> None:
    anna, bert, watcher = table
    anna.send_json({"type": "phrase", "id": "Du Trottel!"})
    (error,) = drain(anna)
    assert error["type"] == "error" and error["code"] == "unknown_phrase" and "servus" in error["message"]
    anna.send_json({"type": "phrase", "id": "x" * 33})  # longer than any id: refused as a bad message
    (error,) = drain(anna)
    assert error["code"] == "bad_message"
    assert drain(bert) == [] and drain(watcher) == []


def test_a_spectator_cannot_talk(
    table: Sockets,
) -> None:
    anna, bert, watcher = table
    watcher.send_json({"type": "phrase", "id": "servus"})
    (error,) = drain(watcher)
    assert error["code"] == "spectator"
    assert drain(anna) == [] and drain(bert) == []


def test_a_flood_is_cut_at_the_burst_and_costs_only_the_sender(
    table: Sockets,
) -> None:
    anna, bert, watcher = table
    for _ in range(BURST + 5):
        anna.send_json({"type": "phrase", "id": "bravo"})
    mine = drain(anna)
    assert len(phrases_in(mine)) == BURST
    errors = [m for m in mine if m["type"] == "error"]
    assert len(errors) == 5 and all(e["code"] == "phrase_rate" for e in errors)
    assert f"at most {BURST} phrases at once, then one every {EVERY:.0f} s" in errors[0]["message"]
    assert len(phrases_in(drain(bert))) == BURST and len(phrases_in(drain(watcher))) == BURST
    # Bert's own phrases are not held up by Anna's flood.
    bert.send_json({"type": "phrase", "id": "oops"})
    assert phrases_in(drain(watcher)) == [{"type": "phrase", "seat": 1, "id": "oops"}]


def test_the_bucket_gives_one_phrase_every_few_seconds_after_the_burst() -> None:
    now = [0.0]
    bucket = PhraseBucket(lambda: now[0])
    assert [bucket.take() for _ in range(BURST)] == [0.0] * BURST
    assert bucket.take() == pytest.approx(EVERY)
    now[0] += EVERY / 2
    assert bucket.take() == pytest.approx(EVERY / 2)
    now[0] += EVERY / 2
    assert bucket.take() == 0.0 and bucket.take() == pytest.approx(EVERY)
    now[0] += 100 * EVERY  # a long silence gives the burst back, no more
    assert [bucket.take() for _ in range(BURST + 1)][-1] == pytest.approx(EVERY)


def test_every_phrase_has_its_words_in_both_languages() -> None:
    for lang in ("de", "en"):
        words = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [p for p in [*PHRASES, *EMOTES] if not words.get(f"phrase.{p}")]
        assert missing == [], f"{lang}.json lacks {missing}"
