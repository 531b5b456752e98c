"""One game loop for every variant: each bot sees its seat's view, a failing bot forfeits, decisions are timed.

:func:`play_game` plays any :class:`~bummerl.game.Game` to its end with one
bot per seat.  A bot that fails forfeits that game only (docs/protocol.md,
Timeouts and failures): a ``cmd:`` bot that cannot start, crashes, answers
late, writes garbage or an illegal action (the :class:`~bummerl.protocol.BotFault`
names the kind), a built-in bot that raises (``error``) or returns an action
that is not legal (``illegal``).  The result is then the forfeit's
(:mod:`bummerl.arena.families`); the game itself is left as it stood, so a
record of it shows where it stopped.

>>> from bummerl.bots import make_bot
>>> from bummerl.game import Game
>>> game = Game.deal("dreierschnapsen", seed=4)
>>> players = [Player("random", make_bot("random", s, game.variant), []) for s in range(3)]
>>> outcome = play_game(game, players)
>>> outcome.fault is None and outcome.result is game.result, len(players[0].times) > 0
(True, True)

:class:`BotPool` keeps a worker's ``cmd:`` bots running from game to game:
one process plays one seat at a time, so partners never share a process.

This module gives a bot ``game.view(seat)`` and nothing else: it never shows a
bot the game.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from bummerl.actions import Action
from bummerl.arena.families import Result, family_of
from bummerl.bots import Bot, bot_info, make_bot
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT, BotFault, ProcessBot, parse_command
from bummerl.record import GameRecord
from bummerl.series import bot_view
from bummerl.variants import Variant
from bummerl.view import MatchContext

__all__ = [
    "BotPool",
    "Fault",
    "Outcome",
    "Player",
    "bot_name",
    "check_bot",
    "game_record",
    "is_protocol",
    "play_game",
]


def is_protocol(spec: str) -> bool:
    """Whether ``spec`` names a program speaking the bot protocol (``cmd:<command line>``)."""
    return spec.startswith("cmd:")


def check_bot(spec: str, variant: Variant) -> None:
    """Fail early, with the registry's message, on an unknown bot, one that does not play
    ``variant``, or a ``cmd:`` command line that does not parse (the program starts later)."""
    if is_protocol(spec):
        parse_command(spec)
    else:
        bot_info(spec, variant)


def bot_name(spec: str, variant: Variant) -> str:
    """How a report names the bot: its registry name, or the ``cmd:`` spec as given."""
    return spec if is_protocol(spec) else bot_info(spec, variant).name


@dataclasses.dataclass
class Player:
    """One seat's bot: ``spec`` as the user named it; ``times`` (if given) collects its decisions' seconds."""

    spec: str
    bot: Bot
    times: list[float] | None = None


@dataclasses.dataclass(frozen=True)
class Fault:
    """A bot's failure, which forfeits the game: ``kind`` as :class:`~bummerl.protocol.BotFault` names it."""

    seat: int
    bot: str
    kind: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bot": self.bot, "kind": self.kind, "message": self.message}


class Outcome(NamedTuple):
    """How a game ended: its result (a forfeit's, if a bot failed) and the failure."""

    result: Result
    fault: Fault | None


def play_game(
    game: Game,
    players: Sequence[Player],
    seed_of: Callable[[int], int] | None = None,
    game_id: str | None = None,
    match: MatchContext | None = None,
) -> Outcome:
    """Play ``game`` to its end with ``players[seat]`` in each seat (see the module docstring).

    Bots with ``begin_game``/``end_game`` (``cmd:`` bots) are told of the game
    with ``seed_of(seat)`` for their randomness and ``game_id``, and of its end
    with the forfeit, if any.  ``match`` (a two-player game of a match) is put
    into every view a bot decides on (:func:`bummerl.view.with_match`).
    """
    fault = _begin(game, players, seed_of, game_id)
    while fault is None and not game.is_over:
        seat = game.to_move
        player = players[seat]
        view = bot_view(game, seat, match)
        times = player.times
        start = 0.0 if times is None else time.perf_counter()
        try:
            action = player.bot.choose(view)
        except BotFault as exc:
            fault = Fault(seat, player.spec, exc.kind, exc.message)
        except Exception as exc:  # any failing bot forfeits; the run goes on
            fault = Fault(seat, player.spec, "error", f"bot {player.spec} raised {type(exc).__name__}: {exc}")
        finally:
            if times is not None:
                times.append(time.perf_counter() - start)
        if fault is not None:
            break
        if isinstance(action, Action):
            try:
                game.apply(action)
                continue
            except IllegalActionError:
                pass  # refused without a change: the bot forfeits below
        fault = _illegal(game, seat, player.spec, action)
    result = game.result if fault is None else family_of(game.variant).forfeit(game, fault.seat)
    assert result is not None  # the loop above ends with the game over or a fault
    forfeit = None if fault is None else fault.to_json()
    for seat, player in enumerate(players):
        end = getattr(player.bot, "end_game", None)
        if end is not None:
            with contextlib.suppress(Exception):
                end(game.view(seat), forfeit=forfeit)
    return Outcome(result, fault)


