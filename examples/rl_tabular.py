#!/usr/bin/env python3
"""A worked RL example: tabular Monte-Carlo control for Schnapsen with the Gymnasium environment, then the arena.

Train (a few minutes on one CPU), then let the trained agent play in the arena
as a bot-protocol program (docs/protocol.md)::

    python examples/rl_tabular.py --train 180 --model /tmp/rl_tabular.json
    bummerl arena --a "cmd:python examples/rl_tabular.py --play /tmp/rl_tabular.json" --b random --deals 1000
    bummerl arena --a "cmd:python examples/rl_tabular.py --play /tmp/rl_tabular.json" --b heuristic --deals 1000

The agent sees only what the environment gives it: the observation tensor of
its seat's view (:class:`bummerl.rl.encoding.ViewEncoder`, docs/rl.md "The
observation") and the action mask.  It keeps a table of returns over a compact
abstraction of both:

* the **state**: leading or following; the talon open or not (closed, or
  exhausted: then the strict follow rules hold); my Augen in four bands (below
  33, 33-49, 50-65, 66 and more) and the opponent's in three; my trumps in hand
  (0, 1, 2, 3+); whether I have won a trick (marriages count only then);
* the **action**: a card as trump or not and its rank (the suit itself
  forgotten), when following also whether it takes the trick and whether it
  follows suit; a marriage (trump or not), exchange, close, declare.

``Q(state, action)`` is the mean game-point reward (``reward="zero_sum"``: +2
for a win by 2 game points, -3 for a loss without a trick) of the episodes
that took that action in that state (every-visit Monte Carlo, undiscounted,
one reward at the end); play is epsilon-greedy during training (epsilon
falling from 0.3 to 0.02) and greedy in the arena.  Nothing here is specific to
one two-player variant (``--variant``), but the abstraction is built for the
two-player observation layout; the table games need another one.

The model is a JSON file of the table (a few hundred kB), written where
``--model`` says (default: ``~/.cache/bummerl/rl_tabular_<variant>.json``),
never into the repository.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bummerl.actions import Action, ActionKind
from bummerl.cards import CARDS, Suit
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rules.tricks import beats
from bummerl.variants import TwoPlayerVariant, find_variant

#: Offsets in the two-player observation (ViewEncoder's layout, docs/rl.md): planes of 32 cards, then scalars.
HAND, LEAD = 0, 96
TRUMP_SUIT = 192
TALON, CLOSED_ME, CLOSED_OPP, WON_ME = 202, 203, 204, 205
AUGEN_ME, AUGEN_OPP = 207, 208
OBSERVATION_SIZE = 220
FORMAT = "bummerl-rl-tabular-1"


def default_model(variant: str) -> Path:
    return Path.home() / ".cache" / "bummerl" / f"rl_tabular_{variant}.json"


# ------------------------------------------------------------ the abstraction
def _band(augen: float, edges: Sequence[int]) -> int:
    points = round(augen * 66)
    return sum(points >= e for e in edges)


def state_key(obs: Sequence[float]) -> str:
    """The compact state of an observation (see the module docstring)."""
    trump = next(s for s in range(4) if obs[TRUMP_SUIT + s])
    trumps = sum(1 for i in range(32) if obs[HAND + i] and CARDS[i].suit == trump)
    leading = not any(obs[LEAD : LEAD + 32])
    strict = bool(obs[CLOSED_ME] or obs[CLOSED_OPP] or obs[TALON] == 0)
    return "".join(
        str(x)
        for x in (
            int(leading),
            int(strict),
            _band(obs[AUGEN_ME], (33, 50, 66)),
            _band(obs[AUGEN_OPP], (33, 50)),
            min(trumps, 3),
            int(obs[WON_ME]),
        )
    )


def action_key(obs: Sequence[float], action: Action) -> str:
    """The compact form of ``action`` in the situation of ``obs``."""
    trump = Suit(next(s for s in range(4) if obs[TRUMP_SUIT + s]))
    kind = action.kind
    if kind is ActionKind.PLAY:
        card = action.card
        assert card is not None
        head = f"{'t' if card.suit == trump else 'p'}{card.rank.letter}"
        lead = next((CARDS[i] for i in range(32) if obs[LEAD + i]), None)
        if lead is None:
            return head
        return f"{head}{'w' if beats(card, lead, trump) else 'l'}{'s' if card.suit == lead.suit else 'o'}"
    if kind is ActionKind.MARRIAGE or (kind is ActionKind.DECLARE and action.suit is not None):
        suit = action.card.suit if action.card is not None else action.suit
        return f"{kind.name[0]}{'t' if suit == trump else 'p'}"
    return kind.name


class Table:
    """Mean returns per (state, action) key, with visit counts."""

    def __init__(self, variant: str, q: dict[str, list[float]] | None = None) -> None:
        self.variant = variant
        self.q: dict[str, list[float]] = q or {}  # key -> [mean return, visits]
        self.space = ActionSpace.of(variant)

    def value(self, key: str) -> float:
        entry = self.q.get(key)
        return entry[0] if entry else 0.0

    def best(self, obs: Sequence[float], legal: Sequence[int]) -> int:
        state = state_key(obs)
        scored = [(self.value(state + "|" + action_key(obs, self.space.action(a))), -a) for a in legal]
        return -max(scored)[1]  # ties: the lowest action number, so that play is deterministic

    def update(self, keys: Sequence[str], ret: float) -> None:
        for key in keys:
            entry = self.q.setdefault(key, [0.0, 0.0])
            entry[1] += 1
            entry[0] += (ret - entry[0]) / entry[1]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        q = {k: [round(v[0], 5), int(v[1])] for k, v in sorted(self.q.items())}
        path.write_text(json.dumps({"format": FORMAT, "variant": self.variant, "q": q}))

    @classmethod
    def load(cls, path: Path) -> Table:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise ValueError(f"{path} is not a model of this example ({FORMAT})")
        return cls(data["variant"], {k: [float(v[0]), float(v[1])] for k, v in data["q"].items()})


# ------------------------------------------------------------ training
def train(
    variant: str, seconds: float, opponents: Sequence[str], seed: int, log: Any = sys.stderr
) -> tuple[Table, int]:
    """Train for ``seconds`` of wall time, episode ``k`` against ``opponents[k % len(opponents)]``; the table and
    the number of episodes."""
    from bummerl.rl.gym import BummerlEnv  # the Gymnasium environment: needs the 'pettingzoo' extra

    envs = [BummerlEnv(variant, opponent=name, seat="random") for name in opponents]
    if envs[0].observation_space.shape != (OBSERVATION_SIZE,):
        raise SystemExit(f"{variant}: this example reads the two-player observation layout")
    for k, env in enumerate(envs):
        env.reset(seed=seed + k)  # each environment's stream of deals, reproducible from --seed
    table = Table(envs[0].variant.name)
    rng = random.Random(seed)
    space = table.space
    start = time.perf_counter()
    episodes = 0
    returns: list[float] = []
    while time.perf_counter() - start < seconds:
        epsilon = max(0.02, 0.3 * (1 - (time.perf_counter() - start) / max(seconds * 0.8, 1e-9)))
        env = envs[episodes % len(envs)]
        obs, info = env.reset()
        keys: list[str] = []
        terminated, reward = False, 0.0
        while not terminated:
            values = obs.tolist()
            legal = [int(a) for a in info["action_mask"].nonzero()[0]]
            action = rng.choice(legal) if rng.random() < epsilon else table.best(values, legal)
            keys.append(state_key(values) + "|" + action_key(values, space.action(action)))
            obs, r, terminated, _, info = env.step(action)
            reward = float(r)
        table.update(keys, reward)
        returns.append(reward)
        episodes += 1
        if episodes % 20000 == 0:
            recent = returns[-20000:]
            print(
                f"{episodes} episodes, {time.perf_counter() - start:.0f} s, mean reward of the last 20000: "
                f"{sum(recent) / len(recent):+.3f}, table {len(table.q)} entries",
                file=log,
            )
    return table, episodes


# ------------------------------------------------------------ the bot
class TabularBot:
    """The trained table as a Bummerl bot: it reads the same tensor from the view that the environment gave."""

    def __init__(self, table: Table) -> None:
        self.name = "rl-tabular"
        self.table = table

    def choose(self, view: Any) -> Action:
        space = ActionSpace.of(view.variant)
        obs = ViewEncoder.of(view.variant).observation(view)
        return space.action(self.table.best(obs, space.legal(view)))


def play(model: Path) -> int:
    """Serve the bot protocol on stdin/stdout (``bummerl arena --a "cmd:... --play MODEL"``)."""
    from bummerl.protocol import serve

    table = Table.load(model)
    return serve(lambda seed: TabularBot(table))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Tabular Monte-Carlo control for a two-player Bummerl variant.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--train", type=float, metavar="SECONDS", help="train for this many seconds, then save")
    mode.add_argument("--play", type=Path, metavar="MODEL", help="play MODEL over the bot protocol (stdin/stdout)")
    parser.add_argument("--model", type=Path, help="where --train saves (default ~/.cache/bummerl/...)")
    parser.add_argument("--variant", default="schnapsen", help="a two-player variant (default schnapsen)")
    parser.add_argument(
        "--opponent",
        default="random,heuristic",
        help="the bot trained against, or several, comma-separated, taking turns (default random,heuristic)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal and of exploration")
    args = parser.parse_args(argv)
    if args.play is not None:
        return play(args.play)
    variant = find_variant(args.variant)
    if not isinstance(variant, TwoPlayerVariant):
        parser.error(f"{variant.title} is a table game; this example plays the two-player variants")
    opponents = [name.strip() for name in args.opponent.split(",") if name.strip()]
    table, episodes = train(variant.name, args.train, opponents, args.seed)
    path = args.model or default_model(variant.name)
    table.save(path)
    print(
        f"trained on {episodes} games against {args.opponent} in {args.train:.0f} s; "
        f"{len(table.q)} table entries saved to {path}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
