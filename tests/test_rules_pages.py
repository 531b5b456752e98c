"""The rules pages of the app (issue 13: "Rules inside the app ... generated from or checked against docs/rules.md
so the two never disagree"): ``bummerl.rules_pages`` and ``GET /api/rules/{variant}``.

Every number a page states must be a value of the engine (the templates hold no digits; the values are asked from
the engine) and must also stand in the variant's section of docs/rules.md.  The values themselves are checked
against the seed sentences they come from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bummerl.rules_pages import LANGS, RULES_DOCS, TEXTS, anchor, numbers, rules_page, texts_of
from bummerl.variants import VARIANTS, Variant, find_variant

DOCS = Path(__file__).resolve().parent.parent / "docs"
FACES = ("german", "french")

#: House rules that change what a page says (one set per variant, all of them non-default).
HOUSE_RULES: list[tuple[str, dict[str, Any]]] = [
    ("schnapsen", {"auto_declare": True, "count_after_closing": True, "last_trick_scoring": "augen"}),
    ("schnapsen-scharf", {"close_min_facedown": 1}),
    ("sechsundsechzig", {"count_after_closing": True}),
    ("schnorps", {"marriages": False, "trump_exchange": False}),
    ("bauernschnapsen", {"bettler": False, "assen_bettler": True, "zehnerloch_points": 8, "max_doubling": 1}),
    ("dreierschnapsen", {"may_skip_talon": True, "raise_after_talon": True, "bauernloch": True, "match_target": 12}),
]


def flat(values: dict[str, int | list[int]]) -> set[int]:
    out: set[int] = set()
    for v in values.values():
        out.update(v if isinstance(v, list) else [v])
    return out


def all_pages() -> list[tuple[Variant, str, str]]:
    variants = [*VARIANTS, *(find_variant(name, **options) for name, options in HOUSE_RULES)]
    return [(v, lang, faces) for v in variants for lang in LANGS for faces in FACES]


def page_id(p: tuple[Variant, str, str]) -> str:
    v, lang, faces = p
    extra = ",".join(f"{k}={w}" for k, w in v.options().items())
    return f"{v.name}[{extra}]-{lang}-{faces}"


def section(page: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in page["sections"] if s["id"] == sid)


def text(page: dict[str, Any], sid: str) -> str:
    return " ".join(section(page, sid)["text"])


# ------------------------------------------------------------------------------- the page says only engine values
def test_templates_hold_no_digits_and_both_languages_the_same_keys() -> None:
    """A number can come onto a page only as a value: no template contains a digit."""
    assert set(TEXTS["de"]) == set(TEXTS["en"])
    for lang, texts in TEXTS.items():
        for key, template in texts.items():
            words = re.sub(r"\{\w+\}", "", template)  # the placeholders' names may hold digits (m20, p3)
            assert not re.search(r"\d", words), f"{lang}.{key} states a number: {template!r}"


@pytest.mark.parametrize("p", all_pages(), ids=page_id)
def test_every_number_on_a_page_is_a_value_of_the_engine(p: tuple[Variant, str, str]) -> None:
    variant, lang, faces = p
    page = rules_page(variant, lang, faces)
    allowed = flat(page["values"])
    for sentence in texts_of(page):
        for n in numbers(sentence):
            assert n in allowed, f"{n} in {sentence!r} is not one of the page's values"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_both_languages_have_the_same_sections_and_values(variant: Variant) -> None:
    de, en = rules_page(variant, "de"), rules_page(variant, "en")
    assert [s["id"] for s in de["sections"]] == [s["id"] for s in en["sections"]]
    assert [len(s["text"]) for s in de["sections"]] == [len(s["text"]) for s in en["sections"]]
    assert de["values"] == en["values"]
    assert [numbers(t) for t in texts_of(de)] == [numbers(t) for t in texts_of(en)]
    assert de["sections"][0]["heading"] != en["sections"][0]["heading"]


def test_card_names_follow_the_faces() -> None:
    """RULES.md, Cards: "One model, two faces: the player chooses the face"."""
    german = text(rules_page(find_variant("schnapsen"), "de", "german"), "cards")
    french = text(rules_page(find_variant("schnapsen"), "de", "french"), "cards")
    assert "Ober, Unter" in german and "Dame, Bube" in french
    assert "Queen, Jack" in text(rules_page(find_variant("schnapsen"), "en", "french"), "cards")


# ------------------------------------------------------------------------------- the values are the seeds'
@pytest.mark.parametrize(
    ("name", "augen"),
    [("schnapsen", [11, 10, 4, 3, 2]), ("66", [11, 10, 4, 3, 2, 0]), ("schnorps", [11, 10, 4, 3, 2, 0, 0, 0])],
)
def test_card_values(name: str, augen: list[int]) -> None:
    """seeds/000: "Ass 11 Augen, Zehner 10 Augen, König 4 Augen, Dame / Ober 3 Augen, Bube / Unter 2 Augen, Neuner
    0 Augen"; seeds/001: "die drei letzten zählen nicht"."""
    page = rules_page(find_variant(name), "de")
    assert page["values"]["augen"] == augen and page["values"]["total"] == 120
    cards = section(page, "cards")["cards"]
    assert [g["caption"] for g in cards] == [str(a) for a in augen] and all(len(g["codes"]) == 1 for g in cards)


