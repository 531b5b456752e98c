// The trick in the middle of a table of 2, 3 or 4 seats, laid out by seat position: the own seat (or the first,
// for a spectator) at the bottom, the others left, top and right as they sit.
//
//   const where = positions(me, 4);                    // { 0: "bottom", 1: "left", 2: "top", 3: "right" }
//   box.append(trickBox([{ seat: 1, card: "Ah" }], where, o, { seats: 4, caption: "Letzter Stich: Anna" }));
//
// At two seats the two cards lie crossed on each other (a trick of two is read at one look); at three and four each
// card has its own cell of a grid (table.css), so no card covers another or the seats around the table.

import { t } from "./i18n.js";
import { cardBack, cardFace, h } from "./render.js";

/** Where each seat sits, seen from `me`: the others left, top, right (four), left, right (three) or top (two). */
export function positions(me, n) {
  const places = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"] }[n] || [];
  const out = {};
  places.forEach((place, i) => (out[(me + 1 + i) % n] = place));
  out[me] = "bottom";
  return out;
}

/**
 * The trick: `cards` (`[{ seat, card }]`) each by its seat's place in `where`; `caption` (the last trick's winner)
 * below them; `before`: before the card play, when the empty trick takes little room; `talon`: the cards left in a
 * table game's talon (a back in a free corner). `o`: the page's `{ faces, lang }`.
 */
export function trickBox(cards, where, o, { seats = 2, caption = null, before = false, talon = 0, id = null } = {}) {
  const two = seats === 2;
  const classes = [two ? "trick" : `tg-trick tg-trick-${seats}`];
  if (caption) classes.push("done");
  if (before) classes.push("before-play");
  const box = h("div", { class: classes.join(" "), id, role: "group", "aria-label": t("table_area") });
  for (const { seat, card } of cards) {
    const place = where[seat] || "top";
    box.append(
      h(
        "div",
        { class: `played from-${place}`, dataset: { seat: String(seat) } },
        cardFace(card, { faces: o.faces, lang: o.lang }),
      ),
    );
  }
  if (caption) box.append(h("div", { class: "trick-caption" }, caption));
  if (talon) box.append(h("div", { class: "tg-talon" }, cardBack({ cls: "mini", label: t("tg_talon", { n: talon }) })));
  return box;
}
