"""Fit the card-choice model of policy-based inference (:mod:`bummerl.bots.policy`) from self-play, and test it.

    python bench/policy_fit.py collect --games 300 --seed 0 --out /tmp/pol_a.jsonl
    python bench/policy_fit.py fit /tmp/pol_a.jsonl /tmp/pol_b.jsonl --test /tmp/pol_c.jsonl
    python bench/policy_fit.py diagnose --games 30 --max-draws 1

``collect`` plays ``--games`` Schnapsen games of ``--bot`` against itself (default: 12-world PIMC at
temperature 0, the search `expert` refines; seeds ``seed .. seed+games-1``) and writes every card play of
either seat (hand, legal cards, the card, the lead, trump, strict rules, the cards outstanding for that
player) as one JSON line.  ``fit`` finds the maximum-likelihood weights of the softmax model per situation
(lead/follow, open/strict) by Newton's method with a small L2 penalty, reports the mean log-likelihood per
decision against the uniform choice on the training and the ``--test`` lines, and prints the literal of
:data:`bummerl.bots.policy.MODELS` and :data:`~bummerl.bots.policy.SPECIAL_RATES` (how often a possible
exchange or marriage on lead was taken).  Marriage announcements are left out of the card plays (the card is
the marriage's).  ``diagnose`` measures how much the observed plays tell: at every decision of self-play games
with an observation, log(L(true world) / mean L(uniform consistent worlds)), averaged.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable

import numpy as np

from bummerl.actions import ActionKind
from bummerl.bots import Bot, make_bot
from bummerl.bots.policy import FEATURES, CardChoice, PolicyModel, legal_features
from bummerl.bots.search import Budget, SearchBot
from bummerl.cards import Card, Suit, deck, format_cards, parse_cards
from bummerl.two_player import TwoPlayerGame


def teacher(name: str, seed: int) -> Bot:
    """``pimc12``: 12 worlds, enumeration up to 40, 0.25 s cap, temperature 0; else a registered bot."""
    if name == "pimc12":
        return SearchBot("pimc12", Budget(worlds=12, exhaustive=40, seconds=0.25), seed)
    return make_bot(name, seed)


def collect(variant: str, games: int, seed: int, bot: str, out: str) -> None:
    """Write one JSON line per card play of ``games`` self-play games."""
    with open(out, "w", encoding="utf-8") as f:
        for s in range(seed, seed + games):
            game = TwoPlayerGame.deal(variant, seed=s)
            bots = [teacher(bot, 2 * s + p) for p in range(2)]
            full = deck(game.variant.deck_size)
            while not game.is_over:
                view = game.view(game.to_move)
                action = bots[game.to_move].choose(view)
                plays = [a.card for a in view.legal if a.kind is ActionKind.PLAY and a.card is not None]
                kinds = {a.kind for a in view.legal}
                if view.lead is None and kinds & {ActionKind.EXCHANGE, ActionKind.MARRIAGE}:
                    special = {
                        "special": True,
                        "exchange": [ActionKind.EXCHANGE in kinds, action.kind is ActionKind.EXCHANGE],
                        "marriage": [ActionKind.MARRIAGE in kinds, action.kind is ActionKind.MARRIAGE],
                    }
                    f.write(json.dumps(special) + "\n")
                if action.kind is ActionKind.PLAY and action.card is not None and len(plays) > 1:
                    lead = view.lead if view.lead is not None and view.leader != view.player else None
                    outstanding = [c for c in full if c not in view.hand and c not in view.played]
                    row = {
                        "hand": format_cards(view.hand),
                        "legal": format_cards(plays),
                        "card": action.card.code,
                        "lead": None if lead is None else lead.code,
                        "trump": view.trump.letter,
                        "strict": view.closed_by is not None or view.talon_size == 0,
                        "outstanding": format_cards(outstanding),
                    }
                    f.write(json.dumps(row) + "\n")
                game.apply(action)
            print(f"game {s} done", file=sys.stderr, flush=True)


Sample = tuple[str, np.ndarray, int]


def load(paths: Iterable[str]) -> list[Sample]:
    """(situation, feature matrix of the legal cards, index of the card played) per line."""
    out: list[Sample] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if r.get("special"):
                    continue
                hand, legal = parse_cards(r["hand"]), parse_cards(r["legal"])
                lead = None if r["lead"] is None else Card.parse(r["lead"])
                trump = Suit.parse(r["trump"])
                outstanding = frozenset(parse_cards(r["outstanding"]))
                choice = CardChoice(hand, legal, lead, trump, outstanding, r["strict"])
                m = np.array(legal_features(choice))
                out.append((choice.context, m, legal.index(Card.parse(r["card"]))))
    return out


def special_rates(paths: Iterable[str]) -> dict[str, float]:
    """How often a possible exchange or marriage announcement on lead was taken."""
    seen = {"exchange": [0, 0], "marriage": [0, 0]}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if r.get("special"):
                    for kind, (possible, taken) in ((k, r[k]) for k in seen):
                        if possible:
                            seen[kind][0] += 1
                            seen[kind][1] += int(taken)
    for kind, (n, k) in seen.items():
        print(f"{kind}: possible {n} times, taken {k}", file=sys.stderr)
    # Laplace's rule of succession: a rate seen always (or never) taken stays below 1 (above 0).
    return {kind: round((k + 1) / (n + 2), 3) for kind, (n, k) in seen.items() if n}


def fit(samples: list[Sample], l2: float = 0.01, steps: int = 30) -> np.ndarray:
    """Newton's method on the penalised log-likelihood of a conditional logit."""
    w = np.zeros(len(FEATURES))
    for _ in range(steps):
        grad = -l2 * w
        hess = -l2 * np.eye(len(FEATURES))
        for _key, m, k in samples:
            s = m @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ m
            grad += m[k] - mean
            centred = m - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def loglik(model: PolicyModel, samples: list[Sample]) -> tuple[float, float, int]:
    """Mean log-likelihood per decision of the model and of the uniform choice."""
    ll = base = 0.0
    for key, m, k in samples:
        w = np.array(model.weights.get(key, (0.0,) * len(FEATURES)))
        s = m @ w
        ll += float(s[k] - s.max() - math.log(np.exp(s - s.max()).sum()))
        base -= math.log(len(m))
    n = max(len(samples), 1)
    return ll / n, base / n, len(samples)


