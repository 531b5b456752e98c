"""How the lobby describes a variant's options: one form field per option.

Both lobby forms (two-player tables and table games) render their option
fields from this description, so a new option appears on the page without
front-end work.

>>> from bummerl.variants import find_table_variant
>>> fields = {f["name"]: f for f in options_json(find_table_variant("bauernschnapsen"))}
>>> fields["bettler"]["type"], fields["max_doubling"]["choices"]
('bool', [0, 1, 2, 3])
"""

from __future__ import annotations

from typing import Any

from bummerl.variants import Variant

__all__ = ["options_json"]

#: The choices of options that are not true/false (the values the rule texts name;
#: ``match_target``: the seeds' 24 and common shorter and longer matches).
CHOICES: dict[str, list[Any]] = {
    "last_trick_scoring": ["one", "augen"],
    "close_min_facedown": [1, 2],
    "max_doubling": [0, 1, 2, 3],
    "bettler_points": [4, 5],
    "zehnerloch_points": [8, 9, 10],
    "match_target": [12, 18, 24, 36, 48],
}


def options_json(variant: Variant) -> list[dict[str, Any]]:
    """``[{"name", "type" ("bool" or "choice"), "default", "choices", "help"}]``, one per option."""
    helps = variant.option_help()
    out = []
    for name in variant.OPTIONS:
        default = getattr(variant, name)
        if isinstance(default, bool):
            kind, choices = "bool", [False, True]
        else:
            kind, choices = "choice", list(CHOICES.get(name, [default]))
            if default not in choices:
                choices = sorted([*choices, default])
        out.append({"name": name, "type": kind, "default": default, "choices": choices, "help": helps.get(name, "")})
    return out
