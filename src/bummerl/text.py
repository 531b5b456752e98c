"""Plain-text rendering of views, actions and results for the terminal front end.

Everything here builds strings from what one player may know — a
:class:`~bummerl.view.PlayerView`, the actions and a finished game's result —
in the player's chosen card faces and language.

>>> from bummerl.game import Game
>>> from bummerl.i18n import Messages
>>> game = Game.deal("schnapsen", seed=4)
>>> view = game.view(0)
>>> [a.token for a in menu_actions(view)][:3] == [c.code for c in sort_hand(view.hand, view.trump)][:3]
True
>>> print(render_view(view, Messages("en"), "french")[0])  # doctest: +ELLIPSIS
Trump: ... · face-up card: ... · talon: 9 cards

No function here looks at a :class:`~bummerl.game.Game`'s hidden state: views
and results only.
"""

from __future__ import annotations

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card, Suit, sort_hand
from bummerl.i18n import Messages
from bummerl.variants import EndReason, GameResult
from bummerl.view import PlayerView

__all__ = [
    "describe_action",
    "marriage_value",
    "marriage_word",
    "menu_actions",
    "menu_label",
    "reason_word",
    "render_view",
    "result_sentence",
    "sort_hand",
]


def marriage_value(suit: Suit, trump: Suit) -> int:
    """20, or 40 in trumps (seeds/000: "Eine Ansage mit Atout zählt 40 Augen")."""
    return 40 if suit == trump else 20


def marriage_word(value: int, msgs: Messages) -> str:
    """``Zwanziger``/``Vierziger`` in German, ``20``/``40`` in English."""
    if msgs.lang == "de":
        return "Vierziger" if value == 40 else "Zwanziger"
    return str(value)


def menu_actions(view: PlayerView) -> list[Action]:
    """The legal actions in menu order: card plays in hand order (trumps first), then the rest."""
    legal = view.legal_actions()
    order = {c: i for i, c in enumerate(sort_hand(view.hand, view.trump))}
    plays = sorted((a for a in legal if a.kind is ActionKind.PLAY), key=lambda a: order[a.card])  # type: ignore[index]
    others = [a for a in legal if a.kind is not ActionKind.PLAY]
    return plays + others


def _is_schnorps(view: PlayerView) -> bool:
    return view.variant.match_kind == "marken"


def menu_label(action: Action, view: PlayerView, msgs: Messages, faces: str) -> str:
    """How the menu names ``action`` for the player of ``view``."""
    lang = msgs.lang
    kind = action.kind
    if kind is ActionKind.PLAY:
        assert action.card is not None
        return action.card.name(faces, lang)
    if kind is ActionKind.MARRIAGE:
        assert action.card is not None
        word = marriage_word(marriage_value(action.card.suit, view.trump), msgs)
        return msgs("menu_marriage", value=word, card=action.card.name(faces, lang))
    if kind is ActionKind.EXCHANGE:
        face_up = view.trump_card
        card = face_up.name(faces, lang) if face_up is not None else "?"
        return msgs("menu_exchange", rank=view.variant.exchange_rank.name_in(faces, lang), card=card)
    if kind is ActionKind.CLOSE:
        return msgs("menu_close_schnorps" if _is_schnorps(view) else "menu_close")
    if action.suit is not None:
        word = marriage_word(marriage_value(action.suit, view.trump), msgs)
        return msgs("menu_declare_marriage", value=word, suit=action.suit.name_in(faces, lang))
    return msgs("menu_declare_schnorps" if _is_schnorps(view) else "menu_declare")


def describe_action(
    action: Action,
    by_you: bool,
    leading: bool,
    trump: Suit,
    msgs: Messages,
    faces: str,
    exchange: tuple[Card, Card] | None = None,
) -> list[str]:
    """Sentences telling what a player did (``exchange`` = (low trump, card taken))."""
    lang = msgs.lang
    kind = action.kind
    lines: list[str] = []
    if kind in (ActionKind.MARRIAGE, ActionKind.DECLARE) and action.suit is not None:
        suit = action.suit
        value = marriage_word(marriage_value(suit, trump), msgs)
        who = msgs("You") if by_you else msgs("Computer")
        verb = msgs("verb_announce_you") if by_you else msgs("verb_announce_bot")
        lines.append(msgs("marriage_announced", who_cap=who, verb=verb, value=value, suit=suit.name_in(faces, lang)))
    if kind in (ActionKind.PLAY, ActionKind.MARRIAGE):
        assert action.card is not None
        name = action.card.name(faces, lang)
        if by_you:
            lines.append(msgs("you_lead" if leading else "you_follow", card=name))
        else:
            lines.append(msgs("bot_leads" if leading else "bot_follows", card=name))
    elif kind is ActionKind.EXCHANGE:
        low, taken = exchange if exchange is not None else (None, None)
        lines.append(
            msgs(
                "exchanged_you" if by_you else "exchanged_bot",
                low=low.name(faces, lang) if low else "?",
                card=taken.name(faces, lang) if taken else "?",
            )
        )
    elif kind is ActionKind.CLOSE:
        lines.append(msgs("closed_you" if by_you else "closed_bot"))
    elif kind is ActionKind.DECLARE:
        lines.append(msgs("declared_you" if by_you else "declared_bot"))
    return lines


