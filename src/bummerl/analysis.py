"""Annotate every decision of a played game of any variant with a search bot's evaluation.

For each action in a game's history, :func:`analyze` replays the game up to that
decision, asks an evaluating bot for the expected game points of every legal
action **from the deciding player's view** — using only what that player could
know — and flags a *mistake* where the chosen action is worse than the best by
at least ``threshold`` game points.  The analysis reads the record's full
history (it knows every hand) but judges each decision only with its player's
view, so the verdicts are fair to the player.

Two-player games are judged by a two-player search level (``expert`` by
default; :class:`~bummerl.bots.search.SearchBot`).  Where the position is fully
known to the player (the talon is exhausted: each player knows the other's
hand by elimination), the exact open-card solver gives the true values instead,
and the move is marked ``optimal`` or ``losing`` (giving away game points
against best play).

>>> from bummerl.game import Game
>>> from bummerl.bots.search import SearchBot, Budget
>>> game = Game.deal("schnapsen", seed=4)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> bot = SearchBot("ref", Budget(worlds=2))
>>> report = analyze(game, bot, start=14)
>>> [d.verdict for d in report.decisions]
['optimal', 'optimal', 'optimal', 'forced', 'optimal', 'forced']
>>> print(report.format_text().splitlines()[1])
 15. P1 Ts           optimal  [exact: Ts +1.00  Js +1.00  Kh +1.00  declare -1.00]

The table games (Bauernschnapsen, Dreierschnapsen) are judged by the table
``search`` bot (:class:`~bummerl.bots.table_search.TableSearchBot`): in the card
play each legal action's value for the player's side is averaged over worlds
dealt consistently with the player's view and solved exactly
(:mod:`bummerl.solver.table`); where the view leaves one way only to hold the
unseen cards (late tricks, proven voids), the exact solver judges the position
itself: ``optimal`` or ``losing``.  A bid is valued with the search bot's
bidding estimate: a special contract at ``(2p - 1) * points`` for the share
``p`` of sampled deals in which the bidder wins it, a claim (Farbenring,
Herrenschnapser) at its points, the normal game and a pass at ``0`` (the
baseline of the bot's own bidding).  The cut, the trump call, the talon and
Kontra have no estimate: they are marked ``not_analysed``.

>>> table = Game.deal("dreierschnapsen", seed=3)
>>> while not table.is_over:
...     _ = table.apply(table.legal_actions()[0])
>>> report = analyze(table, make_evaluator(table.variant, "search", seconds=None))
>>> sorted({d.verdict for d in report.decisions}) # doctest: +ELLIPSIS
[...'not_analysed'...]
>>> len(report.to_json()["mistakes"])
3
"""

from __future__ import annotations

import abc
import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from bummerl.actions import Action, ActionKind
from bummerl.bots import UnknownBotError, bot_info, make_bot
from bummerl.bots.search import SearchBot, ValueFunction, solvable, solver_values
from bummerl.bots.table_search import MIN_WORLDS, TableSearchBot, constraints, sample_world
from bummerl.errors import UnknownVariantError
from bummerl.events import Contract
from bummerl.game import Game
from bummerl.rng import SplitMix64, derive_seed
from bummerl.rules.result import Result
from bummerl.solver.table import PlayState, TableSolver, solve
from bummerl.solver.table import action_values as table_action_values
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import Variant
from bummerl.variants.bauernschnapsen import Goal, Phase
from bummerl.view import TableView

__all__ = [
    "EVALUATORS",
    "THRESHOLD",
    "Analysis",
    "Decision",
    "DecisionPoint",
    "analyze",
    "bid_values",
    "make_evaluator",
    "replay_history",
]

#: Default mistake threshold in game points (sampling noise of ``expert`` is
#: well below this; a real mistake usually costs a whole point).
THRESHOLD = 0.3
#: The bots that evaluate decisions, strongest first: a variant's default
#: evaluator is the first of them that plays it.
EVALUATORS = ("expert", "search")
#: A bot that can evaluate decisions: a two-player search level or the table search bot.
Evaluator = SearchBot | TableSearchBot
G = TypeVar("G", bound=Game)
B = TypeVar("B", SearchBot, TableSearchBot)
#: Steps of the search for a second world before a view counts as not determining the hands.
_WORLD_STEPS = 20_000


