// The leaderboard page's words and numbers (static/leaderboard.js): which places a page shows, what it says about
// the player's own rating (listed, provisional, none), and its address; in both languages.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { setLang, t } from "../../src/bummerl/server/static/i18n.js";
import { leaderboardHref, mineMessage, pageSpan, ratingText } from "../../src/bummerl/server/static/leaderboard.js";

describe("leaderboard", () => {
  test("a page knows its places and whether there are pages before and after it", () => {
    assert.deepEqual(pageSpan(0, 50, 120), { from: 1, to: 50, previous: false, next: true });
    assert.deepEqual(pageSpan(100, 20, 120), { from: 101, to: 120, previous: true, next: false });
    assert.deepEqual(pageSpan(0, 3, 3), { from: 1, to: 3, previous: false, next: false });
    // Past the end (the board shrank since the last page): nothing shown, the way back open.
    assert.deepEqual(pageSpan(150, 0, 120), { from: 151, to: 150, previous: true, next: false });
  });

  test("the own rating: listed with its place, provisional with the games still missing, or none yet", () => {
    setLang("de");
    const listed = mineMessage({ rating: 1623.4, rank: 7, games: 12 }, 10);
    assert.equal(t(listed.key, listed.params), "Deine Wertung: 1623 · Platz 7 · 12 gewertete Spiele");
    const early = mineMessage({ rating: 1488, rank: null, games: 1 }, 10);
    assert.equal(
      t(early.key, early.params),
      "Deine Wertung: 1488, noch vorläufig: 1 gewertetes Spiel von 10. Ab 10 stehst du in der Rangliste.",
    );
    assert.equal(mineMessage(null, 10).key, "lb_mine_none");
  });

  test("a rating is whole points and never grouped, in both languages", () => {
    for (const lang of ["de", "en"]) {
      setLang(lang);
      assert.equal(ratingText(2012.6), "2013");
      assert.equal(ratingText(987), "987");
    }
    setLang("en");
    const big = mineMessage({ rating: 2012, rank: 1, games: 1 }, 10);
    assert.equal(t(big.key, big.params), "Your rating: 2012 · rank 1 · 1 rated game");
    setLang("de");
  });

  test("the address names the variant, escaped", () => {
    assert.equal(leaderboardHref("schnapsen"), "#/leaderboard/schnapsen");
    assert.equal(leaderboardHref("a b/c"), "#/leaderboard/a%20b%2Fc");
  });
});
