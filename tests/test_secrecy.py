"""Hidden information: no path shows a player a card they cannot know.

Issue 2: "A player view: exactly what that player may know (own hand, trump card,
talon size, cards seen, own tricks ...)"; the project's rule: "a bot/view/message/log
never gets a card its player cannot know".  tests/test_view.py checks the view's
fields; this module checks what is built around views and games: the engine's
error messages, the view's repr and its protocol JSON, the terminal session's
every line and prompt, the bot's input, the seed (which deals every card) and
the record file of a match in progress.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bummerl.actions import ALL_ACTIONS, Action
from bummerl.bots import make_bot
from bummerl.cards import Card, deck
from bummerl.commands.play import BOT, HUMAN, Console, PlaySession, _normalize
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.protocol import view_to_json
from bummerl.variants import TWO_PLAYER_VARIANTS, find_variant
from bummerl.view import PlayerView
from helpers import cards_in, random_playout

VARIANT_NAMES = [v.name for v in TWO_PLAYER_VARIANTS]  # the table games: tests/test_table_properties.py
_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[AKQJT789]|10)[hdcs](?![A-Za-z])")


def codes_in(text: str) -> set[Card]:
    """Cards written in the ASCII notation anywhere in ``text``."""
    return {Card.parse(m.group()) for m in _CODE.finditer(text)}


def states(name: str, seeds: range) -> Iterator[Game]:
    """Every state (before each action) of random games of variant ``name``."""
    for seed in seeds:
        game = Game.deal(name, seed)
        for action in random_playout(game.copy(), seed):
            yield game
            game.apply(action)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_error_messages_name_only_cards_the_mover_knows(name: str) -> None:
    """An illegal action's message (shown to the player who tried it) names only cards of that
    player's view, or the card they tried to play — e.g. Farbzwang lists their own allowed cards."""
    for game in states(name, range(6)):
        p = game.to_move
        known = cards_in(game.view(p))
        for action in ALL_ACTIONS:
            if action is None or game.can_apply(action):
                continue
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            tried = {action.card} if action.card is not None else set()
            # "exchanging needs the trump Jd in hand" names the rule's card, not where it is.
            tried.add(Card(game.trump, game.variant.exchange_rank))
            leaked = codes_in(str(info.value)) - known - tried
            assert not leaked, f"{action.token}: {info.value} names {leaked}"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_view_repr_and_protocol_json_hold_only_the_view(name: str) -> None:
    """The repr of a view (logs, debuggers) and its bot-protocol JSON name no other card."""
    for game in states(name, range(4)):
        for p in (0, 1):
            view = game.view(p)
            known = cards_in(view)
            assert {Card.parse(c) for c in re.findall(r"Card\.parse\('(\w+)'\)", repr(view))} <= known
            assert codes_in(str(view_to_json(view))) <= known


def _shuffle_hidden(game: Game, player: int, rng: random.Random) -> Game:
    """The same game with the cards ``player`` cannot see (the opponent's unshown cards
    and the face-down talon) dealt among those places at random."""
    opp = 1 - player
    view = game.view(player)
    hidden_hand = [c for c in game.hands[opp] if c not in view.opponent_known]
    pool = hidden_hand + list(game.talon)
    rng.shuffle(pool)
    other = game.copy()
    swap = dict(zip(hidden_hand + list(game.talon), pool, strict=True))
    other.hands[opp] = [swap.get(c, c) for c in game.hands[opp]]
    other.talon = [swap[c] for c in game.talon]
    other._legal = None
    return other


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_view_does_not_depend_on_hidden_cards(name: str) -> None:
    """Two games that differ only in what a player cannot see give that player the same view,
    so nothing built from the view (bots, screens, the protocol) can depend on hidden cards."""
    rng = random.Random(7)
    checked = 0
    for game in states(name, range(8)):
        for p in (0, 1):
            other = _shuffle_hidden(game, p, rng)
            assert other.view(p) == game.view(p)
            checked += other.hands[1 - p] != game.hands[1 - p]
    assert checked > 50  # the shuffles really moved cards


