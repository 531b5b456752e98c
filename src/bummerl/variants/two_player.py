"""The two-player variants as data plus scoring hooks.

A :class:`TwoPlayerVariant` is a frozen description: the pack, the deal, which
optional actions exist and when, and two hooks that turn the end of a game into
a :class:`GameResult`.  Schnapsen weich is the base; scharf, Sechsundsechzig and
Schnorps change a few fields, and Schnorps overrides the hooks to pay Marken.
Every field cites the sentence it comes from; ``docs/rules.md`` lists them all.

>>> v = SCHNAPSEN.with_options(count_after_closing=True)
>>> v.count_after_closing, v.name
(True, 'schnapsen')
>>> v.options()
{'count_after_closing': True}
>>> SCHNAPSEN.with_options(close_min_facedown="1").options()
{'close_min_facedown': 1}
>>> SCHNAPSEN.with_options(colour="blue")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.errors.UnknownVariantError: schnapsen has no option 'colour'; options: auto_declare, ...

This module must not import the game: hooks see the game only through
:class:`ScoringState`.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import ClassVar, Protocol

from bummerl.cards import Rank, deck, siegpunkte
from bummerl.errors import UnknownVariantError
from bummerl.rules.going_out import GOING_OUT
from bummerl.variants.base import Variant, register_base

__all__ = ["EndReason", "GameResult", "SchnorpsVariant", "ScoringState", "TwoPlayerVariant", "marken"]


class EndReason(enum.Enum):
    """How a game ended."""

    #: A correct declaration of 66 (Ausmelden, Weglegen), talon not closed.
    DECLARED = "declared"
    #: A declaration with 65 or fewer Augen.
    WRONG_DECLARATION = "wrong_declaration"
    #: The closer reached 66 and went out.
    CLOSER_WON = "closer_won"
    #: The closer did not reach 66, or the opponent went out first.
    CLOSER_FAILED = "closer_failed"
    #: Talon exhausted, nobody declared: decided by the last trick (Schnapsen) or
    #: by who has 66 (Sechsundsechzig, Schnorps).
    LAST_TRICK = "last_trick"
    #: Nobody reached 66 after the last card (65:65); nobody scores.
    STAND = "stand"
    #: A bot or player gave up the game by failing (crash, time-out, illegal
    #: answer in the bot protocol); set by hosts, never by the rules.
    FORFEIT = "forfeit"


@dataclasses.dataclass(frozen=True)
class GameResult:
    """The end of one game.

    ``points`` are game points (Siegpunkte) in Schnapsen and Sechsundsechzig and
    Marken in Schnorps, won by ``winner`` (``None`` and 0 when nobody wins).
    ``augen`` are both players' counted Augen at the end.
    """

    winner: int | None
    points: int
    reason: EndReason
    augen: tuple[int, int]
    unit: str = "game points"

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner as the seats credited with :attr:`points` (:class:`bummerl.rules.result.Result`)."""
        return () if self.winner is None else (self.winner,)

    def points_of(self, player: int) -> int:
        """The points ``player`` won in this game (0 for the loser)."""
        return self.points if self.winner == player else 0

    def to_json(self, players: int = 2) -> dict[str, object]:
        """The bot protocol's JSON object (:class:`bummerl.rules.result.Result`): the winner, not a side.

        >>> GameResult(0, 2, EndReason.DECLARED, (70, 20)).to_json(2)
        {'winner': 0, 'points': 2, 'reason': 'declared', 'augen': [70, 20], 'unit': 'game points'}
        """
        return {
            "winner": self.winner,
            "points": self.points,
            "reason": self.reason.value,
            "augen": list(self.augen),
            "unit": self.unit,
        }


class ScoringState(Protocol):
    """What the scoring hooks may read of a finished or finishing game."""

    @property
    def tricks_won(self) -> list[int]: ...

    @property
    def closed_by(self) -> int | None: ...

    @property
    def closed_opponent_augen(self) -> int: ...

    @property
    def closed_opponent_had_trick(self) -> bool: ...

    def augen(self, player: int) -> int: ...


_OPTIONS_DOC = {
    "auto_declare": "66 ends the game automatically (RULES.md, Going out)",
    "last_trick_scoring": "'one': the last trick wins 1 game point; 'augen': scored like a declaration (RULES.md)",
    "count_after_closing": (
        "a successful closer is scored by the opponent's Augen at the end, not at closing (seeds/000)"
    ),
    "marriages": "Schnorps: marriages allowed (seeds/001: 'Die Mariagen werden während des Spiels vorgezeigt')",
    "trump_exchange": "Schnorps: robbing the trump card with the trump Seven (seeds/001: 'rauben')",
    "close_min_facedown": (
        "face-down cards that must lie above the trump card to close (Zudrehen, Decken): 2 (seeds/003, the"
        " default) or 1 (house rule of Tompa's books and several apps: closing with one card left)"
    ),
}


