"""Security review of issue 24 (LOW): a JSON body with ``NaN``, ``Infinity`` or a lone surrogate was a 500 on every
write endpoint, and each 13-byte request wrote a 6 KB traceback to the log.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``"\\ud800"``; FastAPI's answer to the invalid body echoed that
input, which strict JSON (and UTF-8) cannot carry.  Now the ``422`` leaves out what cannot be encoded
(docs/security.md, "Bodies that cannot be echoed").
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import logging
import warnings
from collections.abc import Iterator

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note on httpx in its test client
    from fastapi.testclient import TestClient

from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig

#: The three bodies of the review, and the same values where a field of every endpoint expects them.
BODIES = [
    b'{"name": NaN}',
    b'{"name": Infinity}',
    b'{"name": "\\ud800"}',
    b"NaN",
    b'{"name": -Infinity, "code": NaN, "opponent": NaN, "variant": "\\udfff", "bot": NaN, "token": NaN}',
]

CONFIG = ServerConfig(
    bot_executor="thread",
    analysis_executor="thread",
    api_rate="100000/second",
    create_rate="100000/second",
    join_rate="100000/second",
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app("sqlite://", config=CONFIG)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def _write_endpoints() -> list[tuple[str, str]]:
    """Every route that reads a JSON body: (method, path with its parameters filled in)."""
    schema = create_app("sqlite://", config=CONFIG).openapi()
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                # Any id: the body is read before the id is looked up.
                found.append((method.upper(), path.replace("{", "").replace("}", "")))
    return found


ENDPOINTS = _write_endpoints()


def test_the_review_s_endpoints_are_all_covered() -> None:
    paths = {p for _, p in ENDPOINTS}
    assert {"/api/players", "/api/tables", "/api/join", "/api/tournaments", "/api/players/me"} <= paths
    assert ("PATCH", "/api/players/me") in ENDPOINTS


@pytest.mark.parametrize("body", BODIES, ids=lambda b: b.decode()[:24])
@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_a_body_json_cannot_carry_back_is_a_422_without_a_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture, method: str, path: str, body: bytes
) -> None:
    key = client.post("/api/players", json={"name": "Anna"}).json()["key"]  # PATCH /api/players/me needs a player
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        response = client.request(
            method,
            path,
            content=body,
            headers={"content-type": "application/json", "authorization": f"Bearer {key}"},
        )
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]  # strict JSON: the client reads it with JSON.parse
    assert isinstance(detail, list) and detail
    assert all({"loc", "msg", "type"} <= set(error) for error in detail)
    assert "NaN" not in response.text and "Infinity" not in response.text
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
