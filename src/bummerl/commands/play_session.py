"""The terminal's match session: a person at the console in one seat, bots in the others, one game after another.

:class:`PlaySession` plays the variant's match (:mod:`bummerl.commands.play_match`,
over its :class:`~bummerl.series.Series`) with one loop: deal, play the game
(your turns asked at the :class:`Console`, the bots' from their views), score
it, tell the standing; at the end the winner, and the record saved on request.
:class:`bummerl.commands.play_round.RoundSession` plays a Schnorps round with
the same loop, telling each game from the side of whoever plays it.

>>> import io
>>> from bummerl.variants import find_variant
>>> out = io.StringIO()
>>> session = PlaySession(find_variant("dreier"), "random", seed=1, lang="en",
...                       console=Console(io.StringIO("1\\n" * 4000), out), target=3)
>>> session.run()
0
>>> "Match over" in out.getvalue()
True

Bots see their seat's view and nothing else; so do you.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from bummerl.actions import Action, ActionKind
from bummerl.bots import Bot, make_bot
from bummerl.cards import sort_hand
from bummerl.commands.play_match import play_match
from bummerl.commands.play_text import card_names, menu
from bummerl.commands.play_text import normalize as _normalize
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.rng import derive_seed
from bummerl.text import Narrator, Words
from bummerl.variants import Variant

__all__ = ["BOT", "HUMAN", "HUMAN_SEAT", "Console", "PlaySession", "QuitGame", "other_seats"]

#: The seats of a two-player session by default: you, and the bot.
HUMAN, BOT = 0, 1
#: A person's seat, as a saved record and ``--bots`` name it (a bot's seat: the bot's name).
HUMAN_SEAT = "human"
#: Path element of :func:`derive_seed` for the bots' own randomness ("BOT").
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
        """Show ``prompt`` and read one line; ``None`` when the input has ended.

        >>> import io
        >>> console = Console(io.StringIO("7\\nq\\n"), io.StringIO())
        >>> console.ask("? "), console.ask("? "), console.ask("? ")
        ('7', 'q', None)
        """
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


def other_seats(seat: int, seats: int, names: str | Sequence[str], where: str) -> dict[int, str]:
    """Who sits in every seat but ``seat`` of ``seats``: one name for all of them, or one per seat in seat order;
    ``where`` tells the messages what the seats are ("for Dreierschnapsen", "with 3 participants").

    >>> other_seats(1, 3, "random", "for Dreierschnapsen")
    {0: 'random', 2: 'random'}
    >>> other_seats(0, 3, ["a", "b", "c"], "for Dreierschnapsen")
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: for Dreierschnapsen --bots names the 2 others, got 3
    """
    if seat not in range(seats) or isinstance(seat, bool):
        raise BummerlError(f"--seat must be 0..{seats - 1} {where}, not {seat}")
    given = [names] if isinstance(names, str) else list(names)
    if len(given) == 1:
        given *= seats - 1
    if len(given) != seats - 1:
        raise BummerlError(f"{where} --bots names the {seats - 1} others, got {len(given)}")
    return dict(zip((s for s in range(seats) if s != seat), given, strict=True))


class QuitGame(Exception):
    """The player quit (``eof`` False) or the input ended (``eof`` True)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


