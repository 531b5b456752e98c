"""The match of ``bummerl play``: the variant's :class:`~bummerl.series.Series`, and how the terminal tells it.

The games are dealt and scored by the series (a Bummerl from 7 down or
Schnorps' Marken, a Schnorps round of 3 or 4, the table games' match to 24),
which :class:`PlayMatch` plays for every kind alike.  Its subclasses say only
what the terminal tells differently: the goal, a game's result, the standing,
the end, and the records it saves; :func:`play_match` picks one through a table
keyed by the variant's family.

>>> from bummerl.i18n import Messages
>>> from bummerl.text import Words
>>> from bummerl.variants import find_variant
>>> match = play_match(find_variant("schnorps"), seed=3)
>>> match.goal(Words(Messages("en"), "german", match.variant, seat=0))
'Playing for Marken: the first to win 7 Marken wins.'
>>> game = match.deal_next()
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> match.complete(game)
>>> len(match.series.games), match.series.current is None
(1, True)
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from typing import Any

from bummerl.actions import Action
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.match import Match, TableMatch
from bummerl.record import GameRecord, MatchRecord, dumps
from bummerl.series import Series, bot_view
from bummerl.text import Words, menu_label, result_sentence, table_label, table_result_lines, view_lines
from bummerl.variants import GameResult, TableVariant, TwoPlayerVariant, Variant
from bummerl.variants.bauernschnapsen import TableResult
from bummerl.view import View

__all__ = ["PlayMatch", "TableGameMatch", "TwoPlayerMatch", "play_match"]

#: The ``Event`` tag of every record ``bummerl play`` writes.
EVENT = "bummerl play"


def play_match(variant: Variant, seed: int, target: int | None = None) -> PlayMatch:
    """The match of ``variant`` dealt from ``seed``; ``target`` shortens or lengthens it."""
    kind = _MATCHES.get(variant.FAMILY)
    if kind is None:  # pragma: no cover - every family has its match
        raise UnknownVariantError(f"{variant.title} has no match to play")
    return kind(variant, seed, target)


class PlayMatch(abc.ABC):
    """A match as the terminal plays it: its :attr:`series`, and the words for what differs by family."""

    def __init__(self, series: Series) -> None:
        self.series = series
        self.variant: Variant = series.variant
        self.seed = series.seed

    @property
    def is_over(self) -> bool:
        return self.series.is_over

    def deal_next(self) -> Game:
        """Deal the next game."""
        return self.series.deal_next()

    def complete(self, game: Game) -> None:
        """Score ``game``, the current game, which is over."""
        self.series.complete(game)

    def bot_view(self, game: Game, seat: int) -> View:
        """The view a bot at game seat ``seat`` decides on: the seat's view with the match context where the series
        gives one (:meth:`bummerl.match.Match.context`: the score sheet both players see), so that a bot plays for
        the match here as in the arena and at a web table.

        >>> from bummerl.variants import find_variant
        >>> m = play_match(find_variant("schnapsen"), seed=3, target=5)
        >>> m.bot_view(m.deal_next(), 1).match.needed
        (5, 5)
        """
        return bot_view(game, seat, self.series.context())

    def game_header(self, game: Game, w: Words) -> str:
        """Who deals (and plays) the game just dealt."""
        return w("game_header", n=len(self.series.games), dealer=w.whom(game.dealer))

    def view_lines(self, view: Any, w: Words) -> list[str]:
        """What lies on the table for the player of ``view`` (the menu aside)."""
        return view_lines(view, w)

    @abc.abstractmethod
    def goal(self, w: Words) -> str:
        """What wins the match, said at the start."""

    @abc.abstractmethod
    def result_lines(self, result: Any, w: Words) -> list[str]:
        """A game's result told to the player (the :class:`~bummerl.events.GameEnd` event)."""

    @abc.abstractmethod
    def standing_lines(self, w: Words) -> list[str]:
        """The score after a game."""

    @abc.abstractmethod
    def final_lines(self, w: Words) -> list[str]:
        """Who won the match, and the Bummerl."""

    @abc.abstractmethod
    def label(self, action: Action, view: Any, w: Words) -> str:
        """How the menu names an action other than playing a card."""

    @abc.abstractmethod
    def dumps(self, seats: Mapping[int, str]) -> str:
        """The records of the games so far (``seats``: who played each seat), as text."""


