"""``bummerl analyze``: decisions annotated from the player's view, mistakes flagged.

Rules referenced: RULES.md "A player who declares with 65 or fewer loses the
game, and the opponent scores what the declarer would have" (a wrong
declaration is a mistake the analysis must find) and view.py: "once the talon
is exhausted, the whole opponent hand, by elimination" (where the exact solver
judges moves as optimal or losing).

The table games (issue 11: "table-game analysis uses the table solver for fully
known positions and the search bot's evaluation otherwise"): seeds/004 "Sagt
ein Spieler 'Genug' ... und hat er sich verzählt, so hat er verloren" (a wrong
Genug is a mistake the analysis must find), a blunder where the player's view
determines every hand is judged exactly, bids by the search bot's estimate, and
the cut, trump call, talon and Kontra are honestly not analysed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.analysis import analyze, make_evaluator
from bummerl.bots import make_bot
from bummerl.bots.search import Budget, SearchBot
from bummerl.bots.table_search import TableSearchBot
from bummerl.cli import main
from bummerl.commands.analyze import load_games
from bummerl.game import Game
from bummerl.record import GameRecord, dumps
from bummerl.rng import SplitMix64
from bummerl.solver import action_values
from bummerl.solver.table import action_values as table_action_values
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase


def _wrong_declaration_record() -> str:
    """Vorhand wins the first trick with few Augen, then declares at once:
    the opponent has no trick, so the declaration hands them 3 game points."""
    for seed in range(200):
        game = Game.deal("schnapsen", seed=seed)
        game.apply(game.legal_actions()[0])
        follow = [a for a in game.legal_actions() if a.kind is ActionKind.PLAY]
        # The follower gives the trick away with their first card if it loses.
        for a in follow:
            trial = game.copy()
            trial.apply(a)
            if trial.to_move == 1 - game.to_move and trial.augen(trial.to_move) < 66:
                game = trial
                break
        else:
            continue
        if Action.declare() in game.legal_actions():
            game.apply(Action.declare())
            assert game.result is not None and game.result.points == 3
            return dumps(GameRecord.from_game(game, Event="wrong declaration"))
    raise AssertionError("no suitable deal")


def _endgame_blunder_record() -> tuple[str, int]:
    """A game played randomly until the talon is exhausted, then perfectly except
    one deliberately worst move; returns the record and that move's index."""
    for seed in range(100):
        game = Game.deal("schnapsen", seed=seed)
        rng = SplitMix64(seed)
        while not game.is_over and (game.talon_size or game.is_closed):
            legal = [a for a in game.legal_actions() if a.kind not in (ActionKind.DECLARE, ActionKind.CLOSE)]
            game.apply(legal[rng.below(len(legal))])
        blunder = None
        while not game.is_over:
            vals = action_values(game)
            if blunder is None and len(set(vals.values())) > 1:
                blunder = len(game.actions)
                game.apply(min(vals, key=lambda a: vals[a]))
            else:
                game.apply(max(vals, key=lambda a: vals[a]))
        if blunder is not None:
            return dumps(GameRecord.from_game(game)), blunder
    raise AssertionError("no suitable deal")


def test_wrong_declaration_is_a_mistake() -> None:
    """RULES.md: a declaration with 65 or fewer loses; the analysis flags it with
    a loss of at least one game point, judged from the declarer's view."""
    (game,) = load_games(_wrong_declaration_record())
    bot = SearchBot("check", Budget(worlds=6, exhaustive=20), seed=1)
    report = analyze(game, bot)
    last = report.decisions[-1]
    assert last.chosen == Action.declare()
    assert last.mistake and last.verdict == "mistake" and last.loss >= 1
    assert not last.exact and last.worlds == 6
    assert dict(last.values)[Action.declare()] == -3
    assert last in report.mistakes(last.player)


def test_exact_verdicts_after_the_talon_is_exhausted() -> None:
    """With the talon exhausted both hands are known: every decision there is
    judged exactly, the deliberate worst move as losing, the others optimal."""
    text, blunder = _endgame_blunder_record()
    (game,) = load_games(text)
    report = analyze(game, SearchBot("check", Budget(worlds=2)), start=blunder)
    first = report.decisions[0]
    assert first.index == blunder and first.exact and first.verdict == "losing" and first.loss > 0
    for d in report.decisions[1:]:
        assert d.verdict in ("optimal", "forced")
        assert d.exact or d.verdict == "forced"


