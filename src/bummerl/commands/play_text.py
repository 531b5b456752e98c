"""What the prompt of ``bummerl play`` shows and reads: the menu, the cards a player may type, a table game's table.

The story of the play (what each action did) is told by
:class:`bummerl.text.Narrator`, which ``bummerl replay`` shares; what stands on
the table at a prompt comes from the player's view, and nothing here reads a
game.

>>> from bummerl.game import Game
>>> from bummerl.i18n import Messages
>>> from bummerl.text import Words
>>> table = Game.deal("dreierschnapsen", seed=5)
>>> view = table.view(table.to_move)
>>> w = Words(Messages("en"), "german", table.variant, seat=table.to_move)
>>> [table_label(a, view, w) for a in menu(view)[1]]
['cut [cut]', 'knock (all cards at once) [knock]']
"""

from __future__ import annotations

from typing import Any

from bummerl.actions import DOUBLE_NAMES, Action, ActionKind
from bummerl.cards import LANGUAGES, Card, deck, marriage_value, sort_hand
from bummerl.table_game import Phase, TableEndReason, TableResult
from bummerl.text import Words, marriage_word

__all__ = [
    "card_names",
    "menu",
    "normalize",
    "table_label",
    "table_result_lines",
    "table_view_lines",
]


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
