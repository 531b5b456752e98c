"""``bummerl play --variant bauernschnapsen|dreierschnapsen``: a match at a table with bots.

You sit in one seat (``--seat``, default 0); bots (``--bot``, default
``heuristic``; or ``--bots A,B,C`` for the other seats in order) fill the rest.
With four players your partner sits opposite (seat + 2).  The match is played
to 24 game points (:class:`~bummerl.table.TableMatch`).  At each of your turns
you see your view only — your hand (trumps first), the trump, the bidding,
the contract and who plays it, Kontra steps, the trick on the table and both
sides' Augen — and the legal actions as a numbered menu, as in the two-player
``bummerl play``: cut or knock, call a trump or turn a card, bid or pass, say
Kontra/Rekontra/Subkontra or pass, lay cards away (Dreierschnapsen soloist),
play a card, announce a marriage, say "Genug".  Type the number, a card
(``Ah``, a short form or a name), an action token (``bid:gang``, ``pass``,
``kontra``), ``?`` for help or ``q`` to quit.

>>> import io
>>> from bummerl.commands.play import Console
>>> from bummerl.variants import find_table_variant
>>> out = io.StringIO()
>>> session = TablePlaySession(find_table_variant("dreier"), ["random"] * 2, seed=1, lang="en",
...                            console=Console(io.StringIO("1\\n" * 4000), out), target=3)
>>> session.run()
0
>>> "Match over" in out.getvalue()
True

What the other players do is told as it happens, never more than the table
shows: a soloist's discards are "a card laid away", a bot's hand is never
printed.  :func:`table_game_lines` tells a finished record (``bummerl replay``),
where every card is public.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from typing import Any

from bummerl.bots.table_bots import TableBot, make_table_bot
from bummerl.cards import LANGUAGES, Card, deck, sort_hand
from bummerl.commands.play import Console, QuitGame
from bummerl.errors import BummerlError
from bummerl.rng import derive_seed
from bummerl.table import DOUBLE_NAMES, Phase, Table, TableAction, TableActionKind, TableMatch, TableResult
from bummerl.table.record import TableGameRecord
from bummerl.variants import TableVariant

__all__ = ["TablePlaySession", "add_table_arguments", "describe_action", "run_table", "table_game_lines"]

_K = TableActionKind
#: Path element of :func:`derive_seed` for the bots' randomness ("BOT").
_BOT_STREAM = 0x424F54

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "seat": "Seat {n}",
        "you": "You",
        "welcome": "{title}: you are seat {seat}{partner}; bots: {bots}. Match to {target}.",
        "partner": ", your partner is seat {p}",
        "game": "=== Game {n} · dealer: {dealer} · Vorhand: {vorhand} ===",
        "cut": "{who}: cut (3 + 2).",
        "knock": "{who}: knock (all cards at once).",
        "call": "{who}: {suit} is trump.",
        "turn": "{who}: turns up {card}, {suit} is trump.",
        "bid": "{who}: {contract}.",
        "pass": "{who}: pass.",
        "double": "{who}: {word}!",
        "take": "{who}: takes up the talon.",
        "skip": "{who}: leaves the talon (one point more).",
        "discard": "{who}: lays a card away.",
        "discard_you": "{who}: lay away {card}.",
        "play": "{who}: {card}",
        "marry": "{who}: marriage in {suit} ({value}), leads {card}",
        "declare": '{who}: "Genug!"',
        "declare_m": '{who}: marriage in {suit} ({value}), "Genug!"',
        "trick": "  Trick to {who}.",
        "contract": "Contract: {contract}, declarer {who}{doubling}.",
        "hand": "Your hand:",
        "trump": "Trump: {suit}",
        "bids": "Bidding: {bids}",
        "augen": "Augen: declarer's side {a}, defenders {b}",
        "on_table": "On the table: {cards}",
        "more": "Other actions:",
        "prompt": "Your choice (number, card, token, ? or q): ",
        "not_allowed": "not allowed",
        "unknown": "Not understood: {text}. Type a number from the menu.",
        "illegal": "Not possible now: {why}",
        "help": "Type the number of an action, a card such as {card}, a token such as pass, or q to quit.",
        "result": "Result: {winners} score {points} ({reason}{mult}).",
        "redeal": "Three Unter: the cards are dealt again.",
        "standing": "Standing: {standing}",
        "match_over": "Match over: {winners} win(s). Bummerl: {bummerl}. Seed: {seed}.",
        "eof": "Input ended.",
        "bye": "Bye.",
        "saved": "Record saved to {path}.",
        "save_failed": "Could not save the record: {error}",
        "continue": "Press Enter for the next game (q to quit): ",
    },
    "de": {
        "seat": "Platz {n}",
        "you": "Du",
        "welcome": "{title}: Du sitzt auf Platz {seat}{partner}; Bots: {bots}. Partie bis {target}.",
        "partner": ", dein Partner auf Platz {p}",
        "game": "=== Spiel {n} · Geber: {dealer} · Vorhand: {vorhand} ===",
        "cut": "{who}: abheben (3 + 2).",
        "knock": "{who}: klopfen (alle Karten auf einmal).",
        "call": "{who}: {suit} ist Trumpf.",
        "turn": "{who}: schlägt {card} auf, {suit} ist Trumpf.",
        "bid": "{who}: {contract}.",
        "pass": "{who}: passe.",
        "double": "{who}: {word}!",
        "take": "{who}: nimmt den Talon auf.",
        "skip": "{who}: lässt den Talon liegen (ein Punkt mehr).",
        "discard": "{who}: legt eine Karte ab.",
        "discard_you": "{who}: {card} abgelegt.",
        "play": "{who}: {card}",
        "marry": "{who}: Hochzeit in {suit} ({value}), spielt {card}",
        "declare": '{who}: "Genug!"',
        "declare_m": '{who}: Hochzeit in {suit} ({value}), "Genug!"',
        "trick": "  Stich an {who}.",
        "contract": "Spiel: {contract}, Spielmacher: {who}{doubling}.",
        "hand": "Deine Karten:",
        "trump": "Trumpf: {suit}",
        "bids": "Reizung: {bids}",
        "augen": "Augen: Spielmacher-Seite {a}, Gegenspieler {b}",
        "on_table": "Am Tisch: {cards}",
        "more": "Weitere Möglichkeiten:",
        "prompt": "Deine Wahl (Nummer, Karte, Token, ? oder q): ",
        "not_allowed": "nicht erlaubt",
        "unknown": "Nicht verstanden: {text}. Gib eine Nummer aus dem Menü ein.",
        "illegal": "Jetzt nicht möglich: {why}",
        "help": "Gib die Nummer einer Aktion ein, eine Karte wie {card}, ein Token wie pass, oder q zum Beenden.",
        "result": "Ergebnis: {winners} bekommt/bekommen {points} ({reason}{mult}).",
        "redeal": "Drei Unter: es wird neu gegeben.",
        "standing": "Stand: {standing}",
        "match_over": "Partie aus: {winners} gewinnt/gewinnen. Bummerl: {bummerl}. Seed: {seed}.",
        "eof": "Eingabe beendet.",
        "bye": "Servus.",
        "saved": "Aufzeichnung gespeichert in {path}.",
        "save_failed": "Aufzeichnung nicht gespeichert: {error}",
        "continue": "Enter für das nächste Spiel (q beendet): ",
    },
}


@dataclasses.dataclass(frozen=True)
class _Words:
    """The strings of one language, with the card faces."""

    lang: str
    faces: str

    def __call__(self, key: str, **kw: Any) -> str:
        return _TEXT[self.lang][key].format(**kw)

    def card(self, card: Card) -> str:
        return card.name(self.faces, self.lang)

    def suit(self, card_or_suit: Any) -> str:
        return str(card_or_suit.name_in(self.faces, self.lang))


def _who(seat: int, human: int | None, w: _Words, names: dict[int, str] | None = None) -> str:
    if seat == human:
        return w("you")
    label = w("seat", n=seat)
    if names and names.get(seat) not in (None, "", "?"):
        label += f" ({names[seat]})"
    return label


def describe_action(
    table: Table,
    seat: int,
    action: TableAction,
    w: _Words,
    human: int | None,
    names: dict[int, str] | None = None,
    contract_fixed: bool = False,
) -> list[str]:
    """What the table says about ``action`` just done by ``seat`` (``table`` is after it).

    Only public facts: another player's discard is "a card".  ``contract_fixed``:
    the action ended the auction, so the contract is announced too.
    """
    who = _who(seat, human, w, names)
    kind = action.kind
    lines: list[str] = []
    if kind is _K.CUT:
        lines.append(w("cut", who=who))
    elif kind is _K.KNOCK:
        lines.append(w("knock", who=who))
    elif kind is _K.CALL_TRUMP:
        lines.append(w("call", who=who, suit=w.suit(action.suit)))
    elif kind is _K.TURN_TRUMP:
        assert table.turned_card is not None
        lines.append(w("turn", who=who, card=w.card(table.turned_card), suit=w.suit(table.turned_card.suit)))
    elif kind is _K.BID:
        lines.append(w("bid", who=who, contract=table.variant.contract(action.contract or "").title))
    elif kind is _K.PASS:
        lines.append(w("pass", who=who))
    elif kind is _K.DOUBLE:
        lines.append(w("double", who=who, word=DOUBLE_NAMES[action.level - 1].title()))
    elif kind is _K.TAKE_TALON:
        lines.append(w("take", who=who))
    elif kind is _K.SKIP_TALON:
        lines.append(w("skip", who=who))
    elif kind is _K.DISCARD:
        assert action.card is not None
        lines.append(w("discard_you", who=who, card=w.card(action.card)) if seat == human else w("discard", who=who))
    elif kind is _K.PLAY:
        assert action.card is not None
        lines.append(w("play", who=who, card=w.card(action.card)))
    elif kind is _K.MARRIAGE:
        assert action.card is not None
        value = 40 if action.card.suit == table.trump else 20
        lines.append(w("marry", who=who, suit=w.suit(action.card.suit), value=value, card=w.card(action.card)))
    elif kind is _K.DECLARE:
        if action.suit is None:
            lines.append(w("declare", who=who))
        else:
            value = 40 if action.suit == table.trump else 20
            lines.append(w("declare_m", who=who, suit=w.suit(action.suit), value=value))
    if contract_fixed:
        lines.append(_contract_line(table, w, human, names))
    return lines


def _contract_line(table: Table, w: _Words, human: int | None, names: dict[int, str] | None = None) -> str:
    assert table.contract is not None and table.declarer is not None
    doubling = f", {DOUBLE_NAMES[table.doubling - 1].title()}" if table.doubling else ""
    return w("contract", contract=table.contract.title, who=_who(table.declarer, human, w, names), doubling=doubling)


def _result_line(result: TableResult, w: _Words, human: int | None, names: dict[int, str] | None = None) -> str:
    if not result.winners:
        return w("redeal")
    winners = ", ".join(_who(s, human, w, names) for s in result.winners)
    mult = f", x{result.multiplier}" if result.multiplier > 1 else ""
    return w("result", winners=winners, points=result.points, reason=result.reason.value, mult=mult)


class TablePlaySession:
    """One match at a table: a person at the console in one seat, bots in the others."""

    def __init__(
        self,
        variant: TableVariant,
        bot_names: list[str],
        seed: int,
        seat: int = 0,
        faces: str = "german",
        lang: str = "de",
        record_path: str | None = None,
        console: Console | None = None,
        target: int | None = None,
    ) -> None:
        n = variant.players
        if seat not in range(n):
            raise BummerlError(f"--seat must be 0..{n - 1} for {variant.title}, not {seat}")
        if len(bot_names) == 1:
            bot_names = bot_names * (n - 1)
        if len(bot_names) != n - 1:
            raise BummerlError(f"{variant.title} needs {n - 1} bots for the other seats, got {len(bot_names)}")
        if target is not None:
            variant = variant.with_options(match_target=target)
        self.variant = variant
        self.seed = seed
        self.human = seat
        self.w = _Words(lang, faces)
        self.record_path = record_path
        self.console = console or Console()
        others = [s for s in range(n) if s != seat]
        self.bots: dict[int, TableBot] = {
            s: make_table_bot(name, derive_seed(seed, _BOT_STREAM, s))
            for s, name in zip(others, bot_names, strict=True)
        }
        self.match = TableMatch(variant, seed)
        self._names = _card_names(variant.deck_size, faces)

    # ---------------------------------------------------------------- driving
    def run(self) -> int:
        """Play the match; 0 when it ended or the player quit, 1 when the input ran out."""
        w, say = self.w, self.console.say
        partner = w("partner", p=(self.human + 2) % 4) if self.variant.players == 4 else ""
        bots = ", ".join(f"{s}={b.name}" for s, b in self.bots.items())
        say(
            w(
                "welcome",
                title=self.variant.title,
                seat=self.human,
                partner=partner,
                bots=bots,
                target=self.variant.match_target,
            )
        )
        try:
            while not self.match.is_over:
                table = self.match.table
                self._play_game(table)
                self.match.advance()
                self._show_standing()
                if not self.match.is_over:
                    answer = self.console.ask(w("continue"))
                    if answer is None:
                        raise QuitGame(eof=True)
                    if answer.strip().lower() in ("q", "quit", "ende"):
                        raise QuitGame(eof=False)
        except QuitGame as stop:
            self._save()
            say(w("eof") if stop.eof else w("bye"))
            return 1 if stop.eof else 0
        winners = ", ".join(self._unit_name(u) for u in self.match.winners)
        bummerl = ", ".join(f"{self._unit_name(u)} {b}" for u, b in enumerate(self.match.bummerl) if b)
        say()
        # The seed deals every card: shown only once the match is over (it would reveal the others' hands).
        say(w("match_over", winners=winners, bummerl=bummerl or "-", seed=self.seed))
        self._save()
        return 0

    def _unit_name(self, unit: int) -> str:
        if self.variant.players == 4:
            seats = (unit, unit + 2)
            return "+".join(_who(s, self.human, self.w) for s in seats)
        return _who(unit, self.human, self.w)

    def _show_standing(self) -> None:
        standing = ", ".join(f"{self._unit_name(u)} {p}" for u, p in enumerate(self.match.scores))
        self.console.say(self.w("standing", standing=standing))

    def _save(self) -> None:
        if not self.record_path:
            return
        try:
            from bummerl.record import dump

            with open(self.record_path, "w", encoding="utf-8") as fp:
                for i, table in enumerate(self.match.games):
                    if not table.actions and table.result is None:
                        continue
                    seats: dict[str, object] = {
                        f"Seat{s}": (self.bots[s].name if s in self.bots else "human") for s in range(len(table.hands))
                    }
                    tags: dict[str, object] = {
                        "Event": "bummerl play",
                        "Match": f"{self.variant.name}-{self.seed}",
                        "Game": i + 1,
                        "Seed": derive_seed(self.seed, i),
                        **seats,
                    }
                    dump(TableGameRecord.from_table(table, (), **tags), fp)
        except (OSError, BummerlError) as exc:
            self.console.say(self.w("save_failed", error=exc))
            return
        self.console.say(self.w("saved", path=self.record_path))

    # ------------------------------------------------------------------ a game
    def _play_game(self, table: Table) -> None:
        w, say = self.w, self.console.say
        say()
        say(
            w(
                "game",
                n=len(self.match.results) + 1,
                dealer=_who(table.dealer, self.human, w),
                vorhand=_who(table.vorhand, self.human, w),
            )
        )
        while not table.is_over:
            seat = table.to_move
            tricks = len(table.tricks)
            if seat == self.human:
                action = self._ask(table)
            else:
                action = self.bots[seat].choose(table.view(seat))
            open_before = table.contract is None
            table.apply(action)
            fixed = open_before and table.contract is not None
            for line in describe_action(table, seat, action, w, self.human, contract_fixed=fixed):
                say(line)
            if len(table.tricks) > tricks:
                say(w("trick", who=_who(table.tricks[-1].winner, self.human, w)))
        assert table.result is not None
        say(_result_line(table.result, w, self.human))

    # ------------------------------------------------------------------- input
    def _ask(self, table: Table) -> TableAction:
        w, say = self.w, self.console.say
        view = table.view(self.human)
        legal = view.legal_actions()
        say()
        if view.hand:
            say(w("hand"))
        trump = view.trump
        hand = sort_hand(view.hand, trump)
        plays = {a.card: a for a in legal if a.kind is _K.PLAY}
        # Number the playable cards in the order the hand is shown, then the other actions.
        menu = [plays[c] for c in hand if c in plays] + [a for a in legal if a.kind is not _K.PLAY]
        for card in hand:
            label = f"{w.card(card)}  [{card.short(w.faces, w.lang)}]"
            action = plays.get(card)
            if action is not None:
                say(f"  {menu.index(action) + 1:>2}) {label}")
            elif view.phase is Phase.PLAY:
                say(f"   -) {label}  ({w('not_allowed')})")
            else:
                say(f"      {label}")
        contract = view.variant.contract(view.contract) if view.contract is not None else None
        # A contract without trump (Bettler, Gang, ...) makes the called suit an ordinary one.
        if trump is not None and (contract is None or contract.trump):
            say(w("trump", suit=w.suit(trump)))
        if view.bids:
            bids = ", ".join(f"{s}:{a.token}" for s, a in view.bids)
            say(w("bids", bids=bids))
        if view.contract is not None and view.declarer is not None:
            doubling = f", {DOUBLE_NAMES[view.doubling - 1].title()}" if view.doubling else ""
            title = view.variant.contract(view.contract).title
            say(w("contract", contract=title, who=_who(view.declarer, self.human, w), doubling=doubling))
        if view.phase is Phase.PLAY:
            say(w("augen", a=view.augen[0], b=view.augen[1]))
            if view.trick:
                on_table = ", ".join(f"{_who(s, self.human, w)}: {w.card(c)}" for s, c in view.trick)
                say(w("on_table", cards=on_table))
        others = [a for a in menu if a.kind is not _K.PLAY]
        if others:
            say(w("more"))
            for action in others:
                say(f"  {menu.index(action) + 1:>2}) {self._label(action, table)}")
        while True:
            answer = self.console.ask(w("prompt"))
            if answer is None:
                raise QuitGame(eof=True)
            if not answer:
                continue
            choice = self.parse_choice(answer, table, menu)
            if isinstance(choice, TableAction):
                return choice
            say(choice)

    def _label(self, action: TableAction, table: Table) -> str:
        w = self.w
        kind = action.kind
        if kind is _K.BID:
            c = table.variant.contract(action.contract or "")
            return f"{c.title} ({c.points}) [{action.token}]"
        if kind is _K.CALL_TRUMP:
            return f"{w.suit(action.suit)} [{action.token}]"
        if kind in (_K.DISCARD, _K.MARRIAGE) and action.card is not None:
            return f"{w.card(action.card)} [{action.token}]"
        if kind is _K.DECLARE and action.suit is not None:
            return f"Genug + {w.suit(action.suit)} [{action.token}]"
        if kind is _K.DECLARE:
            return "Genug [declare]"
        if kind is _K.DOUBLE:
            return DOUBLE_NAMES[action.level - 1].title()
        return action.token

    def parse_choice(self, text: str, table: Table, menu: list[TableAction]) -> TableAction | str:
        """The action ``text`` names, or a message saying why there is none.

        Raises :class:`QuitGame` when the player asks to quit.
        """
        w = self.w
        word = text.strip().lower()
        if word in ("?", "help", "hilfe"):
            sample = next(iter(table.view(self.human).hand), None)
            return w("help", card=sample.code if sample else "Ah")
        if word in ("q", "quit", "ende"):
            raise QuitGame(eof=False)
        if word.isdigit():
            n = int(word)
            if 1 <= n <= len(menu):
                return menu[n - 1]
            return w("unknown", text=text)
        card = self._names.get(_normalize(text))
        action: TableAction | None = None
        if card is not None:
            for a in menu:
                if a.card == card and a.kind in (_K.PLAY, _K.DISCARD):
                    action = a
            action = action or TableAction.play(card)
        else:
            try:
                action = TableAction.parse(text.strip())
            except BummerlError:
                return w("unknown", text=text)
        if action in menu:
            return action
        try:
            table.verify(action)
        except BummerlError as exc:
            return w("illegal", why=exc)
        return w("unknown", text=text)  # pragma: no cover - verify() refused nothing


def _normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " -_.")


def _card_names(size: int, faces: str) -> dict[str, Card]:
    names: dict[str, Card] = {}
    for card in deck(size):
        spellings = [card.code, card.code.replace("T", "10")]
        for lang in LANGUAGES:
            spellings += [card.name(faces, lang), card.short(faces, lang)]
        for s in spellings:
            names.setdefault(_normalize(s), card)
    return names


def table_game_lines(record: TableGameRecord, number: int, faces: str = "german", lang: str = "de") -> list[str]:
    """The story of one recorded table game, for ``bummerl replay`` (a record is public: all cards shown)."""
    w = _Words(lang, faces)
    names = {s: record.tags.get(f"Seat{s}", "?") for s in range(record.variant.players)}
    table = Table.from_deck(record.variant, record.deck, record.dealer)
    lines = [
        f"=== {number}: {record.variant.title} · "
        + w(
            "game", n=number, dealer=_who(table.dealer, None, w, names), vorhand=_who(table.vorhand, None, w, names)
        ).strip("= ")
        + " ==="
    ]
    dealt = False
    for action in record.actions:
        seat = table.to_move
        tricks = len(table.tricks)
        open_before = table.contract is None
        table.apply(action)
        fixed = open_before and table.contract is not None
        if not dealt and table.hands[0]:
            dealt = True
            for s in range(record.variant.players):
                hand = " ".join(c.code for c in sort_hand(table.hands[s], None))
                lines.append(f"{_who(s, None, w, names)}: {hand}")
            if table.talon:
                lines.append("Talon: " + " ".join(c.code for c in table.talon))
        if action.kind is _K.DISCARD and action.card is not None:
            lines.append(f"{_who(seat, None, w, names)}: discard {w.card(action.card)}")
        else:
            lines.extend(describe_action(table, seat, action, w, None, names, fixed))
        if len(table.tricks) > tricks:
            lines.append(w("trick", who=_who(table.tricks[-1].winner, None, w, names)))
    if table.result is not None:
        lines.append(_result_line(table.result, w, None, names))
    return lines


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bummerl play`` arguments only the table games use."""
    parser.add_argument("--seat", type=int, default=0, help="table games: your seat (default 0)")
    parser.add_argument(
        "--bots",
        default=None,
        metavar="A,B,C",
        help="table games: the bots of the other seats in order (default: --bot)",
    )


def run_table(args: argparse.Namespace, variant: TableVariant) -> int:
    """``bummerl play`` for a three- or four-player variant."""
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    names = [b.strip() for b in (args.bots or args.bot).split(",")]
    session = TablePlaySession(variant, names, seed, args.seat, args.cards, args.lang, args.record)
    return session.run()