def test_schnapsen_page_states_the_seed_values() -> None:
    """seeds/000: "Hat der Gegner keinen Stich erzielt, so gewinnt der Spieler drei Punkte, hat der Gegner nur 32 oder
    weniger Augen gewinnen können, so gewinnt der Spieler zwei Punkte, und hat der Gegner 33 oder mehr Augen
    gesammelt, so gewinnt der Spieler einen Punkt"; "Eine Ansage mit Atout zählt 40 Augen ... in einer anderen Farbe
    zählt 20 Augen"; closing fails: "so gewinnt der Gegner 3 Punkte, falls er zum Zeitpunkt des Zudrehens noch
    stichlos war, ansonsten 2 Punkte"; RULES.md: the last trick "Default: 1 game point"; a Bummerl is "played down
    from 7"; closing "while at least two face-down cards remain"."""
    page = rules_page(find_variant("schnapsen"), "en")
    v = page["values"]
    assert (v["p3"], v["p2"], v["low"], v["p1"], v["threshold"]) == (3, 2, 32, 1, 33)
    assert (v["m20"], v["m40"], v["fail_no_trick"], v["fail_trick"]) == (20, 40, 3, 2)
    assert (v["last_points"], v["match_target"], v["close_min"], v["target"]) == (1, 7, 2, 66)
    assert v["packets"] == [3, 3, 2, 2] and v["facedown"] == 9
    assert "3 if the opponent has no trick, 2 with 32 Augen or fewer, 1 with 33 or more" in text(page, "out")
    assert "Kh" in section(page, "marriages")["cards"][0]["codes"]


def test_scharf_page_states_the_verschaerfungen() -> None:
    """seeds/000, scharf: no exchange "vor dem ersten Ausspiel von Vorhand und wenn nur noch eine Karte verdeckt im
    Talon liegt"; "Eine Ansage darf erst dann erfolgen, nachdem man zumindest einen Stich erzielt hat"; "muss zum
    nächsten Stich den König ausspielen"; "Abgelegte Stiche dürfen nichtmehr angesehen werden"."""
    page = rules_page(find_variant("scharf"), "de")
    assert "Nicht vor dem ersten Ausspiel von Vorhand." in text(page, "exchange")
    assert "Nicht mehr, wenn nur noch eine Karte verdeckt" in text(page, "exchange")
    assert "ausgespielt werden muss der König" in text(page, "marriages")
    assert "Ansagen erst, nachdem man einen Stich gemacht hat." in text(page, "marriages")
    assert "keinen Augenstand" in text(page, "play")
    weich = rules_page(find_variant("schnapsen"), "de")
    assert "schon vor dem ersten Ausspiel" in text(weich, "exchange") and "König" not in text(weich, "marriages")[-60:]