def diagnose(variant: str, games: int, seed: int, bot: str, max_draws: int, pool: int = 300) -> dict[str, float]:
    """How much more likely the true world is than an average consistent one, at every decision with an
    observation of ``games`` self-play games: the mean of log(L(true) / mean L(uniform worlds))."""
    from bummerl.bots.inference import World, infer, sample_world
    from bummerl.bots.likelihood import likelihood, observations
    from bummerl.bots.policy import model_for
    from bummerl.rng import SplitMix64

    logs: dict[str, list[float]] = {"open": [], "strict": []}
    for s in range(seed, seed + games):
        game = TwoPlayerGame.deal(variant, seed=s)
        bots = [teacher(bot, 2 * s + p) for p in range(2)]
        model = model_for(game.variant.name)
        while not game.is_over:
            view = game.view(game.to_move)
            obs = observations(view, max_draws)
            if obs and len(view.legal) > 1:
                info = infer(view)
                true = World(tuple(game.hands[1 - view.player]), tuple(reversed(game.talon)))
                rng = SplitMix64(s * 1000 + len(view.played))
                mean = sum(likelihood(view, sample_world(info, rng), obs, model) for _ in range(pool)) / pool
                phase = "strict" if view.closed_by is not None or view.talon_size == 0 else "open"
                logs[phase].append(math.log(likelihood(view, true, obs, model) / mean))
            game.apply(bots[game.to_move].choose(view))
    every = logs["open"] + logs["strict"]
    out = {"decisions": float(len(every)), "mean_log_ratio": sum(every) / max(len(every), 1)}
    if len(every) > 1:
        m = out["mean_log_ratio"]
        out["standard_error"] = math.sqrt(sum((x - m) ** 2 for x in every) / (len(every) - 1) / len(every))
    for phase, xs in logs.items():
        out[f"mean_log_ratio_{phase}"] = sum(xs) / max(len(xs), 1)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--variant", default="schnapsen")
    c.add_argument("--games", type=int, default=300)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--bot", default="pimc12")
    c.add_argument("--out", required=True)
    d = sub.add_parser("diagnose", help="how much more likely the true world is than an average consistent one")
    d.add_argument("--variant", default="schnapsen")
    d.add_argument("--games", type=int, default=30)
    d.add_argument("--seed", type=int, default=900)
    d.add_argument("--bot", default="pimc12")
    d.add_argument("--max-draws", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--test", nargs="*", default=[])
    f.add_argument("--l2", type=float, default=0.01)
    args = p.parse_args()
    if args.cmd == "collect":
        collect(args.variant, args.games, args.seed, args.bot, args.out)
        return
    if args.cmd == "diagnose":
        print(json.dumps(diagnose(args.variant, args.games, args.seed, args.bot, args.max_draws), indent=1))
        return
    train = load(args.files)
    test = load(args.test)
    weights: dict[str, tuple[float, ...]] = {}
    for key in sorted({s[0] for s in train}):
        part = [s for s in train if s[0] == key]
        weights[key] = tuple(round(float(x), 4) for x in fit(part, args.l2))
    model = PolicyModel(weights)
    head = ("situation", "decisions (train)", "log-lik model", "log-lik uniform", "test decisions", "model", "uniform")
    print("| " + " | ".join(head) + " |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted(weights):
        tr = loglik(model, [s for s in train if s[0] == key])
        te = loglik(model, [s for s in test if s[0] == key])
        print(f"| {key} | {tr[2]} | {tr[0]:.3f} | {tr[1]:.3f} | {te[2]} | {te[0]:.3f} | {te[1]:.3f} |")
    print(f"SPECIAL_RATES['schnapsen'] = {special_rates(args.files)!r}")
    print("MODELS['schnapsen'] = {")
    for key, w in weights.items():
        print(f"    {key!r}: {w!r},")
    print("}")


if __name__ == "__main__":
    main()
