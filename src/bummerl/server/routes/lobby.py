"""What can be played: the variants of both kinds with their options, and the bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bummerl.bots import bot_info, bot_names
from bummerl.server.catalog import options_json
from bummerl.server.routes.deps import PartsDep, rate_limited
from bummerl.server.table_games import table_variants_json
from bummerl.variants import VARIANTS

__all__ = ["router", "variants_json"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


def variants_json() -> list[dict[str, Any]]:
    """The two-player variants with their options, for the table form."""
    return [
        {
            "name": v.name,
            "title": v.title,
            "aliases": list(v.aliases),
            "deck_size": v.deck_size,
            "hand_size": v.hand_size,
            "match_kind": v.match_kind,
            "show_points": v.show_points,
            "options": options_json(v),
        }
        for v in VARIANTS
    ]


@router.get("/variants")
async def get_variants() -> list[dict[str, Any]]:
    return variants_json()


@router.get("/table-variants")
async def get_table_variants() -> dict[str, Any]:
    return table_variants_json()


@router.get("/bots")
async def get_bots(p: PartsDep) -> dict[str, Any]:
    bot_info("random")  # loads the built-in bot modules
    return {
        "default": p.config.default_bot,
        "bots": [{"name": n, "description": bot_info(n).description} for n in bot_names()],
    }
