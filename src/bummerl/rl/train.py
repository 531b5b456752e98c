"""The learning baseline of issue 25: a small network trained by self-play on the batched environment, on NumPy.

``python -m bummerl.rl.train --steps 3000000 --checkpoints 3 --seed 1`` trains a :class:`~bummerl.rl.network.Network`
(two ``tanh`` layers, a policy head over the action numbers and a value head) by self-play of every seat on
:class:`~bummerl.rl.vector.BummerlVectorEnv` (the compiled core when it is built), writes a checkpoint ``.npz`` at
step 0 and after every ``steps / checkpoints`` decisions (default folder ``~/.cache/bummerl/rl_train``, outside
the repository), and then measures each checkpoint in the arena (:func:`bummerl.arena.run_arena`, duplicate
deals, 95% interval) as the bot ``npz:PATH`` against ``random``, ``heuristic`` and ``hard``: the learning curve,
printed as a table and written to ``curve.json`` beside the checkpoints.

**The method: advantage actor-critic with Monte-Carlo returns** (REINFORCE with a learned baseline).  A game of
Schnapsen is short (at most about ten decisions a seat) and pays only at its end, so the return of a decision is
the seat's final reward, observed exactly and soon; bootstrapping from a value estimate (TD, GAE) would trade
that unbiased target for lower variance that so short an episode does not need.  The value head is the baseline
that takes most of the variance out (the advantage is ``G - V(s)``).  Every decision is used for one gradient step
and then dropped, so the data are on-policy (up to one update for a game that spans two batches) and PPO's
clipped ratio, which exists to reuse data across several epochs, would buy nothing.  An entropy bonus keeps the
policy from collapsing early.  Both seats are the same network (the observation is relative to its player), so
self-play needs no opponent pool; what it can learn is limited by that: it is measured against fixed bots.

**Reproducible**: the budget is a number of decisions, not seconds; the deals come from ``--seed`` through the
environment's seeds, the initial weights and the sampled actions from ``numpy.random.default_rng(seed)``.  The
same command gives the same checkpoints (on the same NumPy and BLAS; floating-point sums may differ elsewhere).

It never prints from the library functions (:func:`train`, :func:`learning_curve`); the command line does.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bummerl.arena import ArenaConfig, run_arena
from bummerl.rl.network import Adam, Array, Batch, Network, masked_softmax, policy_loss
from bummerl.rl.vector import BummerlVectorEnv

__all__ = ["DEFAULT_OUT", "OPPONENTS", "Checkpoint", "TrainConfig", "learning_curve", "main", "train"]

#: Where checkpoints go unless told otherwise: outside the repository.
DEFAULT_OUT = Path("~/.cache/bummerl/rl_train")
#: The bots each checkpoint is measured against.
OPPONENTS = ("random", "heuristic", "hard")


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """What to train: ``steps`` decisions of self-play on ``envs`` games at a time, one update per ``batch``."""

    variant: str = "schnapsen"
    steps: int = 3_000_000
    envs: int = 256
    batch: int = 4096
    hidden: int = 64
    lr: float = 2e-3
    entropy: float = 0.01
    value_weight: float = 0.5
    seed: int = 1
    checkpoints: int = 3

    def __post_init__(self) -> None:
        for name in ("steps", "envs", "batch", "hidden", "checkpoints"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be 1 or more, not {getattr(self, name)!r}")


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """A saved network: after ``steps`` decisions and ``games`` finished games, at ``seconds`` of training."""

    path: Path
    steps: int
    games: int
    seconds: float
    #: The mean loss terms of the updates since the previous checkpoint.
    terms: dict[str, float]


class _Decisions:
    """Decisions waiting for their game to end, and the games' returns."""

    def __init__(self, players: int) -> None:
        self.obs: list[Array] = []
        self.mask: list[Array] = []
        self.actions: list[Array] = []
        self.seat: list[Array] = []
        self.episode: list[Array] = []
        self.returns = np.full((1024, players), np.nan, np.float32)
        self.ready = 0

    def _cover(self, episodes: Array) -> None:
        while episodes.max(initial=0) >= len(self.returns):
            grown = np.full((2 * len(self.returns), self.returns.shape[1]), np.nan, np.float32)
            grown[: len(self.returns)] = self.returns
            self.returns = grown

    def finish(self, episodes: Array, rewards: Array) -> None:
        self._cover(episodes)
        self.returns[episodes] = rewards

    def take(self) -> Batch:
        """The decisions of finished games, removed; the others kept."""
        obs, mask = np.concatenate(self.obs), np.concatenate(self.mask)
        actions, seat, episode = np.concatenate(self.actions), np.concatenate(self.seat), np.concatenate(self.episode)
        self._cover(episode)
        g = self.returns[episode, seat]
        done = ~np.isnan(g)
        keep = ~done
        self.obs, self.mask, self.actions = [obs[keep]], [mask[keep]], [actions[keep]]
        self.seat, self.episode = [seat[keep]], [episode[keep]]
        return Batch(obs[done], mask[done], actions[done], g[done])


