"""The words of the terminal: the table, the menu and the story of a game, in German or English.

Two commands tell games: ``bummerl play`` tells each action live to the
player at the keyboard, ``bummerl replay`` tells a record to whoever reads
it.  Both tell the events that :meth:`bummerl.game.Game.apply` returns, with
one :class:`Narrator`; what differs between them is data, not a second class:

- :class:`Words` names the seats from the listener's side ("You",
  "Computer", "Seat 2"), or, told to nobody in particular (``seat=None``), as
  a record's players ("Player 1 (anna)");
- ``public`` says whether the story is a record, which hides nothing and is
  read a trick a line, or a game followed card by card as one seat may see it
  (then :meth:`Event.to_json <bummerl.events.Play.to_json>` with that seat
  decides whether a drawn card, a taken-up talon or a card laid away is named,
  so nothing here decides a secret of its own).

The narrator lives here rather than in :mod:`bummerl.commands.play_text`
because two commands share it: a command module does not import another's
words, and this module is the front end's one place for sentences about a game
(with :func:`marriage_word` and the results).  It also draws a two-player
game's table and menu for ``bummerl play`` (:func:`render_view`,
:func:`menu_label`) and a table game's (:func:`table_view_lines`,
:func:`table_label`); :func:`view_lines` draws either.  ``play_text`` keeps the
cards a player may type.

>>> from bummerl.game import Game
>>> game = Game.deal("schnapsen", seed=4)
>>> print(render_view(game.view(0), Messages("en"), "french")[0])  # doctest: +ELLIPSIS
Trump: ... · face-up card: ... · talon: 9 cards

Nothing here reads a :class:`~bummerl.game.Game`: views, events and results
only.  The cards dealt in a record are shown by ``bummerl replay`` itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from bummerl import events as ev
from bummerl.actions import DOUBLE_NAMES, Action, ActionKind
from bummerl.cards import Card, Suit, marriage_value, sort_hand
from bummerl.i18n import Messages
from bummerl.rules.result import Result
from bummerl.variants import EndReason, GameResult, TableVariant, Variant
from bummerl.variants.bauernschnapsen import Phase, TableEndReason, TableResult
from bummerl.view import PlayerView

__all__ = [
    "Narrator",
    "Words",
    "marriage_word",
    "menu_label",
    "record_result",
    "render_view",
    "result_sentence",
    "table_label",
    "table_result_lines",
    "table_view_lines",
    "view_lines",
]


def marriage_word(value: int, msgs: Messages) -> str:
    """``Zwanziger``/``Vierziger`` in German, ``20``/``40`` in English."""
    if msgs.lang == "de":
        return "Vierziger" if value == 40 else "Zwanziger"
    return str(value)


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


# ------------------------------------------------------------------ the story of a game
@dataclasses.dataclass(frozen=True)
class Words:
    """The sentences of one language and card faces, and the names of the seats.

    ``seat`` is the player the text is told to ("you"); the others are "the
    computer" when there is one, else "seat 2".  Told to nobody in particular
    (``seat=None``: a record), every seat is a player: "player 2".  ``names``
    are the players' names by seat (a record's ``SeatN`` tags; ``?`` or empty:
    no name), shown after the number.

    >>> from bummerl.variants import find_variant
    >>> words = Words(Messages("en"), "french", find_variant("dreier"), names={1: "anna"})
    >>> words.who(1), words.whom(2), words.number(1)
    ('Player 1 (anna)', 'player 2', '1 (anna)')
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

    def number(self, seat: int) -> str:
        """The seat's number with the player's name, if it has one: ``1 (anna)``."""
        name = self.names.get(seat, "")
        return str(seat) if name in ("", "?") else f"{seat} ({name})"

    def who(self, seat: int) -> str:
        """``seat`` at the start of a sentence: "You", "Computer", "Seat 2", "Player 2"."""
        return self._name(seat, "You", "Computer", "Seat", "Player")

    def whom(self, seat: int) -> str:
        """``seat`` inside a sentence: "you", "computer", "seat 2", "player 2"."""
        return self._name(seat, "you", "computer", "seat", "player")

    def _name(self, seat: int, you: str, computer: str, other: str, player: str) -> str:
        if self.seat is None:
            return self(player, n=self.number(seat))
        if seat == self.seat:
            return self(you)
        if self.variant.players == 2:  # one opponent: "the computer"; at a table the others are numbered
            return self(computer)
        return self(other, n=self.number(seat))


