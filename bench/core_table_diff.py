"""The compiled table core against the Python engine: random games of Dreierschnapsen and Bauernschnapsen.

    python bench/core_table_diff.py                        # 100,000 games per variant (the result is in docs/rl.md)
    python bench/core_table_diff.py --games 2000 --variant dreier --option may_skip_talon=true
    python bench/core_table_diff.py --games 20000 --random-options     # each game its own option set

For each variant, ``--games`` games are dealt from seeds ``derive_seed(seed, k)`` with a dealer drawn from the
same stream, once through :class:`bummerl.table_game.TableGame` (the reference, dealt with ``BUMMERL_PURE=1``)
and once through ``bummerl.core._table.State``; at every position both must agree on whose turn it is and
whether the game is over, the legal actions (numbers, in ``legal_actions()``'s order), every seat's observation and
information-state tensors (:class:`~bummerl.rl.encoding.ViewEncoder`'s floats as float32, bit for bit) and
masks (:class:`~bummerl.rl.encoding.ActionSpace`), and at the end the whole result (contract, declarer,
winners, points, reason, Augen, multiplier).  A random legal action is applied to both, in a third of
the games uniformly, in a third leaning to bids and doubles (the high contracts), in a third to passes and a
right "Genug" (the normal game).  ``--random-options`` deals every game under an option set drawn from the seed
(:func:`random_options`: every option of the variant).  Then
``random_games`` (the compiled ``bummerl selfplay --bots random``) must give the arena's own tally on a few
hundred games.  The first difference stops the run with the position and the action that led to it;
``tests/test_core_table.py`` runs the same checks on a sample, its option sets drawn by hypothesis.
"""

from __future__ import annotations

import os
import random
import sys
import time
from array import array
from pathlib import Path
from typing import Any

from bummerl import core
from bummerl.actions import ActionKind
from bummerl.arena import selfplay
from bummerl.core.table import table_result
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rng import derive_seed
from bummerl.table_game import TableGame
from bummerl.variants import find_variant
from bummerl.variants.bauernschnapsen import TableVariant

sys.path.insert(0, str(Path(__file__).resolve().parent))
import core_diff_common as common  # bench/core_diff_common.py, beside this script
from core_diff_common import Mismatch, Tally
from core_diff_common import check as _check

__all__ = ["Mismatch", "compare_game", "compare_games", "compare_selfplay", "main", "random_options"]

VARIANTS = ("bauernschnapsen", "dreierschnapsen")
#: Games between two progress lines (on stderr).
_CHUNK = 5_000


def random_options(variant: TableVariant, rng: random.Random) -> TableVariant:
    """``variant`` under an option set drawn from ``rng``: each option of the variant a random legal value."""
    values: dict[str, Any] = {}
    for name in variant.OPTIONS:
        if name == "match_target":
            continue  # the match's, not the game's
        current = getattr(variant, name)
        if isinstance(current, bool):
            values[name] = rng.random() < 0.5
        elif name == "zehnerloch_points":
            values[name] = rng.choice((8, 9, 10))
        elif name == "bettler_points":
            values[name] = rng.choice((4, 5))
        elif name == "max_doubling":
            values[name] = rng.randrange(4)
    if values.get("kontra_beats_bettler") and values.get("max_doubling") == 0:
        values["max_doubling"] = 1
    return variant.with_options(**values)


def _choose(game: TableGame, rng: random.Random, style: int) -> int:
    """A random legal action's index in one of three styles: 0 uniform; 1 leaning to the rare high contracts (now
    and then the highest bid, bids and doubles twice as likely); 2 leaning to the normal game (the lowest bid,
    passes four times as likely, "Genug" often once it is right), which uniform bidding hardly ever leaves standing."""
    legal = game.legal_actions()
    if style == 0:
        return rng.randrange(len(legal))
    bids = [i for i, a in enumerate(legal) if a.kind is ActionKind.BID]
    if bids and rng.random() < 0.25:
        return bids[-1] if style == 1 else bids[0]
    lean = _HIGH if style == 1 else _LOW
    weights = [lean.get(a.kind, 1) for a in legal]
    if style == 2 and game.augen(game.side_of(game.to_move)) >= 66:
        weights = [8 if a.kind is ActionKind.DECLARE else 1 for a in legal]  # a right "Genug" now and then
    return rng.choices(range(len(legal)), weights)[0]


_HIGH = {ActionKind.BID: 2, ActionKind.DOUBLE: 2, ActionKind.DECLARE: 2}
_LOW = {ActionKind.PASS: 4}


def compare_games(
    variant: TableVariant,
    games: int,
    seed: int,
    *,
    options: bool = False,
    seen: set[str] | None = None,
    start: int = 0,
) -> Tally:
    """Play ``games`` random games (numbers ``start`` on) through the core and the engine and compare every step
    (see the docstring); ``seen`` collects the tokens of the actions played and ``reason:`` each end's reason."""
    tally = Tally()
    for k in range(start, start + games):
        game_seed = derive_seed(seed, k)
        rng = random.Random(game_seed)
        v = random_options(variant, rng) if options else variant
        dealer = rng.randrange(v.players)
        game = common.reference_deal(v, game_seed, dealer)
        assert isinstance(game, TableGame)
        _check(_module().deal(core.config(v), game_seed, dealer) == [c.index for c in game.deck], "deals", str(k))
        compare_game(game, rng, tally, seen)
    return tally


