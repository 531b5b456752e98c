"""The compiled two-player core against the Python engine: random games, every step compared.

    python bench/core_diff.py --jobs 16                # 100,000 games per variant; the result is in docs/rl.md
    python bench/core_diff.py --games 2000 --variant scharf --option auto_declare=true

For each variant, ``--games`` games are dealt from seeds ``derive_seed(seed, k)`` with a dealer drawn from the same
stream, once through :class:`bummerl.engine.Game` (the reference, dealt with ``BUMMERL_PURE=1``: no compiled twin)
and once through ``bummerl.core._two_player.State``; at every position both must agree on whose turn it is, the
legal actions (numbers, in ``Game.legal_actions()``'s order), both seats' observation and information-state tensors
(:class:`~bummerl.rl.encoding.ViewEncoder`'s floats as float32, bit for bit) and masks
(:class:`~bummerl.rl.encoding.ActionSpace`), and at the end the result (winner, points, reason, Augen). A random
legal action, drawn from the seed, is applied to both. Then the batch: :class:`bummerl.rl.vector.PythonBatch` and
the core's ``Batch`` with the same settings step the same actions (random legal ones, and now and then an illegal
number, which forfeits) and must write the same arrays. The first difference stops the run with the position and
the action that led to it; ``tests/test_core.py`` runs the same checks on a sample.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from array import array
from pathlib import Path

import numpy as np

from bummerl import core
from bummerl import variants as variants_module
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.settings import EnvSettings
from bummerl.rl.vector import PythonBatch, make_batch
from bummerl.rng import derive_seed
from bummerl.variants import Variant, find_variant
from bummerl.variants.two_player import GameResult, TwoPlayerVariant

sys.path.insert(0, str(Path(__file__).resolve().parent))
import core_diff_common as common  # bench/core_diff_common.py, beside this script
from core_diff_common import Mismatch, Tally
from core_diff_common import check as _check

__all__ = ["DEFAULT_VARIANTS", "Mismatch", "compare_batches", "compare_games", "main"]

#: The four games and the research variants (mini8, mini10, mini12) where the tree has them.
DEFAULT_VARIANTS = (
    "schnapsen",
    "schnapsen-scharf",
    "sechsundsechzig",
    "schnorps",
    *(v.name for v in getattr(variants_module, "RESEARCH_VARIANTS", ())),
)


def compare_games(variant: Variant, games: int, seed: int, first: int = 0) -> Tally:
    """Play games ``first .. first + games - 1`` of ``seed`` through the core and the engine, comparing every
    step (see the module docstring)."""
    module = core.CORES["two_player"]
    config = core.config(variant)
    if module is None or config is None:
        raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
    encoder = ViewEncoder.of(variant)
    space = ActionSpace.of(variant)
    obs = array("f", bytes(4 * encoder.observation_size))
    info = array("f", bytes(4 * encoder.information_state_size))
    mask = bytearray(space.size)
    tally = Tally()
    for k in range(first, first + games):
        game_seed = derive_seed(seed, k)
        rng = random.Random(game_seed)
        dealer = rng.randrange(2)
        game = common.reference_deal(variant, game_seed, dealer)
        pack = module.deal(config, game_seed, dealer)
        _check(pack == [c.index for c in game.deck], "deals", f"seed {game_seed}")
        state = module.State(config, pack, dealer)
        history: list[str] = []
        while True:
            where = f"{variant.title}, seed {game_seed}, dealer {dealer}, after {' '.join(history) or 'the deal'}"
            tally.positions += 1
            _check(state.over == game.is_over, "ends", where)
            for seat in (0, 1):
                view = game.view(seat)
                state.encode(seat, False, obs)
                _check(obs == array("f", encoder.observation(view)), f"observations of seat {seat}", where)
                state.encode(seat, True, info)
                _check(info == array("f", encoder.information_state(view)), f"information states of seat {seat}", where)
                state.mask(seat, mask)
                _check(list(mask) == space.mask(view), f"masks of seat {seat}", where)
            if game.is_over:
                break
            _check(state.to_move == game.to_move, "players to move", where)
            legal = game.legal_actions()
            _check(state.legal() == [space.index(a) for a in legal], "legal actions", where)
            action = rng.choice(legal)
            history.append(action.token)
            game.apply(action)
            state.apply(space.index(action))
        result = game.result
        assert isinstance(result, GameResult)
        mine = state.result()
        reason = core.RESULT_REASONS.index(result.reason)
        expected = (-1 if result.winner is None else result.winner, result.points, reason, *result.augen)
        _check(mine == expected, f"results ({mine} against {expected})", where)
        tally.games += 1
    return tally


def compare_batches(
    variant: Variant,
    num_envs: int,
    steps: int,
    seed: int,
    *,
    seat: int | str,
    observation: str,
    illegal: str = "lose",
    dealer: int | str = "seed",
    reward: str = "zero_sum",
) -> int:
    """Step the core's ``Batch`` and :class:`PythonBatch` side by side; the number of games finished."""
    settings = EnvSettings.read(variant, None, observation=observation, illegal=illegal, dealer=dealer, reward=reward)
    compiled = make_batch(settings, num_envs, seat=seat, backend="compiled")
    reference = make_batch(settings, num_envs, seat=seat, backend="python")
    assert isinstance(reference, PythonBatch)
    size, actions, players = settings.size, settings.space.size, variant.players

    def arrays() -> list[np.ndarray]:
        return [
            np.zeros((num_envs, size), np.float32),
            np.zeros((num_envs, actions), np.int8),
            np.zeros((num_envs, players), np.float32),
            np.zeros(num_envs, np.uint8),
            np.zeros(num_envs, np.int8),
            np.zeros(num_envs, np.uint64),
        ]

    a, b = arrays(), arrays()
    rng = random.Random(seed)
    seeds = np.array([derive_seed(seed, i) for i in range(num_envs)], np.uint64)
    compiled.reset(seeds, a[0], a[1], a[4])
    with common.python_rules():  # the reference batch deals its games on the Python rules alone
        reference.reset(seeds, b[0], b[1], b[4])
    finished = 0
    names = ("observations", "masks", "rewards", "terminated", "seats", "game seeds")
    for t in range(steps + 1):
        compiled.game_seeds(a[5])
        reference.game_seeds(b[5])
        for name, x, y in zip(names, a, b, strict=True):
            _check(np.array_equal(x, y), name, f"{variant.title}, seat {seat!r}, {observation}, step {t}")
        if t == steps:
            break
        chosen = np.zeros(num_envs, np.int64)
        for i in range(num_envs):
            legal = np.flatnonzero(a[1][i])
            # Now and then a number that is not legal: the forfeit (or, with illegal="raise", nothing changes).
            chosen[i] = rng.randrange(actions) if legal.size == 0 or rng.random() < 0.01 else rng.choice(legal)
        compiled.step(chosen, a[0], a[1], a[2], a[3], a[4])
        with common.python_rules():
            reference.step(chosen, b[0], b[1], b[2], b[3], b[4])
        finished += int(a[3].sum())
    return finished