@dataclasses.dataclass(frozen=True)
class Decision:
    """One annotated decision."""

    #: Index of the action in the game's history (0 = first action).
    index: int
    player: int
    position: str
    chosen: Action
    #: Value of each legal action, best first (expected game points, own minus
    #: opponent's; at a table game, won or, negative, lost by the player's side).
    values: tuple[tuple[Action, float], ...]
    #: Best value minus the chosen action's value (0 when the choice was best).
    loss: float
    mistake: bool
    #: Whether the values are exact (solver on a position the player fully knows).
    exact: bool
    #: ``"forced"`` (one legal action), ``"optimal"``/``"losing"`` (exact),
    #: ``"unevaluated"`` (too early in a long-talon variant to solve),
    #: ``"not_analysed"`` (a table game's decision without an estimate), else
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
    #: Seats at the table: ``mistakes`` and ``points_lost`` have one entry per seat.
    players: int = 2

    def mistakes(self, player: int | None = None) -> list[Decision]:
        return [d for d in self.decisions if d.mistake and (player is None or d.player == player)]

    def to_json(self) -> dict[str, Any]:
        seats = range(self.players)
        return {
            "variant": self.variant,
            "evaluator": self.evaluator,
            "threshold": self.threshold,
            "result": self.result,
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [len(self.mistakes(p)) for p in seats],
            "points_lost": [round(sum(d.loss for d in self.mistakes(p)), 4) for p in seats],
        }

    def format_text(self) -> str:
        """A readable report: one line per decision, details for mistakes."""
        lines = [f"{self.variant}: analysis by {self.evaluator} (mistake: >= {self.threshold:g} game points worse)"]
        for d in self.decisions:
            mark = {"mistake": "?", "losing": "??"}.get(d.verdict, "")
            head = f"{d.index + 1:3d}. P{d.player} {d.chosen.token}{mark}"
            if d.verdict in ("forced", "unevaluated", "not_analysed"):
                lines.append(f"{head:<20} {d.verdict.replace('_', ' ')}")
                continue
            vals = "  ".join(f"{a.token} {v:+.2f}" for a, v in d.values[:4])
            extra = f", best {d.best.token} (-{d.loss:.2f})" if d.loss > 1e-9 else ""
            source = "exact" if d.exact else f"{d.worlds} worlds"
            lines.append(f"{head:<20} {d.verdict}{extra}  [{source}: {vals}]")
        for p in range(self.players):
            ms = self.mistakes(p)
            lost = sum(d.loss for d in ms)
            lines.append(f"player {p}: {len(ms)} mistake(s), {lost:.2f} expected game points given away")
        if self.result:
            lines.append(f"result: {self.result}")
        return "\n".join(lines)


def make_evaluator(variant: Variant, name: str | None = None, seed: int = 0, seconds: float | None = None) -> Evaluator:
    """The bot called ``name`` (default: the first of :data:`EVALUATORS` that plays ``variant``), made for
    ``variant`` with ``seed`` and at most ``seconds`` per decision (``None``: its full world budget, so that
    the same record and seed always give the same report).

    Raises :class:`~bummerl.bots.UnknownBotError` for a bot that does not exist or does not play
    ``variant``, :class:`ValueError` for one that cannot evaluate positions.
    """
    if name is None:
        name = next((e for e in EVALUATORS if bot_info(e).plays(variant)), EVALUATORS[0])
    judge = _judge(make_bot(name, seed, variant))
    judge.cap(seconds)
    return judge.evaluator


def replay_history(game: G) -> tuple[G, list[Action]]:
    """A fresh game from ``game``'s deal and its action history."""
    return _fresh(game, type(game), "the analysis"), list(game.actions)