class Narrator:
    """Tells the events of one game after another, as the seat of ``words`` may see them.

    ``result`` tells a finished game's result (its type is the family's; by
    default as a record tells it, :func:`record_result`).  With ``public`` the
    story is a record's: every card is named, a card played is told with its
    trick, the tricks are numbered and the cards drawn after a trick are told
    in one line.  Between games call :meth:`new_game`; :attr:`trick` holds the
    cards of the trick on the table.

    Told to the player of seat 0, live:

    >>> from bummerl.game import Game
    >>> game = Game.deal("schnapsen", seed=5)
    >>> narrator = Narrator(Words(Messages("en"), "french", game.variant, seat=0), result=lambda result: [])
    >>> narrator.tell(game.apply("marry:Kh"))   # the value comes with the event
    ['You announce 20 in Hearts.', 'You lead King of Hearts.']
    >>> for line in narrator.tell(game.apply("Kc")):
    ...     print(line)  # doctest: +ELLIPSIS
    Computer plays King of Clubs.
    Trick: You King of Hearts – Computer King of Clubs. You take the trick.
    You draw ...

    The computer's draw is not told: the card is the computer's secret.  At a
    table of three or four the others are named by seat:

    >>> table = Game.deal("dreierschnapsen", seed=5)
    >>> words = Words(Messages("de"), "german", table.variant, seat=0)
    >>> Narrator(words, result=lambda result: []).tell(table.apply("knock"))
    ['Platz 2: klopfen (alle Karten auf einmal).']

    The same game as its record tells it, to nobody in particular:

    >>> game = Game.deal("schnapsen", seed=5)
    >>> record = Narrator(Words(Messages("en"), "french", game.variant, names={0: "anna"}), public=True)
    >>> for line in record.tell(game.apply("marry:Kh")) + record.tell(game.apply("Kc")):
    ...     print(line)  # doctest: +ELLIPSIS
    Player 0 (anna) announces 20 in Hearts.
    Trick 1: player 0 (anna) King of Hearts – player 1 King of Clubs → player 0 (anna)
      drawn: 0 (anna) ...; 1 ...
    """

    def __init__(self, words: Words, result: Callable[[Any], list[str]] | None = None, *, public: bool = False) -> None:
        self.words = words
        self.result = result if result is not None else lambda end: [record_result(end, words)]
        self.public = public
        #: The ``(seat, card)`` played to the trick on the table.
        self.trick: list[tuple[int, Card]] = []
        self.tricks = 0

    def new_game(self) -> None:
        self.trick = []
        self.tricks = 0

    def tell(self, events: Sequence[ev.Event]) -> list[str]:
        """The sentences of the events of one action."""
        over = any(isinstance(e, ev.GameEnd) for e in events)
        lines: list[str] = []
        drawn: list[str] = []
        for event in events:
            if self.public and isinstance(event, ev.Draw):
                drawn.append(f"{self.words.number(event.seat)} {self.words.card(event.card)}")
                continue
            lines += self._drawn(drawn) + self.describe(event, game_goes_on=not over)
            drawn = []
        return lines + self._drawn(drawn)

    def _drawn(self, drawn: list[str]) -> list[str]:
        return [self.words("replay_draws", items="; ".join(drawn))] if drawn else []

    def describe(self, event: ev.Event, game_goes_on: bool = True) -> list[str]:
        """The sentences of one event."""
        w = self.words
        match event:
            case ev.Play(seat, card):
                leads = not self.trick
                self.trick.append((seat, card))
                if self.public:
                    return []  # told with its trick
                if w.is_you(seat):
                    return [w("you_lead" if leads else "you_follow", card=w.card(card))]
                return [w("other_leads" if leads else "other_follows", who=w.who(seat), card=w.card(card))]
            case ev.Trick(cards=cards, winner=winner):
                self.trick = []
                self.tricks += 1
                if self.public:
                    played = " – ".join(f"{w.whom(s)} {w.card(c)}" for s, c in cards)
                    return [w("replay_trick_cards", n=self.tricks, cards=played, winner=w.whom(winner))]
                played = " – ".join(f"{w.who(s)} {w.card(c)}" for s, c in cards)
                took = w("you_took_trick") if w.is_you(winner) else w("other_took_trick", who=w.who(winner))
                return [w("trick_line", cards=played) + took]
            case ev.Marriage(seat, suit, value):
                verb = w("verb_announce_you" if w.is_you(seat) else "verb_announce_bot")
                word = marriage_word(value, w.msgs)
                return [w("marriage_announced", who_cap=w.who(seat), verb=verb, value=word, suit=w.suit(suit))]
            case ev.Declare(seat):
                # A marriage shown with it came as its own event just before.
                return [w("declared_you") if w.is_you(seat) else w("declared_other", who=w.who(seat))]
            case ev.GameEnd(result):
                return self.result(result)
            case ev.Draw(seat, _, face_up):
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
            case ev.Exchange(seat, took, gave):
                if w.is_you(seat):
                    return [w("exchanged_you", low=w.card(gave), card=w.card(took))]
                return [w("exchanged_other", who=w.who(seat), low=w.card(gave), card=w.card(took))]
            case ev.Close(seat):
                return [w("closed_you") if w.is_you(seat) else w("closed_other", who=w.who(seat))]
            case _:
                return self._describe_table(event)

    def _describe_table(self, event: ev.Event) -> list[str]:
        """The events before the play of the table games."""
        w = self.words
        match event:
            case ev.Cut(seat):
                return [w("cut", who=w.who(seat))]
            case ev.Knock(seat):
                return [w("knock", who=w.who(seat))]
            case ev.TrumpCall(seat, suit, None):
                return [w("trump_call", who=w.who(seat), suit=w.suit(suit))]
            case ev.TrumpCall(seat, suit, card) if card is not None:
                return [w("trump_turn", who=w.who(seat), card=w.card(card), suit=w.suit(suit))]
            case ev.Bid(seat, contract):
                return [w("bid", who=w.who(seat), contract=_title(w, contract))]
            case ev.Pass(seat):
                return [w("pass", who=w.who(seat))]
            case ev.Contract(contract, declarer):
                return [w("contract", contract=_title(w, contract), who=w.whom(declarer))]
            case ev.Double(seat, level):
                return [w("double", who=w.who(seat), word=DOUBLE_NAMES[level - 1].title())]
            case ev.TalonTaken(seat, _):
                cards = self._shown(event, "cards")
                if cards is None:
                    return [w("take_talon", who=w.who(seat))]
                return [w("take_talon_cards", who=w.who(seat), cards=w.cards(cards))]
            case ev.TalonLeft(seat):
                return [w("skip_talon", who=w.who(seat))]
            case ev.Discard(seat, _):
                card = self._shown(event, "card")
                if card is None:
                    return [w("discard", who=w.who(seat))]
                return [w("discard_card", who=w.who(seat), card=w.card(card))]
        raise AssertionError(f"no narration for {event!r}")  # pragma: no cover - every event is told above

    def _shown(self, event: ev.Draw | ev.TalonTaken | ev.Discard, field: str) -> Any:
        """The card(s) of ``event`` in ``field`` if this story may name them, else ``None``."""
        if self.public:
            return getattr(event, field)
        # The events module decides, for every front end, who sees which card.
        shown = event.to_json(self.words.seat)[field]
        if shown is None:
            return None
        return [Card.parse(c) for c in shown] if isinstance(shown, list) else Card.parse(shown)


