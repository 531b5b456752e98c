"""Bauernschnapsen (4 players, 2 teams) as data: the contracts, their bidding rights,
trump, lead, goal and points, and the regional options.

seeds/004 (pagat's page) is the primary text, seeds/003 adds contracts (Assen-Bettler,
Bauernloch) and the three-Unter redeal.  The same :class:`TableVariant` describes
Dreierschnapsen (:mod:`bummerl.variants.dreierschnapsen`); the engine is
:class:`bummerl.table_game.TableGame`.

>>> v = BAUERNSCHNAPSEN
>>> [c.name for c in v.contracts][:4]
['normal', 'bettler', 'schnapser', 'gang']
>>> v.contract("gang").points, v.contract("gang").bidders.value
(9, 'any')
>>> v2 = v.with_options(assen_bettler=True, zehnerloch_points=8, zehnerloch_below_gang=True)
>>> [c.name for c in v2.contracts][:6]
['normal', 'bettler', 'assen-bettler', 'schnapser', 'zehnerloch', 'gang']
>>> v2.options()
{'assen_bettler': True, 'zehnerloch_points': 8, 'zehnerloch_below_gang': True}

Contracts are plain data (:class:`Contract`); the goal of each is one of a few
kinds (:class:`Goal`) that the engine checks after every trick.  The table games'
phases (:class:`Phase`) and results (:class:`TableResult`) are stated here too, for
the views and the engine alike.  This module must not import the engine (the engine
is found by the variant's family: :data:`bummerl.engine.ENGINES`).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import ClassVar

from bummerl.cards import Rank
from bummerl.errors import UnknownVariantError
from bummerl.rules.tricks import rank_order
from bummerl.variants.base import Variant, register_base

__all__ = [
    "BAUERNSCHNAPSEN",
    "BETTLER_ACE_ORDER",
    "ZEHNERLOCH_ORDER",
    "Bidders",
    "Contract",
    "Goal",
    "Phase",
    "Requirement",
    "TableEndReason",
    "TableResult",
    "TableVariant",
]

#: seeds/004: "die Rangfolge der Karten ist in allen Farben 10-K-D-B-A".
ZEHNERLOCH_ORDER = rank_order(Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER, Rank.ACE)
#: seeds/004 Varianten: "Die Rangfolge der Karten wird geändert; von hoch zu niedrig
#: A – K – D – B – 10."
BETTLER_ACE_ORDER = rank_order(Rank.ACE, Rank.KING, Rank.OBER, Rank.UNTER, Rank.TEN)


class Phase(enum.Enum):
    """Where the game stands."""

    CUT = "cut"
    TRUMP = "trump"
    BIDDING = "bidding"
    TALON = "talon"
    DOUBLING = "doubling"
    PLAY = "play"
    OVER = "over"


class TableEndReason(enum.Enum):
    """How a table game ended."""

    #: Normal game: a correct "Genug".
    DECLARED = "declared"
    #: Normal game: "Genug" with fewer than 66; the other side scores.
    WRONG_DECLARATION = "wrong_declaration"
    #: Normal game without "Genug": the last trick's side scores 1.
    LAST_TRICK = "last_trick"
    #: A special contract reached its goal.
    CONTRACT_WON = "contract_won"
    #: A special contract failed.
    CONTRACT_LOST = "contract_lost"
    #: Farbenring or Herrenschnapser shown and won without play (four players).
    CLAIMED = "claimed"
    #: Three Unter in a player's first three cards: deal again, nobody scores.
    REDEAL = "redeal"


@dataclasses.dataclass(frozen=True)
class TableResult:
    """The end of one table game.

    ``winners`` are the seats credited with ``points`` each (with four players
    both members of the winning team; with three the soloist, or both
    defenders).  ``augen`` are the declarer's side's and the defenders' counted
    Augen; ``multiplier`` is 1, 2 (Kontra), 4 (Rekontra) or 8 (Subkontra).
    """

    contract: str
    declarer: int | None
    winners: tuple[int, ...]
    points: int
    reason: TableEndReason
    augen: tuple[int, int]
    multiplier: int = 1

    def points_of(self, seat: int) -> int:
        """Game points credited to ``seat`` by this game."""
        return self.points if seat in self.winners else 0

    def to_json(self, players: int) -> dict[str, object]:
        """The bot protocol's JSON object (:class:`bummerl.rules.result.Result`): the winners and every seat's points.

        >>> TableResult("gang", 1, (1,), 6, TableEndReason.CONTRACT_WON, (120, 0)).to_json(3)
        {'contract': 'gang', 'declarer': 1, 'winners': [1], 'points': 6, 'points_by_seat': [0, 6, 0], \
'reason': 'contract_won', 'augen': [120, 0], 'multiplier': 1}
        """
        return {
            "contract": self.contract,
            "declarer": self.declarer,
            "winners": list(self.winners),
            "points": self.points,
            "points_by_seat": [self.points_of(s) for s in range(players)],
            "reason": self.reason.value,
            "augen": list(self.augen),
            "multiplier": self.multiplier,
        }


class Goal(enum.Enum):
    """What the declarer's side must achieve."""

    #: Normal game: a side reaches 66 and says "Genug"; else the last trick decides.
    SIXTY_SIX = "sixty_six"
    #: Bettler: the declarer takes no trick.
    NO_TRICK = "no_trick"
    #: Schnapser, Kontra-Schnapser: the declarer takes the first ``goal_tricks``
    #: tricks and has 66 in them.
    FIRST_TRICKS_66 = "first_tricks_66"
    #: Gang-type: the declarer takes every trick.
    ALL_TRICKS = "all_tricks"
    #: Farbenring, Herrenschnapser with four players: won by showing the cards.
    CLAIM = "claim"


