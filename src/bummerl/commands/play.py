"""``bummerl play``: a whole match against a bot in the terminal.

You are seat 0, the bot seat 1.  The match is a Bummerl from 7 down (Schnapsen,
scharf, Sechsundsechzig) or a game for Marken (Schnorps), dealt from one seed
(:class:`bummerl.match.Match`).  At each of your turns the table is shown from
your view only — trump, talon, your hand (trumps first), the card led, the
Augen where the variant shows them (scharf: none), the marriages — and the legal
actions as a numbered menu.  Type a number, a card (code ``Ah``, short form or
name), ``zudrehen``/``close``, ``tauschen``/``exchange``, ``genug``/``declare``,
``?`` for help or ``q`` to quit (you may save the match).  Input that ends
(EOF) ends the program cleanly.

>>> import io
>>> console = Console(io.StringIO("7\\nq\\n"), io.StringIO())
>>> console.ask("? ")
'7'
>>> console.ask("? ")
'q'
>>> console.ask("? ") is None
True

The bot sees its :class:`~bummerl.view.PlayerView` and nothing else; so do you.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from bummerl.actions import Action, ActionKind
from bummerl.bots import Bot, make_bot
from bummerl.cards import FACES, LANGUAGES, Card, deck, sort_hand
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.match import Match
from bummerl.rng import derive_seed
from bummerl.text import describe_action, menu_actions, menu_label, render_view, result_sentence
from bummerl.variants import TwoPlayerVariant

__all__ = ["Console", "PlaySession", "QuitGame", "add_parser", "run"]

#: The seats: you and the bot.
HUMAN, BOT = 0, 1
#: Path element of :func:`derive_seed` for the bot's own randomness ("BOT").
_BOT_STREAM = 0x424F54


class Console:
    """Where the session reads answers and writes text; ``None`` means the process's streams."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._stdin = stdin
        self._stdout = stdout

    @property
    def inp(self) -> TextIO:
        return self._stdin if self._stdin is not None else sys.stdin

    @property
    def out(self) -> TextIO:
        return self._stdout if self._stdout is not None else sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str) -> str | None:
        """Show ``prompt`` and read one line; ``None`` when the input has ended."""
        out = self.out
        if self._stdin is None and self._stdout is None and _isatty(sys.stdin) and _isatty(sys.stdout):
            # A person at a terminal: input() gives line editing where readline exists.
            try:
                return input(prompt).strip()
            except EOFError:
                out.write("\n")
                return None
        out.write(prompt)
        out.flush()
        try:
            line = self.inp.readline()
        except (OSError, ValueError):  # a closed stream
            line = ""
        if not line:
            out.write("\n")
            return None
        if not _isatty(self.inp):
            # Scripted input: echo it so the transcript reads like a session.
            out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class QuitGame(Exception):
    """The player quit (``eof`` False) or the input ended (``eof`` True)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


class PlaySession:
    """One match between a person at the console and a bot."""

    def __init__(
        self,
        variant: TwoPlayerVariant,
        bot_name: str,
        seed: int,
        faces: str = "german",
        lang: str = "de",
        record_path: str | None = None,
        console: Console | None = None,
    ) -> None:
        self.variant = variant
        self.seed = seed
        self.faces = faces
        self.msgs = Messages(lang)
        self.record_path = record_path
        self.console = console or Console()
        self.bot: Bot = make_bot(bot_name, derive_seed(seed, _BOT_STREAM))
        self.match = Match(variant, seed)
        self._names = self._card_names()

    # ---------------------------------------------------------------- driving
    def run(self) -> int:
        """Play the match to its end; 0 when it ended or the player quit, 1 when input ran out."""
        say, m = self.console.say, self.msgs
        # No seed here: it deals every card of the match (talon and the bot's hands included).
        say(m("welcome", variant=self.variant.title, bot=self.bot.name))
        if self.match.kind == "marken":
            say(m("goal_marken", target=self.match.target))
        else:
            say(m("goal_bummerl"))
        try:
            while not self.match.is_over:
                game = self.match.deal_next()
                self._play_game(game)
                self.match.complete(game)
                self._show_result(game)
                if not self.match.is_over:
                    answer = self.console.ask(m("continue"))
                    if answer is None:
                        raise QuitGame(eof=True)
                    if answer.lower() in m.words("words_quit"):
                        raise QuitGame(eof=False)
        except QuitGame as stop:
            return self._stop(stop.eof)
        self._show_match_end()
        say(m("seed_note", seed=self.seed))
        if self.record_path:
            self._save(self.record_path)
        return 0

    def _stop(self, eof: bool) -> int:
        m = self.msgs
        self.console.say(m("seed_note", seed=self.seed))
        if eof:
            self.console.say(m("eof"))
            if self.record_path:
                self._save(self.record_path)
            return 1
        if self.record_path:
            self._save(self.record_path)
        else:
            path = self.console.ask(m("save_offer"))
            if path:
                self._save(path)
        self.console.say(m("bye"))
        return 0

    def _save(self, path: str) -> None:
        m = self.msgs
        try:
            from bummerl.record import MatchRecord, dumps

            record = MatchRecord.from_match(self.match, Event="bummerl play", Seat0="human", Seat1=self.bot.name)
            text = dumps(record)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except (ImportError, OSError, BummerlError) as exc:
            self.console.say(m("save_failed", error=exc))
            return
        self.console.say(m("saved", path=path))

    # ------------------------------------------------------------------ a game
    def _play_game(self, game: Game) -> None:
        m, say = self.msgs, self.console.say
        say()
        dealer = m("you") if game.dealer == HUMAN else m("computer")
        say(m("game_header", n=len(self.match.history) + 1, dealer=dealer))
        while not game.is_over:
            p = game.to_move
            leading = game.lead is None
            tricks_before = len(game.tricks)
            hand_before = set(game.hands[HUMAN])
            talon_before = game.talon_size
            exchange: tuple[Card, Card] | None = None
            if p == HUMAN:
                action = self._ask_action(game)
            else:
                action = self.bot.choose(game.view(BOT))
            if action.kind is ActionKind.EXCHANGE and game.trump_card is not None:
                exchange = (Card(game.trump, game.variant.exchange_rank), game.trump_card)
            game.apply(action)
            for line in describe_action(action, p == HUMAN, leading, game.trump, m, self.faces, exchange):
                say(line)
            if len(game.tricks) > tricks_before:
                self._report_trick(game, hand_before, talon_before)

    def _report_trick(self, game: Game, hand_before: set[Card], talon_before: int) -> None:
        m, say, lang = self.msgs, self.console.say, self.msgs.lang
        trick = game.tricks[-1]
        first = f"{self._who(trick.leader)} {trick.lead.name(self.faces, lang)}"
        second = f"{self._who(1 - trick.leader)} {trick.follow.name(self.faces, lang)}"
        took = m("you_took_trick") if trick.winner == HUMAN else m("bot_took_trick")
        say(m("trick_line", first=first, second=second) + took)
        for card in sort_hand([c for c in game.hands[HUMAN] if c not in hand_before], game.trump):
            say(m("you_draw", card=card.name(self.faces, lang)))
        if talon_before and not game.talon_size and game.closed_by is None and not game.is_over:
            say(m("talon_exhausted"))

    def _who(self, seat: int) -> str:
        return self.msgs("You") if seat == HUMAN else self.msgs("Computer")

    # ------------------------------------------------------------------- input
    def _ask_action(self, game: Game) -> Action:
        m, say, lang = self.msgs, self.console.say, self.msgs.lang
        view = game.view(HUMAN)
        menu = menu_actions(view)
        say()
        for line in render_view(view, m, self.faces):
            say(line)
        say(m("your_hand"))
        for card in sort_hand(view.hand, view.trump):
            action = Action.play(card)
            label = f"{card.name(self.faces, lang)}  [{card.short(self.faces, lang)}]"
            if action in menu:
                say(f"  {menu.index(action) + 1:>2}) {label}")
            else:
                say(f"   -) {label}  ({m('not_allowed_mark')})")
        others = [a for a in menu if a.kind is not ActionKind.PLAY]
        if others:
            say(m("more_actions"))
            for action in others:
                say(f"  {menu.index(action) + 1:>2}) {menu_label(action, view, m, self.faces)}")
        while True:
            answer = self.console.ask(m("prompt"))
            if answer is None:
                raise QuitGame(eof=True)
            if not answer:
                continue
            choice = self.parse_choice(answer, game, menu)
            if isinstance(choice, Action):
                return choice
            say(choice)

    def parse_choice(self, text: str, game: Game, menu: list[Action]) -> Action | str:
        """The action ``text`` names, or a message saying why there is none (or help).

        Raises :class:`QuitGame` when the player asks to quit.
        """
        m, lang = self.msgs, self.msgs.lang
        word = text.strip().lower()
        if word in m.words("words_help"):
            sample = next(iter(sort_hand(game.hands[HUMAN], game.trump)), None)
            short = sample.short(self.faces, lang) if sample else "H-A"
            name = sample.name(self.faces, lang) if sample else "Herz-Ass"
            return m("help", short=short, name=name)
        if word in m.words("words_quit"):
            raise QuitGame(eof=False)
        allowed = ", ".join(str(i + 1) for i in range(len(menu)))
        if word.isdigit():
            n = int(word)
            if 1 <= n <= len(menu):
                return menu[n - 1]
            return m("not_possible", allowed=allowed)
        special = None
        if word in m.words("words_close"):
            special = Action.close()
        elif word in m.words("words_exchange"):
            special = Action.exchange()
        elif word in m.words("words_declare"):
            special = Action.declare()
        if special is not None:
            return special if special in menu else m("not_possible", allowed=allowed)
        card = self._names.get(_normalize(text))
        action: Action | None = Action.play(card) if card is not None else None
        if action is None:
            try:
                action = Action.parse(text.strip())
            except BummerlError:
                return m("unknown_input", text=text)
        if action in menu:
            return action
        if action.kind is ActionKind.PLAY and action.card not in game.hands[HUMAN]:
            assert action.card is not None
            return m("not_in_hand", card=action.card.name(self.faces, lang))
        try:
            game.verify(action)
        except IllegalActionError as exc:
            plays = [a.card.name(self.faces, lang) for a in menu if a.card is not None and a.kind is ActionKind.PLAY]
            return m("illegal", rule=exc.rule.title, allowed=", ".join(plays) or allowed)
        return m("not_possible", allowed=allowed)  # pragma: no cover - verify() refused nothing

    def _card_names(self) -> dict[str, Card]:
        """Every way the player may type a card of this pack: code, short form, names."""
        names: dict[str, Card] = {}
        for card in deck(self.variant.deck_size):
            spellings = [card.code, card.code.replace("T", "10")]
            for lang in LANGUAGES:
                spellings += [card.name(self.faces, lang), card.short(self.faces, lang)]
            for s in spellings:
                names.setdefault(_normalize(s), card)
        return names

    # ----------------------------------------------------------------- results
    def _show_result(self, game: Game) -> None:
        m, say = self.msgs, self.console.say
        result = game.result
        assert result is not None
        last = self.match.history[-1]
        say()
        sentence = result_sentence(result, HUMAN, m, by_66=game.variant.undeclared_end == "sixty_six")
        if last.multiplier > 1 and result.winner is not None:
            sentence += " " + m("multiplier", m=last.multiplier)
        say(sentence)
        say(m("final_augen", mine=result.augen[HUMAN], theirs=result.augen[BOT]))
        standing = self.match.standing
        key = "standing_marken" if self.match.kind == "marken" else "standing_bummerl"
        say(m(key, mine=standing[HUMAN], theirs=standing[BOT]))

    def _show_match_end(self) -> None:
        m, say = self.msgs, self.console.say
        match = self.match
        say()
        standing = match.standing
        if match.kind == "marken":
            key = "you_win_marken" if match.winner == HUMAN else "bot_wins_marken"
            say(m(key, mine=standing[HUMAN], theirs=standing[BOT]))
            return
        say(m("you_win_bummerl" if match.winner == HUMAN else "bot_wins_bummerl"))
        if match.is_schneider:
            say(m("schneider_you" if match.winner == HUMAN else "schneider_bot"))


def _normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " -_.") if text else ""


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl play``."""
    from bummerl.commands import add_variant_arguments

    parser = subparsers.add_parser(
        "play",
        help="play a Bummerl against a bot in the terminal",
        description="Play a whole match (a Bummerl from 7 down; Schnorps: Marken) against a bot.",
    )
    add_variant_arguments(parser)
    parser.add_argument("--bot", default="heuristic", help="the opponent: random, heuristic, ... (default heuristic)")
    parser.add_argument("--cards", choices=FACES, default="german", help="card faces (default german)")
    parser.add_argument("--lang", choices=LANGUAGES, default="de", help="language of the prompts (default de)")
    parser.add_argument("--seed", type=int, default=None, help="the match seed (default: a random one, shown)")
    parser.add_argument("--auto-declare", action="store_true", help="66 ends a game by itself (for beginners)")
    parser.add_argument("--record", metavar="FILE", default=None, help="save the match record to FILE")
    from bummerl.commands.play_table import add_table_arguments

    add_table_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Play the match that ``args`` describe."""
    from bummerl.commands import any_variant_from_args, variant_from_args
    from bummerl.variants import TableVariant

    table_variant = any_variant_from_args(args)
    if isinstance(table_variant, TableVariant):
        # Bauernschnapsen, Dreierschnapsen: you in one seat, bots in the others.
        from bummerl.commands.play_table import run_table

        return run_table(args, table_variant)
    extra = {"auto_declare": True} if args.auto_declare else {}
    variant = variant_from_args(args, **extra)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    session = PlaySession(variant, args.bot, seed, args.cards, args.lang, args.record)
    return session.run()