@dataclasses.dataclass(frozen=True)
class TwoPlayerVariant(Variant):
    """The rules of a two-player game of the family.  Defaults: Schnapsen weich."""

    OPTION_HELP: ClassVar[dict[str, str]] = _OPTIONS_DOC
    KIND: ClassVar[str] = "two-player variant"
    FAMILY: ClassVar[str] = "two_player"

    name: str = "schnapsen"
    aliases: tuple[str, ...] = ("weich", "schnapsen-weich", "schnapsen_weich", "default")
    title: str = "Schnapsen (weich)"
    #: The pack: 20 (A-U), 24 (with 9) or 32 (with 9, 8, 7) cards.
    deck_size: int = 20
    hand_size: int = 5
    #: The deal, in packets from the top of the pack: ``v`` Vorhand, ``d`` dealer,
    #: ``t`` the trump card turned face up.  seeds/000: "zuerst erhält Vorhand drei
    #: Karten, dann der Teiler, die siebente Karte wird aufgeschlagen, so dann
    #: erhält Vorhand zwei weitere Karten und zuletzt der Teiler".
    deal: tuple[tuple[str, int], ...] = (("v", 3), ("d", 3), ("t", 1), ("v", 2), ("d", 2))
    #: The trump card that may be exchanged for the face-up card: the lowest trump.
    exchange_rank: Rank = Rank.UNTER
    #: Whether trump exchange exists at all (only Schnorps makes it an option).
    trump_exchange: bool = True
    #: Weich: "auch vor dem allerersten Ausspiel"; scharf: "nicht ... vor dem ersten
    #: Ausspiel von Vorhand".
    exchange_before_first_lead: bool = True
    #: Scharf forbids exchanging "wenn nur noch eine Karte verdeckt im Talon liegt".
    exchange_with_one_face_down: bool = True
    #: Schnorps: robbing "jedoch nur nach einem gemachten Stiche".
    exchange_needs_trick: bool = False
    #: Schnorps: covering only "nach einem gemachten Stiche".
    close_needs_trick: bool = False
    #: Marriages (Ansagen) exist.
    marriages: bool = True
    #: Weich: a marriage is allowed before the player's first trick but counts only
    #: once they win one (seeds/000: "wenn der Spieler aber stichlos bleibt, zählt
    #: die Ansage jedoch nicht"); scharf and Schnorps: only after a trick.
    marriage_before_trick: bool = True
    #: Scharf: "Wer eine Ansage macht, muss zum nächsten Stich den König ausspielen."
    marriage_king_only: bool = False
    #: Marriages stay allowed once the talon is exhausted (RULES.md); Schnorps:
    #: only "so lange der Talon noch nicht erschöpft ist" (seeds/001).  Closing
    #: never ends marriages: a covered talon is not exhausted.
    marriage_after_talon: bool = True
    #: Sechsundsechzig and Schnorps: the last trick is worth 10 more Augen, "nicht im
    #: Falle einer Talonsperre" (seeds/000).
    last_trick_bonus: int = 0
    #: Whether players see running Augen totals (scharf: "Abgelegte Stiche dürfen
    #: nichtmehr angesehen werden").
    show_points: bool = True
    #: Scoring of an undeclared game: ``"last_trick"`` (Schnapsen: the last trick
    #: wins) or ``"sixty_six"`` (66 and Schnorps: whoever has 66 wins).
    undeclared_end: str = "last_trick"
    #: Match kind: ``"bummerl"`` (7 down) or ``"marken"``.
    match_kind: str = "bummerl"
    # ---- options (RULES.md names them) ----
    auto_declare: bool = False
    last_trick_scoring: str = "one"
    count_after_closing: bool = False
    #: Face-down cards that must lie above the trump card for closing (Zudrehen, Schnorps: Decken).
    #: RULES.md: "while at least two face-down cards remain above the trump card" (seeds/003: "Liegt nur
    #: mehr eine Karte als Talon auf der offenen Trumpfkarte, darf man austauschen, jedoch nicht zudreuen");
    #: 1 is the house rule of Tompa's Schnapsen books and several apps.  Read only by
    #: :func:`bummerl.rules.talon.close_refusal` (and mirrored by the solver).
    close_min_facedown: int = 2

    #: Names of the fields a user may set with :meth:`with_options`.
    OPTIONS: tuple[str, ...] = dataclasses.field(
        default=("auto_declare", "count_after_closing", "last_trick_scoring", "close_min_facedown"),
        repr=False,
        compare=False,
    )

    def __post_init__(self) -> None:
        if self.last_trick_scoring not in ("one", "augen"):
            raise UnknownVariantError(f"last_trick_scoring must be 'one' or 'augen', not {self.last_trick_scoring!r}")
        if type(self.close_min_facedown) is not int or self.close_min_facedown not in (1, 2):
            raise UnknownVariantError(f"close_min_facedown must be 1 or 2, not {self.close_min_facedown!r}")
        # A variant built by hand (dataclasses.replace) must still describe a deal the
        # engine can play: say what is wrong here, not deep inside a game.
        try:
            deck(self.deck_size)
        except ValueError:
            raise UnknownVariantError(
                f"{self.name}: deck_size must be 20, 24 or 32 (research packs: 8, 10, 12), not {self.deck_size!r}"
            ) from None
        got = {who: sum(n for w, n in self.deal if w == who) for who in "vdt"}
        if {w for w, _ in self.deal} - set("vdt") or got != {"v": self.hand_size, "d": self.hand_size, "t": 1}:
            raise UnknownVariantError(
                f"{self.name}: deal must give 'v' and 'd' {self.hand_size} cards each and turn one 't' card,"
                f" not {self.deal!r}"
            )
        if 2 * self.hand_size + 1 > self.deck_size:
            raise UnknownVariantError(f"{self.name}: two hands of {self.hand_size} do not fit {self.deck_size} cards")
        if self.undeclared_end not in ("last_trick", "sixty_six"):
            raise UnknownVariantError(
                f"{self.name}: undeclared_end must be 'last_trick' or 'sixty_six', not {self.undeclared_end!r}"
            )
        if self.match_kind not in ("bummerl", "marken"):
            raise UnknownVariantError(f"{self.name}: match_kind must be 'bummerl' or 'marken', not {self.match_kind!r}")

    # ---- games ----
    @property
    def default_dealer(self) -> int:
        """Seat 1 deals: seat 0 is Vorhand and leads first."""
        return 1

    # ---- traits (Variant's) ----
    @property
    def undeclared_end_rule(self) -> str | None:
        return self.undeclared_end

    @property
    def match_unit(self) -> str:
        return self.match_kind

    @property
    def shows_augen(self) -> bool:
        return self.show_points

    # ---- derived facts ----
    @property
    def target(self) -> int:
        """Augen needed to go out."""
        return GOING_OUT

    def game_points(self, loser_augen: int, loser_won_a_trick: bool) -> int:
        """The game points of a game won against a loser with ``loser_augen``: :func:`~bummerl.cards.siegpunkte`
        (3 no trick, 2 under 33, else 1); the research variants scale the 33 with their pack."""
        return siegpunkte(loser_augen, loser_won_a_trick)

    # ---- scoring hooks ----
    def score_declaration(self, game: ScoringState, declarer: int) -> GameResult:
        """Score a declaration ("genug") by ``declarer``, right or wrong.

        seeds/000: three points if the opponent has no trick, two if 32 or fewer
        Augen, one otherwise; a wrong declaration gives the opponent "so viele
        Punkte, wie der Spieler gewonnen hätte".  After closing (seeds/000, "Das
        Sperren des Talons") the closer is scored by the opponent's Augen at the
        time of closing, and a closer who fails gives 3 or 2.
        """
        opp = 1 - declarer
        augen = (game.augen(0), game.augen(1))
        has_66 = augen[declarer] >= self.target
        closer = game.closed_by
        if closer is None:
            points = self.game_points(augen[opp], game.tricks_won[opp] > 0)
            if has_66:
                return GameResult(declarer, points, EndReason.DECLARED, augen)
            return GameResult(opp, points, EndReason.WRONG_DECLARATION, augen)
        if closer == declarer and has_66:
            return GameResult(declarer, self._closer_points(game), EndReason.CLOSER_WON, augen)
        failure = 2 if game.closed_opponent_had_trick else 3
        if closer == declarer:  # declared without 66: the closer has failed
            return GameResult(opp, failure, EndReason.CLOSER_FAILED, augen)
        if has_66:  # the opponent of the closer went out first
            return GameResult(declarer, failure, EndReason.CLOSER_FAILED, augen)
        # The closer's opponent declared wrongly: the closer wins what the
        # declarer would have won with a correct declaration.
        return GameResult(opp, failure, EndReason.WRONG_DECLARATION, augen)

    def score_end_of_cards(self, game: ScoringState, last_winner: int) -> GameResult:
        """Score a game in which every card was played without a declaration."""
        augen = (game.augen(0), game.augen(1))
        closer = game.closed_by
        if closer is not None:
            # After closing "the last trick decides nothing": the closer wins only by
            # going out, and winning the last trick with 66 is going out.
            if last_winner == closer and augen[closer] >= self.target:
                return GameResult(closer, self._closer_points(game), EndReason.CLOSER_WON, augen)
            failure = 2 if game.closed_opponent_had_trick else 3
            return GameResult(1 - closer, failure, EndReason.CLOSER_FAILED, augen)
        if self.undeclared_end == "last_trick":
            # seeds/000: "Beim Schnapsen gewinnt der Spieler, der den letzten Stich
            # erzielt, das Spiel." RULES.md: 1 game point by default.
            loser = 1 - last_winner
            if self.last_trick_scoring == "augen":
                points = self.game_points(augen[loser], game.tricks_won[loser] > 0)
            else:
                points = 1
            return GameResult(last_winner, points, EndReason.LAST_TRICK, augen)
        winner = _sixty_six_winner(augen, last_winner, self.target)
        if winner is None:
            return GameResult(None, 0, EndReason.STAND, augen)
        loser = 1 - winner
        points = self.game_points(augen[loser], game.tricks_won[loser] > 0)
        return GameResult(winner, points, EndReason.LAST_TRICK, augen)

    def _closer_points(self, game: ScoringState) -> int:
        closer = game.closed_by
        assert closer is not None
        opp = 1 - closer
        if self.count_after_closing:
            return self.game_points(game.augen(opp), game.tricks_won[opp] > 0)
        return self.game_points(game.closed_opponent_augen, game.closed_opponent_had_trick)


