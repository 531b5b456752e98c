"""The match of ``bummerl play``: which games it deals, how it keeps the score, what it records.

A Bummerl from 7 down and Schnorps' Marken (:class:`bummerl.match.Match`) and
the table games' match to 24 (:class:`bummerl.match.TableMatch`) are two classes
with two interfaces today; :class:`PlayMatch` is the one that the terminal
session plays, and :func:`play_match` is the one place in the terminal that
knows there are two.  Each side also says what differs in a view of its family:
the table shown at a prompt, the menu's words for its actions, a game's result.

>>> from bummerl.i18n import Messages
>>> from bummerl.text import Words
>>> from bummerl.variants import find_variant
>>> match = play_match(find_variant("schnorps"), seed=3)
>>> match.goal(Words(Messages("en"), "german", match.variant, seat=0))
'Playing for Marken: the first to win 7 Marken wins.'
>>> game = match.deal_next()
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> match.complete()
>>> len(match.games), match.current is None
(1, True)
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bummerl.actions import Action
from bummerl.commands.play_text import table_label, table_result_lines, table_view_lines
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.match import Match, TableMatch
from bummerl.rng import derive_seed
from bummerl.table_game import TableGame, TableResult
from bummerl.text import Words, menu_label, render_view, result_sentence
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import GameResult, TableVariant, TwoPlayerVariant, Variant
from bummerl.view import PlayerView, with_match

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
    """A match as the terminal plays it: one game after another until a side has won."""

    variant: Variant
    seed: int

    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abc.abstractmethod
    def games(self) -> Sequence[Game]:
        """Every game dealt so far, the current one included."""

    @property
    @abc.abstractmethod
    def current(self) -> Game | None:
        """The game dealt and not yet scored."""

    @abc.abstractmethod
    def deal_next(self) -> Game:
        """Deal the next game."""

    @abc.abstractmethod
    def complete(self) -> None:
        """Score the current game, which is over."""

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
    def view_lines(self, view: Any, w: Words) -> list[str]:
        """What lies on the table for the player of ``view`` (the menu aside)."""

    @abc.abstractmethod
    def label(self, action: Action, view: Any, w: Words) -> str:
        """How the menu names an action other than playing a card."""

    @abc.abstractmethod
    def dumps(self, seats: Mapping[int, str]) -> str:
        """The records of the games so far (``seats``: who played each seat), as text."""

    def bot_view(self, game: Game, seat: int) -> Any:
        """The view a bot at ``seat`` decides on: the seat's view, which :class:`TwoPlayerMatch` gives the
        match context (the table games' bots know no match context)."""
        return game.view(seat)


class TwoPlayerMatch(PlayMatch):
    """A Bummerl from 7 down (Schnapsen, scharf, Sechsundsechzig), or Schnorps for Marken."""

    variant: TwoPlayerVariant

    def __init__(self, variant: TwoPlayerVariant, seed: int, target: int | None = None) -> None:
        self.match = Match(variant, seed, target=target)
        self.variant = self.match.variant
        self.seed = seed

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def games(self) -> Sequence[TwoPlayerGame]:
        return self.match.games

    @property
    def current(self) -> TwoPlayerGame | None:
        return self.match.current

    def deal_next(self) -> TwoPlayerGame:
        return self.match.deal_next()

    def complete(self) -> None:
        game = self.match.current
        assert game is not None
        self.match.complete(game)

    def bot_view(self, game: Game, seat: int) -> PlayerView:
        """``seat``'s view with the match context (:meth:`bummerl.match.Match.context`: the score sheet both
        players see), so that a bot plays for the match here as in the arena and at a web table.

        >>> from bummerl.variants import find_variant
        >>> m = TwoPlayerMatch(find_variant("schnapsen"), seed=3, target=5)
        >>> m.bot_view(m.deal_next(), 1).match.needed
        (5, 5)
        """
        assert isinstance(game, TwoPlayerGame)
        return with_match(game.view(seat), self.match.context())

    def goal(self, w: Words) -> str:
        return w("goal_marken", target=self.match.target) if self.match.kind == "marken" else w("goal_bummerl")

    def result_lines(self, result: GameResult, w: Words) -> list[str]:
        me = _seat(w)
        sentence = result_sentence(result, me, w.msgs, by_66=self.variant.undeclared_end == "sixty_six")
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

    def view_lines(self, view: Any, w: Words) -> list[str]:
        return render_view(view, w.msgs, w.faces)

    def label(self, action: Action, view: Any, w: Words) -> str:
        return menu_label(action, view, w.msgs, w.faces)

    def dumps(self, seats: Mapping[int, str]) -> str:
        from bummerl.record import MatchRecord, dumps

        tags = {f"Seat{s}": name for s, name in seats.items()}
        return dumps(MatchRecord.from_match(self.match, Event=EVENT, **tags))


class TableGameMatch(PlayMatch):
    """Bauernschnapsen or Dreierschnapsen to 24 game points (the variant's ``match_target``)."""

    variant: TableVariant

    def __init__(self, variant: TableVariant, seed: int, target: int | None = None) -> None:
        if target is not None:
            variant = variant.with_options(match_target=target)
        self.match = TableMatch(variant, seed)
        self.variant = variant
        self.seed = seed
        self._games: list[TableGame] = []
        self._current: TableGame | None = None

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def games(self) -> Sequence[TableGame]:
        return list(self._games)

    @property
    def current(self) -> TableGame | None:
        return self._current

    def deal_next(self) -> TableGame:
        # TableMatch deals each game as soon as the last one is scored; it is handed out here.
        self._current = self.match.table
        self._games.append(self._current)
        return self._current

    def complete(self) -> None:
        self.match.advance()
        self._current = None

    def goal(self, w: Words) -> str:
        return w("goal_table", target=self.variant.match_target)

    def result_lines(self, result: TableResult, w: Words) -> list[str]:
        return table_result_lines(result, w)

    def _side(self, side: int, w: Words) -> str:
        """A scoring side: a team of two opposite seats (four players) or one seat."""
        if self.variant.players == 4:
            return "+".join(w.who(s) for s in (side, side + 2))
        return w.who(side)

    def standing_lines(self, w: Words) -> list[str]:
        standing = ", ".join(f"{self._side(u, w)} {p}" for u, p in enumerate(self.match.scores))
        return [w("standing_table", standing=standing)]

    def final_lines(self, w: Words) -> list[str]:
        winners = ", ".join(self._side(u, w) for u in self.match.winners)
        bummerl = ", ".join(f"{self._side(u, w)} {b}" for u, b in enumerate(self.match.bummerl) if b)
        return [w("match_over", winners=winners, bummerl=bummerl or "-")]

    def view_lines(self, view: Any, w: Words) -> list[str]:
        return table_view_lines(view, w)

    def label(self, action: Action, view: Any, w: Words) -> str:
        return table_label(action, view, w)

    def dumps(self, seats: Mapping[int, str]) -> str:
        from bummerl.record import GameRecord, dumps

        names = {f"Seat{s}": name for s, name in seats.items()}
        texts = []
        for i, game in enumerate(self._games):
            tags = {"Event": EVENT, "Match": f"{self.variant.name}-{self.seed}", "Game": i + 1, **names}
            record = GameRecord.from_game(game, (), Seed=derive_seed(self.seed, i), **tags)
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