class Bidders(enum.StrEnum):
    """Who may bid a contract (seeds/004, column "Es reizt")."""

    VORHAND = "vorhand"  # "Nur Vorhand"
    VORHAND_TEAM = "vorhand_team"  # "Vorhand oder der Partner von Vorhand"
    OPPONENTS = "opponents"  # "Einer der Gegenspieler von Vorhand"
    NOT_VORHAND = "not_vorhand"  # "Jeder außer Vorhand"
    ANY = "any"  # "jeder"


class Requirement(enum.StrEnum):
    """What the bidder's hand must contain."""

    NONE = "none"
    ACE = "ace"  # Assen-Bettler: "mindestens ein Ass in der Hand"
    FULL_SUIT = "full_suit"  # Farbenring: "alle fünf Karten einer Farbe"
    ALL_TRUMPS = "all_trumps"  # Herrenschnapser: "alle fünf Karten der Trumpffarbe"


@dataclasses.dataclass(frozen=True)
class Contract:
    """One contract (Spielansage) of a table game.

    ``name`` is the record token (``bid:<name>``); contracts bid higher come later
    in :attr:`TableVariant.contracts`.
    """

    name: str
    title: str
    points: int
    bidders: Bidders
    #: Whether Vorhand's trump counts; ``False``: "alle Farben sind gleichwertig".
    trump: bool
    #: ``"vorhand"`` or ``"declarer"`` leads to the first trick.
    lead: str
    goal: Goal
    #: Tricks that decide a FIRST_TRICKS_66 contract (3 with four players, 4 with three).
    goal_tricks: int = 0
    #: Whether the declarer's partner plays (four players only).
    partner_plays: bool = True
    #: The rank order inside each suit (``None``: A-10-K-O-U).
    order: tuple[int, ...] | None = None
    requirement: Requirement = Requirement.NONE
    #: Who may announce marriages: ``"all"``, ``"declarer"`` or ``"none"``.
    marriages: str = "none"
    #: The seed sentence the contract comes from.
    source: str = ""
    #: Bidding rank: the index in the variant's :attr:`TableVariant.contracts` (set by the variant; the auction
    #: compares it at every bid a generation of legal actions considers).
    rank: int = dataclasses.field(default=-1, compare=False)

    @property
    def is_claim(self) -> bool:
        return self.goal is Goal.CLAIM


