"""One Series: the games of a match dealt from one seed and scored until a side has won.

Three kinds of match share this shape, and every host (the terminal, the arena,
the web server, a record reader) plays them through it:

* a **Bummerl** or a two-player **Marken** match (:class:`bummerl.match.Match`:
  7 game points down, or 7 Marken up in Schnorps);
* a **Schnorps round** of three or four participants, two of whom play each game
  while the others wait, the loser paying everyone
  (:class:`bummerl.schnorps_round.SchnorpsRound`);
* the table games' **match to 24** game points, per team with four players and
  per seat with three (:class:`bummerl.match.TableMatch`).

:func:`new_series` picks the kind from the variant's family (and, for Schnorps,
the number of participants) through one table, so that no caller tests a
variant's class:

>>> s = new_series("schnapsen", seed=11)
>>> type(s).__name__, s.kind, s.seats, s.standing
('Match', 'bummerl', 2, (7, 7))
>>> r = new_series("schnorps", seats=3, seed=4)
>>> type(r).__name__, r.kind, r.seats, r.standing
('SchnorpsRound', 'marken', 3, (0, 0, 0))
>>> t = new_series("bauernschnapsen", seed=1, target=3)
>>> type(t).__name__, t.kind, t.seats, t.sides, t.target
('TableMatch', 'points', 4, 2, 3)

One loop plays any of them; a game's seats are the series' seats
:meth:`Series.players_of` names (a round seats two of its participants):

>>> for series in (s, r, t):
...     while not series.is_over:
...         game = series.deal_next()
...         while not game.is_over:
...             _ = game.apply(game.legal_actions()[0])
...         series.complete(game)
...     h = series.history[-1]
...     assert h.standing_after == tuple(series.standing) and series.winners
>>> len(s.games) == len(s.history) == len(s.game_seeds), s.current is None
(True, True)

The protocol's members, what each kind means by them:

=================  ===========================  =========================  ==========================
member             Match                        SchnorpsRound              TableMatch
=================  ===========================  =========================  ==========================
``kind``           ``"bummerl"``/``"marken"``   ``"marken"``               ``"points"``
``seats``          2                            3 or 4 participants        3 or 4 seats
``sides``          2 (each seat)                each participant           2 teams (4), 3 seats (3)
``standing``       points still needed/Marken   balances (they sum to 0)   game points per side
``winners``        the winning seat             highest balance            the side(s) at the target
``bummerl``        1 or 2 to the loser          none (a round is paid)     1 or 2 per losing side
``context()``      the score bots are told      ``None``                   ``None``
=================  ===========================  =========================  ==========================

A series does no I/O and keeps no clock: it deals games and keeps the score.
Hosts keep what is theirs (names, storage, messages) and ask the series the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, cast

from bummerl.cards import Card
from bummerl.game import Game
from bummerl.match import Match, TableMatch
from bummerl.rules.result import Result
from bummerl.schnorps_round import SchnorpsRound
from bummerl.variants import TableVariant, TwoPlayerVariant, Variant, find_variant
from bummerl.view import MatchContext, PlayerView, View, with_match

__all__ = ["Result", "ScoredGame", "Series", "bot_view", "new_series"]


class ScoredGame(Protocol):
    """One finished game as its series scored it (:attr:`Series.history`)."""

    @property
    def index(self) -> int:
        """The game's number in the series, from 0."""
        ...

    @property
    def dealer(self) -> int:
        """The series seat that dealt it."""
        ...

    @property
    def seed(self) -> int | None:
        """The deal's seed, ``None`` for a pack order given explicitly."""
        ...

    @property
    def result(self) -> Result:
        """The engine's result, in game seats."""
        ...

    @property
    def multiplier(self) -> int:
        """What the game's points were multiplied by (Marken after a stand), else 1."""
        ...

    @property
    def points(self) -> int:
        """What the series credited: to the winner, or what the loser of a round paid each other participant."""
        ...

    @property
    def standing_before(self) -> tuple[int, ...]:
        """:attr:`Series.standing` before the game."""
        ...

    @property
    def standing_after(self) -> tuple[int, ...]:
        """:attr:`Series.standing` after the game."""
        ...


