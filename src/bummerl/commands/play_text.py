"""What the prompt of ``bummerl play`` reads: the menu's order and the cards a player may type.

The story of the play (what each action did) is told by
:class:`bummerl.text.Narrator`, which ``bummerl replay`` shares, and the table
at a prompt is drawn by :func:`bummerl.text.view_lines`; both come from the
player's view, and nothing here reads a game.

>>> from bummerl.game import Game
>>> table = Game.deal("dreierschnapsen", seed=5)
>>> [a.token for a in menu(table.view(table.to_move))[1]]
['cut', 'knock']
"""

from __future__ import annotations

from typing import Any

from bummerl.actions import Action, ActionKind
from bummerl.cards import LANGUAGES, Card, deck, sort_hand

__all__ = [
    "card_names",
    "menu",
    "normalize",
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