class TwoPlayerMatch(PlayMatch):
    """A Bummerl from 7 down (Schnapsen, scharf, Sechsundsechzig), or Schnorps for Marken."""

    def __init__(self, variant: Variant, seed: int, target: int | None = None) -> None:
        self.match = Match(TwoPlayerVariant.find(variant), seed, target=target)
        super().__init__(self.match)

    def goal(self, w: Words) -> str:
        return w("goal_marken", target=self.match.target) if self.match.kind == "marken" else w("goal_bummerl")

    def result_lines(self, result: GameResult, w: Words) -> list[str]:
        me = _seat(w)
        sentence = result_sentence(result, me, w.msgs, by_66=self.match.variant.undeclared_end == "sixty_six")
        # The game is not scored yet: the match's multiplier is still this game's (Schnorps after a stand).
        if self.match.multiplier > 1 and result.winner is not None:
            sentence += " " + w("multiplier", m=self.match.multiplier)
        return ["", sentence, w("final_augen", mine=result.augen[me], theirs=result.augen[1 - me])]

    def standing_lines(self, w: Words) -> list[str]:
        me, standing = _seat(w), self.match.standing
        key = "standing_marken" if self.match.kind == "marken" else "standing_bummerl"
        return [w(key, mine=standing[me], theirs=standing[1 - me])]

    def final_lines(self, w: Words) -> list[str]:
        match, me = self.match, _seat(w)
        mine, theirs = match.standing[me], match.standing[1 - me]
        won = match.winner == me
        if match.kind == "marken":
            return [w("you_win_marken" if won else "bot_wins_marken", mine=mine, theirs=theirs)]
        lines = [w("you_win_bummerl" if won else "bot_wins_bummerl")]
        if match.is_schneider:
            lines.append(w("schneider_you" if won else "schneider_bot"))
        return lines

    def label(self, action: Action, view: Any, w: Words) -> str:
        return menu_label(action, view, w.msgs, w.faces)

    def dumps(self, seats: Mapping[int, str]) -> str:
        tags = {f"Seat{s}": name for s, name in seats.items()}
        return dumps(MatchRecord.from_match(self.match, Event=EVENT, **tags))


class TableGameMatch(PlayMatch):
    """Bauernschnapsen or Dreierschnapsen to 24 game points (the variant's ``match_target``)."""

    def __init__(self, variant: Variant, seed: int, target: int | None = None) -> None:
        table = TableVariant.find(variant)
        if target is not None:
            table = table.with_options(match_target=target)
        self.match = TableMatch(table, seed)
        super().__init__(self.match)

    def goal(self, w: Words) -> str:
        return w("goal_table", target=self.match.target)

    def result_lines(self, result: TableResult, w: Words) -> list[str]:
        return table_result_lines(result, w)

    def _side(self, side: int, w: Words) -> str:
        """A scoring side: a team of two opposite seats (four players) or one seat."""
        return "+".join(w.who(s) for s in range(self.match.seats) if self.match.side_of(s) == side)

    def standing_lines(self, w: Words) -> list[str]:
        standing = ", ".join(f"{self._side(u, w)} {p}" for u, p in enumerate(self.match.scores))
        return [w("standing_table", standing=standing)]

    def final_lines(self, w: Words) -> list[str]:
        winners = ", ".join(self._side(u, w) for u in self.match.winners)
        bummerl = ", ".join(f"{self._side(u, w)} {b}" for u, b in enumerate(self.match.bummerl) if b)
        return [w("match_over", winners=winners, bummerl=bummerl or "-")]

    def label(self, action: Action, view: Any, w: Words) -> str:
        return table_label(action, view, w)

    def dumps(self, seats: Mapping[int, str]) -> str:
        names = {f"Seat{s}": name for s, name in seats.items()}
        match, texts = self.match, []
        for i, game in enumerate(match.games):
            tags = {"Event": EVENT, "Match": f"{self.variant.name}-{self.seed}", "Game": i + 1, **names}
            record = GameRecord.from_game(game, (), Seed=match.game_seeds[i], **tags)
            texts.append(dumps(record) + "\n")
        return "".join(texts)


def _seat(w: Words) -> int:
    assert w.seat is not None, "a match is told to the player of one seat"
    return w.seat


#: The terminal's match of each family of rules (``Variant.FAMILY``).
_MATCHES: dict[str, Callable[[Any, int, int | None], PlayMatch]] = {
    "two_player": TwoPlayerMatch,
    "table_game": TableGameMatch,
}
