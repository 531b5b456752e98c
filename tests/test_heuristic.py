"""The ``heuristic`` bot: always legal, declares exactly when it may, takes marriages, beats ``random``."""

from __future__ import annotations

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.bots import make_bot
from bummerl.bots.heuristic import HeuristicBot, counted_augen
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.variants import EndReason, TwoPlayerVariant, find_variant

VARIANTS = ["schnapsen", "scharf", "66", "schnorps"]


def _play(variant: str, seed: int, seats: tuple[str, str]) -> tuple[Game, list[tuple[Game, Action]]]:
    """Play one game; return it and the heuristic's decisions with the game before each."""
    game = Game.deal(_variant(variant), seed, dealer=seed % 2)
    bots = [make_bot(seats[0], seed), make_bot(seats[1], seed + 1)]
    decisions: list[tuple[Game, Action]] = []
    while not game.is_over:
        p = game.to_move
        action = bots[p].choose(game.view(p))
        if seats[p] == "heuristic":
            decisions.append((game.copy(), action))
        game.apply(action)
    return game, decisions


def _variant(spec: str) -> TwoPlayerVariant:
    """``name`` or ``name:option`` (a boolean option switched on)."""
    name, _, option = spec.partition(":")
    return find_variant(name, **{option: True}) if option else find_variant(name)


@pytest.mark.parametrize("variant", [*VARIANTS, "schnapsen:auto_declare", "scharf:count_after_closing"])
def test_always_legal_over_thousands_of_positions(variant: str) -> None:
    """Every choice is one of the view's legal actions (RULES.md: "A view is enough to choose a legal
    action"), in every variant and option, against ``random`` and itself, on both seats."""
    positions = 0
    for seed in range(160):
        seats = [("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")][seed % 3]
        _, decisions = _play(variant, seed, seats)
        for before, action in decisions:
            assert action in before.legal_actions(), (before.position(), action)
            positions += 1
    assert positions >= 1000


def test_deterministic() -> None:
    """The same seed and the same views give the same choices."""
    a = [act.token for _, act in _play("schnapsen", 9, ("heuristic", "heuristic"))[1]]
    b = [act.token for _, act in _play("schnapsen", 9, ("heuristic", "heuristic"))[1]]
    assert a == b


@pytest.mark.parametrize("variant", VARIANTS)
def test_declares_as_soon_as_it_has_66(variant: str) -> None:
    """seeds/000: "Hat ein Spieler nach Gewinn eines Stichs oder einer Ansage 66 oder mehr Augen
    erreicht, so darf er sich ausmelden" — whenever the bot is on lead with 66 counted Augen and
    declaring is legal, it declares; in scharf it counts its own tricks from the view."""
    checked = 0
    for seed in range(200):
        _, decisions = _play(variant, seed, ("heuristic", "random") if seed % 2 else ("random", "heuristic"))
        for before, action in decisions:
            p = before.to_move
            if Action.declare() in before.legal_actions() and before.augen(p) >= 66:
                checked += 1
                assert action is Action.declare(), before.position()
    assert checked >= 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_never_declares_below_66(variant: str) -> None:
    """RULES.md: "A player who declares with 65 or fewer loses the game" — the bot's declarations are
    always right, also in scharf where the view shows no running totals."""
    declarations = 0
    for seed in range(300):
        seats = ("heuristic", "random") if seed % 2 else ("random", "heuristic")
        _, decisions = _play(variant, seed, seats)
        for before, action in decisions:
            if action.kind is ActionKind.DECLARE:
                declarations += 1
                after = before.copy()
                after.apply(action)
                assert after.result is not None
                assert after.result.reason is not EndReason.WRONG_DECLARATION
                assert after.result.winner == before.to_move
    assert declarations >= 50


def test_counts_own_augen_in_scharf_like_the_game() -> None:
    """Scharf hides running totals (seeds/000: "Abgelegte Stiche dürfen nichtmehr angesehen werden"), but a
    player may remember: the bot's count from the view's tricks and marriages equals the game's count."""
    compared = 0
    for seed in range(60):
        game = Game.deal("scharf", seed)
        bot = HeuristicBot()
        while not game.is_over:
            for p in (0, 1):
                view = game.view(p)
                assert view.augen is None
                assert counted_augen(view, p) == game.augen(p)
                compared += 1
            game.apply(bot.choose(game.view(game.to_move)))
    assert compared > 500


def test_declares_in_a_position() -> None:
    """seeds/000: "so darf er sich ausmelden (Ich habe genug)" — 69 Augen on lead: declare."""
    game = Game.from_position("schnapsen 1 0 As JhKdQsJcKc/KhQhQdJdQc Ts - - AhThAdTdAcTcKsJs/- -")
    assert game.augen(0) == 69
    assert HeuristicBot().choose(game.view(0)) is Action.declare()