def marken(siegpunkte: int, covered: bool) -> int:
    """Schnorps pays in Marken (seeds/001): "Ein verlorenes Spiel wird mit 1 Marke, der Schneider mit 2 Marken
    u. der S. mit 6 Marken bezahlt, wenn der Gewinnende nicht gedeckt hat; im Falle des Deckens ... mit 2, ...
    4 u. ... 8 Marken".  ``siegpunkte`` classifies the loser as the other games do
    (:func:`bummerl.cards.siegpunkte`: 3 no trick, 2 Schneider, 1 neither); ``covered``: the winner closed.

    >>> [marken(p, False) for p in (1, 2, 3)], [marken(p, True) for p in (1, 2, 3)]
    ([1, 2, 6], [2, 4, 8])
    """
    return _MARKEN[siegpunkte][covered]


#: Marken by the loser's class (Siegpunkte 1, 2, 3): (not covered, covered).
_MARKEN = {1: (1, 2), 2: (2, 4), 3: (6, 8)}


def _sixty_six_winner(augen: tuple[int, int], last_winner: int, target: int) -> int | None:
    """Who wins an undeclared game decided by 66.

    One player at 66 or more wins.  Both (possible only with marriages): the
    winner of the last trick, who reached it last and could have gone out at
    that moment.  Neither (65:65): nobody.
    """
    a, b = augen[0] >= target, augen[1] >= target
    if a and b:
        return last_winner
    if a:
        return 0
    if b:
        return 1
    return None


