// Schnorps for three or four participants (seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer
// nur von zweien gespielt"): the round's part of the table page, and the lobby's choice of how many take part.
//
//   seatCount(variant, form)                     // how many seats the lobby's form makes (2 unless chosen)
//   participantsField(variant, form, rerender)   // the lobby's "Participants" select, or null
//   roundScoreboard(page)                        // every participant with their role and Marken
//
// Each game of a round is an ordinary two-player game, drawn by the two-player part (talon.js): the server's view,
// events, `to_move` and results count in game seats (0 = Vorhand, 1), and `match.players` says which participant
// holds each; the page (table.js) names a game seat by its participant. Nothing here restates a rule: the
// participants the lobby offers come from `GET /api/variants` (`participants`), the payments and balances from
// the server.

import { t } from "./i18n.js";
import { h, pointsText } from "./render.js";

/** How many seats the lobby's form makes for variant `v`: the chosen participants where it may have several. */
export function seatCount(v, form) {
  const counts = (v && v.participants) || [];
  const chosen = Number((form.participants || {})[v.name]);
  return counts.length > 1 && counts.includes(chosen) ? chosen : v.players;
}

/** The lobby's "Participants" select for a variant played by 2, 3 or 4 (Schnorps), else null. */
export function participantsField(v, form, rerender) {
  const counts = (v && v.participants) || [];
  if (counts.length < 2) return null;
  form.participants = form.participants || {};
  const select = h("select", {
    id: "participants",
    name: "participants",
    onchange: (e) => {
      form.participants[v.name] = Number(e.target.value);
      rerender();
    },
  });
  for (const n of counts) select.append(h("option", { value: String(n) }, t("sr_participants_n", { n })));
  select.value = String(seatCount(v, form));
  return h(
    "div",
    { class: "field participants-field" },
    h("label", { for: "participants" }, t("sr_participants")),
    select,
    seatCount(v, form) > 2 ? h("small", { class: "help" }, t("sr_participants_note")) : null,
  );
}

/** A game seat's role in the round: Vorhand (seat 0) or the other player; `you`: after "Du" ("Du spielst"). */
export function roleText(seat, you = false) {
  return t(seat === 0 ? "sr_role_vorhand" : "sr_role_plays", { you });
}

/** Who paid whom after a game (the loser pays every other participant), or the stand's replay. */
export function paymentText(page, result) {
  const r = result && result.round;
  if (!r) return "";
  if (r.winner === null || r.winner === undefined) return t("sr_stand_again");
  const loser = r.loser === page.participant;
  return t("sr_pays", { you: loser, name: page.seatName(r.loser), points: pointsText(r.marken, result.unit) });
}

/** Who won the round, with the highest balance. */
export function roundWonText(page, winners, balance) {
  if (!Array.isArray(winners) || !winners.length) return "";
  const top = Math.max(...(balance || page.round.balance || [0]));
  const names = winners.map((p) => page.seatName(p)).join(", ");
  const you = winners.length === 1 && winners[0] === page.participant;
  return t("sr_match_won", { names, you, count: winners.length, top: top > 0 ? `+${top}` : String(top) });
}

/** A round's own events in words (a game's start with its two players, a round's end); null: the usual text. */
export function roundEventText(page, e) {
  if (e.type === "game_start" && Array.isArray(e.players)) {
    const name = (p) => page.seatName(p);
    return t("sr_ev_game_start", {
      game_no: e.game_no,
      dealer: name(e.dealer),
      you: e.dealer === page.participant,
      a: name(e.players[0]),
      b: name(e.players[1]),
    });
  }
  if (e.type === "match_end") return roundWonText(page, e.winners, e.balance);
  return null;
}

/** The round: every participant with what they do this game and their Marken; then this game's Augen. */
export function roundScoreboard(page) {
  const s = page.state;
  const m = page.round;
  const v = s.view;
  const n = m.participants || (s.players || []).length;
  const players = m.players || [];
  const role = (p) => {
    const you = p === page.participant;
    if (p === m.dealer) return t("sr_role_dealer", { you });
    const g = players.indexOf(p);
    return g < 0 ? t("sr_role_waits", { you }) : roleText(g, you);
  };
  const balance = m.balance || [];
  const rows = [];
  for (let p = 0; p < n; p++) {
    const cls = [players.includes(p) ? "plays" : "waits", p === page.participant ? "me" : ""].join(" ").trim();
    const value = balance[p] ?? 0;
    rows.push(
      h(
        "tr",
        { class: cls, dataset: { participant: String(p) } },
        h("th", { scope: "row" }, page.seatName(p)),
        h("td", { class: "round-role" }, role(p)),
        h("td", { class: "round-marken" }, value > 0 ? `+${value}` : String(value)),
      ),
    );
  }
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, ""),
    h("th", { scope: "col" }, t("sr_col_role")),
    h("th", { scope: "col" }, t("sr_col_marken")),
  );
  const table = h(
    "table",
    { class: "score round-score", id: "round-score" },
    h("caption", {}, t("sr_round")),
    h("thead", {}, head),
    h("tbody", {}, rows),
  );
  const box = h("section", { class: "panel score-panel round-panel" }, table);
  box.append(h("p", { class: "score-notes" }, t("sr_score_note", { n, target: m.target ?? 7 })));
  const notes = [];
  if (m.game_no) notes.push(t("game_no", { n: m.game_no }));
  if (m.multiplier && m.multiplier > 1) notes.push(t("multiplier", { m: m.multiplier }));
  if (notes.length) box.append(h("p", { class: "score-notes" }, notes.join(" · ")));
  // This game's two players, as at a two-player table.
  const game = [];
  if (v.augen) game.push([t("augen"), v.augen]);
  if (v.tricks_won) game.push([t("tricks"), v.tricks_won]);
  if (game.length) {
    const cols = [0, 1].map((seat) => h("th", { scope: "col" }, page.nameOf(seat)));
    const body = game.map(([label, pair]) =>
      h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, String(pair[0])), h("td", {}, String(pair[1]))),
    );
    box.append(
      h(
        "table",
        { class: "score round-game" },
        h("caption", {}, t("sr_this_game")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), cols)),
        h("tbody", {}, body),
      ),
    );
  } else if (!v.augen) {
    box.append(h("p", { class: "score-notes" }, t("augen_hidden")));
  }
  return box;
}
