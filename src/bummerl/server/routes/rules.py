"""The rules page of a variant: ``GET /api/rules/{variant}``, the data behind the page ``#/rules/<variant>``.

The content is :func:`bummerl.rules_pages.rules_page`: short sections in German or
English whose every number is a value of the engine, with the options of a table
applied.  The options come from ``options`` (a JSON object, as ``POST /api/tables``
takes them) or from a live ``table``'s own; ``lang`` is ``de`` or ``en``, ``faces``
``german`` or ``french`` (the card names in the text).

>>> from fastapi.testclient import TestClient
>>> from bummerl.server.app import create_app
>>> from bummerl.server.config import ServerConfig
>>> with TestClient(create_app("sqlite://", config=ServerConfig(bot_executor="thread"))) as client:
...     page = client.get("/api/rules/schnorps", params={"lang": "en", "options": '{"marriages": false}'}).json()
...     wrong = client.get("/api/rules/skat")
>>> page["options"], [s["text"] for s in page["sections"] if s["id"] == "marriages"]
({'marriages': False}, [['House rule: no marriages.']])
>>> wrong.status_code, wrong.json()["detail"]["code"]
(404, 'unknown_variant')

Errors are ``{"detail": {"code", "message"}}`` (docs/web.md): ``404 unknown_variant``,
``404 unknown_table``, ``400 bad_options``, ``400 bad_lang``, ``400 bad_faces``,
``400 wrong_variant`` (a table of another variant).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from bummerl.errors import UnknownVariantError
from bummerl.rules_pages import LANGS, rules_page
from bummerl.server.routes.deps import PartsDep, error, rate_limited
from bummerl.server.routes.tables import summary
from bummerl.variants import find_variant

__all__ = ["router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])

#: At most this many options in one request (the largest variant has 16).
MAX_OPTIONS = 32


def _options(text: str | None) -> dict[str, Any]:
    """The ``options`` parameter: a JSON object of names to true/false, numbers or short words."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested deeper than the parser goes
        raise error(400, "bad_options", 'options must be a JSON object, e.g. {"auto_declare": true}') from None
    if not isinstance(data, dict) or len(data) > MAX_OPTIONS:
        raise error(400, "bad_options", f"options must be a JSON object of at most {MAX_OPTIONS} options")
    for key, value in data.items():
        if not isinstance(value, bool | int | str) or (isinstance(value, str) and len(value) > 40):
            raise error(400, "bad_options", f"option {key[:40]!r} must be true, false, a number or a short word")
    return data


@router.get("/rules/{variant}")
async def get_rules(
    p: PartsDep,
    variant: Annotated[str, Path(max_length=40)],
    lang: Annotated[str, Query(max_length=8)] = "de",
    faces: Annotated[str, Query(max_length=16)] = "german",
    options: Annotated[str | None, Query(max_length=2000)] = None,
    table: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    """The rules page of ``variant`` with ``options`` or the options of ``table`` applied."""
    if lang not in LANGS:
        raise error(400, "bad_lang", f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    if faces not in ("german", "french"):
        raise error(400, "bad_faces", f"faces must be german or french, not {faces!r}")
    try:
        base = find_variant(variant)
    except UnknownVariantError as exc:
        raise error(404, "unknown_variant", str(exc)) from None
    if not base.for_players:  # a research variant (mini8, ...): no rules page for players
        raise error(404, "unknown_variant", f"{base.title} is a research variant, not played here")
    chosen = _options(options)
    if table is not None:
        if chosen:
            raise error(400, "bad_options", "give the options or a table, not both: a table has its own")
        found = await summary(p, table)
        if found["variant"] != base.name:
            raise error(400, "wrong_variant", f"table {table!r} plays {found['variant']}, not {base.name}")
        chosen = dict(found.get("options") or {})
    try:
        played = base.with_options(**chosen)
    except UnknownVariantError as exc:
        raise error(400, "bad_options", str(exc)) from None
    return rules_page(played, lang, faces)
