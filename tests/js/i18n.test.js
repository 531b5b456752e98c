// The page's translations (static/i18n/*.json) and the module that fills them (static/i18n.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";

import {
  HASH,
  MESSAGE_KEYS,
  format,
  formatNumber,
  getLang,
  has,
  locale,
  parseMessage,
  setLang,
  t,
} from "../../src/bummerl/server/static/i18n.js";

const STATIC = new URL("../../src/bummerl/server/static/", import.meta.url);
const DATA = {
  de: JSON.parse(readFileSync(new URL("i18n/de.json", STATIC), "utf-8")),
  en: JSON.parse(readFileSync(new URL("i18n/en.json", STATIC), "utf-8")),
};

/** Every parameter a message names, with how it is used: "name", "you:select", "n:plural". */
function argumentsOf(parts, out = new Set()) {
  for (const part of parts) {
    if (typeof part === "string" || part === HASH) continue;
    out.add(part.kind ? `${part.arg}:${part.kind}` : part.arg);
    for (const branch of Object.values(part.branches || {})) argumentsOf(branch, out);
  }
  return out;
}

afterEach(() => setLang("de"));

describe("the translations", () => {
  test("every key is in both languages", () => {
    const de = Object.keys(DATA.de);
    const en = Object.keys(DATA.en);
    assert.deepEqual(
      de.filter((k) => !(k in DATA.en)),
      [],
      "German keys without English",
    );
    assert.deepEqual(
      en.filter((k) => !(k in DATA.de)),
      [],
      "English keys without German",
    );
    assert.ok(de.length > 400, `only ${de.length} keys: the files were not read`);
    assert.deepEqual(MESSAGE_KEYS, { de, en });
  });

  test("every message is a non-empty string that parses", () => {
    for (const lang of ["de", "en"]) {
      for (const [key, text] of Object.entries(DATA[lang])) {
        assert.equal(typeof text, "string", `${lang} ${key}`);
        assert.ok(text.trim(), `${lang} ${key} is empty`);
        assert.doesNotThrow(() => parseMessage(text), `${lang} ${key}: ${text}`);
        assert.ok(!text.includes("${"), `${lang} ${key} holds a template literal: ${text}`);
      }
    }
  });

  test("both languages of a key name the same parameters, used the same way", () => {
    const differ = [];
    for (const key of Object.keys(DATA.de)) {
      const de = [...argumentsOf(parseMessage(DATA.de[key]))].sort();
      const en = [...argumentsOf(parseMessage(DATA.en[key]))].sort();
      if (JSON.stringify(de) !== JSON.stringify(en)) differ.push(`${key}: de ${de} / en ${en}`);
    }
    assert.deepEqual(differ, []);
  });

  test("a person's sentence has both persons, and a count every form the language's plural rules ask", () => {
    for (const lang of ["de", "en"]) {
      const categories = new Intl.PluralRules(lang === "en" ? "en-GB" : "de-AT").resolvedOptions().pluralCategories;
      for (const [key, text] of Object.entries(DATA[lang])) {
        const walk = (parts) => {
          for (const part of parts) {
            if (!part.kind) continue;
            const keys = Object.keys(part.branches);
            if (part.arg === "you") assert.deepEqual(keys.sort(), ["other", "true"], `${lang} ${key}`);
            if (part.kind === "plural")
              for (const c of categories) assert.ok(c in part.branches, `${lang} ${key} lacks "${c}"`);
            Object.values(part.branches).forEach(walk);
          }
        };
        walk(parseMessage(text));
      }
    }
  });
});

