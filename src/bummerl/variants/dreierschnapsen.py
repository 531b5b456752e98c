"""Dreierschnapsen (3 players): the soloist against the other two, with a talon of two.

seeds/003: "Jeder Spieler hält 6 statt 5 Karten auf der Hand, die beiden
überzähligen Karten bilden den Talon."  seeds/004 (Talon-Schnapsen): "Bei jedem
einzelnen Spiel spielt der Gewinner der Reizung allein gegen die beiden anderen
Spieler" and "Nach der Reizung nimmt der Alleinspieler die beiden Karten des
Talons auf ... und legt zwei beliebige Karten verdeckt ab."

The contracts are those of Bauernschnapsen with the three-player goals
(Schnapser: the first four tricks and 66; Gang-type: all six tricks; Farbenring
and Herrenschnapser: played out, a full suit and the sixth trick).

>>> v = DREIERSCHNAPSEN
>>> v.players, v.hand_size, v.talon_size, v.first_tricks
(3, 6, 2, 4)
>>> v.contract("farbenring").goal.value
'all_tricks'

Its options are those of Bauernschnapsen without the partner's (three players have none) and with the talon's:

>>> "gang_partner_plays" in v.OPTIONS, "may_skip_talon" in v.OPTIONS
(False, True)
"""

from __future__ import annotations

from bummerl.variants.base import register_base
from bummerl.variants.bauernschnapsen import _OPTIONS_DOC, _PARTNER_OPTIONS, TableVariant

__all__ = ["DREIERSCHNAPSEN"]

DREIERSCHNAPSEN = TableVariant(
    name="dreierschnapsen",
    aliases=("dreier", "talonschnapsen", "talon-schnapsen", "3"),
    title="Dreierschnapsen",
    players=3,
    hand_size=6,
    talon_size=2,
    # Every option of the table games but the partner's: with three players nobody has a partner.
    OPTIONS=tuple(k for k in _OPTIONS_DOC if k not in _PARTNER_OPTIONS),
)
register_base(DREIERSCHNAPSEN)