def test_sechsundsechzig_page() -> None:
    """seeds/000: "Bei Sechsendsechzig erhält man für den letzten Stich zusätzliche zehn Augen. Diese Regel gilt
    allerdings nicht im Falle einer Talonsperre"; the exchange card is "die Trumpf-Neun"; RULES.md: "65:65 scores
    nothing"."""
    page = rules_page(find_variant("66"), "en")
    assert page["values"]["bonus"] == 10 and page["values"]["stand"] == 65
    assert "(trump Nine)" in text(page, "exchange") and "9h" in section(page, "exchange")["cards"][0]["codes"]
    assert "If both have 65, the game stands" in text(page, "end")


def test_schnorps_page_states_the_marken() -> None:
    """seeds/001: "Ein verlorenes Spiel wird mit 1 Marke, der Schneider mit 2 Marken u. der S. mit 6 Marken bezahlt,
    wenn der Gewinnende nicht gedeckt hat; im Falle des Deckens ... mit 2, ... 4 u. ... 8 Marken"; "Wenn ein Spieler
    die Karten weglegt, ohne die nothwendige Zahl Augen zu haben, verliert er 2, u. wenn er sich verdeckt, 4 Marken";
    covering "nach einem gemachten Stiche"; robbing "jedoch nur nach einem gemachten Stiche"; marriages only "so
    lange der Talon noch nicht erschöpft ist"."""
    page = rules_page(find_variant("schnorps"), "de")
    v = page["values"]
    assert (v["m1"], v["m2"], v["m3"], v["mc1"], v["mc2"], v["mc3"]) == (1, 2, 6, 2, 4, 8)
    assert (v["m_wrong"], v["m_wrong_covered"], v["m_fail"], v["facedown"]) == (2, 4, 4, 19)
    assert "Das geht erst, nachdem man einen Stich gemacht hat." in text(page, "close")
    exchange = text(page, "exchange")
    assert "Atout-Sieben" in exchange and "Erst nachdem man einen Stich gemacht hat." in exchange
    # Before the first lead nobody has a trick: the page does not also say robbing is allowed then.
    assert "vor dem ersten Ausspiel" not in exchange
    assert "Nur solange der Talon nicht erschöpft ist" in text(page, "marriages")
    assert "7 Marken" in text(page, "match") and section(page, "close")["heading"] == "Decken"


def test_table_game_contracts_are_the_variants() -> None:
    """seeds/004's table: "Bettler 4 Spiel-punkte ... Schnapser 6 ... Gang (oder Ring) 9 ... Zehner-Gang 10 ...
    Kontra-Schnapser 12 ... Bauernschnapser 12 ... Farben-Gang 18 ... Kontra-Bauernschnapser 24 ... Herrenschnapser
    24"; Talon-Schnapsen: "muß der Alleinspieler die ersten vier Stiche machen"."""
    for name in ("bauernschnapsen", "dreierschnapsen"):
        v = find_variant(name)
        page = rules_page(v, "en")
        assert [c["name"] for c in page["contracts"]] == [c.name for c in v.contracts]  # type: ignore[attr-defined]
        points = {c["name"]: c["points_range"] for c in page["contracts"]}
        assert points == {
            "normal": [1, 3],
            "bettler": [4],
            "schnapser": [6],
            "gang": [9],
            "zehnerloch": [10],
            "kontra-schnapser": [12],
            "bauernschnapser": [12],
            "farbenring": [18],
            "kontra-bauernschnapser": [24],
            "herrenschnapser": [24],
        }
        rows = section(page, "bidding")["table"]["rows"]
        assert [r[1] for r in rows] == [c["points_text"] for c in page["contracts"]]
        assert page["values"]["factors"] == [2, 4, 8] and page["values"]["last_points"] == 1
    dreier = {c["name"]: c for c in rules_page(find_variant("dreier"), "en")["contracts"]}
    assert "first 4 tricks" in dreier["schnapser"]["goal"] and dreier["schnapser"]["bidders"] == "Vorhand only"
    bauern = {c["name"]: c for c in rules_page(find_variant("bauern"), "de")["contracts"]}
    assert bauern["schnapser"]["goal"] == "die ersten 3 Stiche machen, mit 66 Augen"
    assert bauern["zehnerloch"]["summary"].endswith("Reihenfolge Zehner–König–Ober–Unter–Ass")
    assert "der Partner setzt aus" in bauern["gang"]["summary"] and bauern["normal"]["points_text"] == "1–3 Punkte"


