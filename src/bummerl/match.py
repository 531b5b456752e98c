"""Matches: a sequence of games dealt from one seed, scored as a Bummerl or in Marken.

**Bummerl** (Schnapsen weich and scharf, Sechsundsechzig; seeds/000, "Partien und
Bummerl"): both players start at 7 and count *down* the game points still
missing ("man zählt nicht die bereits gewonnenen Punkte, sondern notiert die
Anzahl der Punkte, die noch zum Partiegewinn fehlen"); the first to reach 0
wins.  The loser gets one Bummerl, two if the winner won 7:0 ("so ist der
Gegner Schneider und die Partie zählt doppelt").  The dealer alternates every
game (seeds/003: "In den weiteren Spielen wechseln sich die Spieler in den
Rollen des Gebers und der Vorhand jeweils ab").  A game nobody wins (65:65 in
Sechsundsechzig) scores nothing; the deal still passes on.

**Marken** (Schnorps; seeds/001): "Der das niedrigste Blatt Ziehende gibt zuerst
u. dann stets der Gewinner" — the winner of each game deals the next.  Marken
count *up*; the match ends when a player has won ``target`` Marken (default 7:
our choice, the text names no match length).  After a stand (65:65, nobody
wins) "es wird dann um das Geben gezogen u. der Verlust in dem darauf folgenden
Spiele doppelt u. bei einem nochmaligen Stehen vierfach bezahlt": the next
dealer is drawn again (from the match seed) and the next game pays double,
after two stands in a row four times, and so on (2 ** stands).

Every game ``i`` (0-based) is dealt with ``derive_seed(match_seed, i)``; the
first dealer, when not given, and every redraw after a stand come from
``derive_seed(match_seed, DRAW, i)`` (see :mod:`bummerl.rng`), so a match is
reproducible from its seed alone.

>>> match = Match("schnapsen", seed=11, first_dealer=1)
>>> game = match.deal_next()
>>> game.dealer
1
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> match.complete(game)
>>> match.next_dealer, match.standing[game.result.winner] == 7 - game.result.points
(0, True)
>>> while not match.is_over:
...     g = match.deal_next()
...     while not g.is_over:
...         _ = g.apply(g.legal_actions()[0])
...     match.complete(g)
>>> match.winner in (0, 1), match.bummerl_for_loser in (1, 2), min(match.standing)
(True, True, 0)

The engine does no I/O; a match only deals games and keeps the score.

**The table games** play to 24 points (:class:`TableMatch`).
seeds/004: "Sobald ein Team 24 oder mehr Spielpunkte erreicht, gewinnt das Team
die Partie ... das Verliererteam [bekommt] ein „Bummerl“ ... Haben die Verlierer
keinen Spielpunkt ..., sind sie „Schneider“; das zählt als doppelter Gewinn und
wird mit zwei Bummerln belohnt."  seeds/003: "Am Ende jeden Spiels wird der Rufer
zum Geber" — the deal passes to the left; after a redeal (three Unter) the same
dealer deals again.

With four players the score is kept per team (seats 0 and 2 are team 0, seats 1
and 3 team 1); with three players per seat ("jeder gegen jeden").  If two
players of Dreierschnapsen pass the target in the same game (both defenders
scoring), both win and only the third gets the Bummerl.

>>> m = TableMatch("bauernschnapsen", seed=11)
>>> while not m.is_over:
...     t = m.deal_next()
...     while not t.is_over:
...         _ = t.apply(t.legal_actions()[0])
...     m.complete(t)
>>> max(m.scores) >= 24 and sum(m.bummerl) >= 1
True

Every game gets its own seed ``derive_seed(seed, game_number)``, or with a secret
``deal_key`` the one-way ``keyed_seed(deal_key, game_number)`` (:mod:`bummerl.rng`).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from typing import Any, Generic, Self, TypeVar

from bummerl.cards import Card
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.rng import SplitMix64, derive_key, derive_seed, keyed_seed
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import GameResult, TableVariant, TwoPlayerVariant, Variant
from bummerl.variants.bauernschnapsen import TableEndReason, TableResult
from bummerl.view import MatchContext

#: A series' variant, engine and result type (:class:`GameSeries`, :class:`MatchGame`).
V = TypeVar("V", bound=Variant)
G = TypeVar("G", bound=Game)
R = TypeVar("R", GameResult, TableResult)

__all__ = ["DRAW", "GameSeries", "Match", "MatchGame", "Session", "TableMatch", "draw_dealer"]

#: Path element of :func:`~bummerl.rng.derive_seed` for drawing the dealer
#: ("DRAW" in ASCII), so draws never share a stream with a game's deal.
DRAW = 0x44524157

#: The default match length: 7 game points down (Bummerl) or 7 Marken (Schnorps).
DEFAULT_TARGET = 7


def draw_dealer(seed: int, game_index: int) -> int:
    """The seat that deals game ``game_index`` when the deal is drawn.

    >>> draw_dealer(0, 0) in (0, 1)
    True
    """
    return SplitMix64(derive_seed(seed, DRAW, game_index)).below(2)


@dataclasses.dataclass(frozen=True)
class MatchGame(Generic[R]):
    """One finished game as the match scored it (a :class:`bummerl.series.ScoredGame`).

    ``points`` is what the match credited to the winner(s) (in Marken after
    a stand's doubling: ``result.points * multiplier``); ``standing_before`` and
    ``standing_after`` are the match's ``standing`` around the game.
    """

    index: int
    dealer: int
    #: The deal's seed, ``None`` for a pack order given explicitly.
    seed: int | None
    result: R
    multiplier: int
    points: int
    standing_before: tuple[int, ...]
    standing_after: tuple[int, ...]


class GameSeries(Generic[V, G]):
    """The games of a match (a Bummerl, a Schnorps round, a table game's match) dealt from one seed.

    Game ``index`` is dealt from ``derive_seed(seed, index)``, or from
    ``keyed_seed(deal_key, index)`` with a secret deal key; a stored match is
    replayed by giving each game's pack (and the seed that dealt it, which is
    checked).  One game is current at a time: :meth:`_deal` makes it so and
    :meth:`_completed` takes it back once it is over.  Subclasses score the games
    (the :class:`bummerl.series.Series` protocol).
    """

    #: What the subclass is called in messages ("match", "round").
    noun = "match"

    def __init__(self, engine: type[G], variant: V, seed: int, target: int | None, deal_key: bytes | None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BummerlError(f"a match seed must be an integer, not {seed!r}")
        if target is None:
            target = DEFAULT_TARGET
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise BummerlError(f"a match target must be a positive integer, not {target!r}")
        self._engine = engine
        self.variant: V = variant
        self.seed = seed
        self.deal_key = deal_key
        self.target = target
        self._games: list[G] = []
        self._seeds: list[int | None] = []
        self._current: G | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A deep copy that shares the finished games: they never change again (an over game takes no action).

        So copying a long match costs its running game, not every game it played: a table deals its next game
        on a copy and keeps it only once the deal is stored (:meth:`bummerl.server.rooms.Room.next_deal`).

        >>> match = Match(TwoPlayerVariant.find("schnapsen"), seed=7)
        >>> game = match.deal_next()
        >>> while not game.is_over:
        ...     _ = game.apply(game.legal_actions()[0])
        >>> match.complete(game)
        >>> clone = copy.deepcopy(match)
        >>> clone.games[0] is game, clone.standing == match.standing
        (True, True)
        >>> _ = clone.deal_next()
        >>> len(clone.games), len(match.games)
        (2, 1)
        """
        for game in self._games:
            if game is not self._current:
                memo.setdefault(id(game), game)
        cls = type(self)
        clone = cls.__new__(cls)
        memo[id(self)] = clone
        for name, value in vars(self).items():
            setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    @property
    def games(self) -> list[G]:
        """Every game dealt so far, the current one included."""
        return list(self._games)

    @property
    def last_game(self) -> G:
        """The game dealt last: the current one, or the last one until the next deal (:attr:`games` copies)."""
        if not self._games:
            raise BummerlError(f"no game of this {self.noun} has been dealt yet")
        return self._games[-1]

    @property
    def game_seeds(self) -> list[int | None]:
        """The deal seed of every game dealt (``None`` where the pack order was given)."""
        return list(self._seeds)

    @property
    def current(self) -> G | None:
        """The game dealt and not yet completed, if any."""
        return self._current

    def _deal(self, dealer: int, deck: Iterable[Card] | None, seed: int | None) -> G:
        """Deal the next game with the engine's ``dealer`` and make it the current one."""
        if self._current is not None:
            raise BummerlError(f"game {len(self._games)} is not finished; complete() it before dealing the next")
        index = len(self._games)
        if deck is None:
            deal_seed = derive_seed(self.seed, index) if self.deal_key is None else keyed_seed(self.deal_key, index)
            game = self._engine.deal(self.variant, seed=deal_seed, dealer=dealer)
            game_seed: int | None = deal_seed
        else:
            game = self._engine.from_deck(self.variant, deck, dealer)
            if seed is not None and self._engine.deal(self.variant, seed=seed, dealer=dealer).deck != game.deck:
                raise BummerlError(f"seed {seed} does not deal this pack")
            game_seed = seed
        self._games.append(game)
        self._seeds.append(game_seed)
        self._current = game
        return game

    def _completed(self, game: Game) -> G:
        """``game``, the current game, now over; it is current no more."""
        current = self._current
        if current is None:
            raise BummerlError("no game is in progress; deal_next() first")
        if game is not current:
            raise BummerlError(f"complete() takes the current game of this {self.noun}, as returned by deal_next()")
        if not current.is_over:
            raise BummerlError(f"game {len(self._games)} is not over yet")
        self._current = None
        return current


class Match(GameSeries[TwoPlayerVariant, TwoPlayerGame]):
    """A Bummerl (7 down, Schneider) or a Schnorps match in Marken.

    ``variant`` is a :class:`TwoPlayerVariant` or a name; ``options`` are
    variant options (``auto_declare=True`` ...).  ``first_dealer`` ``None`` draws
    the first dealer from ``seed``.  ``target`` is the match length (default 7).

    TwoPlayerGame ``i`` is dealt from ``derive_seed(seed, i)``; with a secret
    ``deal_key`` from ``keyed_seed(deal_key, i)`` instead, so that a finished
    game's seed tells nothing about the next deal (:mod:`bummerl.rng`; the web
    server deals this way, docs/security.md).
    """

    def __init__(
        self,
        variant: TwoPlayerVariant | str = "schnapsen",
        seed: int = 0,
        first_dealer: int | None = None,
        target: int | None = None,
        *,
        deal_key: bytes | None = None,
        **options: Any,
    ) -> None:
        super().__init__(TwoPlayerGame, TwoPlayerVariant.find(variant, **options), seed, target, deal_key)
        if first_dealer is None:
            first_dealer = draw_dealer(seed, 0)
        if first_dealer not in (0, 1):
            raise BummerlError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
        self.first_dealer: int = first_dealer
        self._history: list[MatchGame[GameResult]] = []
        self._points = [0, 0]
        self._next_dealer = first_dealer
        self._dealer_drawn = False
        self._stands = 0

    # ------------------------------------------------------------ properties
    @property
    def kind(self) -> str:
        """``"bummerl"`` (game points, 7 down) or ``"marken"`` (Schnorps)."""
        return self.variant.match_kind

    @property
    def seats(self) -> int:
        """Two: a Bummerl is played by two (three or four play Schnorps in a round)."""
        return 2

    @property
    def sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        """Each seat scores for itself."""
        return seat

    def players_of(self, index: int) -> tuple[int, ...]:
        """Both seats play every game: game seat = match seat."""
        return (0, 1)

    def dealer_of(self, index: int) -> int:
        return self._games[index].dealer

    @property
    def history(self) -> list[MatchGame[GameResult]]:
        """The finished games with what they scored."""
        return list(self._history)

    @property
    def results(self) -> list[GameResult]:
        """The results of the finished games, in order."""
        return [h.result for h in self._history]

    @property
    def points(self) -> tuple[int, int]:
        """Game points (Bummerl) or Marken (Schnorps) won by each seat so far."""
        return (self._points[0], self._points[1])

    @property
    def standing(self) -> tuple[int, int]:
        """The score as players write it down.

        Bummerl: the points each seat still needs, counted down from the target
        (never below 0).  Marken: the Marken each seat has won.
        """
        if self.kind == "marken":
            return self.points
        return (max(0, self.target - self._points[0]), max(0, self.target - self._points[1]))

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        """The seat that won the match, ``None`` while it goes on."""
        for p in (0, 1):
            if self._points[p] >= self.target:
                return p
        return None

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seat, or ``()`` while the match goes on."""
        w = self.winner
        return () if w is None else (w,)

    @property
    def loser(self) -> int | None:
        w = self.winner
        return None if w is None else 1 - w

    @property
    def is_schneider(self) -> bool:
        """Bummerl won 7:0: the loser scored nothing (seeds/000: "so ist der Gegner
        Schneider").  Marken matches know no Schneider (seeds/001 names none)."""
        loser = self.loser
        return self.kind == "bummerl" and loser is not None and self._points[loser] == 0

    @property
    def bummerl_for_loser(self) -> int:
        """Bummerl the loser gets: 2 if Schneider, else 1 (0 while the match goes on)."""
        if not self.is_over:
            return 0
        return 2 if self.is_schneider else 1

    @property
    def bummerl(self) -> tuple[int, ...]:
        """Bummerl each seat received: :attr:`bummerl_for_loser` for the loser."""
        return tuple(self.bummerl_for_loser if seat == self.loser else 0 for seat in (0, 1))

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next game."""
        return self._next_dealer

    @property
    def dealer_drawn(self) -> bool:
        """Whether the next dealer was drawn (the first game, or after a Schnorps stand)."""
        return not self._history or self._dealer_drawn

    @property
    def multiplier(self) -> int:
        """What the next game's Marken are multiplied by: 2 ** stands in a row (Schnorps)."""
        return 2**self._stands if self.kind == "marken" else 1

    def context(self) -> MatchContext | None:
        """The match context of the game being played (or dealt next), for the views bots get
        (:func:`bummerl.view.with_match`); ``None`` once the match is over.

        >>> m = Match("schnapsen", seed=1)
        >>> m.context()
        MatchContext(kind='bummerl', target=7, needed=(7, 7), schneider=True, multiplier=1)
        """
        if self.is_over or self.target > 10_000:
            return None
        needed = (self.target - self._points[0], self.target - self._points[1])
        return MatchContext(self.kind, self.target, needed, self.kind == "bummerl", min(self.multiplier, 1 << 20))

    # --------------------------------------------------------------- actions
    def deal_next(
        self, deck: Iterable[Card] | None = None, dealer: int | None = None, seed: int | None = None
    ) -> TwoPlayerGame:
        """Deal the next game and make it the current one.

        Without ``deck`` the game is dealt from ``derive_seed(seed, index)``
        (``keyed_seed(deal_key, index)`` with a deal key).
        A record replays a match by giving each game's ``deck``; ``dealer`` may
        then differ from :attr:`next_dealer` only where the dealer was drawn.
        ``seed`` names the seed that dealt ``deck`` (it is checked, and kept
        for :attr:`game_seeds`).
        """
        if self.is_over:
            raise BummerlError(f"the match is over: seat {self.winner} has won")
        if dealer is None:
            dealer = self._next_dealer
        elif dealer != self._next_dealer and not self.dealer_drawn:
            raise BummerlError(f"game {len(self._games) + 1} must be dealt by seat {self._next_dealer}, not {dealer!r}")
        if dealer not in (0, 1):
            raise BummerlError(f"dealer must be seat 0 or 1, not {dealer!r}")
        game = self._deal(dealer, deck, seed)
        self._next_dealer = dealer
        return game

    def complete(self, game: Game) -> None:
        """Score the finished current game and choose the next dealer."""
        result = self._completed(game).result
        assert result is not None
        before = self.standing
        multiplier = self.multiplier
        points = result.points * multiplier if result.winner is not None else 0
        if result.winner is not None:
            self._points[result.winner] += points
        index = len(self._games) - 1
        self._history.append(
            MatchGame(index, game.dealer, self._seeds[-1], result, multiplier, points, before, self.standing)
        )
        self._next_dealer, self._dealer_drawn = self._dealer_after(game.dealer, result.winner, index + 1)

    def _dealer_after(self, dealer: int, winner: int | None, next_index: int) -> tuple[int, bool]:
        if self.kind == "marken":
            if winner is None:
                # seeds/001: "das Spiel steht, es wird dann um das Geben gezogen"
                self._stands += 1
                return draw_dealer(self.seed, next_index), True
            self._stands = 0
            # seeds/001: "dann stets der Gewinner"
            return winner, False
        # seeds/003: the roles of dealer and Vorhand alternate every game.
        return 1 - dealer, False

    def __repr__(self) -> str:
        state = f"won by seat {self.winner}" if self.is_over else f"next dealer {self._next_dealer}"
        return (
            f"<Match {self.variant.name} seed={self.seed} standing={self.standing[0]}:{self.standing[1]}"
            f" after {len(self._history)} games, {state}>"
        )


class Session:
    """Several matches in a row: the Bummerl each seat has received.

    Match ``i`` uses the seed ``derive_seed(seed, i)``; the first match draws its
    first dealer, every later match starts with the seat that would have dealt
    next in the previous one (the deal keeps passing on as in one long match).
    With a secret ``deal_key`` match ``i`` gets the seed ``keyed_seed(deal_key, i)``
    and deals from its own key ``derive_key(deal_key, i)`` (see :class:`Match`):
    revealing one match's key after it ends reveals nothing of the next.

    >>> session = Session("schnapsen", seed=3)
    >>> m = session.new_match()
    >>> while not m.is_over:
    ...     g = m.deal_next()
    ...     while not g.is_over:
    ...         _ = g.apply(g.legal_actions()[-1])
    ...     m.complete(g)
    >>> session.finish(m)
    >>> sum(session.bummerl) == m.bummerl_for_loser, session.matches_won[m.winner]
    (True, 1)
    """

    def __init__(
        self,
        variant: TwoPlayerVariant | str = "schnapsen",
        seed: int = 0,
        target: int | None = None,
        *,
        deal_key: bytes | None = None,
        **options: Any,
    ) -> None:
        self.variant = TwoPlayerVariant.find(variant, **options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BummerlError(f"a session seed must be an integer, not {seed!r}")
        self.seed = seed
        self.deal_key = deal_key
        self.target = target
        self.matches: list[Match] = []
        self._bummerl = [0, 0]
        self._won = [0, 0]
        self._finished = 0

    @property
    def bummerl(self) -> tuple[int, int]:
        """Bummerl received by each seat (the loser of a match "kriegt das Bummerl")."""
        return (self._bummerl[0], self._bummerl[1])

    @property
    def matches_won(self) -> tuple[int, int]:
        return (self._won[0], self._won[1])

    def new_match(self) -> Match:
        """Start the next match (the previous one must be finished)."""
        if self.matches and self._finished < len(self.matches):
            raise BummerlError("the current match is not finished; finish() it first")
        first_dealer = self.matches[-1].next_dealer if self.matches else None
        k = len(self.matches)
        if self.deal_key is None:
            match = Match(self.variant, derive_seed(self.seed, k), first_dealer, self.target)
        else:
            key = derive_key(self.deal_key, k)
            match = Match(self.variant, keyed_seed(self.deal_key, k), first_dealer, self.target, deal_key=key)
        self.matches.append(match)
        return match

    def finish(self, match: Match) -> None:
        """Count the Bummerl of the finished current match."""
        if not self.matches or match is not self.matches[-1] or self._finished == len(self.matches):
            raise BummerlError("finish() takes the current match of this session, as returned by new_match()")
        if match.loser is None or match.winner is None:
            raise BummerlError("the match is not over yet")
        self._bummerl[match.loser] += match.bummerl_for_loser
        self._won[match.winner] += 1
        self._finished += 1


class TableMatch(GameSeries[TableVariant, TableGame]):
    """A sequence of table games with one seed, until a side reaches the variant's ``match_target``.

    Scores are kept per side (:meth:`side_of`): a team with four players, a seat
    with three.
    """

    def __init__(
        self,
        variant: TableVariant | str = "bauernschnapsen",
        seed: int = 0,
        first_dealer: int = 0,
        *,
        deal_key: bytes | None = None,
    ) -> None:
        v = TableVariant.find(variant)
        super().__init__(TableGame, v, seed, v.match_target, deal_key)
        n = v.players
        if first_dealer not in range(n):
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}, not {first_dealer!r}")
        #: Score per team (four players) or per seat (three players).
        self.scores: list[int] = [0] * self.sides
        #: Bummerl per team or seat, given when the match ends.
        self.bummerl: list[int] = [0] * self.sides
        self.results: list[TableResult] = []
        self.winners: tuple[int, ...] = ()
        self._history: list[MatchGame[TableResult]] = []
        self._dealer = first_dealer

    @property
    def kind(self) -> str:
        """``"points"``: a race to the target in game points."""
        return "points"

    @property
    def seats(self) -> int:
        return self.variant.players

    @property
    def sides(self) -> int:
        """Scoring units: 2 teams with four players, 3 seats with three."""
        return 2 if self.variant.players == 4 else 3

    def side_of(self, seat: int) -> int:
        """The team (four players: partners sit opposite) or the seat itself (three players)."""
        return seat % 2 if self.variant.players == 4 else seat

    @property
    def standing(self) -> tuple[int, ...]:
        """The game points of each side."""
        return tuple(self.scores)

    @property
    def history(self) -> list[MatchGame[TableResult]]:
        """The finished games with what they scored."""
        return list(self._history)

    @property
    def multiplier(self) -> int:
        """1: a Kontra doubles a game's own points (its result's ``multiplier``), not the match's."""
        return 1

    @property
    def next_dealer(self) -> int:
        return self._dealer

    def players_of(self, index: int) -> tuple[int, ...]:
        """Every seat plays every game: game seat = match seat."""
        return tuple(range(self.variant.players))

    def dealer_of(self, index: int) -> int:
        return self._games[index].dealer

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    def context(self) -> MatchContext | None:
        """``None``: the table games' views carry no match context (yet)."""
        return None

    def deal_next(
        self, deck: Iterable[Card] | None = None, *, dealer: int | None = None, seed: int | None = None
    ) -> TableGame:
        """Deal the next game and make it the current one (see :class:`bummerl.series.Series`); the deal is
        never drawn, so ``dealer`` must be :attr:`next_dealer`."""
        if self.is_over:
            raise BummerlError(f"the match is over: won by {self.winners}")
        if dealer is not None and dealer != self._dealer:
            raise BummerlError(f"game {len(self._games) + 1} must be dealt by seat {self._dealer}, not {dealer!r}")
        return self._deal(self._dealer, deck, seed)

    def complete(self, game: Game) -> None:
        """Score the finished current game, then end the match or pass the deal on."""
        result = self._completed(game).result
        assert result is not None
        self._score(result, game.dealer, self._seeds[-1])

    def score(self, result: TableResult) -> None:
        """Count one game's result: the current game's (a forfeit's, say), or a game kept by hand (tests)."""
        if self.is_over:
            raise ValueError("the match is over")
        if self._current is not None:
            game = self._current
            game.result = result
            self.complete(game)
        else:
            self._score(result, self._dealer, None)

    def _score(self, result: TableResult, dealer: int, seed: int | None) -> None:
        before = self.standing
        self.results.append(result)
        credited = {self.side_of(s) for s in result.winners}
        for side in credited:
            self.scores[side] += result.points
        if result.reason is not TableEndReason.REDEAL:
            self._dealer = (self._dealer + 1) % self.variant.players
        index = len(self._history)
        self._history.append(MatchGame(index, dealer, seed, result, 1, result.points, before, self.standing))
        target = self.variant.match_target
        winners = tuple(s for s in range(self.sides) if self.scores[s] >= target)
        if winners:
            self.winners = winners
            for s in range(self.sides):
                if s not in winners:
                    # Schneider: "Haben die Verlierer keinen Spielpunkt" — two Bummerl.
                    self.bummerl[s] = 2 if self.scores[s] == 0 else 1

    def __repr__(self) -> str:
        state = f"won by {self.winners}" if self.is_over else f"next dealer {self._dealer}"
        games = len(self.results)
        return f"<TableMatch {self.variant.name} seed={self.seed} scores={self.scores} after {games} games, {state}>"