def _module() -> Any:
    module = core.CORES["table_game"]
    if module is None:
        raise SystemExit("the compiled table core is not built here (pip install -e . with a C compiler)")
    return module


def compare_game(game: TableGame, rng: random.Random, tally: Tally, seen: set[str] | None = None) -> None:
    """Play the freshly dealt ``game`` on through the core and the engine, choosing with ``rng``, and compare
    every position (see the module docstring).  ``game`` must play on the Python rules alone
    (:func:`core_diff_common.reference_deal`): a compiled twin would answer the legal actions with this core."""
    if game._core is not None:
        raise ValueError("the reference has a compiled twin: deal it with core_diff_common.reference_deal")
    v = game.variant
    config = core.config(v)
    assert config is not None
    encoder = ViewEncoder.of(v)
    space = ActionSpace.of(v)
    obs = array("f", bytes(4 * encoder.observation_size))
    info = array("f", bytes(4 * encoder.information_state_size))
    mask = bytearray(space.size)
    state = _module().State(config, [c.index for c in game.deck], game.dealer)
    history: list[str] = []
    style = rng.randrange(3)
    size = encoder.observation_size

    def where() -> str:  # written out only for a difference: the position line is a tenth of the run's time
        return f"{game.position()} (options {v.options()}, after {' '.join(history) or 'the deal'})"

    while True:
        tally.positions += 1
        _check(state.over == game.is_over, "ends", where)
        _check(state.to_move == game.to_move, "players to move", where)
        for seat in range(v.players):
            view = game.view(seat)
            # The information state is the observation followed by the history (ViewEncoder's layout); compared as
            # bytes, bit for bit (an array of floats compares item by item, as Python floats: ten times slower).
            expected = array("f", encoder.information_state(view)).tobytes()
            state.encode(seat, False, obs)
            _check(obs.tobytes() == expected[: 4 * size], f"observations of seat {seat}", where)
            state.encode(seat, True, info)
            _check(info.tobytes() == expected, f"information states of seat {seat}", where)
            state.mask(seat, mask)
            _check(list(mask) == space.mask(view), f"masks of seat {seat}", where)
        if game.is_over:
            break
        legal = game.legal_actions()
        _check(state.legal() == [space.index(a) for a in legal], "legal actions", where)
        action = legal[_choose(game, rng, style)]
        history.append(action.token)
        if seen is not None:
            seen.add(action.token)
        game.apply(action)
        state.apply(space.index(action))
    mine = state.result()
    assert mine is not None and game.result is not None
    _check(table_result(v, mine) == game.result, f"results ({mine} against {game.result})", where())
    if seen is not None:
        seen.add(f"reason:{game.result.reason.value}")
    tally.games += 1


def compare_selfplay(variant: TableVariant, games: int, seed: int) -> None:
    """The core's ``random_games`` against ``bummerl selfplay --bots random`` (:func:`bummerl.arena.selfplay`)."""
    points, wins, draws, _ = _module().random_games(core.config(variant), seed, games)
    # selfplay itself lets the core play random bots: the reference is its run on the Python engine.
    before = os.environ.get(core.PURE_VARIABLE)
    os.environ[core.PURE_VARIABLE] = "1"
    try:
        stats = selfplay(variant, ["random"] * variant.players, games, seed)
    finally:
        if before is None:
            del os.environ[core.PURE_VARIABLE]
        else:
            os.environ[core.PURE_VARIABLE] = before
    mine = (list(points), list(wins), draws)
    _check(mine == (stats.game_points, stats.wins, stats.draws), "random self-play tallies", variant.title)


def main(argv: list[str] | None = None) -> int:
    cli = common.parser(__doc__.split("\n")[0], "table variant", "both")
    cli.add_argument("--random-options", action="store_true", help="each game under an option set of its own")
    cli.add_argument("--selfplay-games", type=int, default=300, help="games of the random self-play tally")
    args = cli.parse_args(argv)
    print(common.header())
    for name in args.variant or VARIANTS:
        variant = TableVariant.find(find_variant(name, **common.variant_options(args)))
        start = time.perf_counter()
        tally = Tally()
        for first in range(0, args.games, _CHUNK):
            part = compare_games(
                variant, min(_CHUNK, args.games - first), args.seed, options=args.random_options, start=first
            )
            tally.games += part.games
            tally.positions += part.positions
            seconds = time.perf_counter() - start
            print(
                f"  {variant.title}: {tally.games} games, {tally.positions} positions identical, {seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        compare_selfplay(variant, args.selfplay_games, args.seed)
        print(common.row(variant.title, tally, start), flush=True)
    print("every legal-action list, observation, information state, mask, result and self-play tally identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