# ------------------------------------------------------------------------------- house rules, shown as they apply
def test_house_rules_change_the_page() -> None:
    schnorps = rules_page(find_variant("schnorps", marriages=False, trump_exchange=False), "en")
    assert text(schnorps, "marriages") == "House rule: no marriages." and "cards" not in section(schnorps, "marriages")
    assert text(schnorps, "exchange").startswith("House rule: no robbing")
    assert {o["name"] for o in schnorps["house_rules"] if o["changed"]} == {"marriages", "trump_exchange"}
    assert schnorps["options"] == {"marriages": False, "trump_exchange": False}

    weich = rules_page(find_variant("schnapsen", **HOUSE_RULES[0][1]), "en")
    assert "House rule: reaching 66 Augen ends the game by itself." in text(weich, "out")
    assert "opponent's Augen at the end (house rule)" in text(weich, "close")
    assert "counted as for going out" in text(weich, "end") and "last_points" not in weich["values"]

    one = rules_page(find_variant("scharf", close_min_facedown=1), "en")
    assert "at least 1 face-down card lie" in text(one, "close") and one["values"]["close_min"] == 1

    bauern = rules_page(find_variant("bauern", bettler=False, assen_bettler=True, zehnerloch_points=8, max_doubling=1))
    names = [c["name"] for c in bauern["contracts"]]
    assert "bettler" not in names and "assen-bettler" not in names  # the Assen-Bettler is a kind of Bettler
    assert {c["name"]: c["points"] for c in bauern["contracts"]}["zehnerloch"] == 8
    assert bauern["values"]["factors"] == [2] and "Rekontra" not in text(bauern, "doubling")

    dreier = rules_page(find_variant("dreier", may_skip_talon=True, raise_after_talon=True, match_target=12), "de")
    assert "dann ist das Spiel 1 Punkt mehr wert" in text(dreier, "talon") and dreier["values"]["skip_bonus"] == 1
    assert "höheres Spiel" in text(dreier, "talon") and "bis 12" in text(dreier, "scoring")


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_any_choice_of_house_rules_makes_a_page_of_engine_values(variant: Variant) -> None:
    """Every option the lobby offers, in random combinations (seeded): the page is built and states only values."""
    from bummerl.errors import UnknownVariantError
    from bummerl.rng import SplitMix64
    from bummerl.server.catalog import options_json

    rng = SplitMix64(13)
    fields = options_json(variant)
    for _ in range(25):
        chosen = {f["name"]: f["choices"][rng.below(len(f["choices"]))] for f in fields if rng.below(2)}
        try:
            played = variant.with_options(**chosen)
        except UnknownVariantError:
            continue  # a combination the variant refuses (e.g. Kontra beating the Bettler without Kontra)
        for lang in LANGS:
            page = rules_page(played, lang)
            assert page["options"] == played.options()
            allowed = flat(page["values"])
            assert all(n in allowed for sentence in texts_of(page) for n in numbers(sentence)), chosen