describe("t and format", () => {
  test("a plain message is filled, a parameter not given stays as written", () => {
    assert.equal(format("{name} hat {n} Karten", { name: "Anna", n: 3 }), "Anna hat 3 Karten");
    assert.equal(format("{name} hat {n} Karten", { name: "Anna" }), "Anna hat {n} Karten");
    assert.equal(format("keine Klammer", { x: 1 }), "keine Klammer");
  });

  test("select picks the branch by the parameter's value, else other", () => {
    const text = "{you, select, true {Du hast} other {{name} hat}} den Stich.";
    assert.equal(format(text, { you: true, name: "Anna" }), "Du hast den Stich.");
    assert.equal(format(text, { you: false, name: "Anna" }), "Anna hat den Stich.");
    assert.equal(format(text, { name: "Anna" }), "Anna hat den Stich.");
  });

  test("a missing parameter selects the undefined branch (how ev_trick leaves out the Augen)", () => {
    setLang("de");
    assert.equal(t("ev_trick", { you: true }), "Du nimmst den Stich.");
    assert.equal(t("ev_trick", { you: false, name: "Anna", augen: 14 }), "Anna nimmt den Stich (14 Augen).");
    setLang("en");
    assert.equal(t("ev_trick", { you: false, name: "Anna", augen: undefined }), "Anna takes the trick.");
    assert.equal(t("ev_trick", { you: true, augen: 0 }), "You take the trick (0 Augen).");
  });

  test("plural by the language's rules, # in the language's digits", () => {
    setLang("de");
    assert.deepEqual(
      [0, 1, 2].map((n) => t("talon_cards", { n })),
      ["0 Karten", "1 Karte", "2 Karten"],
    );
    assert.equal(t("points", { n: 1, unit: "Marken" }), "1 Marke");
    assert.equal(t("points", { n: 3, unit: "game points" }), "3 Punkte");
    assert.equal(
      t("pf_summary", { games: 1200, won: 700, lost: 500 }),
      "1\u00a0200 Spiele: 700 gewonnen, 500 verloren.",
    );
    setLang("en");
    assert.deepEqual(
      [0, 1, 2].map((n) => t("talon_cards", { n })),
      ["0 cards", "1 card", "2 cards"],
    );
    assert.equal(t("points", { n: 1, unit: "game points" }), "1 game point");
    assert.equal(t("points", { n: 2, unit: "Marken" }), "2 Marken");
    assert.equal(t("pf_devices_n", { n: 1 }), "This profile is on 1 device.");
    assert.equal(t("pf_summary", { games: 1200, won: 700, lost: 500 }), "1,200 games: 700 won, 500 lost.");
  });

  test("an exact =n branch comes before the plural category", () => {
    setLang("en");
    const text = "{n, plural, =0 {no cards} one {# card} other {# cards}}";
    assert.deepEqual(
      [0, 1, 5].map((n) => format(text, { n })),
      ["no cards", "1 card", "5 cards"],
    );
  });

  test("nested: a select inside a select, a plural inside a select", () => {
    setLang("de");
    assert.equal(t("points", { n: 2, unit: "Marken" }), "2 Marken");
    assert.equal(t("reason_last_trick_66", { you: true }), "Nach dem letzten Stich hast du 66.");
    assert.equal(t("reason_last_trick_66", { you: false, name: "Anna" }), "Nach dem letzten Stich hat Anna 66.");
  });

  test("a message that is not well formed is refused with where", () => {
    assert.throws(() => parseMessage("{n, plural, one {# Karte} other {# Karten}"), /"}" expected at 42/);
    assert.throws(() => parseMessage("{n, plural, one {# Karte}}"), /no "other" branch/);
    assert.throws(() => parseMessage("{n, number}"), /unknown kind "number"/);
    assert.throws(() => parseMessage("zu viel }"), /unmatched "}"/);
  });

  test("an unknown key throws; has() knows the keys", () => {
    assert.throws(() => t("no_such_message"), /no message no_such_message/);
    assert.equal(has("your_turn"), true);
    assert.equal(has("no_such_message"), false);
  });

  test("setLang takes de or en, anything else is German", () => {
    setLang("en");
    assert.equal(getLang(), "en");
    assert.equal(locale(), "en-GB");
    setLang("fr");
    assert.equal(getLang(), "de");
    assert.equal(locale(), "de-AT");
    assert.equal(t("language"), "Sprache");
  });
});

describe("formatNumber", () => {
  test("digits, grouping and decimal mark by language", () => {
    setLang("de");
    assert.equal(formatNumber(1234.5), "1\u00a0234,5"); // a no-break space groups, as in Austria
    assert.equal(formatNumber(0.5, { minimumFractionDigits: 2 }), "0,50");
    setLang("en");
    assert.equal(formatNumber(1234.5), "1,234.5");
    assert.equal(formatNumber(0.5, { minimumFractionDigits: 2 }), "0.50");
  });

  test("a sign is the typographic minus; exceptZero shows + and nothing for a rounded zero", () => {
    setLang("en");
    const signed = { maximumFractionDigits: 0, signDisplay: "exceptZero" };
    assert.deepEqual(
      [12, -7, 0.4, -0.4, 0].map((x) => formatNumber(x, signed)),
      ["+12", "−7", "0", "0", "0"],
    );
    setLang("de");
    assert.equal(formatNumber(-1.25, { minimumFractionDigits: 2 }), "−1,25");
  });
});