class Series(Protocol):
    """The games of one match, dealt from one seed until a side has won (see the module docstring).

    Seats are the series' own: a Bummerl's two, a round's participants, a table's
    seats.  Scores are per **side**, a team of four-player partners or else one seat
    (:meth:`side_of`).  One game is current at a time: :meth:`deal_next` makes it
    so, :meth:`complete` scores it once it is over.
    """

    @property
    def variant(self) -> Variant: ...

    @property
    def seed(self) -> int:
        """The seed every game is dealt from (``derive_seed(seed, index)``)."""
        ...

    @property
    def deal_key(self) -> bytes | None:
        """A secret key that deals instead (``keyed_seed(deal_key, index)``, docs/security.md)."""
        ...

    @property
    def target(self) -> int:
        """What wins: game points (a Bummerl, the table games) or Marken."""
        ...

    @property
    def kind(self) -> str:
        """What is played for: ``"bummerl"``, ``"marken"`` or ``"points"`` (as the variant's traits say)."""
        ...

    @property
    def seats(self) -> int:
        """How many take part (a round's participants; two of them play each game)."""
        ...

    @property
    def sides(self) -> int:
        """How many score: teams of partners, or seats."""
        ...

    def side_of(self, seat: int) -> int:
        """The side that ``seat`` scores for."""
        ...

    # ------------------------------------------------------------------ the games
    @property
    def games(self) -> Sequence[Game]:
        """Every game dealt so far, the current one included."""
        ...

    @property
    def last_game(self) -> Game:
        """The game dealt last: the current one, or the last one until the next deal (without copying :attr:`games`:
        a live table asks for it several times per move)."""
        ...

    @property
    def game_seeds(self) -> Sequence[int | None]:
        """The deal seed of every game dealt (``None`` where the pack order was given)."""
        ...

    @property
    def current(self) -> Game | None:
        """The game dealt and not yet completed, if any."""
        ...

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next game (or dealt the current one)."""
        ...

    def players_of(self, index: int) -> tuple[int, ...]:
        """The series seats at game seats 0, 1, … of game ``index`` (dealt already)."""
        ...

    def dealer_of(self, index: int) -> int:
        """The series seat that dealt game ``index`` (dealt already)."""
        ...

    def deal_next(
        self, deck: Iterable[Card] | None = None, *, dealer: int | None = None, seed: int | None = None
    ) -> Game:
        """Deal the next game and make it the current one.

        Without ``deck`` it is dealt from the series' seed (or deal key); a stored
        series is replayed by giving each game's ``deck``, its ``dealer`` (checked,
        and free only where the deal was drawn) and the ``seed`` that dealt it
        (checked, and kept for :attr:`game_seeds`).
        """
        ...

    def complete(self, game: Game) -> None:
        """Score ``game``, the current game, now over (a forfeit: the result its host set)."""
        ...

    # ------------------------------------------------------------------ the score
    @property
    def history(self) -> Sequence[ScoredGame]:
        """The finished games with what they scored."""
        ...

    @property
    def standing(self) -> Sequence[int]:
        """The score per side as players write it down (see the module docstring)."""
        ...

    @property
    def multiplier(self) -> int:
        """What the next game's points are multiplied by (Marken after a stand: ``2 ** stands``)."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The sides that won, ``()`` while the series goes on."""
        ...

    @property
    def bummerl(self) -> Sequence[int]:
        """Bummerl each side received: 1, 2 for a Schneider (all 0 while it goes on, and in a round)."""
        ...

    def context(self) -> MatchContext | None:
        """What the bots of the next game are told of the match (``None``: nothing)."""
        ...


#: Makes a series: (variant, seats or None, seed, first dealer or None, target or None, deal key).
SeriesMaker = Callable[[Variant, int | None, int, int | None, int | None, bytes | None], Series]


def _two_player(
    variant: Variant, seats: int | None, seed: int, first_dealer: int | None, target: int | None, key: bytes | None
) -> Series:
    two = TwoPlayerVariant.find(variant)
    if seats is None or seats == 2:
        return Match(two, seed, first_dealer, target, deal_key=key)
    # seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer nur von zweien gespielt."
    return SchnorpsRound(two, seats, seed, first_dealer, target, deal_key=key)


def _table_game(
    variant: Variant, seats: int | None, seed: int, first_dealer: int | None, target: int | None, key: bytes | None
) -> Series:
    table = TableVariant.find(variant)
    if seats is not None and seats != table.players:
        raise ValueError(f"{table.title} is played by {table.players}, not {seats}")
    if target is not None:
        table = table.with_options(match_target=target)
    return TableMatch(table, seed, first_dealer or 0, deal_key=key)


#: The series of each family of rules (``Variant.FAMILY``).
_SERIES: dict[str, SeriesMaker] = {"two_player": _two_player, "table_game": _table_game}


def new_series(
    variant: Variant | str,
    *,
    seats: int | None = None,
    seed: int = 0,
    first_dealer: int | None = None,
    target: int | None = None,
    deal_key: bytes | None = None,
    **options: object,
) -> Series:
    """The match that ``variant`` is played as (see the module docstring).

    ``seats`` is the number taking part (``None``: the variant's players; 3 or 4
    makes a Schnorps round); ``first_dealer`` ``None`` draws the first dealer from
    ``seed`` where the rules draw it (a table game starts with seat 0);
    ``target`` changes the match length; ``options`` are variant options.
    """
    v = find_variant(variant, **options)
    try:
        make = _SERIES[v.FAMILY]
    except KeyError:  # pragma: no cover - every family has its series
        raise ValueError(f"{v.title} has no series") from None
    return make(v, seats, seed, first_dealer, target, deal_key)


def bot_view(game: Game, seat: int, context: MatchContext | None) -> View:
    """The view a bot at ``seat`` of ``game`` decides on: the seat's view, with the match ``context`` that its
    series gives (:meth:`Series.context`), so that a bot plays for the match in the arena, the terminal and at a
    web table alike.

    >>> s = new_series("schnapsen", seed=3, target=5)
    >>> bot_view(s.deal_next(), 1, s.context()).match.needed
    (5, 5)
    """
    view = game.view(seat)
    # Only a two-player match gives a context (a round's balances and the table games' sides are no two-seat
    # race), so a view with one is a PlayerView.
    return view if context is None else with_match(cast(PlayerView, view), context)