@dataclasses.dataclass(frozen=True)
class SchnorpsVariant(TwoPlayerVariant):
    """Schnorps (seeds/001): 32 cards, Decken and Weglegen, scored in Marken.

    Marken (seeds/001): a lost game 1, Schneider (under 33) 2, no trick 6; if the
    winner had covered 2, 4, 8.  Laying down without 66 costs 2 (4 after the
    opponent covered); a coverer who fails ("sich verdecken") pays 4.
    """

    name: str = "schnorps"
    aliases: tuple[str, ...] = ("schnorpsen",)
    title: str = "Schnorps"
    deck_size: int = 32
    hand_size: int = 6
    # seeds/001: "Jeder Spieler bekommt sechs Blätter, in zwei gleichen Würfen. Nach
    # dem ersten Wurfe wird die siebente Karte als Trumpf umgeschlagen."
    deal: tuple[tuple[str, int], ...] = (("v", 3), ("d", 3), ("t", 1), ("v", 3), ("d", 3))
    exchange_rank: Rank = Rank.SEVEN
    exchange_needs_trick: bool = True
    close_needs_trick: bool = True
    marriage_before_trick: bool = False
    marriage_after_talon: bool = False
    last_trick_bonus: int = 10
    undeclared_end: str = "sixty_six"
    match_kind: str = "marken"
    OPTIONS: tuple[str, ...] = dataclasses.field(
        default=("auto_declare", "marriages", "trump_exchange", "close_min_facedown"), repr=False, compare=False
    )

    def score_declaration(self, game: ScoringState, declarer: int) -> GameResult:
        opp = 1 - declarer
        augen = (game.augen(0), game.augen(1))
        has_66 = augen[declarer] >= self.target
        closer = game.closed_by
        if closer is None:
            if has_66:
                return self._marken(declarer, game, EndReason.DECLARED, augen)
            # "Wenn ein Spieler die Karten weglegt, ohne die nothwendige Zahl Augen zu
            # haben, verliert er 2"
            return GameResult(opp, 2, EndReason.WRONG_DECLARATION, augen, "Marken")
        if closer == declarer:
            if has_66:
                return self._marken(declarer, game, EndReason.CLOSER_WON, augen)
            # "wenn er sich verdeckt, 4 Marken"
            return GameResult(opp, 4, EndReason.CLOSER_FAILED, augen, "Marken")
        if has_66:
            # "Wenn ... der Gegner die zum Gewinnen nothwendige Zahl Augen eher als der
            # Deckende bekommt ... der Deckende verliert das Spiel"
            return GameResult(declarer, 4, EndReason.CLOSER_FAILED, augen, "Marken")
        # "So verliert auch derjenige 4 Marken, welcher, wenn der Andere gedeckt hat,
        # seine Karten, ohne 66 Augen zu haben, weglegt."
        return GameResult(opp, 4, EndReason.WRONG_DECLARATION, augen, "Marken")

    def score_end_of_cards(self, game: ScoringState, last_winner: int) -> GameResult:
        augen = (game.augen(0), game.augen(1))
        closer = game.closed_by
        if closer is not None:
            if last_winner == closer and augen[closer] >= self.target:
                return self._marken(closer, game, EndReason.CLOSER_WON, augen)
            # "verliert es ebenfalls, wenn er nicht 66 Augen macht"
            return GameResult(1 - closer, 4, EndReason.CLOSER_FAILED, augen, "Marken")
        winner = _sixty_six_winner(augen, last_winner, self.target)
        if winner is None:
            # "so gewinnt keiner von beiden (das Spiel steht)"
            return GameResult(None, 0, EndReason.STAND, augen, "Marken")
        return self._marken(winner, game, EndReason.LAST_TRICK, augen)

    def _marken(self, winner: int, game: ScoringState, reason: EndReason, augen: tuple[int, int]) -> GameResult:
        loser = 1 - winner
        paid = marken(siegpunkte(augen[loser], game.tricks_won[loser] > 0), game.closed_by == winner)
        return GameResult(winner, paid, reason, augen, "Marken")


