"""What ``bummerl play`` tells the player, in German or English: the events, the table, the menu.

Everything the player is told about the play comes from the events that
:meth:`bummerl.game.Game.apply` returns (:class:`Narrator`), told as the
player's seat may see them: :meth:`Event.to_json` with that seat decides whether
a drawn card, a taken-up talon or a card laid away is named, so a bot's draw is
never shown and nothing here decides a secret of its own.  What stands on the
table at a prompt comes from the player's view; nothing here reads a game.

>>> from bummerl.game import Game
>>> from bummerl.i18n import Messages
>>> game = Game.deal("schnapsen", seed=5)
>>> words = Words(Messages("en"), "french", game.variant, seat=0)
>>> narrator = Narrator(words, result=lambda result: [])
>>> narrator.tell(game.apply("marry:Kh"))   # the value comes with the event
['You announce 20 in Hearts.', 'You lead King of Hearts.']
>>> for line in narrator.tell(game.apply("Kc")):
...     print(line)  # doctest: +ELLIPSIS
Computer plays King of Clubs.
Trick: You King of Hearts – Computer King of Clubs. You take the trick.
You draw ...

The computer's draw is not told: the card is the computer's secret.  At a table
of three or four the others are named by seat:

>>> table = Game.deal("dreierschnapsen", seed=5)
>>> words = Words(Messages("de"), "german", table.variant, seat=0)
>>> Narrator(words, result=lambda result: []).tell(table.apply("knock"))
['Platz 2: klopfen (alle Karten auf einmal).']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bummerl.actions import DOUBLE_NAMES, Action, ActionKind
from bummerl.cards import LANGUAGES, Card, Suit, deck, marriage_value, sort_hand
from bummerl.events import (
    Bid,
    Close,
    Contract,
    Cut,
    Declare,
    Discard,
    Double,
    Draw,
    Event,
    Exchange,
    GameEnd,
    Knock,
    Marriage,
    Pass,
    Play,
    TalonLeft,
    TalonTaken,
    Trick,
    TrumpCall,
)
from bummerl.i18n import Messages
from bummerl.table_game import Phase, TableEndReason, TableResult
from bummerl.text import marriage_word
from bummerl.variants import TableVariant, Variant

__all__ = [
    "Narrator",
    "Words",
    "card_names",
    "menu",
    "normalize",
    "table_label",
    "table_result_lines",
    "table_view_lines",
]


@dataclasses.dataclass(frozen=True)
class Words:
    """The sentences of one language and card faces, and the names of the seats.

    ``seat`` is the player the text is told to ("you"; ``None`` for a record,
    told to nobody in particular); the others are "the computer" when there is
    one, else "seat 2" (with the name of ``names``, e.g. a record's Seat tags).
    """

    msgs: Messages
    faces: str
    variant: Variant
    seat: int | None = None
    names: Mapping[int, str] = dataclasses.field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.msgs.lang

    def __call__(self, key: str, **kwargs: object) -> str:
        return self.msgs(key, **kwargs)

    def card(self, card: Card) -> str:
        return card.name(self.faces, self.lang)

    def cards(self, cards: Iterable[Card]) -> str:
        return ", ".join(self.card(c) for c in cards) or "-"

    def suit(self, suit: Suit) -> str:
        return suit.name_in(self.faces, self.lang)

    def is_you(self, seat: int) -> bool:
        return seat == self.seat

    def who(self, seat: int) -> str:
        """``seat`` at the start of a sentence: "You", "Computer", "Seat 2"."""
        return self._name(seat, "You", "Computer", "Seat")

    def whom(self, seat: int) -> str:
        """``seat`` inside a sentence: "you", "computer", "seat 2"."""
        return self._name(seat, "you", "computer", "seat")

    def _name(self, seat: int, you: str, computer: str, other: str) -> str:
        if seat == self.seat:
            return self(you)
        if self.seat is not None and self.variant.players == 2:
            return self(computer)
        name = self.names.get(seat, "")
        return self(other, n=seat) + (f" ({name})" if name not in ("", "?") else "")


class Narrator:
    """Tells the events of one game after another, as the seat of ``words`` may see them.

    ``result`` tells a finished game's result (its type is the family's); with
    ``public`` every card is named (a finished record, which hides nothing).
    """

    def __init__(self, words: Words, result: Callable[[Any], list[str]], *, public: bool = False) -> None:
        self.words = words
        self.result = result
        self.public = public
        self._cards_in_trick = 0

    def new_game(self) -> None:
        self._cards_in_trick = 0

    def tell(self, events: Sequence[Event]) -> list[str]:
        """The sentences of the events of one action."""
        over = any(isinstance(e, GameEnd) for e in events)
        lines: list[str] = []
        for event in events:
            lines += self.describe(event, game_goes_on=not over)
        return lines

    def describe(self, event: Event, game_goes_on: bool = True) -> list[str]:
        """The sentences of one event."""
        w = self.words
        match event:
            case Play(seat, card):
                leads = self._cards_in_trick == 0
                self._cards_in_trick += 1
                if w.is_you(seat):
                    return [w("you_lead" if leads else "you_follow", card=w.card(card))]
                return [w("other_leads" if leads else "other_follows", who=w.who(seat), card=w.card(card))]
            case Trick(cards=cards, winner=winner):
                self._cards_in_trick = 0
                played = " – ".join(f"{w.who(s)} {w.card(c)}" for s, c in cards)
                took = w("you_took_trick") if w.is_you(winner) else w("other_took_trick", who=w.who(winner))
                return [w("trick_line", cards=played) + took]
            case Marriage(seat, suit, value):
                verb = w("verb_announce_you" if w.is_you(seat) else "verb_announce_bot")
                word = marriage_word(value, w.msgs)
                return [w("marriage_announced", who_cap=w.who(seat), verb=verb, value=word, suit=w.suit(suit))]
            case Declare(seat):
                # A marriage shown with it came as its own event just before.
                return [w("declared_you") if w.is_you(seat) else w("declared_other", who=w.who(seat))]
            case GameEnd(result):
                return self.result(result)
            case Draw(seat, _, face_up):
                card = self._shown(event, "card")
                if card is None:
                    return []
                drew = (
                    w("you_draw", card=w.card(card))
                    if w.is_you(seat)
                    else w("other_draws", who=w.who(seat), card=w.card(card))
                )
                # The face-up trump card is the talon's last: the strict rules begin.
                return [drew, w("talon_exhausted")] if face_up and game_goes_on else [drew]
            case Exchange(seat, took, gave):
                if w.is_you(seat):
                    return [w("exchanged_you", low=w.card(gave), card=w.card(took))]
                return [w("exchanged_other", who=w.who(seat), low=w.card(gave), card=w.card(took))]
            case Close(seat):
                return [w("closed_you") if w.is_you(seat) else w("closed_other", who=w.who(seat))]
            case _:
                return self._describe_table(event)

    def _describe_table(self, event: Event) -> list[str]:
        """The events before the play of the table games."""
        w = self.words
        match event:
            case Cut(seat):
                return [w("cut", who=w.who(seat))]
            case Knock(seat):
                return [w("knock", who=w.who(seat))]
            case TrumpCall(seat, suit, None):
                return [w("trump_call", who=w.who(seat), suit=w.suit(suit))]
            case TrumpCall(seat, suit, card) if card is not None:
                return [w("trump_turn", who=w.who(seat), card=w.card(card), suit=w.suit(suit))]
            case Bid(seat, contract):
                return [w("bid", who=w.who(seat), contract=self._title(contract))]
            case Pass(seat):
                return [w("pass", who=w.who(seat))]
            case Contract(contract, declarer):
                return [w("contract", contract=self._title(contract), who=w.whom(declarer))]
            case Double(seat, level):
                return [w("double", who=w.who(seat), word=DOUBLE_NAMES[level - 1].title())]
            case TalonTaken(seat, _):
                cards = self._shown(event, "cards")
                if cards is None:
                    return [w("take_talon", who=w.who(seat))]
                return [w("take_talon_cards", who=w.who(seat), cards=w.cards(cards))]
            case TalonLeft(seat):
                return [w("skip_talon", who=w.who(seat))]
            case Discard(seat, _):
                card = self._shown(event, "card")
                if card is None:
                    return [w("discard", who=w.who(seat))]
                return [w("discard_card", who=w.who(seat), card=w.card(card))]
        raise AssertionError(f"no narration for {event!r}")  # pragma: no cover - every event is told above

    def _shown(self, event: Draw | TalonTaken | Discard, field: str) -> Any:
        """The card(s) of ``event`` in ``field`` if this seat may see them, else ``None``."""
        if self.public:
            return getattr(event, field)
        # The events module decides, for every front end, who sees which card.
        shown = event.to_json(self.words.seat)[field]
        if shown is None:
            return None
        return [Card.parse(c) for c in shown] if isinstance(shown, list) else Card.parse(shown)

    def _title(self, contract: str) -> str:
        variant = self.words.variant
        assert isinstance(variant, TableVariant), "only the table games bid"
        return variant.contract(contract).title


# ------------------------------------------------------------------ the menu and typed cards
def menu(view: Any) -> tuple[list[Card], list[Action]]:
    """The hand in display order (trumps first) and the legal actions numbered from 1.

    The cards come first in the order they are shown, then the other actions, so
    the numbers run down the screen.
    """
    hand = sort_hand(view.hand, view.trump)
    legal: list[Action] = view.legal_actions()
    plays = {a.card: a for a in legal if a.kind is ActionKind.PLAY}
    return hand, [plays[c] for c in hand if c in plays] + [a for a in legal if a.kind is not ActionKind.PLAY]


def normalize(text: str) -> str:
    """``text`` as typed cards are compared: lower case, without spaces, dashes, dots.

    >>> normalize("Herz-Ass"), normalize(" 10 d")
    ('herzass', '10d')
    """
    return "".join(ch for ch in text.lower() if ch not in " -_.") if text else ""


def card_names(deck_size: int, faces: str) -> dict[str, Card]:
    """Every way a player may type a card of the pack: its code, short forms and names, in both languages."""
    names: dict[str, Card] = {}
    for card in deck(deck_size):
        spellings = [card.code, card.code.replace("T", "10")]
        for lang in LANGUAGES:
            spellings += [card.name(faces, lang), card.short(faces, lang)]
        for s in spellings:
            names.setdefault(normalize(s), card)
    return names


# ------------------------------------------------------------------ the table games
_TABLE_MENU = {
    ActionKind.CUT: "menu_cut",
    ActionKind.KNOCK: "menu_knock",
    ActionKind.TURN_TRUMP: "menu_turn",
    ActionKind.PASS: "menu_pass",
    ActionKind.TAKE_TALON: "menu_take_talon",
    ActionKind.SKIP_TALON: "menu_skip_talon",
}


def table_label(action: Action, view: Any, w: Words) -> str:
    """How the menu of a table game names ``action``, with the token that may be typed for it."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        assert action.card is not None
        return w.card(action.card)
    if kind in _TABLE_MENU:
        text = w(_TABLE_MENU[kind])
    elif kind is ActionKind.BID:
        contract = view.variant.contract(action.contract)
        text = w("menu_bid", contract=contract.title, points=contract.points)
    elif kind is ActionKind.CALL_TRUMP:
        assert action.suit is not None
        text = w.suit(action.suit)
    elif kind is ActionKind.DISCARD:
        assert action.card is not None
        text = w("menu_discard", card=w.card(action.card))
    elif kind is ActionKind.MARRIAGE:
        assert action.card is not None
        value = marriage_word(marriage_value(action.card.suit, view.trump), w.msgs)
        text = w("menu_marriage", value=value, card=w.card(action.card))
    elif kind is ActionKind.DECLARE and action.suit is not None:
        value = marriage_word(marriage_value(action.suit, view.trump), w.msgs)
        text = w("menu_declare_marriage", value=value, suit=w.suit(action.suit))
    elif kind is ActionKind.DECLARE:
        text = w("menu_declare")
    else:  # DOUBLE
        text = DOUBLE_NAMES[action.level - 1].title()
    return f"{text} [{action.token}]"