def train(
    config: TrainConfig,
    out: Path,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
) -> list[Checkpoint]:
    """Train by self-play as the module docstring says; the checkpoints written to ``out``, in order."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(config.seed)
    env = BummerlVectorEnv(config.variant, num_envs=config.envs, seat="all")
    net = Network.init(config.variant, config.hidden, rng)
    adam = Adam(net, config.lr)
    players = env.backend.players
    every = max(1, config.steps // config.checkpoints)
    store = _Decisions(players)
    episode = np.arange(config.envs)
    next_episode = config.envs
    obs, infos = env.reset(seed=config.seed)
    steps = games = 0
    terms: list[dict[str, float]] = []
    checkpoints: list[Checkpoint] = []
    started = time.process_time()

    def save() -> None:
        path = out / f"{config.variant}-seed{config.seed}-step{steps}.npz"
        net.save(path, steps=steps, games=games, seed=config.seed, config=json.dumps(dataclasses.asdict(config)))
        mean = {k: float(np.mean([t[k] for t in terms])) for k in terms[0]} if terms else {}
        point = Checkpoint(path, steps, games, time.process_time() - started, mean)
        checkpoints.append(point)
        terms.clear()
        if on_checkpoint is not None:
            on_checkpoint(point)

    save()
    while steps < config.steps:
        mask = infos["action_mask"]
        live = mask.any(axis=1)
        actions = np.zeros(config.envs, np.int64)
        if live.any():
            logits = net.forward(obs[live])[0]
            probs = masked_softmax(logits, mask[live])[0]
            # One uniform draw per game against the cumulative probabilities: a sample of each row.
            cumulative = probs.cumsum(axis=1)
            draw = rng.random((len(probs), 1)) * cumulative[:, -1:]
            chosen = np.minimum((cumulative <= draw).sum(axis=1), probs.shape[1] - 1)
            chosen = np.where(mask[live][np.arange(len(chosen)), chosen] > 0, chosen, probs.argmax(axis=1))
            actions[live] = chosen
            store.obs.append(obs[live])
            store.mask.append(mask[live])
            store.actions.append(chosen)
            store.seat.append(infos["seat"][live].astype(np.int64))
            store.episode.append(episode[live])
            steps += int(live.sum())
            store.ready += int(live.sum())
        obs, _, terminated, _, infos = env.step(actions)
        if terminated.any():
            ended = np.flatnonzero(terminated)
            store.finish(episode[ended], infos["rewards"][ended])
            episode[ended] = np.arange(next_episode, next_episode + len(ended))
            next_episode += len(ended)
            games += len(ended)
        if store.ready >= config.batch:
            batch = store.take()
            store.ready = sum(len(a) for a in store.actions)
            if len(batch.actions):
                _, grads, t = policy_loss(net, batch, entropy=config.entropy, value_weight=config.value_weight)
                adam.step(grads)
                terms.append(t)
        if steps >= every * len(checkpoints) or steps >= config.steps:
            save()
    env.close()
    return checkpoints


def learning_curve(
    checkpoints: Sequence[Checkpoint],
    deals: dict[str, int],
    *,
    variant: str = "schnapsen",
    seed: int = 1,
    jobs: int | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Each checkpoint against each opponent in ``deals`` (bot name -> duplicate deals) in the arena: one row per
    pair with the agent's and the opponent's game points per game and the 95% interval of the difference."""
    rows = []
    for point in checkpoints:
        for opponent, n in deals.items():
            report = run_arena(ArenaConfig(variant, f"npz:{point.path}", opponent, deals=n, seed=seed, jobs=jobs))
            row = {
                "checkpoint": point.path.name,
                "steps": point.steps,
                "games": point.games,
                "opponent": opponent,
                "deals": n,
                "ppg": report["a"]["ppg"],
                "opponent_ppg": report["b"]["ppg"],
                "ppg_diff": report["ppg_diff"],
                "ci95": report["a"]["ppg_ci95"],
                "forfeits": len(report["forfeits"]),
            }
            rows.append(row)
            if on_result is not None:
                on_result(row)
    return rows