_OPTIONS_DOC: dict[str, str] = {
    "bettler": "play with Bettler (seeds/004: 'Einige Spielkreise spielen ohne Bettler')",
    "assen_bettler": "add the Assen-Bettler, 5 points, needs an ace (seeds/003, seeds/004 'Ass-Bettler')",
    "bettler_points": "points of the Bettler: 4 (seeds/004 table) or 5 (seeds/004 Varianten)",
    "bettler_ace_high": "Bettler ranks A-K-O-U-10 (seeds/004 Varianten: 'von hoch zu niedrig A – K – D – B – 10')",
    "bettler_partner_plays": "the Bettler's partner plays (seeds/004 Varianten: 'so daß alle vier Spieler ...')",
    "gang_partner_plays": "the partner plays in Gang and Zehnerloch (the seeds are silent; default: sits out)",
    "zehnerloch": "play with Zehnerloch (seeds/004: 'Einige spielen ohne den Kontrakt Zehner-Gang')",
    "zehnerloch_points": "points of the Zehnerloch: 10 (seeds/003, 004), 8 or 9 (seeds/004 Varianten)",
    "zehnerloch_below_gang": "Zehnerloch ranks below Gang in the bidding (seeds/004: 'rangiert unter dem ... Gang')",
    "bauernloch": "add the Bauernloch, 12 points, all tricks with trump, Zehnerloch order (seeds/003)",
    "kontra_beats_bettler": "an opponent's Kontra on the normal game is a bid above the Bettler (seeds/004 Varianten)",
    "max_doubling": "doubling steps allowed: 0 none, 1 Kontra, 2 Rekontra, 3 Subkontra (seeds/004)",
    "three_unter_redeal": "three Unter in a player's first three cards force a redeal (seeds/003)",
    "match_target": "game points that win the match (seeds/003, 004: 24)",
    "raise_after_talon": "Dreierschnapsen: the soloist may bid higher after taking up the talon (seeds/004)",
    "may_skip_talon": "Dreierschnapsen: the soloist may leave the talon, the game is worth a point more (seeds/004)",
}
#: Options that only a game with a talon has.
_TALON_OPTIONS = ("raise_after_talon", "may_skip_talon")
#: Options that only a game with partners has (four players): Dreierschnapsen does not offer them.
_PARTNER_OPTIONS = ("bettler_partner_plays", "gang_partner_plays")