def render_view(view: PlayerView, msgs: Messages, faces: str) -> list[str]:
    """The table as the player of ``view`` sees it (no menu)."""
    lang = msgs.lang
    me, opp = view.player, view.opponent
    suit = view.trump.name_in(faces, lang)
    lines: list[str] = []
    talon = msgs("talon_cards", n=view.talon_size)
    if view.closed_by is not None:
        closer = msgs("you") if view.closed_by == me else msgs("computer")
        card = view.trump_card.name(faces, lang) if view.trump_card else "-"
        lines.append(msgs("trump_line_closed", suit=suit, closer=closer, talon=talon, card=card))
    elif view.talon_size == 0:
        lines.append(msgs("trump_line_empty", suit=suit))
    else:
        card = view.trump_card.name(faces, lang) if view.trump_card else "-"
        lines.append(msgs("trump_line", suit=suit, card=card, talon=talon))
    if view.augen is not None:
        lines.append(msgs("augen_line", mine=view.augen[me], theirs=view.augen[opp]))
    else:
        lines.append(msgs("augen_hidden"))
    lines.append(msgs("tricks_line", mine=view.tricks_won[me], theirs=view.tricks_won[opp]))
    if view.marriages:
        items = [
            msgs(
                "marriage_item",
                who=msgs("you") if who == me else msgs("computer"),
                value=marriage_value(s, view.trump),
                suit=s.name_in(faces, lang),
            )
            for who, s in view.marriages
        ]
        lines.append(msgs("marriages_line", items="; ".join(items)))
    if view.opponent_known:
        # Shown marriage partners, a taken trump card, and by elimination the
        # whole hand once the talon is exhausted: all of it is in the view.
        known = sort_hand(list(view.opponent_known), view.trump)
        lines.append(msgs("known_cards", cards=", ".join(c.name(faces, lang) for c in known)))
    if view.lead is not None:
        lines.append(msgs("table_card", card=view.lead.name(faces, lang)))
    return lines


def result_sentence(result: GameResult, me: int, msgs: Messages, by_66: bool = False) -> str:
    """The result of a game in words from seat ``me``'s side, with its points.

    ``by_66``: the variant decides an undeclared game by who has 66
    (Sechsundsechzig, Schnorps) rather than by the last trick (Schnapsen).

    >>> from bummerl.variants import GameResult, EndReason
    >>> r = GameResult(0, 2, EndReason.DECLARED, (70, 20))
    >>> result_sentence(r, 0, Messages("de"))
    'Du hast dich ausgemeldet: 2 Punkte'
    >>> result_sentence(r, 1, Messages("en"))
    'The computer declared 66: 2 game points for it'
    """
    reason = result.reason
    if result.winner is None:
        return msgs("result_stand")
    points = msgs("points", n=result.points, unit=msgs.unit(result.unit, result.points))
    you_won = result.winner == me
    if reason is EndReason.DECLARED:
        return msgs("result_declared_you" if you_won else "result_declared_bot", points=points)
    if reason is EndReason.WRONG_DECLARATION:
        loser = 1 - result.winner
        return msgs("result_wrong_bot" if you_won else "result_wrong_you", augen=result.augen[loser], points=points)
    if reason is EndReason.CLOSER_WON:
        return msgs("result_closer_won_you" if you_won else "result_closer_won_bot", points=points)
    if reason is EndReason.CLOSER_FAILED:
        return msgs("result_closer_failed_you_won" if you_won else "result_closer_failed_bot_won", points=points)
    if by_66:
        return msgs("result_66_you" if you_won else "result_66_bot", points=points)
    return msgs("result_last_trick_you" if you_won else "result_last_trick_bot", points=points)


def reason_word(reason: EndReason, msgs: Messages) -> str:
    """A short name of how a game ended."""
    return msgs("reason_" + reason.value)