def analyze(
    game: Game,
    bot: Evaluator,
    threshold: float = THRESHOLD,
    values: ValueFunction | None = None,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> Analysis:
    """Annotate the decisions of ``game`` (dealt, with its history) from ``start`` on.

    ``bot`` evaluates positions the player does not fully know; ``values`` (the
    exact solver by default) those the player of a two-player game does.
    ``seed`` seeds the worlds of a table game's card play, decision by decision.
    """
    judge = _judge(bot, values, seed)
    replay, actions = judge.start(game), list(game.actions)
    decisions: list[Decision] = []
    contract: str | None = None
    for i, action in enumerate(actions):
        if i >= start:
            if progress is not None:
                progress(i, len(actions))
            decisions.append(judge.decide(i, action, threshold))
        for event in replay.apply(action):
            if isinstance(event, Contract):
                contract = event.contract
    result = None if replay.result is None else _result_text(replay.result, replay.players, contract)
    return Analysis(game.variant.name, decisions, result, bot.name, threshold, game.players)


def _result_text(result: Result, players: int, contract: str | None) -> str:
    """The result in words: who wins what and why, the Augen (a table game's: declarer's side first)."""
    a, b = result.augen
    winners = [s for s in range(players) if result.points_of(s) > 0]
    if not winners:
        return f"nobody wins ({result.reason.value}, Augen {a}:{b})"
    points = f"{result.points} {getattr(result, 'unit', 'game points')}"
    if contract is None:
        return f"player {winners[0]} wins {points} ({result.reason.value}, Augen {a}:{b})"
    who = ", ".join(str(s) for s in winners)
    each = " each" if len(winners) > 1 else ""
    return (
        f"{'players' if each else 'player'} {who} win{'' if each else 's'} {points}{each}"
        f" ({result.reason.value}: {contract}, Augen {a}:{b} declarer's side:defenders)"
    )


# ------------------------------------------------------------------ judging one decision
def _judge(bot: object, values: ValueFunction | None = None, seed: int = 0) -> _TwoPlayerJudge | _TableJudge:
    """How ``bot`` judges decisions: each evaluating bot knows the games of its family."""
    if isinstance(bot, SearchBot):
        return _TwoPlayerJudge(bot, values or solver_values)
    if isinstance(bot, TableSearchBot):
        return _TableJudge(bot, seed)
    name = getattr(bot, "name", type(bot).__name__)
    raise UnknownBotError(f"bot {name!r} cannot evaluate positions; use a search level (or 'search' at a table)")


@dataclasses.dataclass(frozen=True)
class DecisionPoint:
    """Where a decision was taken: the action's index in the game, its player, the position, the action."""

    index: int
    player: int
    position: str
    action: Action

    def judged(self, vals: Mapping[Action, float], exact: bool, worlds: int, threshold: float) -> Decision:
        """The decision with its verdict: ``optimal``/``losing`` when exact, else ``best``, ``good`` or ``mistake``."""
        ranked = tuple(sorted(vals.items(), key=lambda kv: -kv[1]))
        loss = ranked[0][1] - vals[self.action]
        mistake = loss >= threshold - 1e-9
        if exact:
            verdict = "optimal" if loss < 1e-9 else "losing"
            mistake = loss > 1e-9
        elif loss < 1e-9:
            verdict = "best"
        else:
            verdict = "mistake" if mistake else "good"
        return Decision(
            self.index, self.player, self.position, self.action, ranked, loss, mistake, exact, verdict, worlds
        )

    def unjudged(self, verdict: str) -> Decision:
        """A decision without values: ``forced``, ``unevaluated`` or ``not_analysed``."""
        return Decision(
            self.index, self.player, self.position, self.action, ((self.action, 0.0),), 0.0, False, False, verdict, 0
        )


class _Judge(abc.ABC, Generic[G, B]):
    """How one kind of evaluating bot judges the decisions of one game of its engine, replayed from its deal."""

    #: The engine of the games this judge evaluates.
    engine: type[G]

    def __init__(self, bot: B) -> None:
        self.bot: B = bot
        self.game: G | None = None

    @property
    def evaluator(self) -> B:
        return self.bot

    @abc.abstractmethod
    def cap(self, seconds: float | None) -> None:
        """At most ``seconds`` per decision (``None``: the full world budget)."""

    def start(self, game: Game) -> G:
        """A fresh replay of ``game`` from its deal, which :meth:`decide` judges and the caller plays on."""
        self.game = _fresh(game, self.engine, getattr(self.bot, "name", "?"))
        return self.game

    def decide(self, index: int, action: Action, threshold: float) -> Decision:
        """The verdict on ``action``, the ``index``-th of the game, chosen where the replay stands."""
        game = self.game
        assert game is not None, "start() first"
        at = DecisionPoint(index, game.to_move, game.position(), action)
        if len(game.legal_actions()) == 1:
            return at.unjudged("forced")
        return self.judge(game, at, threshold)

    @abc.abstractmethod
    def judge(self, game: G, at: DecisionPoint, threshold: float) -> Decision:
        """The verdict on a decision with a choice."""


class _TwoPlayerJudge(_Judge[TwoPlayerGame, SearchBot]):
    """A two-player search level: sampled worlds, and the exact solver once the player knows both hands."""

    engine = TwoPlayerGame

    def __init__(self, bot: SearchBot, exact_values: ValueFunction) -> None:
        super().__init__(bot)
        self.exact_values = exact_values

    def cap(self, seconds: float | None) -> None:
        self.bot.budget = dataclasses.replace(self.bot.budget, seconds=seconds)

    def judge(self, game: TwoPlayerGame, at: DecisionPoint, threshold: float) -> Decision:
        view = game.view(at.player)
        # Fully known to the player: the opponent's hand is known and nothing hides
        # in the talon (exhausted, not closed: a closed talon still hides cards).
        if view.talon_size == 0 and len(view.opponent_known) == view.opponent_hand_size:
            vals = {a: float(v) for a, v in self.exact_values(game).items()}
            return at.judged(vals, True, 1, threshold)
        if not solvable(view):
            # Too early in a long-talon game to solve the worlds in reasonable time.
            return at.unjudged("unevaluated")
        ev = self.bot.evaluate(view)
        return at.judged(ev.values, False, ev.worlds, threshold)


class _TableJudge(_Judge[TableGame, TableSearchBot]):
    """The table search bot: its worlds and solver in the card play, its bidding estimate for bids."""

    engine = TableGame

    def __init__(self, bot: TableSearchBot, seed: int) -> None:
        super().__init__(bot)
        self.seed = seed

    def cap(self, seconds: float | None) -> None:
        self.bot.seconds = seconds

    def judge(self, table: TableGame, at: DecisionPoint, threshold: float) -> Decision:
        view = table.view(at.player)
        if table.phase is Phase.PLAY:
            if _determined(view):
                return at.judged(_exact_values(table, at.action), True, 1, threshold)
            rng = SplitMix64(derive_seed(self.seed, at.index))
            vals, worlds = self._sampled_values(table, view, at.action, rng)
            return at.judged(vals, False, worlds, threshold)
        if table.phase is Phase.BIDDING:
            return at.judged(bid_values(self.bot, view, table.legal_actions()), False, self.bot.worlds, threshold)
        return at.unjudged("not_analysed")

    def _sampled_values(
        self, table: TableGame, view: TableView, action: Action, rng: SplitMix64
    ) -> tuple[dict[Action, float], int]:
        """Each action's mean value over worlds dealt consistently with ``view``, each solved exactly.

        The solver leaves out the plain lead of a King or Ober that could be
        announced as a marriage (never better than announcing it); when that
        lead was the choice, it is valued on the same worlds from the position after it.
        """
        forbidden = constraints(view)
        after: TableView | None = None
        totals: dict[Action, float] = {}
        worlds = 0
        started = time.perf_counter()
        seconds = self.bot.seconds
        for _ in range(self.bot.worlds):
            if worlds >= MIN_WORLDS and seconds is not None and time.perf_counter() - started > seconds:
                break
            hands = sample_world(view, rng, forbidden)
            values: dict[Action, float] = dict(
                TableSolver(PlayState.from_view(view, hands), view.player).action_values()
            )
            if action not in values:
                after = after or _view_after(table, action)
                values[action] = TableSolver(PlayState.from_view(after, hands), view.player).value()
            for a, v in values.items():
                totals[a] = totals.get(a, 0.0) + v
            worlds += 1
        return {a: v / worlds for a, v in totals.items()}, worlds


def bid_values(bot: TableSearchBot, view: TableView, legal: Sequence[Action]) -> dict[Action, float]:
    """The search bot's estimate of every bid (see the module docstring); a pass counts 0.

    The post-game analysis judges bids with it, and the table's hints (``bummerl.server.hints``) advise with it,
    so that a hint and the analysis never disagree.
    """
    variant = view.variant
    out: dict[Action, float] = {}
    for a in legal:
        if a.kind is not ActionKind.BID or a.contract is None:
            out[a] = 0.0
            continue
        contract = variant.contract(a.contract)
        if contract.goal is Goal.CLAIM:
            out[a] = float(contract.points)  # won by showing the cards
        elif contract.goal is Goal.SIXTY_SIX:
            out[a] = 0.0
        else:
            share = bot.contract_success(view, contract)
            out[a] = (2 * share - 1) * contract.points
    return out


def _fresh(game: Game, engine: type[G], evaluator: str) -> G:
    """A new game of ``engine`` from ``game``'s deal: an evaluator judges the games of its engine only."""
    if not game.deck:
        raise ValueError("this game was set up from a position: it has no deal to replay from")
    try:
        return engine.from_deck(game.variant, game.deck, game.dealer)
    except UnknownVariantError:
        default = next((e for e in EVALUATORS if bot_info(e).plays(game.variant)), "none")
        raise ValueError(f"{evaluator} does not evaluate {game.variant.title}; its evaluator is {default}") from None


def _view_after(table: TableGame, action: Action) -> TableView:
    after = table.copy()
    after.apply(action)
    return after.view(table.to_move)


def _exact_values(table: TableGame, action: Action) -> dict[Action, float]:
    """The exact value of every action for the side of the player to move (the plain lead of a
    married King or Ober that the solver leaves out is solved from the position after it)."""
    p = table.to_move
    vals = {a: float(v) for a, v in table_action_values(table).items()}
    if action not in vals:
        after = table.copy()
        after.apply(action)
        result = after.result
        if result is None:
            vals[action] = float(solve(after, p))
        else:
            vals[action] = float(result.points if p in result.winners else -result.points)
    return vals


def _determined(view: TableView) -> bool:
    """Whether ``view`` leaves one way only to hold the unseen cards: every active hand is known to the player.

    Counts the ways to place the unseen cards into the other active hands (each
    card where the play has not proven it absent, :func:`constraints`), the rest
    lying elsewhere (the talon, cards laid away, a partner who sits out), and
    stops at the second way (or after :data:`_WORLD_STEPS` steps: not determined).
    """
    forbidden = constraints(view)
    others = [s for s in view.active if s != view.player]
    room = {s: view.hand_sizes[s] - len(view.known[s]) for s in others}
    unseen = list(view.unseen())
    room[-1] = len(unseen) - sum(room.values())  # -1: elsewhere
    if room[-1] < 0:
        return False
    options = {c: [s for s in others if c not in forbidden.get(s, frozenset())] + [-1] for c in unseen}
    cards = sorted(unseen, key=lambda c: (len(options[c]), c.index))
    steps = [0]

    def ways(i: int, limit: int) -> int:
        if i == len(cards):
            return 1
        steps[0] += 1
        if steps[0] > _WORLD_STEPS:
            return limit
        found = 0
        for s in options[cards[i]]:
            if room[s] > 0:
                room[s] -= 1
                found += ways(i + 1, limit - found)
                room[s] += 1
                if found >= limit:
                    break
        return found

    return ways(0, 2) == 1