@dataclasses.dataclass(frozen=True)
class TableVariant(Variant):
    """The rules of a three- or four-player game.  Defaults: Bauernschnapsen."""

    OPTION_HELP: ClassVar[dict[str, str]] = _OPTIONS_DOC
    KIND: ClassVar[str] = "three- or four-player variant"
    FAMILY: ClassVar[str] = "table_game"

    name: str = "bauernschnapsen"
    aliases: tuple[str, ...] = ("bauern", "viererschnapsen", "bauernschnapser", "4")
    title: str = "Bauernschnapsen"
    players: int = 4
    hand_size: int = 5
    #: Cards laid aside in the deal and taken up by the soloist (Dreierschnapsen).
    talon_size: int = 0
    deck_size: int = 20
    # ---- options (documented in _OPTIONS_DOC and docs/bauernschnapsen.md) ----
    bettler: bool = True
    assen_bettler: bool = False
    bettler_points: int = 4
    bettler_ace_high: bool = False
    bettler_partner_plays: bool = False
    gang_partner_plays: bool = False
    zehnerloch: bool = True
    zehnerloch_points: int = 10
    zehnerloch_below_gang: bool = False
    bauernloch: bool = False
    kontra_beats_bettler: bool = False
    max_doubling: int = 3
    three_unter_redeal: bool = True
    match_target: int = 24
    raise_after_talon: bool = False
    may_skip_talon: bool = False

    OPTIONS: tuple[str, ...] = dataclasses.field(
        default=tuple(k for k in _OPTIONS_DOC if k not in _TALON_OPTIONS), repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise UnknownVariantError(f"a table game has 3 or 4 players, not {self.players}")
        if self.players * self.hand_size + self.talon_size != self.deck_size:
            raise UnknownVariantError(
                f"{self.players} hands of {self.hand_size} and a talon of {self.talon_size} "
                f"do not make the {self.deck_size}-card pack"
            )
        if not 0 <= self.max_doubling <= 3:
            raise UnknownVariantError(f"max_doubling must be 0..3, not {self.max_doubling}")
        if self.zehnerloch_points not in (8, 9, 10):
            raise UnknownVariantError(f"zehnerloch_points must be 8, 9 or 10, not {self.zehnerloch_points}")
        if self.bettler_points not in (4, 5):
            raise UnknownVariantError(f"bettler_points must be 4 or 5, not {self.bettler_points}")
        if self.talon_size == 0 and (self.raise_after_talon or self.may_skip_talon):
            raise UnknownVariantError(f"{self.title} has no talon: raise_after_talon and may_skip_talon do not apply")
        if self.kontra_beats_bettler and self.max_doubling < 1:
            raise UnknownVariantError("kontra_beats_bettler needs max_doubling of at least 1")
        if self.match_target < 1:
            raise UnknownVariantError(f"match_target must be positive, not {self.match_target}")
        # Kept on the instance (not fields): hashing the whole variant for a cache
        # lookup on every legal-move generation cost a third of the engine's time.
        contracts = tuple(dataclasses.replace(c, rank=i) for i, c in enumerate(_build_contracts(self)))
        object.__setattr__(self, "_contracts", contracts)
        object.__setattr__(self, "_ranks", {c.name: c.rank for c in contracts})

    # ---- traits (Variant's) ----
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Four players: partners sit opposite (seeds/004); three: every seat alone."""
        return ((0, 2), (1, 3)) if self.players == 4 else ()

    # ---- contracts ----
    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The contracts in bidding order, lowest first."""
        contracts: tuple[Contract, ...] = self.__dict__["_contracts"]
        return contracts

    def contract(self, name: str) -> Contract:
        """The contract called ``name`` (raises :class:`UnknownVariantError`)."""
        for c in self.contracts:
            if c.name == name:
                return c
        known = ", ".join(c.name for c in self.contracts)
        raise UnknownVariantError(f"{self.title} has no contract {name!r}; contracts: {known}")

    def contract_rank(self, name: str) -> int:
        """Bidding rank of a contract: its index in :attr:`contracts`."""
        ranks: dict[str, int] = self.__dict__["_ranks"]
        return ranks[name]

    @property
    def first_tricks(self) -> int:
        """Tricks of a Schnapser: three with four players, four with three (seeds/003, 004)."""
        return 3 if self.players == 4 else 4


def _build_contracts(v: TableVariant) -> tuple[Contract, ...]:
    four = v.players == 4
    schnapser_src = (
        "seeds/004: 'muß der Ansager des Schnapsers die ersten drei Stiche machen und dabei mindestens 66 Punkte'"
        if four
        else "seeds/004 Talon-Schnapsen: 'muß der Alleinspieler die ersten vier Stiche machen und mindestens 66'"
    )
    all_src = (
        "seeds/004: 'Wer den Kontrakt angesagt hat, muß alle 5 Stiche machen.'"
        if four
        else "seeds/004 Talon-Schnapsen: 'muß der Alleinspieler alle sechs Stiche machen'"
    )
    bettler_order = BETTLER_ACE_ORDER if v.bettler_ace_high else None
    out: list[Contract] = [
        Contract(
            "normal",
            "Normales Spiel",
            1,
            Bidders.VORHAND,
            True,
            "vorhand",
            Goal.SIXTY_SIX,
            marriages="all",
            source="seeds/004: 'Das Team will als erstes mindestens 66 Kartenpunkte erreichen'",
        ),
    ]
    if v.bettler:
        bettler = Contract(
            "bettler",
            "Bettler",
            v.bettler_points,
            Bidders.ANY,
            False,
            "declarer",
            Goal.NO_TRICK,
            partner_plays=v.bettler_partner_plays,
            order=bettler_order,
            source="seeds/004: 'Der Ansager des Bettlers darf keinen Stich machen ... Der Partner des "
            "Bettlerspielers nimmt nicht am Spiel teil.'",
        )
        out.append(bettler)
        if v.assen_bettler:
            # The Bettler with an ace in hand, for more points.
            out.append(
                dataclasses.replace(
                    bettler,
                    name="assen-bettler",
                    title="Assen-Bettler",
                    points=5,
                    requirement=Requirement.ACE,
                    source="seeds/003: 'Der Spieler, der den Assenbettler ansagt, muss mindestens ein Ass in der "
                    "Hand haben.'",
                )
            )
    if v.kontra_beats_bettler:
        # Played as the normal game of Vorhand with Kontra said (see bummerl.table_game).
        out.append(
            Contract(
                "kontra-normal",
                "Kontra (Normalspiel)",
                1,
                Bidders.OPPONENTS,
                True,
                "vorhand",
                Goal.SIXTY_SIX,
                marriages="all",
                source="seeds/004 Varianten: 'Sagt einer der Gegenspieler von Vorhand Kontra gegen das Normalspiel, "
                "dann ist das höherrangig als der Bettler.'",
            )
        )
    out.append(
        Contract(
            "schnapser",
            "Schnapser",
            6,
            Bidders.VORHAND_TEAM,
            True,
            "vorhand",
            Goal.FIRST_TRICKS_66,
            goal_tricks=v.first_tricks,
            marriages="declarer",
            source=schnapser_src,
        )
    )
    gang = Contract(
        "gang",
        "Gang",
        9,
        Bidders.ANY,
        False,
        "declarer",
        Goal.ALL_TRICKS,
        partner_plays=v.gang_partner_plays,
        source=all_src,
    )
    zehnerloch = Contract(
        "zehnerloch",
        "Zehnerloch",
        v.zehnerloch_points,
        Bidders.ANY,
        False,
        "declarer",
        Goal.ALL_TRICKS,
        partner_plays=v.gang_partner_plays,
        order=ZEHNERLOCH_ORDER,
        source="seeds/004: 'die Rangfolge der Karten ist in allen Farben 10-K-D-B-A'",
    )
    if v.zehnerloch and v.zehnerloch_below_gang:
        out += [zehnerloch, gang]
    elif v.zehnerloch:
        out += [gang, zehnerloch]
    else:
        out.append(gang)
    out.append(
        Contract(
            "kontra-schnapser",
            "Kontra-Schnapser",
            12,
            Bidders.OPPONENTS,
            True,
            "vorhand",
            Goal.FIRST_TRICKS_66,
            goal_tricks=v.first_tricks,
            marriages="declarer",
            source="seeds/003: 'Der Kontraschnapser kann von einem Gegenspieler des Rufers gespielt werden. Die vom "
            "Rufer gerufene Trumpffarbe zählt, der Rufer spielt aus'",
        )
    )
    out.append(
        Contract(
            "bauernschnapser",
            "Bauernschnapser",
            12,
            Bidders.VORHAND_TEAM,
            True,
            "vorhand",
            Goal.ALL_TRICKS,
            source="seeds/003: 'Wie beim Gang ist das Ziel, alle Stiche zu machen. Im Gegensatz zum Gang gibt es "
            "Trumpf.'",
        )
    )
    if v.bauernloch:
        out.append(
            Contract(
                "bauernloch",
                "Bauernloch",
                12,
                Bidders.VORHAND_TEAM,
                True,
                "vorhand",
                Goal.ALL_TRICKS,
                order=ZEHNERLOCH_ORDER,
                source="seeds/003: 'Es müssen gleich wie beim Zehnerloch alle Stiche gemacht werden, jedoch mit "
                "Trumpf.'",
            )
        )
    out.append(
        _hand_contract(
            "farbenring",
            "Farbenring",
            18,
            Bidders.NOT_VORHAND,
            False,
            Requirement.FULL_SUIT,
            four,
            "seeds/003: 'Wenn man alle fünf Karten einer Farbe besitzt, kann man einen Farbring ansagen. "
            "Trumpf gilt nicht.'",
        )
    )
    out.append(
        Contract(
            "kontra-bauernschnapser",
            "Kontra-Bauernschnapser",
            24,
            Bidders.OPPONENTS,
            True,
            "vorhand",
            Goal.ALL_TRICKS,
            source="seeds/003: 'die vom Rufer gerufene Trumpffarbe zählt. Der Rufer spielt die erste Karte aus und "
            "der Ansager muss alle Stiche machen.'",
        )
    )
    out.append(
        _hand_contract(
            "herrenschnapser",
            "Herrenschnapser",
            24,
            Bidders.VORHAND,
            True,
            Requirement.ALL_TRUMPS,
            four,
            "seeds/003: 'Wenn der Rufer alle Karten der Trumpffarbe hält, kann er einen Herrenschnapser ansagen.'",
        )
    )
    return tuple(out)


def _hand_contract(
    name: str,
    title: str,
    points: int,
    bidders: Bidders,
    trump: bool,
    requirement: Requirement,
    four: bool,
    source: str,
) -> Contract:
    """A contract that a hand meeting ``requirement`` earns and its declarer plays alone: with four players the
    hand is shown and claimed, with three played out for every trick."""
    return Contract(
        name,
        title,
        points,
        bidders,
        trump,
        "declarer",
        Goal.CLAIM if four else Goal.ALL_TRICKS,
        partner_plays=False,
        requirement=requirement,
        source=source,
    )


BAUERNSCHNAPSEN = TableVariant()

register_base(BAUERNSCHNAPSEN)
