// Numbers the page prints from the analysis and the hints: expected game points in the language's digits.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { TWO_DECIMALS } from "../../src/bummerl/server/static/analysis.js";
import { points } from "../../src/bummerl/server/static/hints.js";
import { formatNumber, setLang, t } from "../../src/bummerl/server/static/i18n.js";

afterEach(() => setLang("de"));

test("a hint's value has its sign and two decimals: +0,52 / −1.25, and a zero no sign", () => {
  setLang("de");
  assert.deepEqual([0.5234, -1.25, 0, -0.001].map(points), ["+0,52", "−1,25", "0,00", "0,00"]);
  setLang("en");
  assert.deepEqual([0.5234, -1.25, 2].map(points), ["+0.52", "−1.25", "+2.00"]);
});

test("the analysis prints a loss with two decimals in the language's digits", () => {
  setLang("de");
  const loss = formatNumber(0.5, TWO_DECIMALS);
  assert.equal(loss, "0,50");
  assert.equal(
    t("analysis_line", { n: 3, you: true, chosen: "Herz-Ass", best: "Laub-Zehner", loss }),
    "Zug 3 · Du: Herz-Ass – besser wäre Laub-Zehner gewesen (−0,50 Punkte)",
  );
  setLang("en");
  assert.equal(formatNumber(12.345, TWO_DECIMALS), "12.35");
});
