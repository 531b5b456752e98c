"""Annotate every decision of a played game with a search bot's evaluation.

For each action in a game's history, :func:`analyze` replays the game up to that
decision, asks an evaluating bot (``expert`` by default) for the expected game
points of every legal action **from the deciding player's view** — using only
what that player could know — and flags a *mistake* where the chosen action is
worse than the best by at least ``threshold`` game points.

Where the position is fully known to the player (the talon is exhausted: each
player knows the other's hand by elimination), the exact open-card solver gives
the true values instead, and the move is marked ``optimal`` or ``losing``
(giving away game points against best play).

>>> from bummerl.game import Game
>>> from bummerl.bots.search import SearchBot, Budget
>>> game = Game.deal("schnapsen", seed=4)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> bot = SearchBot("ref", Budget(worlds=2))
>>> report = analyze(game, bot, start=14)
>>> [d.verdict for d in report.decisions]
['optimal', 'optimal', 'optimal', 'forced', 'optimal', 'forced']
>>> print(report.format_text().splitlines()[1])
 15. P1 Ts           optimal  [exact: Ts +1.00  Js +1.00  Kh +1.00  declare -1.00]

The analysis reads the record's full history but gives each decision only its
player's view, so the verdicts are fair to the player.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from bummerl.actions import Action
from bummerl.bots.search import SearchBot, ValueFunction, solvable, solver_values
from bummerl.game import Game

__all__ = ["Analysis", "Decision", "analyze", "replay_history"]

#: Default mistake threshold in game points (sampling noise of ``expert`` is
#: well below this; a real mistake usually costs a whole point).
THRESHOLD = 0.3


@dataclasses.dataclass(frozen=True)
class Decision:
    """One annotated decision."""

    #: Index of the action in the game's history (0 = first action).
    index: int
    player: int
    position: str
    chosen: Action
    #: Value of each legal action, best first (expected game points, own minus opponent's).
    values: tuple[tuple[Action, float], ...]
    #: Best value minus the chosen action's value (0 when the choice was best).
    loss: float
    mistake: bool
    #: Whether the values are exact (solver on a position the player fully knows).
    exact: bool
    #: ``"forced"`` (one legal action), ``"optimal"``/``"losing"`` (exact),
    #: ``"unevaluated"`` (too early in a long-talon variant to solve), else
    #: ``"best"``, ``"good"`` or ``"mistake"``.
    verdict: str
    #: Worlds evaluated (1 when exact).
    worlds: int

    @property
    def best(self) -> Action:
        return self.values[0][0]

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "player": self.player,
            "position": self.position,
            "action": self.chosen.token,
            "best": self.best.token,
            "values": {a.token: round(v, 4) for a, v in self.values},
            "loss": round(self.loss, 4),
            "mistake": self.mistake,
            "exact": self.exact,
            "verdict": self.verdict,
            "worlds": self.worlds,
        }


@dataclasses.dataclass(frozen=True)
class Analysis:
    """All annotated decisions of one game."""

    variant: str
    decisions: list[Decision]
    result: str | None
    evaluator: str
    threshold: float

    def mistakes(self, player: int | None = None) -> list[Decision]:
        return [d for d in self.decisions if d.mistake and (player is None or d.player == player)]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "evaluator": self.evaluator,
            "threshold": self.threshold,
            "result": self.result,
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [len(self.mistakes(0)), len(self.mistakes(1))],
            "points_lost": [
                round(sum(d.loss for d in self.decisions if d.player == p and d.mistake), 4) for p in (0, 1)
            ],
        }

    def format_text(self) -> str:
        """A readable report: one line per decision, details for mistakes."""
        lines = [f"{self.variant}: analysis by {self.evaluator} (mistake: >= {self.threshold:g} game points worse)"]
        for d in self.decisions:
            mark = {"mistake": "?", "losing": "??"}.get(d.verdict, "")
            head = f"{d.index + 1:3d}. P{d.player} {d.chosen.token}{mark}"
            if d.verdict in ("forced", "unevaluated"):
                lines.append(f"{head:<20} {d.verdict}")
                continue
            vals = "  ".join(f"{a.token} {v:+.2f}" for a, v in d.values[:4])
            extra = f", best {d.best.token} (-{d.loss:.2f})" if d.loss > 1e-9 else ""
            source = "exact" if d.exact else f"{d.worlds} worlds"
            lines.append(f"{head:<20} {d.verdict}{extra}  [{source}: {vals}]")
        for p in (0, 1):
            ms = self.mistakes(p)
            lost = sum(d.loss for d in ms)
            lines.append(f"player {p}: {len(ms)} mistake(s), {lost:.2f} expected game points given away")
        if self.result:
            lines.append(f"result: {self.result}")
        return "\n".join(lines)


def replay_history(game: Game) -> tuple[Game, list[Action]]:
    """A fresh game from ``game``'s deal and its action history."""
    if not game.deck:
        raise ValueError("this game was set up from a position: it has no deal to replay from")
    return Game.from_deck(game.variant, game.deck, game.dealer), list(game.actions)


def analyze(
    game: Game,
    bot: SearchBot,
    threshold: float = THRESHOLD,
    values: ValueFunction | None = None,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Annotate the decisions of ``game`` (dealt, with its history) from ``start`` on.

    ``bot`` evaluates positions the player does not fully know; ``values`` (the
    exact solver by default) those the player does.
    """
    exact_values = values or solver_values
    replay, actions = replay_history(game)
    decisions: list[Decision] = []
    for i, action in enumerate(actions):
        if i >= start:
            if progress is not None:
                progress(i, len(actions))
            decisions.append(_decide(replay, i, action, bot, exact_values, threshold))
        replay.apply(action)
    result = None
    if replay.result is not None:
        r = replay.result
        result = (
            f"player {r.winner} wins {r.points} {r.unit} ({r.reason.value}, Augen {r.augen[0]}:{r.augen[1]})"
            if r.winner is not None
            else f"nobody wins ({r.reason.value}, Augen {r.augen[0]}:{r.augen[1]})"
        )
    return Analysis(game.variant.name, decisions, result, bot.name, threshold)


def _decide(
    game: Game, index: int, action: Action, bot: SearchBot, exact_values: ValueFunction, threshold: float
) -> Decision:
    p = game.to_move
    position = game.position()
    legal = game.legal_actions()
    if len(legal) == 1:
        return Decision(index, p, position, action, ((action, 0.0),), 0.0, False, False, "forced", 0)
    view = game.view(p)
    # Fully known to the player: the opponent's hand is known and nothing hides
    # in the talon (exhausted, not closed: a closed talon still hides cards).
    exact = view.talon_size == 0 and len(view.opponent_known) == view.opponent_hand_size
    vals: Mapping[Action, float]
    if exact:
        vals = {a: float(v) for a, v in exact_values(game).items()}
        worlds = 1
    elif not solvable(view):
        # Too early in a long-talon game to solve the worlds in reasonable time.
        return Decision(index, p, position, action, ((action, 0.0),), 0.0, False, False, "unevaluated", 0)
    else:
        ev = bot.evaluate(view)
        vals, worlds = ev.values, ev.worlds
    ranked = tuple(sorted(vals.items(), key=lambda kv: -kv[1]))
    loss = ranked[0][1] - vals[action]
    mistake = loss >= threshold - 1e-9
    if exact:
        verdict = "optimal" if loss < 1e-9 else "losing"
        mistake = loss > 1e-9
    elif loss < 1e-9:
        verdict = "best"
    else:
        verdict = "mistake" if mistake else "good"
    return Decision(index, p, position, action, ranked, loss, mistake, exact, verdict, worlds)
