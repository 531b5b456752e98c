"""Schnorps for three or four participants: two play each game, the others wait, the loser pays all.

seeds/001 ends with the rule for more than two: "Wenn mehre am Spiele Theil
nehmen, so wird ebenfalls immer nur von zweien gespielt. Der erste Geber,
gewöhnlich der, welcher bei dem Ziehen um die Plätze Eicheln od. ein Daus
gezogen hat, gibt die Karten dem vor ihm Sitzenden u. dem nach diesem
Folgenden. Hierauf gibt der, welcher zuerst die Vorhand hatte, die Karten den
beiden Nächstfolgenden, u. so wird auf gleiche Art immer in der Runde
herumgespielt. Wenn das Spiel steht, so spielen die beiden Spieler ein zweites
Spiel. Der Verlierende muß nicht nur an seinen Mitspieler, sondern an alle
Theilnehmer zahlen."  RULES.md ("Matches") reads it so: "two play at a time,
the deal passes round the circle to the next two, a stand is replayed by the
same two, and the loser pays every participant."

What :class:`SchnorpsRound` does with that, participants ``0 .. n-1`` sitting
in that order round the table (``n`` is 3 or 4):

* **Who deals, who plays.**  The first dealer is drawn (from the match seed:
  ``derive_seed(seed, DRAW, 0)``, unless given).  The dealer ``d`` does not play:
  ``d + 1`` ("dem vor ihm Sitzenden") is Vorhand and ``d + 2`` ("dem nach
  diesem Folgenden") the other player; everyone else waits.  The next dealer is
  ``d + 1``, "der, welcher zuerst die Vorhand hatte" (all modulo ``n``).  In the
  two-player engine the Vorhand participant is game seat 0 and the other game
  seat 1, which the engine calls the dealer (its Vorhand is the dealer's
  opponent); the real dealer is :attr:`RoundGame.dealer`.
* **A stand** (65:65 after the last card): "so spielen die beiden Spieler ein
  zweites Spiel" — the same dealer deals the same two again, in the same seats
  (our choice: the text names no new draw, since the deal does not go to a
  player here), and, as for two (seeds/001: "der Verlust in dem darauf folgenden
  Spiele doppelt u. bei einem nochmaligen Stehen vierfach bezahlt"), the next
  game is paid double, fourfold after a second stand (``2 ** stands``).
* **Payments.**  The game's Marken (the variant's scoring, :func:`~bummerl.variants.two_player.marken`,
  times the multiplier) are paid by the loser to *every* other participant,
  the waiting ones included: with three participants a lost 2-Marken game costs
  the loser 4 and gives the winner and the waiting participant 2 each.  The
  standing is each participant's **balance** (received minus paid); the
  balances always add up to 0.
* **The end** (our choice: the seed names no match length, for two nor for
  more): after a full round, when every participant has dealt equally often,
  the match ends as soon as a balance has reached ``target`` Marken (default 7,
  as for two); the participants with the highest balance win it.

Every game ``i`` is dealt from ``derive_seed(seed, i)`` (with a secret
``deal_key`` from ``keyed_seed(deal_key, i)``, as :class:`bummerl.match.Match`).

>>> r = SchnorpsRound(participants=3, seed=4, first_dealer=0)
>>> r.next_dealer, r.next_players, r.waiting
(0, (1, 2), (0,))
>>> game = r.deal_next()
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> r.complete(game)
>>> h = r.history[-1]
>>> sum(r.balance), h.payments[h.loser] == -2 * h.marken, r.next_players
(0, True, (2, 0))

The engine does no I/O; a round only deals games and keeps the balances.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from bummerl.cards import Card
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.match import DRAW, GameSeries
from bummerl.rng import SplitMix64, derive_seed
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import GameResult, TwoPlayerVariant, Variant
from bummerl.view import MatchContext

__all__ = ["ENGINE_DEALER", "PARTICIPANTS", "RoundGame", "SchnorpsRound", "draw_first_dealer", "participant_counts"]

#: How many may take part in a round (the web's tables have at most four seats; two play a :class:`Match`).
PARTICIPANTS = (3, 4)
#: The game seat that the two-player engine calls the dealer: seat 1, so that game seat 0 is Vorhand.
ENGINE_DEALER = 1


def participant_counts(variant: Variant) -> tuple[int, ...]:
    """How many may take part in a match of ``variant``: 2, 3 or 4 for Schnorps' Marken, else its players.

    >>> from bummerl.variants import find_variant
    >>> [participant_counts(find_variant(v)) for v in ("schnorps", "schnapsen", "dreier")]
    [(2, 3, 4), (2,), (3,)]
    """
    if variant.FAMILY == "two_player" and TwoPlayerVariant.find(variant).match_kind == "marken":
        return (2, *PARTICIPANTS)
    return (variant.players,)


def draw_first_dealer(seed: int, participants: int) -> int:
    """The participant drawn to deal first ("bei dem Ziehen um die Plätze", seeds/001).

    >>> draw_first_dealer(0, 3) in (0, 1, 2)
    True
    """
    return SplitMix64(derive_seed(seed, DRAW, 0)).below(participants)


@dataclasses.dataclass(frozen=True)
class RoundGame:
    """One finished game of a round as it was paid.

    ``players`` are the participants at game seats 0 (Vorhand) and 1;
    ``dealer`` dealt and did not play.  ``marken`` is what the loser paid to each
    other participant (``result.points * multiplier``; 0 after a stand).
    """

    index: int
    dealer: int
    players: tuple[int, int]
    #: The deal's seed, ``None`` for a pack order given explicitly.
    seed: int | None
    #: The engine's result, in game seats.
    result: GameResult
    multiplier: int
    marken: int
    balance_before: tuple[int, ...]
    balance_after: tuple[int, ...]

    @property
    def points(self) -> int:
        """What the loser paid each other participant (:attr:`marken`)."""
        return self.marken

    @property
    def standing_before(self) -> tuple[int, ...]:
        return self.balance_before

    @property
    def standing_after(self) -> tuple[int, ...]:
        return self.balance_after

    @property
    def winner(self) -> int | None:
        """The participant who won the game (``None`` for a stand)."""
        w = self.result.winner
        return None if w is None else self.players[w]

    @property
    def loser(self) -> int | None:
        """The participant who lost and paid everyone (``None`` for a stand)."""
        w = self.result.winner
        return None if w is None else self.players[1 - w]

    @property
    def payments(self) -> tuple[int, ...]:
        """What each participant received (positive) or paid (negative) for this game."""
        return tuple(a - b for a, b in zip(self.balance_after, self.balance_before, strict=True))

    @property
    def waiting(self) -> tuple[int, ...]:
        """The participants who did not play this game (the dealer first)."""
        n = len(self.balance_before)
        return tuple((self.dealer + k) % n for k in range(n) if (self.dealer + k) % n not in self.players)


class SchnorpsRound(GameSeries[TwoPlayerVariant, TwoPlayerGame]):
    """A Schnorps match of three or four participants (see the module docstring).

    ``variant`` is Schnorps (any variant whose match is paid in Marken) or its
    name, with ``options``; ``first_dealer`` ``None`` draws the first dealer from
    ``seed``; ``target`` is the balance that ends the match after a full round.
    """

    noun = "round"

    def __init__(
        self,
        variant: TwoPlayerVariant | str = "schnorps",
        participants: int = 3,
        seed: int = 0,
        first_dealer: int | None = None,
        target: int | None = None,
        *,
        deal_key: bytes | None = None,
        **options: Any,
    ) -> None:
        if participants not in PARTICIPANTS or isinstance(participants, bool):
            raise BummerlError(
                f"a Schnorps round has {' or '.join(map(str, PARTICIPANTS))} participants, not {participants!r}"
                " (two play a Match)"
            )
        super().__init__(TwoPlayerGame, TwoPlayerVariant.find(variant, **options), seed, target, deal_key)
        if self.variant.match_kind != "marken":
            raise BummerlError(f"{self.variant.title} is played by two; only Schnorps takes more participants")
        if first_dealer is None:
            first_dealer = draw_first_dealer(seed, participants)
        if first_dealer not in range(participants) or isinstance(first_dealer, bool):
            raise BummerlError(f"first_dealer must be a participant 0..{participants - 1}, not {first_dealer!r}")
        self.participants = participants
        self.first_dealer: int = first_dealer
        self._dealer = first_dealer
        self._stands = 0
        self._balance = [0] * participants
        self._players: list[tuple[int, int]] = []
        self._dealers: list[int] = []
        self._history: list[RoundGame] = []

    # ------------------------------------------------------------ properties
    @property
    def kind(self) -> str:
        """``"marken"``: a round is paid in Marken, as Schnorps for two."""
        return "marken"

    @property
    def seats(self) -> int:
        """The participants (two of them play each game)."""
        return self.participants

    @property
    def sides(self) -> int:
        return self.participants

    def side_of(self, seat: int) -> int:
        """Each participant pays and is paid for themself."""
        return seat

    @property
    def bummerl(self) -> tuple[int, ...]:
        """None: a round is paid in Marken as it goes, and gives no Bummerl."""
        return (0,) * self.participants

    def context(self) -> MatchContext | None:
        """``None``: a round's balances among 3 or 4 are no two-seat race to a target
        (:class:`bummerl.view.MatchContext`), so its bots play each game for its Marken."""
        return None

    @property
    def history(self) -> list[RoundGame]:
        """The finished games with what they paid."""
        return list(self._history)

    @property
    def balance(self) -> tuple[int, ...]:
        """Each participant's Marken: received minus paid (they add up to 0)."""
        return tuple(self._balance)

    @property
    def standing(self) -> tuple[int, ...]:
        """The score as players write it down: the balances."""
        return self.balance

    @property
    def next_dealer(self) -> int:
        """The participant who deals the next game (or dealt the current one)."""
        return self._dealer

    @property
    def next_players(self) -> tuple[int, int]:
        """The participants at game seats 0 (Vorhand) and 1 of the next (or current) game."""
        n, d = self.participants, self._dealer
        return ((d + 1) % n, (d + 2) % n)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Who does not play the next (or current) game: the dealer first, then in seat order."""
        n, d = self.participants, self._dealer
        return tuple((d + k) % n for k in range(n) if k not in (1, 2))

    def players_of(self, index: int) -> tuple[int, int]:
        """The participants at game seats 0 and 1 of game ``index`` (dealt already)."""
        return self._players[index]

    def dealer_of(self, index: int) -> int:
        """The participant who dealt game ``index`` (dealt already)."""
        return self._dealers[index]

    def game_seat(self, participant: int) -> int | None:
        """The game seat of ``participant`` in the next (or current) game; ``None`` while they wait."""
        players = self.next_players
        return players.index(participant) if participant in players else None

    @property
    def multiplier(self) -> int:
        """What the next game's Marken are multiplied by: 2 ** stands in a row."""
        return 1 << self._stands

    @property
    def rounds(self) -> int:
        """Full rounds played: every participant has dealt a decided game this often."""
        return self._decided // self.participants

    @property
    def _decided(self) -> int:
        return sum(1 for h in self._history if h.result.winner is not None)

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def winners(self) -> tuple[int, ...]:
        """The participants with the highest balance once the match is over; ``()`` while it goes on."""
        decided = self._decided
        if not decided or decided % self.participants or max(self._balance) < self.target:
            return ()
        top = max(self._balance)
        return tuple(p for p in range(self.participants) if self._balance[p] == top)

    # --------------------------------------------------------------- actions
    def deal_next(
        self, deck: Iterable[Card] | None = None, seed: int | None = None, *, dealer: int | None = None
    ) -> TwoPlayerGame:
        """Deal the next game to :attr:`next_players` and make it the current one.

        Without ``deck`` the game is dealt from ``derive_seed(seed, index)``
        (``keyed_seed(deal_key, index)`` with a deal key).  A stored match is
        replayed by giving each game's ``deck`` (and the ``seed`` that dealt it,
        which is checked); ``dealer``, the participant who dealt it, must be
        :attr:`next_dealer`.
        """
        if self.is_over:
            raise BummerlError(f"the match is over: won by {self.winners}")
        if dealer is not None and dealer != self._dealer:
            raise BummerlError(f"game {len(self._games) + 1} must be dealt by seat {self._dealer}, not {dealer!r}")
        game = self._deal(ENGINE_DEALER, deck, seed)
        self._players.append(self.next_players)
        self._dealers.append(self._dealer)
        return game

    def complete(self, game: Game) -> None:
        """Pay the finished current game and pass the deal on (or not, after a stand)."""
        result = self._completed(game).result
        assert result is not None
        index = len(self._games) - 1
        players = self._players[index]
        before = self.balance
        multiplier = self.multiplier
        marken = 0
        if result.winner is None:
            # seeds/001: "Wenn das Spiel steht, so spielen die beiden Spieler ein zweites Spiel" (paid double).
            self._stands += 1
        else:
            marken = result.points * multiplier
            loser = players[1 - result.winner]
            # seeds/001: "Der Verlierende muß nicht nur an seinen Mitspieler, sondern an alle Theilnehmer zahlen."
            for p in range(self.participants):
                if p != loser:
                    self._balance[p] += marken
                    self._balance[loser] -= marken
            self._stands = 0
            # seeds/001: "Hierauf gibt der, welcher zuerst die Vorhand hatte, die Karten den beiden Nächstfolgenden"
            self._dealer = (self._dealer + 1) % self.participants
        self._history.append(
            RoundGame(
                index,
                self._dealers[index],
                players,
                self._seeds[index],
                result,
                multiplier,
                marken,
                before,
                self.balance,
            )
        )

    def record_tags(self, index: int, names: Sequence[str]) -> dict[str, object]:
        """The tags of game ``index``'s record (``names``: who sits at each participant seat): its two players
        as ``Seat0``/``Seat1``, who took part, dealt and played, its seed, and the balances around it once paid.

        A round has no match record, so each game's record is read on its own (docs/web-ui.md).

        >>> r = SchnorpsRound(participants=3, seed=4, first_dealer=0)
        >>> _ = r.deal_next()
        >>> tags = r.record_tags(0, ["a", "b", "c"])
        >>> tags["Seat0"], tags["Participants"], tags["RoundDealer"], tags["RoundPlayers"], "BalanceAfter" in tags
        ('b', 'a,b,c', 0, '1,2', False)
        """
        players = self._players[index]
        tags: dict[str, object] = {
            "Game": index + 1,
            "Seat0": names[players[0]],
            "Seat1": names[players[1]],
            "Participants": ",".join(names[p] for p in range(self.participants)),
            "RoundDealer": self._dealers[index],
            "RoundPlayers": f"{players[0]},{players[1]}",
        }
        seed = self._seeds[index]
        if seed is not None:
            tags["Seed"] = seed
        if index < len(self._history):
            h = self._history[index]
            tags["BalanceBefore"] = ",".join(map(str, h.balance_before))
            tags["BalanceAfter"] = ",".join(map(str, h.balance_after))
        return tags

    def __repr__(self) -> str:
        state = f"won by {self.winners}" if self.is_over else f"next dealer {self._dealer}"
        return (
            f"<SchnorpsRound {self.participants} participants seed={self.seed} balance={self.balance}"
            f" after {len(self._history)} games, {state}>"
        )