# ------------------------------------------------------------ the terminal
class _SpyConsole(Console):
    """Answers from a script and checks every line and prompt against the human's knowledge."""

    def __init__(self, answers: list[str], faces: str, lang: str, record: Path | None = None) -> None:
        super().__init__(io.StringIO(), io.StringIO())
        self.answers = iter(answers)
        self.session: PlaySession | None = None
        self.record = record
        self.names = {c.name(faces, lang): c for c in deck(32)}
        self.pattern = re.compile("|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True)))
        self.seen: dict[int, set[Card]] = {}
        self.typed: set[Card] = set()
        self.lines: list[str] = []

    def _known(self) -> set[Card]:
        assert self.session is not None
        games = self.session.match.series.games
        if not games:
            return set()
        game = games[-1]
        seen = self.seen.setdefault(id(game), set())
        seen |= cards_in(game.view(HUMAN))
        return seen

    def _check(self, text: str) -> None:
        self.lines.append(text)
        named = {self.names[m.group()] for m in self.pattern.finditer(text)}
        leaked = named - self._known() - self.typed
        assert not leaked, f"{text!r} shows {sorted(c.code for c in leaked)}"
        if self.session is not None:
            assert str(self.session.seed) not in text or ("Seed" in text and self._match_done()), text

    def _match_done(self) -> bool:
        assert self.session is not None
        return self.session.match.is_over or self.quitting

    quitting = False

    def say(self, text: str = "") -> None:
        self._check(text)
        super().say(text)

    def ask(self, prompt: str) -> str | None:
        self._check(prompt)
        if self.record is not None:
            assert not self.record.exists(), "the record was written while the match goes on"
        answer = next(self.answers, None)
        if answer in ("q", "quit"):
            self.quitting = True
        # A card the player names (code, short form or name in either language) may be echoed.
        assert self.session is not None
        typed = self.session._names.get(_normalize(answer or ""))
        self.typed = {typed} if typed is not None else set()
        with contextlib.suppress(ValueError):
            self.typed.add(Card.parse(answer or ""))
        return answer


def _script(length: int) -> list[str]:
    """Answers that try every kind of bad input before choosing the first legal action."""
    probes = ["Ah", "9s", "marry:Kd", "declare:c", "exchange", "close", "banana", "99", "Herz-Ass", "1"]
    return [probes[i % len(probes)] for i in range(length)]


@pytest.mark.parametrize(
    ("variant", "faces", "lang"),
    [("schnapsen", "german", "de"), ("scharf", "french", "en"), ("66", "german", "en"), ("schnorps", "french", "de")],
)
def test_terminal_session_shows_only_known_cards(variant: str, faces: str, lang: str, tmp_path: Path) -> None:
    """Every line and prompt of `bummerl play` names only cards the human has seen (own hand,
    trump card, played cards, shown cards) or just typed; the bot answers from its view."""
    record = tmp_path / "match.txt"
    console = _SpyConsole(_script(6000), faces, lang, record)
    session = PlaySession(find_variant(variant), "heuristic", 8765431, faces, lang, str(record), console)
    console.session = session
    views: list[PlayerView] = []
    choose = session.bot.choose

    def spy(view: PlayerView) -> Action:
        assert isinstance(view, PlayerView) and view.player == BOT
        # Its own seat's view, plus the match context (the score sheet, no card: docs/bots.md).
        assert session.match.series.current is not None and view._replace(
            match=None
        ) == session.match.series.current.view(BOT)
        views.append(view)
        return choose(view)

    session.bot.choose = spy  # type: ignore[method-assign]
    assert session.run() == 0
    assert session.match.is_over and views
    assert record.exists()
    assert any("Seed 8765431" in line for line in console.lines[-3:])


def test_quitting_shows_the_seed_only_then() -> None:
    """The seed deals every card of the match (bummerl.rng): shown only once the player quits
    (the console refuses it in any earlier line)."""
    console = _SpyConsole(["1", "1", "q", ""], "german", "en")
    session = PlaySession(find_variant("schnapsen"), "random", 987654321, "german", "en", None, console)
    console.session = session
    assert session.run() == 0
    assert console.quitting and any("987654321" in line for line in console.lines)


def test_bot_input_is_the_view_only() -> None:
    """Bots are called with a PlayerView (issue: "A view is enough to choose a legal action")."""
    for name in VARIANT_NAMES:
        bot = make_bot("heuristic", 1)
        game = Game.deal(name, 3)
        while not game.is_over:
            view = game.view(game.to_move)
            action = bot.choose(view)
            assert action in view.legal_actions()
            game.apply(action)