def table_view_lines(view: Any, w: Words) -> list[str]:
    """What lies on a table game's table for the player of ``view`` (a TableView): trump, bidding, contract, trick."""
    lines: list[str] = []
    contract = view.variant.contract(view.contract) if view.contract is not None else None
    # A contract without trump (Bettler, Gang, ...) makes the called suit an ordinary one.
    if view.trump is not None and (contract is None or contract.trump):
        lines.append(w("table_trump", suit=w.suit(view.trump)))
    if view.bids:
        bids = [
            f"{w.who(s)} " + (view.variant.contract(a.contract).title if a.kind is ActionKind.BID else w("menu_pass"))
            for s, a in view.bids
        ]
        lines.append(w("table_bids", bids=", ".join(bids)))
    if contract is not None and view.declarer is not None:
        doubling = f", {DOUBLE_NAMES[view.doubling - 1].title()}" if view.doubling else ""
        lines.append(w("table_contract", contract=contract.title, who=w.whom(view.declarer), doubling=doubling))
    if view.phase is Phase.PLAY:
        lines.append(w("table_augen", a=view.augen[0], b=view.augen[1]))
        if view.trick:
            lines.append(w("table_trick", cards=", ".join(f"{w.who(s)}: {w.card(c)}" for s, c in view.trick)))
    return lines


def table_result_lines(result: TableResult, w: Words) -> list[str]:
    """A table game's result: who scores what, and why."""
    if result.reason is TableEndReason.REDEAL:
        return ["", w("redeal")]
    winners = ", ".join(w.who(s) for s in result.winners)
    points = w("points", n=result.points, unit=w.msgs.unit("game points", result.points))
    reason = w("reason_" + result.reason.value)
    mult = f", x{result.multiplier}" if result.multiplier > 1 else ""
    return ["", w("table_result", winners=winners, points=points, reason=reason, mult=mult)]