SCHNAPSEN = TwoPlayerVariant()

SCHARF = TwoPlayerVariant(
    name="schnapsen-scharf",
    aliases=("scharf", "hart", "schnapsen_scharf", "scharfschnapsen"),
    title="Schnapsen (scharf)",
    exchange_before_first_lead=False,
    exchange_with_one_face_down=False,
    marriage_before_trick=False,
    marriage_king_only=True,
    show_points=False,
)

SECHSUNDSECHZIG = TwoPlayerVariant(
    name="sechsundsechzig",
    aliases=("66", "sixty-six", "sixtysix"),
    title="Sechsundsechzig",
    deck_size=24,
    hand_size=6,
    # seeds/000: "sechs Karten in zwei Würfeln zu je drei Blatt ... Die dreizehnte
    # Karte wird offen auf den Tisch gelegt."
    deal=(("v", 3), ("d", 3), ("v", 3), ("d", 3), ("t", 1)),
    exchange_rank=Rank.NINE,
    last_trick_bonus=10,
    undeclared_end="sixty_six",
    # The last trick decides nothing by itself here (66 does), so last_trick_scoring
    # would change nothing: not an option of this variant.
    OPTIONS=("auto_declare", "count_after_closing", "close_min_facedown"),
)

SCHNORPS = SchnorpsVariant()

register_base(SCHNAPSEN, SCHARF, SECHSUNDSECHZIG, SCHNORPS)