def test_does_not_declare_with_65() -> None:
    """RULES.md: "A player who declares with 65 or fewer loses the game" — 65 Augen: play on."""
    game = Game.from_position("schnapsen 1 0 As JhQdJcQsJs/KhQhJdTcQc Ts - - AhThAdTdAcKcKsKd/- -")
    assert game.augen(0) == 65
    assert HeuristicBot().choose(game.view(0)).kind is not ActionKind.DECLARE


def test_takes_the_forty_before_the_twenty() -> None:
    """seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... in einer anderen Farbe zählt 20 Augen" and in
    weich "auch vor dem allerersten Ausspiel möglich": with both marriages the bot announces the 40,
    leading the Ober (seeds/000: "muss eine der beiden Karten zum nächsten Stich ausspielen")."""
    game = Game.from_position("schnapsen 1 0 Jh KhQhKcQcJs/AhThAdTdAc TcJcKdQdJdAsTsKsQs - - -/- -")
    assert HeuristicBot().choose(game.view(0)) is Action.parse("marry:Qh")


def test_takes_the_marriage_in_scharf_with_the_king() -> None:
    """seeds/000, scharf: "Wer eine Ansage macht, muss zum nächsten Stich den König ausspielen"."""
    game = Game.from_position("schnapsen-scharf 1 0 Jh KhQhKcQcJs/AhThAdTdAc TcJcKdQdJdKsQs - - AsTs/- -")
    assert HeuristicBot().choose(game.view(0)) is Action.parse("marry:Kh")


def test_declares_with_a_marriage_that_reaches_66() -> None:
    """RULES.md: "a marriage that reaches 66 may end the game before its card is played, if the player
    has won a trick" — 50 Augen and the 20 in Clubs: declare:c."""
    game = Game.from_position("schnapsen 1 0 As KcQcJhQdJd/KhQhJcTcQs TsAcJs - - AhThAdTdKsKd/- -")
    assert game.augen(0) == 50
    assert HeuristicBot().choose(game.view(0)) is Action.parse("declare:c")


def test_exchanges_the_trump_unter() -> None:
    """seeds/000: "so darf er die niedrigste Trumpfkarte gegen die offen aufliegende Trumpfkarte
    austauschen" — the bot takes the face-up Ace for its Unter."""
    game = Game.from_position("schnapsen 1 0 Ah JhKcQdJdJs/ThKhQhAdTd TcJcKdQcAcAsTsKsQs - - -/- -")
    assert Action.exchange() in game.legal_actions()
    assert HeuristicBot().choose(game.view(0)) is Action.exchange()


def test_takes_a_led_ace_with_the_lowest_trump() -> None:
    """With the talon open there is no Farbzwang (seeds/000: "Zu Beginn des Spieles herrscht weder Farb-
    noch Stichzwang"), so the bot may trump the led Ace of Clubs: it uses its cheapest trump."""
    game = Game.from_position("schnapsen 0 0 Ah JhQhKdQdJd/KcQcJcTd ThKhAdTcAsTsKsQsJs - Ac -/- -")
    assert HeuristicBot().choose(game.view(0)) is Action.parse("Jh")


def test_leads_low_and_keeps_trumps_with_the_talon_open() -> None:
    """Nothing to announce or exchange: the bot leads its cheapest non-trump card."""
    game = Game.from_position("schnapsen 1 0 Ah ThKcJdJsQs/KhQhAdTdJh KdQdAcTcQcJcAsTsKs - - -/- -")
    action = HeuristicBot().choose(game.view(0))
    assert action is Action.parse("Jd")


def test_runs_sure_winners_when_the_talon_is_exhausted() -> None:
    """After the talon is exhausted Farbzwang and Stichzwang apply (seeds/000: "Ist der Talon jedoch
    aufgebraucht, so gilt ab diesem Zeitpunkt Farb- und Stichzwang"): the top trump is a sure trick."""
    game = Game.from_position("schnapsen 1 0 h AhKc/ThQc - - - -/KsJsQsTsAsJhKhQhAdTdKdQdJdAcTcJc -")
    assert HeuristicBot().choose(game.view(0)) is Action.parse("Ah")


@pytest.mark.parametrize("variant", VARIANTS)
def test_beats_random_on_duplicate_deals(variant: str) -> None:
    """Each deal twice with seats swapped: the heuristic wins far more game points than ``random``."""
    points = [0, 0]
    for i in range(60):
        seed = derive_seed(2024, i)
        for swap in (0, 1):
            names = ("heuristic", "random") if not swap else ("random", "heuristic")
            game = Game.deal(variant, seed)
            bots = [make_bot(names[0], seed), make_bot(names[1], seed)]
            while not game.is_over:
                game.apply(bots[game.to_move].choose(game.view(game.to_move)))
            r = game.result
            assert r is not None
            if r.winner is not None:
                points[r.winner ^ swap] += r.points
    assert points[0] > 4 * points[1]