def test_house_rules_list_every_option_with_its_default() -> None:
    for v in VARIANTS:
        page = rules_page(v, "de")
        assert [o["name"] for o in page["house_rules"]] == list(v.OPTIONS)
        assert not any(o["changed"] for o in page["house_rules"]) and page["options"] == {}
        assert set(page["help"]) == set(v.OPTIONS)
        assert text(page, "house_rules").startswith("Das sind die üblichen Regeln.")
        # Every option has its name in both languages (no identifier shows through).
        assert all("_" not in o["label"] and o["value_text"] == o["default_text"] for o in page["house_rules"])
    dreier = rules_page(find_variant("dreier", max_doubling=1, match_target=12), "en")
    shown = {o["name"]: (o["value_text"], o["default_text"]) for o in dreier["house_rules"] if o["changed"]}
    assert shown == {"max_doubling": ("Kontra", "Subkontra"), "match_target": ("12", "24")}
    assert text(dreier, "house_rules") == "With these house rules, already applied above:"


def test_unknown_language_or_faces() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        rules_page(find_variant("schnapsen"), "fr")
    with pytest.raises(ValueError, match="unknown card faces"):
        rules_page(find_variant("schnapsen"), "de", "tarot")


# ------------------------------------------------------------------------------- the page and docs/rules.md agree
def docs_sections(path: Path) -> dict[str, str]:
    """The text under each ``##`` heading of a Markdown file (with its ``###`` subsections), by anchor."""
    out: dict[str, str] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = anchor(line[3:])
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