def test_cli_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bummerl analyze RECORD --json`` prints every decision with its values."""
    path = tmp_path / "game.txt"
    path.write_text(_wrong_declaration_record(), encoding="utf-8")
    assert main(["analyze", str(path), "--bot", "medium", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["evaluator"] == "medium" and len(out["decisions"]) == 3
    last = out["decisions"][-1]
    assert last["action"] == "declare" and last["mistake"] and last["values"]["declare"] == -3
    assert sum(out["mistakes"]) >= 1
    assert main(["analyze", str(path), "--bot", "easy"]) == 0
    text = capsys.readouterr().out
    assert "declare?" in text and "mistake" in text and "player" in text


def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown bots, bots that cannot evaluate, unreadable and malformed records: exit 2 with a message."""
    path = tmp_path / "game.txt"
    path.write_text(_wrong_declaration_record(), encoding="utf-8")
    assert main(["analyze", str(path), "--bot", "nonsense"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["analyze", str(path), "--bot", "random"]) == 2
    assert "cannot evaluate" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text(path.read_text(encoding="utf-8").replace("declare", "Zz"), encoding="utf-8")
    assert main(["analyze", str(bad)]) == 2
    assert "bummerl analyze" in capsys.readouterr().err


def test_position_games_cannot_be_replayed() -> None:
    game = Game.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
    with pytest.raises(ValueError, match="no deal to replay"):
        analyze(game, SearchBot("check", Budget(worlds=1)))


# ------------------------------------------------------------------ table games
def _table_bot() -> TableSearchBot:
    return TableSearchBot(seed=1, worlds=4, seconds=None)


def _table_blunder() -> tuple[TableGame, int]:
    """A table game played by heuristic bots except one worst card late in the play, where the
    exact solver (every hand known) sees a difference; the game and that card's index."""
    for seed in range(60):
        for variant in ("bauernschnapsen", "dreierschnapsen"):
            t = TableGame.deal(variant, seed=seed)
            bots = [make_bot("heuristic", s, t.variant) for s in range(t.players)]
            blunder = None
            while not t.is_over:
                p = t.to_move
                if blunder is None and t.phase is Phase.PLAY and len(t.hands[p]) <= 2 and len(t.legal_actions()) > 1:
                    vals = table_action_values(t)
                    if len(set(vals.values())) > 1:
                        blunder = len(t.actions)
                        t.apply(min(vals, key=lambda a: vals[a]))
                        continue
                t.apply(bots[p].choose(t.view(p)))
            if blunder is not None and analyze(t, _table_bot(), start=blunder).decisions[0].exact:
                return t, blunder
    raise AssertionError("no suitable deal")


def test_table_blunder_in_a_determined_position_is_losing() -> None:
    """Where the player's view leaves one way only to hold the other hands, the exact table solver
    judges the decision: the worst card is ``losing`` by the game points it gives away."""
    t, blunder = _table_blunder()
    report = analyze(t, _table_bot(), start=blunder)
    first = report.decisions[0]
    assert first.index == blunder and first.exact and first.worlds == 1
    assert first.verdict == "losing" and first.mistake and first.loss >= 1
    assert first.chosen == t.actions[blunder] and first in report.mistakes(first.player)
    assert all(d.verdict in ("optimal", "losing", "forced", "best", "good", "mistake") for d in report.decisions)


def _wrong_genug_table() -> tuple[TableGame, int]:
    """seeds/004: "Genug" said with fewer than 66 loses: a game where a player says it early."""
    for seed in range(200):
        t = TableGame.deal("bauernschnapsen", seed=seed)
        bots = [make_bot("heuristic", s, t.variant) for s in range(t.players)]
        while not t.is_over:
            p = t.to_move
            if t.phase is Phase.PLAY and t.tricks and Action.declare() in t.legal_actions():
                side = t.side[p]
                if t.augen(side) < 50:
                    index = len(t.actions)
                    t.apply(Action.declare())
                    assert t.result is not None and p not in t.result.winners
                    return t, index
            t.apply(bots[p].choose(t.view(p)))
    raise AssertionError("no suitable deal")


def test_table_wrong_genug_is_a_mistake() -> None:
    """A wrong "Genug" in a table game is flagged as a mistake from the player's view (sampled worlds)."""
    t, index = _wrong_genug_table()
    report = analyze(t, _table_bot(), start=index)
    (last,) = report.decisions
    assert last.chosen == Action.declare() and last.mistake and last.loss >= 1
    assert last.verdict in ("mistake", "losing")
    assert dict(last.values)[Action.declare()] < 0
    assert report.result is not None and "wrong_declaration" in report.result


def test_table_bids_are_estimated_and_the_rest_not_analysed() -> None:
    """Bids get the search bot's estimate ((2p - 1) x points of each special contract, 0 for a pass or
    the normal game); the cut, the trump call, the talon and Kontra have none: "not analysed"."""
    t = TableGame.deal("dreierschnapsen", seed=3)
    bots = [make_bot("heuristic", s, t.variant) for s in range(3)]
    phases: list[Phase] = []
    while not t.is_over:
        phases.append(t.phase)
        t.apply(bots[t.to_move].choose(t.view(t.to_move)))
    report = analyze(t, _table_bot())
    assert len(report.decisions) == len(t.actions)
    for d, phase in zip(report.decisions, phases, strict=True):
        if d.verdict == "forced":
            continue
        if phase is Phase.BIDDING:
            values = dict(d.values)
            assert d.verdict in ("best", "good", "mistake") and d.worlds == 4 and not d.exact
            for action, value in values.items():
                contract = t.variant.contract(action.contract) if action.contract else None
                if contract is None or contract.name == "normal":
                    assert value == 0
                elif not contract.is_claim:
                    assert -contract.points <= value <= contract.points
        elif phase is not Phase.PLAY:
            assert d.verdict == "not_analysed" and d.values == ((d.chosen, 0.0),) and not d.mistake
    data = report.to_json()
    assert set(data) == {"variant", "evaluator", "threshold", "result", "decisions", "mistakes", "points_lost"}
    assert len(data["mistakes"]) == len(data["points_lost"]) == 3 and data["evaluator"] == "search"
    assert set(data["decisions"][0]) == set(analyze(*_two_player_sample()).decisions[0].to_json())
    text = report.format_text()
    assert "not analysed" in text and "player 2:" in text


def _two_player_sample() -> tuple[Game, SearchBot]:
    game = Game.deal("schnapsen", seed=4)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game, SearchBot("check", Budget(worlds=1))


def test_evaluators_judge_their_family() -> None:
    """The default evaluator of a variant is the first of expert, search that plays it; a two-player
    level refuses a table game and the table bot a two-player game, each naming the right one."""
    table = TableGame.deal("bauernschnapsen", seed=1)
    table.apply("knock")
    assert make_evaluator(table.variant).name == "search"
    assert make_evaluator(Game.deal("66").variant).name == "expert"
    with pytest.raises(ValueError, match="does not evaluate Bauernschnapsen; its evaluator is search"):
        analyze(table, SearchBot("check", Budget(worlds=1)))
    game, _ = _two_player_sample()
    with pytest.raises(ValueError, match="its evaluator is expert"):
        analyze(game, _table_bot())


def test_cli_analyzes_table_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bummerl analyze`` reads a table game's record (and a file mixing both families) and uses the
    table search bot; a two-player level is refused for it with the registry's reason."""
    t, index = _wrong_genug_table()
    two = _wrong_declaration_record()
    path = tmp_path / "table.txt"
    path.write_text(dumps(GameRecord.from_game(t)), encoding="utf-8")
    assert main(["analyze", str(path), "--json", "--seconds", "0.2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["evaluator"] == "search" and len(out["mistakes"]) == 4
    assert out["decisions"][index]["action"] == "declare" and out["decisions"][index]["mistake"]
    assert main(["analyze", str(path), "--bot", "expert"]) == 2
    assert "bot 'expert' does not play Bauernschnapsen" in capsys.readouterr().err
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(two + "\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["analyze", str(mixed), "--seconds", "0.2"]) == 0
    text = capsys.readouterr().out
    assert "--- game 2 ---" in text and "schnapsen: analysis by expert" in text
    assert "bauernschnapsen: analysis by search" in text and "player 3:" in text
