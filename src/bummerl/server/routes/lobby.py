"""What can be played: every variant with its seats, options and bots, and the bots.

``GET /api/variants`` is the one list the lobby reads, for all six variants
(the families of :data:`~bummerl.server.families.FAMILIES` describe their
own: :meth:`~bummerl.server.rooms.Family.variant_json`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from bummerl.bots import bot_info, bot_names, bot_titles
from bummerl.server.config import ServerConfig
from bummerl.server.families import FAMILIES
from bummerl.server.routes.deps import PartsDep, rate_limited

__all__ = ["router", "variants_json"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


def variants_json(config: ServerConfig) -> list[dict[str, Any]]:
    """Every variant, two-player ones first, for the lobby's one form (docs/web.md ``GET /api/variants``).

    >>> data = variants_json(ServerConfig())
    >>> [(v["name"], v["players"], v["kind"]) for v in data][::3]
    [('schnapsen', 2, 'two_player'), ('schnorps', 2, 'two_player')]
    >>> [v["name"] for v in data if v["players"] > 2], data[-1]["default_bot"] in data[-1]["bots"]
    (['bauernschnapsen', 'dreierschnapsen'], True)
    """
    return [family.variant_json(v, config) for family in FAMILIES for v in family.variants()]


@router.get("/variants")
async def get_variants(p: PartsDep) -> list[dict[str, Any]]:
    return variants_json(p.config)


@router.get("/bots")
async def get_bots(p: PartsDep) -> dict[str, Any]:
    variants = [v for family in FAMILIES for v in family.variants()]
    return {
        "default": p.config.default_bot,
        "bots": [
            {
                "name": n,
                "description": bot_info(n).description,
                "titles": bot_titles(n),
                "variants": [v.name for v in variants if n in bot_names(v)],
            }
            for n in bot_names()
        ],
    }