def _title(w: Words, contract: str) -> str:
    return TableVariant.find(w.variant).contract(contract).title  # only the table games bid


def record_result(result: Result, w: Words) -> str:
    """A finished game's result as a record tells it: who scores what and why, with the Augen.

    A two-player game's Augen are each seat's; a table game's the declarer's
    side's and the defenders'.

    >>> from bummerl.variants import find_variant
    >>> words = Words(Messages("en"), "german", find_variant("schnapsen"), names={0: "anna"})
    >>> record_result(GameResult(0, 2, EndReason.DECLARED, (70, 20)), words)
    'Result: player 0 (anna) wins 2 game points (declared); Augen 70:20'
    """
    reason = w("reason_" + result.reason.value)
    a, b = result.augen
    winners = [s for s in range(w.variant.players) if result.points_of(s) > 0]
    if not winners:
        return w("replay_result", text=w("replay_stand", reason=reason, a0=a, a1=b))
    # Schnorps counts in Marken; a table game's result has no unit of its own.
    points = w("points", n=result.points, unit=w.msgs.unit(getattr(result, "unit", "game points"), result.points))
    if w.variant.FAMILY == "table_game":
        multiplier = cast(TableResult, result).multiplier
        mult = f", x{multiplier}" if multiplier > 1 else ""
        names = ", ".join(w.whom(s) for s in winners)
        won = w("table_result", winners=names, points=points, reason=reason, mult=mult)
        return f"{won} {w('table_augen', a=a, b=b)}"
    text = w("replay_result_text", winner=w.whom(winners[0]), points=points, reason=reason, a0=a, a1=b)
    return w("replay_result", text=text)


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
    """How the menu of a table game names ``action``, with the token that may be typed for it.

    >>> from bummerl.game import Game
    >>> table = Game.deal("dreierschnapsen", seed=5)
    >>> w = Words(Messages("en"), "german", table.variant, seat=table.to_move)
    >>> [table_label(a, table.view(table.to_move), w) for a in table.legal_actions()]
    ['cut [cut]', 'knock (all cards at once) [knock]']
    """
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


#: How each family's table is drawn for the player of a view (``Variant.FAMILY``).
_VIEW_LINES: dict[str, Callable[[Any, Words], list[str]]] = {
    "two_player": lambda view, w: render_view(view, w.msgs, w.faces),
    "table_game": lambda view, w: table_view_lines(view, w),
}


def view_lines(view: Any, w: Words) -> list[str]:
    """The table as the player of ``view`` sees it (no menu), for a game of any family.

    >>> from bummerl.game import Game
    >>> game = Game.deal("dreierschnapsen", seed=4)
    >>> view_lines(game.view(0), Words(Messages("en"), "french", game.variant, seat=0))
    []
    """
    return _VIEW_LINES[view.variant.FAMILY](view, w)
