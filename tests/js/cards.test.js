// Card names and faces (static/cards.js): the same names the terminal prints (bummerl.cards).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  backSvg,
  cardName,
  cardSvg,
  parseCode,
  rankLabel,
  rankName,
  suitName,
  suitSvg,
} from "../../src/bummerl/server/static/cards.js";

const PACK = [..."hdcs"].flatMap((s) => [..."789JQKTA"].map((r) => r + s));

describe("card codes", () => {
  test("a code is rank then suit; 10 and T are the same rank; case does not matter", () => {
    assert.deepEqual(parseCode("Ah"), { suit: 0, rank: 7 });
    assert.deepEqual(parseCode("Tc"), parseCode("10c"));
    assert.deepEqual(parseCode("qS"), { suit: 3, rank: 4 });
    assert.deepEqual(parseCode("7d"), { suit: 1, rank: 0 });
  });

  test("anything else is refused by name", () => {
    for (const bad of ["", "h", "A", "Ax", "1h", "Zh", "Ahh", "6h", undefined])
      assert.throws(() => parseCode(bad), /not a card code/);
  });
});

describe("names", () => {
  test("German faces: Herz-Ober, Ober of Hearts is Queen only with French faces", () => {
    assert.equal(cardName("Qh", "german", "de"), "Herz-Ober");
    assert.equal(cardName("Jd", "german", "de"), "Schellen-Unter");
    assert.equal(cardName("Tc", "german", "en"), "Ten of Acorns");
    assert.equal(cardName("As", "german", "en"), "Ace of Leaves");
    assert.equal(cardName("Qh", "french", "en"), "Queen of Hearts");
    assert.equal(cardName("Jd", "french", "de"), "Karo-Bube");
    assert.equal(cardName("Ks", "french", "de"), "Pik-König");
  });

  test("unknown faces or language fall back to German faces in German", () => {
    assert.equal(cardName("Qh", undefined, undefined), "Herz-Ober");
    assert.equal(suitName("c", "other", "fr"), "Eichel");
  });

  test("every card of the 32-card pack has its own name in every faces/language", () => {
    for (const faces of ["german", "french"])
      for (const lang of ["de", "en"]) {
        const names = PACK.map((c) => cardName(c, faces, lang));
        assert.equal(new Set(names).size, 32, `${faces}/${lang}`);
        for (const [i, c] of PACK.entries()) assert.ok(names[i].includes(rankName(c, faces, lang)), names[i]);
      }
  });

  test("the corner index: U/O (German faces), B/D (French in German), J/Q (French in English)", () => {
    assert.deepEqual(
      ["Jh", "Qh", "Kh", "Th", "Ah"].map((c) => rankLabel(c, "german", "en")),
      ["U", "O", "K", "10", "A"],
    );
    assert.deepEqual(
      ["Jh", "Qh"].map((c) => rankLabel(c, "french", "de")),
      ["B", "D"],
    );
    assert.deepEqual(
      ["Jh", "Qh"].map((c) => rankLabel(c, "french", "en")),
      ["J", "Q"],
    );
  });
});

describe("faces as SVG", () => {
  test("a number card has its pips, a court card its index letter, in one svg", () => {
    const count = (svg) => (svg.match(/<g transform="translate/g) || []).length;
    assert.equal(count(cardSvg("9h", "french", "en")), 9 + 2); // the pips and the two corner symbols
    assert.equal(count(cardSvg("Th", "french", "en")), 10 + 2);
    const queen = cardSvg("Qh", "french", "en");
    assert.match(queen, /^<svg[^>]*viewBox="0 0 100 150"/);
    assert.match(queen, />Q<\/text>/);
    assert.match(cardSvg("Qh", "german", "de"), />O<\/text>/);
  });

  test("French hearts and diamonds are red, clubs and spades black", () => {
    assert.match(suitSvg("d", "french"), /fill="#c8102e"/);
    assert.match(suitSvg("s", "french"), /fill="#1a1a1a"/);
    assert.match(suitSvg("h", "french", "trump"), /class="trump"/);
  });

  test("the back names no card", () => {
    assert.match(backSvg(), /^<svg/);
    for (const c of PACK) assert.ok(!backSvg().includes(cardName(c, "german", "de")));
  });
});