def game_record(game: Game, tags: Mapping[str, object], fault: Fault | None = None) -> str:
    """The record text (:mod:`bummerl.record`) of ``game`` as played, with ``tags``; a game that
    ``fault`` forfeited is written as far as it went, with a ``Forfeit`` tag.

    >>> from bummerl.record import GameRecord
    >>> game = Game.deal("schnapsen", seed=3)
    >>> text = game_record(game, {"Event": "Demo"}, Fault(0, "cmd:x", "crash", "bot cmd:x   exited"))
    >>> record = GameRecord.loads(text)
    >>> record.tags["Forfeit"], record.result is None
    ('seat 0 (crash): bot cmd:x exited', True)
    """
    extra = dict(tags)
    if fault is not None:
        extra["Forfeit"] = f"seat {fault.seat} ({fault.kind}): {' '.join(fault.message.split())}"
    return GameRecord.from_game(game, comments=(), **{k: str(v) for k, v in extra.items()}).dumps()


def _begin(
    game: Game, players: Sequence[Player], seed_of: Callable[[int], int] | None, game_id: str | None
) -> Fault | None:
    for seat, player in enumerate(players):
        begin = getattr(player.bot, "begin_game", None)
        if begin is None:
            continue
        try:
            begin(game.view(seat), seed=None if seed_of is None else seed_of(seat), game=game_id)
        except BotFault as exc:
            return Fault(seat, player.spec, exc.kind, exc.message)
        except Exception as exc:  # a failing bot forfeits; the run goes on
            return Fault(
                seat, player.spec, "error", f"bot {player.spec} raised {type(exc).__name__} at game start: {exc}"
            )
    return None


def _illegal(game: Game, seat: int, spec: str, action: object) -> Fault:
    legal = " ".join(a.token for a in game.legal_actions())
    shown = getattr(action, "token", repr(action))
    return Fault(seat, spec, "illegal", f"bot {spec} chose {shown!r}, which is not legal now; legal: {legal}")


class BotPool:
    """The ``cmd:`` bots of one worker, started on first use and kept running from game to game.

    ``key`` names one process: it plays one seat of one game at a time (the
    arena keys by side and by which of that side's seats, selfplay by seat).
    A process that failed is restarted by its next game.
    """

    def __init__(self, move_timeout: float = DEFAULT_MOVE_TIMEOUT) -> None:
        self.move_timeout = move_timeout
        self._bots: dict[Hashable, ProcessBot] = {}

    def bot(self, key: Hashable, spec: str) -> ProcessBot:
        """The running (or, on first use, a new) process ``key`` for the bot ``spec``."""
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = ProcessBot(spec, label=spec, move_timeout=self.move_timeout)
        return bot

    def player(self, key: Hashable, spec: str, seed: int, variant: Variant, times: list[float] | None) -> Player:
        """A seat's player: the pooled process ``key`` for a ``cmd:`` spec, else a new built-in bot."""
        bot: Bot = self.bot(key, spec) if is_protocol(spec) else make_bot(spec, seed, variant)
        return Player(spec, bot, times)

    def close(self) -> None:
        """Stop every process (``quit``, then the process group)."""
        bots, self._bots = list(self._bots.values()), {}
        for bot in bots:
            bot.close()

    def __enter__(self) -> BotPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
