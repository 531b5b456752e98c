"""The table family's side of :mod:`bummerl.core`: a variant as the numbers the compiled core reads, and back.

:func:`table_config` turns a :class:`~bummerl.variants.bauernschnapsen.TableVariant` with its options into the
``dict`` that ``bummerl.core._table`` (src/bummerl/core/_table.c) reads: the players, hand and talon sizes, the
options that change the flow (``max_doubling``, ``three_unter_redeal``, ``raise_after_talon``,
``may_skip_talon``) and one tuple per field of the variant's contracts in bidding order (points, who bids,
trump, lead, goal, goal tricks, whether the partner plays, the hand's requirement, who may marry, the rank order
of 8 per contract).  So the contracts stay data in :mod:`bummerl.variants.bauernschnapsen`: an option that adds
or changes a contract reaches the core through this function, and the C code names no contract but the one the
engine names too (``kontra-normal``, played as Vorhand's normal game with Kontra said).

>>> from bummerl.variants import find_variant
>>> config = table_config(find_variant("dreierschnapsen", may_skip_talon=True))
>>> config["players"], config["talon_size"], config["may_skip_talon"], len(config["contract_points"])
(3, 2, 1, 10)
>>> config["contract_points"][:4]
(1, 4, 6, 9)

:func:`table_result` reads the core's ``State.result()`` back as the engine's
:class:`~bummerl.variants.bauernschnapsen.TableResult`.  This module imports only the variants.
"""

from __future__ import annotations

from bummerl.variants import Variant
from bummerl.variants.bauernschnapsen import Bidders, Goal, Requirement, TableEndReason, TableResult, TableVariant

__all__ = ["TABLE_FORFEIT_POINTS", "TABLE_REASONS", "table_config", "table_result"]

#: What the opponents of a forfeiting seat score at a table game (bummerl.arena.families, above this layer).
TABLE_FORFEIT_POINTS = 3
#: ``State.result()``'s reason numbers, in order.
TABLE_REASONS: tuple[TableEndReason, ...] = tuple(TableEndReason)
_BIDDERS = (Bidders.VORHAND, Bidders.VORHAND_TEAM, Bidders.OPPONENTS, Bidders.NOT_VORHAND, Bidders.ANY)
_GOALS = (Goal.SIXTY_SIX, Goal.NO_TRICK, Goal.FIRST_TRICKS_66, Goal.ALL_TRICKS, Goal.CLAIM)
_REQUIREMENTS = (Requirement.NONE, Requirement.ACE, Requirement.FULL_SUIT, Requirement.ALL_TRUMPS)
_MARRIAGES = ("none", "all", "declarer")
_NATURAL = tuple(range(8))


def table_config(v: Variant) -> dict[str, object] | None:
    """The core's description of the table variant ``v`` (see the module docstring); ``None`` for a subclass of
    :class:`TableVariant`, whose hooks the C code does not know."""
    if type(v) is not TableVariant:
        return None
    contracts = v.contracts
    return {
        "players": v.players,
        "hand_size": v.hand_size,
        "talon_size": v.talon_size,
        "max_doubling": v.max_doubling,
        "three_unter_redeal": int(v.three_unter_redeal),
        "raise_after_talon": int(v.raise_after_talon),
        "may_skip_talon": int(v.may_skip_talon),
        "default_dealer": v.default_dealer,
        "forfeit_points": TABLE_FORFEIT_POINTS,
        "contract_points": tuple(c.points for c in contracts),
        "contract_bidders": tuple(_BIDDERS.index(c.bidders) for c in contracts),
        "contract_trump": tuple(int(c.trump) for c in contracts),
        "contract_lead_declarer": tuple(int(c.lead == "declarer") for c in contracts),
        "contract_goal": tuple(_GOALS.index(c.goal) for c in contracts),
        "contract_goal_tricks": tuple(c.goal_tricks for c in contracts),
        "contract_partner_plays": tuple(int(c.partner_plays) for c in contracts),
        "contract_requirement": tuple(_REQUIREMENTS.index(c.requirement) for c in contracts),
        "contract_marriages": tuple(_MARRIAGES.index(c.marriages) for c in contracts),
        # bummerl.table_game._fix_contract names it too: the opponents' Kontra bid above the Bettler.
        "contract_kontra_normal": tuple(int(c.name == "kontra-normal") for c in contracts),
        "contract_order": tuple(x for c in contracts for x in (c.order or _NATURAL)),
    }


def table_result(v: TableVariant, result: tuple[int, int, int, int, int, int, int, int]) -> TableResult:
    """``State.result()`` of the table core as the engine's :class:`TableResult`."""
    contract, declarer, winners, points, reason, augen_0, augen_1, multiplier = result
    return TableResult(
        v.contracts[contract].name if contract >= 0 else "",
        declarer if declarer >= 0 else None,
        tuple(s for s in range(v.players) if winners >> s & 1),
        points,
        TABLE_REASONS[reason],
        (augen_0, augen_1),
        multiplier,
    )