def _split(games: int, jobs: int) -> list[range]:
    step = -(-games // jobs)
    return [range(start, min(start + step, games)) for start in range(0, games, step)]


def main(argv: list[str] | None = None) -> int:
    cli = common.parser(__doc__.split("\n")[0], "two-player variant", "all")
    cli.add_argument("--batch-steps", type=int, default=2_000, help="steps of the batch comparison (64 games)")
    cli.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    args = cli.parse_args(argv)
    print(common.header(batch=True))
    for name in args.variant or DEFAULT_VARIANTS:
        variant = TwoPlayerVariant.find(find_variant(name, **common.variant_options(args)))
        start = time.perf_counter()
        shares = [(variant, len(part), args.seed, part.start) for part in _split(args.games, args.jobs)]
        with multiprocessing.Pool(args.jobs) as pool:
            tallies = pool.starmap(compare_games, shares)
        tally = Tally(sum(t.games for t in tallies), sum(t.positions for t in tallies))
        batch = sum(
            compare_batches(variant, 64, args.batch_steps, args.seed, seat=seat, observation=obs)
            for seat in (0, "random", "all")
            for obs in ("observation", "information_state")
        )
        print(common.row(variant.title, tally, start, batch), flush=True)
    print("every legal-action list, observation, information state, mask and result identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
