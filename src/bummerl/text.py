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
and results only — except :class:`RecordNarrator`, which tells a *record*, and a
record hides nothing: it shows every hand, the talon and each card laid away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bummerl import events as ev
from bummerl.actions import DOUBLE_NAMES, Action, ActionKind
from bummerl.cards import Card, Suit, marriage_value, sort_hand
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.variants import EndReason, GameResult, TableVariant, Variant
from bummerl.view import PlayerView

__all__ = [
    "RecordNarrator",
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


class RecordNarrator:
    """Tells a recorded game of any variant from the events of its replay, every card shown.

    A record is public, so nothing is hidden: the hands as dealt, the talon,
    every card drawn, taken up or laid away.  :meth:`deal` tells the cards
    dealt before the first action (the two-player games; a table game deals at
    its cut or knock, an event), :meth:`tell` the events of one action
    (:meth:`bummerl.game.Game.apply`), :meth:`end` an unfinished game's last
    words.  It counts the tricks and remembers the contract and the doubling,
    for the result.  ``names`` are the players' names by seat (the record's
    ``SeatN`` tags; ``?`` or empty: no name).

    >>> from bummerl.game import Game
    >>> game = Game.deal("dreierschnapsen", seed=4, dealer=2)
    >>> narrator = RecordNarrator(Messages("en"), "french", game.variant, {1: "anna"})
    >>> narrator.deal(game)
    []
    >>> lines = narrator.tell(game.apply("knock"), game)
    >>> lines[0], lines[2].startswith("Player 1 (anna): ")
    ('Player 1 (anna): knock (all cards at once).', True)
    """

    def __init__(self, msgs: Messages, faces: str, variant: Variant, names: Mapping[int, str]) -> None:
        self.msgs = msgs
        self.faces = faces
        self.variant = variant
        self.names = dict(names)
        self.tricks = 0
        #: The contract fixed by a table game's bidding (``None``: none yet, or a two-player game).
        self.contract: str | None = None
        self.doubling = 0
        self._trick: list[tuple[int, Card]] = []

    # ------------------------------------------------------------ words
    def who(self, seat: int) -> str:
        """The seat number with the player's name: ``1 (anna)``."""
        name = self.names.get(seat, "?")
        return str(seat) if name in ("", "?") else f"{seat} ({name})"

    def _player(self, seat: int) -> str:
        return self.msgs("replay_player", p=self.who(seat))

    def _subject(self, seat: int) -> str:
        return self.msgs("replay_player_start", p=self.who(seat))

    def _card(self, card: Card) -> str:
        return card.name(self.faces, self.msgs.lang)

    def _cards(self, cards: Iterable[Card]) -> str:
        return ", ".join(self._card(c) for c in cards) or "-"

    def _suit(self, suit: Suit) -> str:
        return suit.name_in(self.faces, self.msgs.lang)

    # ------------------------------------------------------------ the story
    def deal(self, game: Game) -> list[str]:
        """The hands from Vorhand on and what lies beside them, if the cards are dealt yet."""
        if not any(game.hands):
            return []
        m = self.msgs
        n = game.players
        trump: Suit | None = getattr(game, "trump", None)  # a table game's is called after its deal
        lines = [
            m("replay_hand", p=self.who(p), cards=self._cards(sort_hand(game.hands[p], trump)))
            for p in ((game.dealer + 1 + i) % n for i in range(n))
        ]
        talon: Sequence[Card] = getattr(game, "talon", ())
        # The two-player games turn a trump card up under the talon, which is drawn from;
        # a table game's trump is called later, and its talon (Dreierschnapsen) lies.
        face_up: Card | None = getattr(game, "trump_card", None)
        if face_up is not None:
            lines.append(m("replay_trump", suit=self._suit(face_up.suit), card=self._card(face_up)))
            lines.append(m("replay_talon", cards=self._cards(reversed(talon))))
        elif talon:
            lines.append(m("replay_talon_lying", cards=self._cards(talon)))
        return lines

    def tell(self, events: Iterable[ev.Event], game: Game) -> list[str]:
        """The lines telling the events of one action; ``game`` is the game after it (for a deal)."""
        lines: list[str] = []
        drawn: list[str] = []
        for event in events:
            if isinstance(event, ev.Draw):
                drawn.append(f"{self.who(event.seat)} {self._card(event.card)}")
                continue
            if drawn:
                lines.append(self.msgs("replay_draws", items="; ".join(drawn)))
                drawn = []
            lines += self.describe(event)
            if isinstance(event, ev.Cut | ev.Knock):
                lines += self.deal(game)
        if drawn:
            lines.append(self.msgs("replay_draws", items="; ".join(drawn)))
        return lines

    def describe(self, event: ev.Event) -> list[str]:
        """The lines of one event (a card played is told with its trick)."""
        m = self.msgs
        match event:
            case ev.Play(seat, card):
                self._trick.append((seat, card))
                return []
            case ev.Trick(cards=cards, winner=winner):
                self.tricks += 1
                self._trick = []
                played = " – ".join(f"{self._player(s)} {self._card(c)}" for s, c in cards)
                return [m("replay_trick_cards", n=self.tricks, cards=played, winner=self.who(winner))]
            case ev.Marriage(seat, suit, value):
                word = marriage_word(value, m)
                return [m("replay_marriage", p=self.who(seat), value=word, suit=self._suit(suit))]
            case ev.Declare(seat):
                return [m("replay_declare", p=self.who(seat))]
            case ev.Exchange(seat, took, gave):
                return [m("replay_exchange", p=self.who(seat), low=self._card(gave), card=self._card(took))]
            case ev.Close(seat):
                return [m("replay_close", p=self.who(seat))]
            case ev.GameEnd(result):
                return [self.result(result)]
        return self._describe_table(event)

    def _describe_table(self, event: ev.Event) -> list[str]:
        """The events before the card play of a table game."""
        m = self.msgs
        match event:
            case ev.Cut(seat):
                return [m("cut", who=self._subject(seat))]
            case ev.Knock(seat):
                return [m("knock", who=self._subject(seat))]
            case ev.TrumpCall(seat, suit, None):
                return [m("trump_call", who=self._subject(seat), suit=self._suit(suit))]
            case ev.TrumpCall(seat, suit, card) if card is not None:
                return [m("trump_turn", who=self._subject(seat), card=self._card(card), suit=self._suit(suit))]
            case ev.Bid(seat, contract):
                return [m("bid", who=self._subject(seat), contract=self._title(contract))]
            case ev.Pass(seat):
                return [m("pass", who=self._subject(seat))]
            case ev.Contract(contract, declarer):
                self.contract = contract
                return [m("contract", contract=self._title(contract), who=self._player(declarer))]
            case ev.Double(seat, level):
                self.doubling = level
                return [m("double", who=self._subject(seat), word=DOUBLE_NAMES[level - 1].title())]
            case ev.TalonTaken(seat, cards):
                return [m("take_talon_cards", who=self._subject(seat), cards=self._cards(cards))]
            case ev.TalonLeft(seat):
                return [m("skip_talon", who=self._subject(seat))]
            case ev.Discard(seat, card):
                return [m("discard_card", who=self._subject(seat), card=self._card(card))]
        raise AssertionError(f"no narration for {event!r}")  # pragma: no cover - every event is told

    def _title(self, contract: str) -> str:
        return TableVariant.find(self.variant).contract(contract).title

    def result(self, result: Any) -> str:
        """The result line: who scores what and why, with the Augen.

        A two-player game's Augen are each seat's; a table game's (one with a
        contract) the declarer's side's and the defenders'.
        """
        m = self.msgs
        winners = [s for s in range(self.variant.players) if result.points_of(s) > 0]
        reason = m("reason_" + result.reason.value)
        a, b = result.augen
        if not winners:
            return m("replay_result", text=m("replay_stand", reason=reason, a0=a, a1=b))
        # Schnorps counts in Marken; a table game's result has no unit of its own.
        unit = m.unit(getattr(result, "unit", "game points"), result.points)
        points = m("points", n=result.points, unit=unit)
        if self.contract is None:
            text = m("replay_result_text", winner=self.who(winners[0]), points=points, reason=reason, a0=a, a1=b)
            return m("replay_result", text=text)
        mult = f", x{1 << self.doubling}" if self.doubling else ""
        names = ", ".join(self._player(s) for s in winners)
        won = m("table_result", winners=names, points=points, reason=reason, mult=mult)
        return f"{won} {m('table_augen', a=a, b=b)}"

    def end(self, game: Game) -> list[str]:
        """The last lines of an unfinished game: the cards of the trick on the table, and that it goes on."""
        if game.is_over:
            return []
        lines = []
        if self._trick:
            cards = ", ".join(f"{self._player(s)} {self._card(c)}" for s, c in self._trick)
            lines.append(self.msgs("table_trick", cards=cards))
        lines.append(self.msgs("replay_unfinished"))
        return lines
