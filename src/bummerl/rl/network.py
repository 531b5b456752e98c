"""A small policy-and-value network on NumPy alone, its loss with exact gradients, and the bot that plays it.

The learning baseline of issue 25 (:mod:`bummerl.rl.train`) trains a :class:`Network`; this module holds what a
trained one needs to play: the weights, the forward pass, and :class:`NetworkBot`, which the bot registry makes
for a name ``npz:PATH`` (``bummerl arena --a npz:PATH``, ``bummerl bot npz:PATH``).  It never imports a deep
learning framework: the engine's users install NumPy with the RL extra and nothing larger.

The network: the observation of :class:`~bummerl.rl.encoding.ViewEncoder` (what the batched environment
and the bot both encode, bit for bit) through two ``tanh`` layers, then two heads: one logit per action number of
:class:`~bummerl.rl.encoding.ActionSpace` (illegal ones masked out) and the value of the position to its player,
in game points.

>>> rng = np.random.default_rng(0)
>>> net = Network.init("schnapsen", hidden=8, rng=rng)
>>> logits, value, _ = net.forward(np.zeros((3, net.inputs), np.float32))
>>> logits.shape, value.shape
((3, 71), (3,))
>>> from bummerl.game import Game
>>> game = Game.deal("schnapsen", seed=5)
>>> NetworkBot(net).choose(game.view(game.to_move)) in game.legal_actions()
True

It must never see more than a view: the bot encodes ``view`` and nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any

import numpy as np

from bummerl.actions import Action
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.variants import Variant, find_variant
from bummerl.view import View

__all__ = [
    "FORMAT",
    "PARAMETERS",
    "Adam",
    "Batch",
    "Network",
    "NetworkBot",
    "load_network",
    "masked_softmax",
    "policy_loss",
]

#: The file format's version, stored in every ``.npz``.
FORMAT = 1
#: The parameter arrays, in order: two hidden layers, the policy head, the value head.
PARAMETERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
#: What an illegal action's logit becomes: far below any legal one, but finite, so no NaN arises.
_MASKED = -1e9

Array = np.ndarray[Any, Any]


@dataclasses.dataclass
class Network:
    """The weights (``params``, by :data:`PARAMETERS`) of a network for one variant's observations."""

    variant: str
    params: dict[str, Array]

    @classmethod
    def init(cls, variant: Variant | str, hidden: int, rng: np.random.Generator, dtype: Any = np.float32) -> Network:
        """A new network for ``variant`` with ``hidden`` units per layer (scaled uniform weights, a zero policy
        head so that it starts as the uniformly random player)."""
        rules = variant if isinstance(variant, Variant) else find_variant(variant)
        inputs, actions = ViewEncoder.of(rules).observation_size, ActionSpace.of(rules).size

        def dense(n_in: int, n_out: int) -> Array:
            bound = np.sqrt(6.0 / (n_in + n_out))
            return rng.uniform(-bound, bound, (n_in, n_out)).astype(dtype)

        params = {
            "w1": dense(inputs, hidden),
            "b1": np.zeros(hidden, dtype),
            "w2": dense(hidden, hidden),
            "b2": np.zeros(hidden, dtype),
            "wp": np.zeros((hidden, actions), dtype),
            "bp": np.zeros(actions, dtype),
            "wv": np.zeros((hidden, 1), dtype),
            "bv": np.zeros(1, dtype),
        }
        return cls(rules.name, params)

    @property
    def inputs(self) -> int:
        return int(self.params["w1"].shape[0])

    @property
    def actions(self) -> int:
        return int(self.params["wp"].shape[1])

    def forward(self, x: Array) -> tuple[Array, Array, tuple[Array, Array, Array]]:
        """The logits (``batch x actions``, unmasked), the values (``batch``) and what :meth:`backward` needs."""
        p = self.params
        h1 = np.tanh(x @ p["w1"] + p["b1"])
        h2 = np.tanh(h1 @ p["w2"] + p["b2"])
        logits = h2 @ p["wp"] + p["bp"]
        value = (h2 @ p["wv"] + p["bv"])[:, 0]
        return logits, value, (x, h1, h2)

    def backward(self, cache: tuple[Array, Array, Array], d_logits: Array, d_value: Array) -> dict[str, Array]:
        """The gradients of the parameters, given those of the logits and the values."""
        x, h1, h2 = cache
        p = self.params
        d_h2 = d_logits @ p["wp"].T + d_value[:, None] @ p["wv"].T
        d_z2 = d_h2 * (1.0 - h2 * h2)
        d_h1 = d_z2 @ p["w2"].T
        d_z1 = d_h1 * (1.0 - h1 * h1)
        return {
            "w1": x.T @ d_z1,
            "b1": d_z1.sum(axis=0),
            "w2": h1.T @ d_z2,
            "b2": d_z2.sum(axis=0),
            "wp": h2.T @ d_logits,
            "bp": d_logits.sum(axis=0),
            "wv": h2.T @ d_value[:, None],
            "bv": np.array([d_value.sum()], d_value.dtype),
        }

    def save(self, path: str | os.PathLike[str], **meta: Any) -> None:
        """Write the weights and ``meta`` (recorded as strings or numbers: steps, seed ...) to an ``.npz``."""
        arrays: dict[str, Any] = {"format": np.asarray(FORMAT), "variant": np.asarray(self.variant), **self.params}
        arrays.update({f"meta_{k}": np.asarray(v) for k, v in meta.items()})
        np.savez(path, **arrays)