class PlaySession:
    """One match: a person at the console in ``seat``, bots in the other seats.

    ``bots`` names one bot for every other seat, or one per other seat in seat
    order; ``target`` changes the match length (Bummerl, Marken or game points).
    """

    def __init__(
        self,
        variant: Variant,
        bots: str | Sequence[str],
        seed: int,
        faces: str = "german",
        lang: str = "de",
        record_path: str | None = None,
        console: Console | None = None,
        seat: int = HUMAN,
        target: int | None = None,
    ) -> None:
        n = variant.players
        names = other_seats(seat, n, bots, f"for {variant.title}")
        self.match = play_match(variant, seed, target)
        self.variant = self.match.variant
        self.seed = seed
        self.seat = seat
        self.record_path = record_path
        self.console = console or Console()
        self.bots: dict[int, Bot] = {
            s: make_bot(name, derive_seed(seed, _BOT_STREAM, s), self.variant) for s, name in names.items()
        }
        self.words = Words(Messages(lang), faces, self.variant, seat)
        self._names = card_names(self.variant.deck_size, faces)

    @property
    def bot(self) -> Bot:
        """The bot of the first other seat: the opponent of a two-player game."""
        return next(iter(self.bots.values()))

    # ---------------------------------------------------------------- driving
    def run(self) -> int:
        """Play the match to its end; 0 when it ended or the player quit, 1 when input ran out."""
        w, say = self.words, self.console.say
        # No seed here: it deals every card of the match (the talon and the bots' hands included).
        say(self._welcome())
        say(self.match.goal(w))
        try:
            while not self.match.is_over:
                game = self.match.deal_next()
                self._play_game(game)
                self.match.complete(game)
                for line in self.match.standing_lines(w):
                    say(line)
                if not self.match.is_over:
                    answer = self.console.ask(w("continue"))
                    if answer is None:
                        raise QuitGame(eof=True)
                    if answer.lower() in w.msgs.words("words_quit"):
                        raise QuitGame(eof=False)
        except QuitGame as stop:
            return self._stop(stop.eof)
        say()
        for line in self.match.final_lines(w):
            say(line)
        say(w("seed_note", seed=self.seed))
        if self.record_path:
            self._save(self.record_path)
        return 0

    def _welcome(self) -> str:
        w = self.words
        if len(self.bots) == 1:
            return w("welcome", variant=self.variant.title, bot=self.bot.name)
        partner = w("partner", p=(self.seat + 2) % 4) if self.variant.players == 4 else ""
        bots = ", ".join(f"{s}={b.name}" for s, b in self.bots.items())
        return w("welcome_table", variant=self.variant.title, seat=self.seat, partner=partner, bots=bots)

    def _stop(self, eof: bool) -> int:
        w, say = self.words, self.console.say
        say(w("seed_note", seed=self.seed))
        if eof:
            say(w("eof"))
            if self.record_path:
                self._save(self.record_path)
            return 1
        path = self.record_path or self._ask_file_name()
        if path:
            self._save(path)
        say(w("bye"))
        return 0

    def _ask_file_name(self) -> str | None:
        """Ask where to save the match: a file name, or nothing; "yes" asks for the name."""
        w = self.words
        answer = self.console.ask(w("save_offer"))
        while answer is not None and answer.lower() in w.msgs.words("yes_words"):
            # "y" means "yes, save it", not a file called y.
            answer = self.console.ask(w("save_name"))
        if not answer or answer.lower() in w.msgs.words("no_words"):
            return None
        return answer

    def seats(self) -> int:
        """How many seats the match has (the saved record names who sat in each)."""
        return self.variant.players

    def _save(self, path: str) -> None:
        w = self.words
        seats = {s: self.bots[s].name if s in self.bots else HUMAN_SEAT for s in range(self.seats())}
        try:
            text = self.match.dumps(seats)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except (OSError, BummerlError) as exc:
            self.console.say(w("save_failed", error=exc))
            return
        self.console.say(w("saved", path=path))

    # ------------------------------------------------------------------ a game
    def _play_game(self, game: Game) -> None:
        """Play ``game``, the series' current one: each game seat is a series seat, a bot's or a person's."""
        series, say = self.match.series, self.console.say
        players = series.players_of(len(series.games) - 1)
        story = self._story(players)
        narrator = Narrator(story, lambda result: self.match.result_lines(result, story))
        say()
        say(self.match.game_header(game, story))
        for line in self._waiting(players, story):
            say(line)
        while not game.is_over:
            seat = game.to_move
            bot = self.bots.get(players[seat])
            if bot is not None:
                action = bot.choose(self.match.bot_view(game, seat))
            else:
                action = self._human_action(game, seat, players[seat], story)
            for line in narrator.tell(game.apply(action)):
                say(line)

    def _story(self, players: Sequence[int]) -> Words:
        """Whose side a game of ``players`` (the series seats at its game seats) is told from: yours."""
        return self.words

    def _waiting(self, players: Sequence[int], story: Words) -> list[str]:
        """What is said to whoever waits this game (nobody waits in a match)."""
        return []

    def _human_action(self, game: Game, seat: int, player: int, story: Words) -> Action:
        """The action a person at the console chooses for game seat ``seat`` (series seat ``player``)."""
        return self._ask_action(game)

    # ------------------------------------------------------------------- input
    def _ask_action(self, game: Game) -> Action:
        w, say = self.words, self.console.say
        view = game.view(self.seat)
        hand, choices = menu(view)
        say()
        for line in self.match.view_lines(view, w):
            say(line)
        if hand:
            say(w("your_hand"))
        playing = any(a.kind is ActionKind.PLAY for a in choices)
        for card in hand:
            label = f"{w.card(card)}  [{card.short(w.faces, w.lang)}]"
            action = Action.play(card)
            if action in choices:
                say(f"  {choices.index(action) + 1:>2}) {label}")
            elif playing:
                say(f"   -) {label}  ({w('not_allowed_mark')})")
            else:
                say(f"      {label}")
        others = [a for a in choices if a.kind is not ActionKind.PLAY]
        if others:
            say(w("more_actions"))
            for action in others:
                say(f"  {choices.index(action) + 1:>2}) {self.match.label(action, view, w)}")
        while True:
            answer = self.console.ask(w("prompt"))
            if answer is None:
                raise QuitGame(eof=True)
            if not answer:
                continue
            choice = self.parse_choice(answer, game, choices)
            if isinstance(choice, Action):
                return choice
            say(choice)

    def parse_choice(self, text: str, game: Game, menu: list[Action]) -> Action | str:
        """The action ``text`` names, or a message saying why there is none (or help).

        Raises :class:`QuitGame` when the player asks to quit.
        """
        w = self.words
        word = text.strip().lower()
        view = game.view(self.seat)
        hand = view.hand
        if word in w.msgs.words("words_help"):
            sample = next(iter(sort_hand(hand, view.trump)), None)
            short = sample.short(w.faces, w.lang) if sample else "H-A"
            name = w.card(sample) if sample else "Herz-Ass"
            return w("help", short=short, name=name)
        if word in w.msgs.words("words_quit"):
            raise QuitGame(eof=False)
        allowed = ", ".join(str(i + 1) for i in range(len(menu)))
        if word.isdigit():
            n = int(word)
            return menu[n - 1] if 1 <= n <= len(menu) else w("not_possible", allowed=allowed)
        action = self._named_action(text, word, menu)
        if action is None:
            return w("unknown_input", text=text)
        if action in menu:
            return action
        if action.kind is ActionKind.PLAY and action.card not in hand:
            assert action.card is not None
            return w("not_in_hand", card=w.card(action.card))
        try:
            game.verify(action)
        except IllegalActionError as exc:
            plays = [w.card(a.card) for a in menu if a.card is not None and a.kind is ActionKind.PLAY]
            return w("illegal", rule=exc.rule.title, allowed=", ".join(plays) or allowed)
        return w("not_possible", allowed=allowed)

    def _named_action(self, text: str, word: str, menu: list[Action]) -> Action | None:
        """The action a word, a card or a token names (legal or not); ``None`` if none."""
        msgs = self.words.msgs
        for key, special in (
            ("words_close", Action.close()),
            ("words_exchange", Action.exchange()),
            ("words_declare", Action.declare()),
        ):
            if word in msgs.words(key):
                return special
        card = self._names.get(_normalize(text))
        if card is not None:
            # A card typed while laying away lays it away; otherwise it is played.
            return next((a for a in menu if a.card == card and a.kind is ActionKind.DISCARD), Action.play(card))
        try:
            return Action.parse(text.strip())
        except BummerlError:
            return None
