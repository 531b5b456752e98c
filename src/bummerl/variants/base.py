"""What every variant is: a frozen description with a name, its pack, its players and its options.

:class:`Variant` is the base of the two-player variants
(:class:`~bummerl.variants.two_player.TwoPlayerVariant`) and the table games'
(:class:`~bummerl.variants.bauernschnapsen.TableVariant`).  It holds what the
whole family shares, written once: the name and aliases, the pack and hand
sizes, the number of players, and the options (:meth:`Variant.with_options`,
:meth:`Variant.options`, :meth:`Variant.option_help`), and the one lookup by
name (:func:`find_variant`).  The game engine of a variant is found by its
:attr:`Variant.FAMILY` in :data:`bummerl.engine.ENGINES`; front ends ask the
variant instead of testing its type.

>>> from bummerl.variants import find_variant
>>> find_variant("66").players, find_variant("dreier").players
(2, 3)
>>> find_variant("bauernschnapsen").with_options(max_doubling="1").options()
{'max_doubling': 1}

This module must not import an engine, a view or the game: they all sit above the variants.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

from bummerl.errors import UnknownVariantError

__all__ = ["Variant", "find_variant", "parse_bool", "register_base"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """The common part of every variant's rules (see the module docstring)."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""
    #: The pack: 20 (A-U), 24 (with 9) or 32 (with 9, 8, 7) cards.
    deck_size: int = 20
    hand_size: int = 5
    #: Seats at the table.
    players: int = 2
    #: Names of the fields a user may set with :meth:`with_options`.
    OPTIONS: tuple[str, ...] = dataclasses.field(default=(), repr=False, compare=False)

    #: One line of documentation per option name (each subclass its own).
    OPTION_HELP: ClassVar[dict[str, str]] = {}

    @classmethod
    def find(cls, name: str | Variant, **options: Any) -> Self:
        """The variant called ``name`` with ``options`` (as :func:`bummerl.variants.find_variant`), if it is one
        of this class: ``TwoPlayerVariant.find("66")`` for code that plays two-player games only."""
        variant = find_variant(name, **options)
        if not isinstance(variant, cls):
            raise UnknownVariantError(f"{variant.title} is not a {cls.KIND}")
        return variant

    #: What the variants of this class are, for messages ("two-player variant").
    KIND: ClassVar[str] = "variant"
    #: The family of rules, one engine each: ``"two_player"`` (Schnapsen, 66, Schnorps) or ``"table_game"``
    #: (Dreierschnapsen, Bauernschnapsen). Hosts that treat the families apart (the web server's kinds of
    #: table) look this up instead of asking for the variant's class.
    FAMILY: ClassVar[str] = ""

    # ------------------------------------------------------------------ options
    def with_options(self, **options: Any) -> Self:
        """A copy with ``options`` set; unknown names raise with the list of options.

        A value may be given as text (``"true"``, ``"3"``), as on a command line or in a form.
        """
        values: dict[str, Any] = {}
        for key, value in options.items():
            if key not in self.OPTIONS:
                raise UnknownVariantError(
                    f"{self.name} has no option {key!r}; options: {', '.join(sorted(self.OPTIONS))}"
                )
            values[key] = _option_value(key, value, type(getattr(self, key)))
        return dataclasses.replace(self, **values)

    def options(self) -> dict[str, Any]:
        """The options that differ from this variant's defaults."""
        base = _BASE.get(self.name) or type(self)()
        return {k: getattr(self, k) for k in self.OPTIONS if getattr(self, k) != getattr(base, k)}

    def option_help(self) -> dict[str, str]:
        """One line of documentation per option of this variant."""
        return {k: self.OPTION_HELP.get(k, "") for k in self.OPTIONS}

    # -------------------------------------------------------------------- games
    @property
    def default_dealer(self) -> int:
        """The seat that deals when nobody says otherwise."""
        return 0

    # ------------------------------------------------------------------- traits
    # What a front end reads of a variant's rules instead of testing its name or its class (view_json's
    # variant_traits); each family answers for itself.
    @property
    def undeclared_end_rule(self) -> str | None:
        """Who wins a game nobody declared (``"last_trick"`` or ``"sixty_six"``); ``None`` where no such rule."""
        return None

    @property
    def match_unit(self) -> str:
        """What a match is played for: ``"bummerl"``, ``"marken"`` or ``"points"`` (a race to a target)."""
        return "points"

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The fixed partnerships of seats (empty where every seat plays alone)."""
        return ()

    @property
    def shows_augen(self) -> bool:
        """Whether a player may see the running Augen during the game (Schnapsen scharf hides them)."""
        return True

    @property
    def for_players(self) -> bool:
        """Whether people play it: false for the research variants (:mod:`bummerl.variants.research`), which
        the RL interfaces and the arena know but the web app, ``bummerl play`` and the rules pages do not list."""
        return True


def parse_bool(key: str, value: Any) -> bool:
    """``value`` as a boolean option (``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``)."""
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise UnknownVariantError(f"option {key} must be true or false, not {value!r}")


def _option_value(key: str, value: Any, expected: type) -> Any:
    if expected is bool:
        return value if isinstance(value, bool) else parse_bool(key, value)
    if expected is int and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise UnknownVariantError(f"option {key} must be an integer, not {value!r}") from None
    if not isinstance(value, expected) or isinstance(value, bool):
        raise UnknownVariantError(f"option {key} must be {expected.__name__}, not {value!r}")
    return value


#: The built-in variants by name: the defaults that :meth:`Variant.options` compares with.
_BASE: dict[str, Variant] = {}


def register_base(*variants: Variant) -> None:
    """Make each of ``variants`` a built-in variant: found by :func:`find_variant`, the reference of its name for
    :meth:`Variant.options`."""
    for v in variants:
        _BASE[v.name] = v


def find_variant(name: str | Variant, **options: Any) -> Variant:
    """The variant called ``name`` (any alias, case-insensitive), with ``options`` applied.

    Raises :class:`~bummerl.errors.UnknownVariantError` naming the known names.
    """
    if isinstance(name, Variant):
        return name.with_options(**options) if options else name
    key = str(name).strip().lower()
    for variant in _BASE.values():
        if key == variant.name or key in variant.aliases:
            return variant.with_options(**options) if options else variant
    known = ", ".join(sorted({a for v in _BASE.values() for a in (v.name, *v.aliases)}))
    raise UnknownVariantError(f"unknown variant {name!r}; known names: {known}")