def _row_text(row: dict[str, Any]) -> str:
    low, high = row["ci95"] or (float("nan"), float("nan"))
    return (
        f"| {row['checkpoint']} | {row['steps']:,} | {row['opponent']} | {row['deals']} | {row['ppg']:.3f} | "
        f"{row['opponent_ppg']:.3f} | {row['ppg_diff']:+.3f} [{low:+.3f}, {high:+.3f}] |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bummerl.rl.train", description=__doc__.split("\n\n")[0])
    defaults = TrainConfig()
    parser.add_argument("--variant", default=defaults.variant)
    parser.add_argument("--steps", type=int, default=defaults.steps, help="decisions of self-play in all")
    parser.add_argument("--envs", type=int, default=defaults.envs, help="games stepped at a time")
    parser.add_argument("--batch", type=int, default=defaults.batch, help="finished decisions per update")
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="units per hidden layer")
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--entropy", type=float, default=defaults.entropy)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--checkpoints", type=int, default=defaults.checkpoints, help="checkpoints after step 0")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"folder of the checkpoints ({DEFAULT_OUT})")
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals against random and heuristic")
    parser.add_argument("--hard-deals", type=int, default=50, help="duplicate deals against hard (0: skip)")
    parser.add_argument("--eval-seed", type=int, default=1, help="the arena's seed")
    parser.add_argument("--jobs", type=int, default=None, help="arena worker processes (default: one per core)")
    args = parser.parse_args(argv)
    config = TrainConfig(
        args.variant, args.steps, args.envs, args.batch, args.hidden, args.lr, args.entropy, seed=args.seed,
        checkpoints=args.checkpoints,
    )  # fmt: skip
    out = args.out.expanduser()

    def report(point: Checkpoint) -> None:
        terms = ", ".join(f"{k} {v:.3f}" for k, v in point.terms.items())
        print(f"{point.path}: {point.steps:,} decisions, {point.games:,} games, {point.seconds:.0f} s CPU {terms}")
        sys.stdout.flush()

    checkpoints = train(config, out, report)
    deals = {"random": args.deals, "heuristic": args.deals}
    if args.hard_deals:
        deals["hard"] = args.hard_deals
    print("| checkpoint | decisions | opponent | deals | agent ppg | opponent ppg | difference [95% CI] |")
    print("|---|---:|---|---:|---:|---:|---|")

    def show(row: dict[str, Any]) -> None:
        print(_row_text(row))
        sys.stdout.flush()

    rows = learning_curve(checkpoints, deals, variant=args.variant, seed=args.eval_seed, jobs=args.jobs, on_result=show)
    (out / "curve.json").write_text(json.dumps({"config": dataclasses.asdict(config), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