def load_network(path: str | os.PathLike[str]) -> Network:
    """The network saved at ``path`` by :meth:`Network.save` (:class:`ValueError` for another file)."""
    with np.load(path) as data:
        if "format" not in data or int(data["format"]) != FORMAT or any(k not in data for k in PARAMETERS):
            raise ValueError(f"{os.fspath(path)!r} is not a network of bummerl.rl.network (format {FORMAT})")
        return Network(str(data["variant"]), {k: np.array(data[k]) for k in PARAMETERS})


@functools.lru_cache(maxsize=16)
def _cached(path: str, mtime_ns: int) -> Network:
    return load_network(path)


def masked_softmax(logits: Array, mask: Array) -> tuple[Array, Array]:
    """The probabilities of the legal actions (``mask`` nonzero; 0 elsewhere) and their logarithms (0 elsewhere)."""
    legal = mask.astype(bool)
    z = np.where(legal, logits, _MASKED)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(legal, np.exp(z), 0.0)
    total = e.sum(axis=1, keepdims=True)
    probs = e / total
    log_probs = np.where(legal, z - np.log(total), 0.0)
    return probs, log_probs


@dataclasses.dataclass(frozen=True)
class Batch:
    """Decisions to learn from: observations, masks, the actions taken and the returns that followed them."""

    obs: Array
    mask: Array
    actions: Array
    returns: Array


def policy_loss(
    net: Network,
    batch: Batch,
    *,
    entropy: float = 0.01,
    value_weight: float = 0.5,
    advantage: Array | None = None,
) -> tuple[float, dict[str, Array], dict[str, float]]:
    """The actor-critic loss of ``batch`` and its exact gradients, with the terms it is made of.

    ``loss = mean(-A log pi(a|s) + value_weight (V(s) - G)^2 / 2 - entropy H(pi(.|s)))`` where ``G`` is the
    return and the advantage ``A = G - V(s)`` is a constant (the value is the baseline, not pushed by the policy
    term; ``advantage`` given fixes it, as a check of the gradients by finite differences needs).  Gradients
    of the masked softmax: ``d(-log pi(a))/dz = pi - onehot(a)`` and ``dH/dz = -pi (log pi +
    H)``, both 0 on illegal actions.
    """
    logits, value, cache = net.forward(batch.obs)
    probs, log_probs = masked_softmax(logits, batch.mask)
    n = len(batch.actions)
    rows = np.arange(n)
    if advantage is None:
        advantage = batch.returns - value
    chosen = log_probs[rows, batch.actions]
    h = -(probs * log_probs).sum(axis=1)
    loss_pg = float(-(advantage * chosen).mean())
    loss_v = float(0.5 * ((value - batch.returns) ** 2).mean())
    loss = loss_pg + value_weight * loss_v - entropy * float(h.mean())
    onehot = np.zeros_like(probs)
    onehot[rows, batch.actions] = 1.0
    d_logits = advantage[:, None] * (probs - onehot) + entropy * probs * (log_probs + h[:, None])
    d_value = value_weight * (value - batch.returns)
    grads = net.backward(cache, (d_logits / n).astype(logits.dtype), (d_value / n).astype(value.dtype))
    terms = {"policy": loss_pg, "value": loss_v, "entropy": float(h.mean())}
    return loss, grads, terms


class Adam:
    """Adam (Kingma and Ba, 2015) over a network's parameters, in place."""

    def __init__(self, net: Network, lr: float, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.net, self.lr, self.beta1, self.beta2, self.eps = net, lr, beta1, beta2, eps
        self.m = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.t = 0

    def step(self, grads: dict[str, Array]) -> None:
        self.t += 1
        c1, c2 = 1.0 - self.beta1**self.t, 1.0 - self.beta2**self.t
        for k, g in grads.items():
            self.m[k] = self.beta1 * self.m[k] + (1.0 - self.beta1) * g
            self.v[k] = self.beta2 * self.v[k] + (1.0 - self.beta2) * g * g
            step = self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + self.eps)
            self.net.params[k] -= step.astype(self.net.params[k].dtype)


class NetworkBot:
    """Plays a :class:`Network`: the legal action of the highest logit for the view's encoding (deterministic)."""

    def __init__(self, net: Network, name: str = "network") -> None:
        self.name = name
        self.net = net
        self._encoder = ViewEncoder.of(net.variant)
        self._space = ActionSpace.of(net.variant)

    @classmethod
    def load(cls, path: str, variant: Variant) -> NetworkBot:
        """The bot of the network saved at ``path``, which must have been trained for ``variant``."""
        resolved = Path(path).expanduser()
        net = _cached(str(resolved), resolved.stat().st_mtime_ns)
        if net.variant != variant.name:
            raise ValueError(f"the network {path!r} plays {net.variant}, not {variant.name}")
        return cls(net, f"npz:{path}")

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        x = np.asarray([self._encoder.observation(view)], self.net.params["w1"].dtype)
        logits = self.net.forward(x)[0][0]
        numbers = [self._space.index(a) for a in legal]
        return legal[int(np.argmax(logits[numbers]))]
