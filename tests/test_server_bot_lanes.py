"""The server's quick bots decide on the event loop, from the seat's view object (issue 24, the load goals).

:data:`bummerl.server.scheduler.INLINE_BOTS` (``random``, ``heuristic``) no longer go through a thread and the
view's JSON: the choice must be the one a worker makes from the JSON (a table restored after a restart plays on
as it would have), and the JSON is not even made.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import asyncio
import random
from typing import Any

from bummerl.game import Game
from bummerl.server.config import ServerConfig
from bummerl.server.scheduler import INLINE_BOTS, BotRequest, BotScheduler
from bummerl.server.workers import choose, choose_token
from bummerl.view_json import view_to_json

VARIANTS = ("schnapsen", "scharf", "66", "schnorps", "dreierschnapsen", "bauernschnapsen")


def _views(variant: str, games: int = 4) -> list[Any]:
    """Every position of a few games of ``variant``, as the seat to act sees it."""
    rng, views = random.Random(7), []
    for seed in range(games):
        game = Game.deal(variant, seed=seed)
        while not game.is_over:
            views.append(game.view(game.to_move))
            game.apply(rng.choice(game.legal_actions()))
    return views


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_quick_bot_on_the_view_chooses_what_a_worker_chooses_from_its_json(variant: str) -> None:
    for bot in sorted(INLINE_BOTS):
        for k, view in enumerate(_views(variant)):
            assert choose(bot, 1000 + k, view) == choose_token(bot, 1000 + k, view_to_json(view)), (bot, k)


def test_an_inline_bot_decides_without_a_thread_and_without_the_view_s_json() -> None:
    game = Game.deal("schnapsen", seed=3)
    view = game.view(game.to_move)

    class NoThreads:
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            raise AssertionError("a quick built-in bot went to a thread")

        def shutdown(self, *args: Any, **kwargs: Any) -> None:
            pass

    async def scenario() -> list[str]:
        bots = BotScheduler(ServerConfig(bot_executor="thread", bot_workers=1))
        bots._quick = NoThreads()  # type: ignore[assignment]
        try:
            tokens = []
            for bot in sorted(INLINE_BOTS):
                request = BotRequest("t", bot, 5, view, game.variant)
                tokens.append(await bots.decide(request))
                assert "view" not in vars(request)  # the JSON (a cached property) was never made
            return tokens
        finally:
            bots.shutdown()

    legal = [a.token for a in game.legal_actions()]
    assert all(token in legal for token in asyncio.run(scenario()))