#: The sections of docs/rules.md a variant's page may also rely on: the cards, and weich for what "is as in weich".
SHARED = {
    "schnapsen-scharf": ["schnapsen-weich-default-schnapsen-weich"],
    "sechsundsechzig": ["schnapsen-weich-default-schnapsen-weich"],
}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_each_variant_has_its_section_in_docs_rules_md(variant: Variant) -> None:
    path, heading = RULES_DOCS[variant.name]
    page = rules_page(variant, "en")
    assert page["doc"] == f"{path}#{anchor(heading)}"
    assert f"\n## {heading}\n" in (DOCS.parent / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_number_on_a_page_stands_in_its_docs_section(variant: Variant) -> None:
    """The page and docs/rules.md never disagree: each number the page states is written in the variant's section
    (or the Cards section, or weich's for the variants that say "as in weich")."""
    sections = docs_sections(DOCS / "rules.md")
    page = rules_page(variant, "en")
    own = page["doc"].split("#")[1]
    scope = " ".join(sections[s] for s in [own, "cards", *SHARED.get(variant.name, [])])
    stated = set(numbers(scope))
    for sentence in texts_of(page):
        for n in numbers(sentence):
            assert n in stated, f"{variant.name}: {n} ({sentence!r}) is not in docs/rules.md#{own}"


def test_contract_table_of_docs_rules_md_matches_the_page() -> None:
    """docs/rules.md's table of the Bauernschnapsen contracts states the points the page (the engine) states."""
    body = docs_sections(DOCS / "rules.md")["bauernschnapsen-bauernschnapsen"]
    rows = re.findall(r"^\s*\| `([a-z-]+)` \| ([^|]+) \|", body, flags=re.M)
    docs = {name: numbers(points) for name, points in rows}
    page = {c["name"]: sorted(set(c["points_range"])) for c in rules_page(find_variant("bauern"), "en")["contracts"]}
    assert docs.keys() == page.keys()
    for name, points in page.items():
        assert set(points) <= set(docs[name]), name


def test_docs_quote_rules_md_as_it_reads_now() -> None:
    """Issue 13 ("Docs"): docs/dreierschnapsen.md quoted RULES.md text that does not exist, and docs/rules.md an old
    RULES.md sentence on Schnorps' marriages; choice 6 let Vorhand close before the first lead in Schnorps too."""
    dreier = (DOCS / "dreierschnapsen.md").read_text(encoding="utf-8")
    assert "scoring for each defender" not in dreier
    assert '"the bidding winner plays alone against the other two (as Talon-Schnapsen in `004`)"' in dreier
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "The text names no marriages and no trump" not in rules
    assert "Both on by default; options `marriages` and\n  `trump_exchange` turn them off." in rules
    choices = docs_sections(DOCS / "rules.md")["our-choices-where-the-texts-are-silent"]
    assert "Schnorps does not allow it" in choices and "Schnorps needs no\n   choice here" in choices


# ------------------------------------------------------------------------------- the HTTP API
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The web app in-process (the tests above need no web extra, these do)."""
    pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from bummerl.server.app import create_app
    from bummerl.server.config import ServerConfig

    config = ServerConfig(bot_executor="thread", api_rate="1000/second", create_rate="1000/minute")
    with TestClient(create_app(data_dir=tmp_path_factory.mktemp("rules"), config=config)) as c:
        yield c


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_api_serves_every_variant(client: Any, variant: Variant) -> None:
    for lang in LANGS:
        answer = client.get(f"/api/rules/{variant.name}", params={"lang": lang, "faces": "french"})
        assert answer.status_code == 200
        assert answer.json() == rules_page(variant, lang, "french")
    assert client.get(f"/api/rules/{variant.aliases[0]}").json()["variant"] == variant.name


def test_api_applies_options_and_a_tables_own(client: Any) -> None:
    options = {"may_skip_talon": True, "max_doubling": 2}
    page = client.get("/api/rules/dreierschnapsen", params={"options": '{"may_skip_talon": true, "max_doubling": 2}'})
    assert page.status_code == 200 and page.json()["options"] == options
    table = client.post("/api/tables", json={"variant": "dreierschnapsen", "options": options, "seats": ["random"] * 2})
    table_id = table.json()["table_id"]
    own = client.get("/api/rules/dreierschnapsen", params={"table": table_id, "lang": "en"}).json()
    assert own == rules_page(find_variant("dreierschnapsen", **options), "en")
    # The page never says anything about the cards at the table: it is the same for every table with these rules.
    assert own["values"]["factors"] == [2, 4] and "hand" not in own
    wrong = client.get("/api/rules/schnapsen", params={"table": table_id})
    assert wrong.status_code == 400 and wrong.json()["detail"]["code"] == "wrong_variant"
    both = client.get("/api/rules/dreierschnapsen", params={"table": table_id, "options": '{"bettler": false}'})
    assert both.status_code == 400 and both.json()["detail"]["code"] == "bad_options"


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        ("/api/rules/skat", {}, 404, "unknown_variant"),
        ("/api/rules/schnapsen", {"lang": "fr"}, 400, "bad_lang"),
        ("/api/rules/schnapsen", {"faces": "tarot"}, 400, "bad_faces"),
        ("/api/rules/schnapsen", {"options": "{not json"}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": "[1, 2]"}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": "[" * 999 + "]" * 999}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": '{"a": ' * 250 + "1" + "}" * 250}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": '{"colour": "blue"}'}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": '{"auto_declare": "maybe"}'}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"options": '{"auto_declare": [true]}'}, 400, "bad_options"),
        ("/api/rules/bauernschnapsen", {"options": '{"max_doubling": 9}'}, 400, "bad_options"),
        ("/api/rules/schnapsen", {"table": "nosuchtable"}, 404, "unknown_table"),
        ("/api/rules/schnapsen", {"options": "x" * 3000}, 422, None),
        ("/api/rules/" + "s" * 100, {}, 422, None),
    ],
)
def test_api_refuses_bad_input_with_a_4xx_naming_it(
    client: Any, path: str, params: dict[str, str], status: int, code: str | None
) -> None:
    answer = client.get(path, params=params)
    assert answer.status_code == status
    if code is not None:
        detail = answer.json()["detail"]
        assert detail["code"] == code and detail["message"]


def test_unknown_variant_names_the_table_variants_too(client: Any) -> None:
    """Issue 13: "the error for an unknown variant omits the table variants" — not here."""
    message = client.get("/api/rules/skat").json()["detail"]["message"]
    assert "bauernschnapsen" in message and "dreierschnapsen" in message and "schnorps" in message
