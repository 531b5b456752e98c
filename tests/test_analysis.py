"""``bummerl analyze``: decisions annotated from the player's view, mistakes flagged.

Rules referenced: RULES.md "A player who declares with 65 or fewer loses the
game, and the opponent scores what the declarer would have" (a wrong
declaration is a mistake the analysis must find) and view.py: "once the talon
is exhausted, the whole opponent hand, by elimination" (where the exact solver
judges moves as optimal or losing).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.analysis import analyze
from bummerl.bots.search import Budget, SearchBot
from bummerl.cli import main
from bummerl.commands.analyze import load_games
from bummerl.game import Game
from bummerl.record import GameRecord, dumps
from bummerl.rng import SplitMix64
from bummerl.solver import action_values


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
