"""Shared test helpers: games with exactly the hands a test needs, random play.

``deal_game`` builds the pack order that the variant's deal turns into the given
hands, so a test states the situation it checks instead of searching for a seed::

    game = deal_game("schnapsen", vorhand="Jh Kh Qh As Ts", dealer="Ah Th Ks Qs Js",
                     trump="Kc", talon="Ac Tc")

``position`` writes the one-line position form for situations late in a game
(talon exhausted, closed) that would take many moves to reach.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from bummerl.actions import Action
from bummerl.cards import Card, deck, parse_cards
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.variants import TwoPlayerVariant, find_variant

__all__ = [
    "apply_all",
    "assert_refused",
    "cards_in",
    "deal_game",
    "deck_order",
    "load_script",
    "position",
    "random_playout",
    "random_policy",
    "snapshot",
]


def deck_order(
    variant: TwoPlayerVariant | str,
    vorhand: str,
    dealer: str,
    trump: str,
    talon: str = "",
) -> list[Card]:
    """The pack order (top card first) that deals these hands and trump card.

    ``talon`` lists the first face-down cards in draw order; the remaining cards
    of the pack follow in pack order.
    """
    v = find_variant(variant) if isinstance(variant, str) else variant
    hands = {"v": list(parse_cards(vorhand)), "d": list(parse_cards(dealer))}
    trump_card = Card.parse(trump)
    if len(hands["v"]) != v.hand_size or len(hands["d"]) != v.hand_size:
        raise ValueError(f"{v.title} hands hold {v.hand_size} cards")
    order: list[Card] = []
    for who, count in v.deal:
        if who == "t":
            order.append(trump_card)
        else:
            order.extend(hands[who][:count])
            del hands[who][:count]
    order.extend(parse_cards(talon))
    used = set(order)
    if len(used) != len(order):
        raise ValueError("a card is given twice")
    order.extend(c for c in deck(v.deck_size) if c not in used)
    return order


def deal_game(
    variant: TwoPlayerVariant | str,
    vorhand: str,
    dealer: str,
    trump: str,
    talon: str = "",
    dealer_seat: int = 1,
) -> Game:
    """A game whose Vorhand and dealer hold exactly the given cards."""
    return Game.from_deck(variant, deck_order(variant, vorhand, dealer, trump, talon), dealer_seat)


def apply_all(game: Game, tokens: str) -> Game:
    """Apply space-separated action tokens in order; returns ``game``."""
    for token in tokens.split():
        game.apply(token)
    return game


def position(
    variant: str,
    to_move: int,
    trump: str,
    hand0: str,
    hand1: str,
    *,
    talon: str = "-",
    closed: str = "-",
    lead: str = "-",
    won0: str = "-",
    won1: str = "-",
    marriages: str = "-",
    dealer: int = 1,
) -> Game:
    """A game from the fields of the one-line position form (spaces in card lists allowed)."""

    def squash(text: str) -> str:
        return text.replace(" ", "") or "-"

    fields = [
        variant,
        str(dealer),
        str(to_move),
        trump,
        f"{squash(hand0)}/{squash(hand1)}",
        squash(talon),
        closed,
        lead,
        f"{squash(won0)}/{squash(won1)}",
        marriages,
    ]
    return Game.from_position(" ".join(fields))


Policy = Callable[[Game, SplitMix64], Action]


def random_policy(game: Game, rng: SplitMix64) -> Action:
    """A random legal action that rarely declares wrongly, so games run long.

    A right declaration (Ausmelden) is chosen three times in four; a wrong one
    only rarely, and closing less often than the other actions, so that every
    kind of ending occurs.
    """
    legal = game.legal_actions()
    p = game.to_move
    declares = [a for a in legal if a.token == "declare"]
    if declares and game.augen(p) >= 66 and rng.below(4):
        return declares[0]
    others = [a for a in legal if not a.token.startswith("declare")]
    if not others or rng.below(40) == 0:
        return legal[rng.below(len(legal))]
    choice = others[rng.below(len(others))]
    if choice.token == "close" and rng.below(3):
        # Close less often than uniform play would, so that many games exhaust the talon.
        choice = others[rng.below(len(others))]
    return choice


def random_playout(game: Game, seed: int, policy: Policy = random_policy) -> Iterator[Action]:
    """Play ``game`` to its end with ``policy``, yielding each action before it is applied."""
    rng = SplitMix64(seed)
    while not game.is_over:
        action = policy(game, rng)
        yield action
        game.apply(action)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything observable of a game, to compare before and after a refused action."""
    return (
        game.position() if not game.is_over else game.result,
        tuple(game.actions),
        tuple(game.tricks),
        game.to_move,
        game.first_lead_done,
        tuple(game.legal_actions()),
        (frozenset(game.known[0]), frozenset(game.known[1])),
    )


def assert_refused(game: Game, action: Action | str, rule: object) -> IllegalActionError:
    """Check that ``action`` raises naming ``rule`` and leaves ``game`` unchanged."""
    a = Action.parse(action) if isinstance(action, str) else action
    before = snapshot(game)
    assert not game.can_apply(a), f"{a.token} should be illegal"
    try:
        game.apply(a)
    except IllegalActionError as err:
        assert err.rule is rule, f"{a.token}: expected {rule}, got {err.rule} ({err})"
        assert snapshot(game) == before, f"{a.token}: the refused action changed the game"
        return err
    raise AssertionError(f"{a.token} was accepted")


def cards_in(obj: object) -> set[Card]:
    """Every card anywhere inside ``obj`` (dataclass fields, tuples, lists, sets, dicts)."""
    found: set[Card] = set()
    stack: list[object] = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
    return found


#: The repository's root: bench/ and examples/ lie below it, outside the package.
ROOT = Path(__file__).resolve().parent.parent


def load_script(path: str) -> ModuleType:
    """The script at ``path`` (relative to the repository's root, e.g. ``bench/core_diff.py``) as a module."""
    spec = importlib.util.spec_from_file_location(f"script_{Path(path).stem}", ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses in the script look their module up
    spec.loader.exec_module(module)
    return module
