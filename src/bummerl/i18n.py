"""Every user-facing sentence of the terminal front end, in German and English.

Messages are looked up by key and formatted with keyword arguments; a
:class:`Messages` object binds the language.  Card names come from
:meth:`bummerl.cards.Card.name`, not from here.

>>> de, en = Messages("de"), Messages("en")
>>> de("you_took_trick")
'Du nimmst den Stich.'
>>> en("points", n=1, unit=en.unit("game points", 1))
'1 game point'
>>> Messages("fr")
Traceback (most recent call last):
...
ValueError: unknown language 'fr': expected 'de' or 'en'

The engine never imports this module: words are the front end's business.
"""

from __future__ import annotations

import json
from importlib import resources

from bummerl.cards import LANGUAGES

__all__ = ["MESSAGES", "Messages"]


def _load() -> tuple[dict[str, tuple[str, str]], dict[str, tuple[tuple[str, str], tuple[str, str]]]]:
    """The messages and units of ``i18n.json`` (translations are data: a translator edits that file alone)."""
    data = json.loads(resources.files("bummerl").joinpath("i18n.json").read_text(encoding="utf-8"))
    messages = {key: (entry["de"], entry["en"]) for key, entry in data["messages"].items()}
    units = {
        unit: ((forms["de"][0], forms["de"][1]), (forms["en"][0], forms["en"][1]))
        for unit, forms in data["units"].items()
    }
    return messages, units


#: key -> (German, English), from ``i18n.json`` (an entry's ``note`` says when it is shown).  Placeholders use
#: :meth:`str.format` names.
MESSAGES: dict[str, tuple[str, str]]
#: unit -> ((German singular, plural), (English singular, plural)).
_UNITS: dict[str, tuple[tuple[str, str], tuple[str, str]]]
MESSAGES, _UNITS = _load()


class Messages:
    """The messages of one language; call with a key and format arguments."""

    def __init__(self, lang: str = "de") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: expected 'de' or 'en'")
        self.lang = lang
        self._index = LANGUAGES.index(lang)

    def __call__(self, key: str, **kwargs: object) -> str:
        try:
            text = MESSAGES[key][self._index]
        except KeyError:
            raise KeyError(f"no message {key!r}") from None
        return text.format(**kwargs) if kwargs else text

    def words(self, key: str) -> set[str]:
        """The words of a ``words_*`` message, as a set (both languages' words are listed)."""
        return set(self(key).split())

    def unit(self, unit: str, n: int) -> str:
        """The unit of a result (``game points`` or ``Marken``) in this language, by number."""
        forms = _UNITS.get(unit)
        if forms is None:
            return unit
        singular, plural = forms[self._index]
        return singular if n == 1 else plural
