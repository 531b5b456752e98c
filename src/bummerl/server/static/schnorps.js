// Schnorps for three or four participants (seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer
// nur von zweien gespielt"): the table of a `schnorps_round`, and the lobby's choice of how many take part.
//
//   const page = new SchnorpsPage(root, tableId, { spectator: false, ctx, socket });  // as a TablePage
//   seatCount(variant, form)          // how many seats the lobby's form makes for `variant` (2 unless chosen)
//   participantsField(variant, form, rerender)  // the lobby's "Participants" select, or null
//
// Each game is an ordinary two-player Schnorps game, drawn by table.js: the server's view, events, `to_move` and
// results count in game seats (0 = Vorhand, 1), and `match.players` says which participant holds each. So this
// page only names the game seats by their participants, finds its own game seat in `state.game_seat` (null while
// it waits: then the server sends a spectator's view, and this page shows no hand), and shows the round: who deals,
// who plays, who waits and everyone's Marken. Nothing here restates a rule: the participants the lobby offers come
// from `GET /api/variants` (`participants`), the payments and balances from the server.

import { absoluteUrl, api, seats } from "./api.js";
import { t } from "./i18n.js";
import { botName, h, pointsText, tableBanners } from "./render.js";
import { TablePage } from "./table.js";

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

export class SchnorpsPage extends TablePage {
  /** The round's part of `state.match`: participants, dealer, players (by game seat), waiting, balance. */
  get round() {
    return (this.state && this.state.match) || {};
  }

  /** This connection's participant seat (null: a spectator). */
  get participant() {
    return this.state && this.state.role === "player" ? this.state.seat : null;
  }

  /** This connection's game seat in the game on the table; null while it waits or watches. */
  get mySeat() {
    const s = this.state;
    if (!s || s.role !== "player") return null;
    return s.game_seat === undefined ? null : s.game_seat;
  }

  get waiting() {
    return this.participant !== null && this.mySeat === null;
  }

  /** A participant by name: "You", a bot's one name, a player's name, else "Seat n". */
  participantName(p) {
    if (p === null || p === undefined) return "";
    if (p === this.participant) return t("You");
    const info = ((this.state && this.state.players) || [])[p];
    if (!info) return t("seat_n", { n: p + 1 });
    if (info.kind === "bot") return `${botName(info)} · ${t("seat_n", { n: p + 1 })}`;
    return info.name || t("seat_n", { n: p + 1 });
  }

  /** Game seat `seat` by its participant. */
  nameOf(seat) {
    if (seat === null || seat === undefined) return "";
    const players = this.round.players || [];
    return this.participantName(players[seat]);
  }

  person(seat) {
    return { you: seat !== null && seat !== undefined && seat === this.mySeat, name: this.nameOf(seat) };
  }

  /** The banners above the table (table.js's), about participants: the table's seats are participants. */
  banners() {
    const s = this.state;
    return tableBanners({
      connection: this.connection,
      seconds: this.retrySeconds,
      onReconnect: () => this.socket.reconnectNow(),
      error: this.error,
      players: s && s.status !== "waiting" ? s.players : [],
      mySeat: this.participant,
      name: (p) => this.participantName(p),
    });
  }

  /** The open invitations, asked again whenever another friend has joined. */
  fetchInvites() {
    const joined = ((this.state && this.state.players) || []).filter((p) => p.joined).length;
    if (!this.token || this.invitesAsked === joined) return;
    this.invitesAsked = joined;
    api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/invite`, undefined, { Authorization: `Bearer ${this.token}` })
      .then(({ data }) => {
        this.invites = data.invite_urls;
        this.render();
      })
      .catch(() => {});
  }

  /** The game's seat, without the two-player dealer chip (the round's dealer does not play); the role instead. */
  seatArea(seat, where) {
    const area = super.seatArea(seat, where);
    for (const chip of area.querySelectorAll(".dealer-chip")) chip.remove();
    const label = area.querySelector(".seat-name");
    if (label) label.append(" ", h("span", { class: "round-chip" }, t(seat === 0 ? "sr_role_vorhand" : "sr_role_plays")));
    return area;
  }

  /** While invited friends are missing: an invitation link per open seat (GET /api/tables/{id}/invite). */
  statusLine() {
    const s = this.state;
    if (s.status === "waiting") {
      const line = h("div", { class: "status-line", role: "status", "aria-live": "polite" }, t("tg_waiting"));
      this.fetchInvites();
      const stored = seats.get(this.tableId);
      const urls = this.invites || (stored && stored.invite_urls) || {};
      for (const [seat, url] of Object.entries(urls)) {
        line.append(h("div", { class: "round-invite" }, t("tg_invite", { n: Number(seat) + 1 }), " ", this.copyField(absoluteUrl(url), `invite-${seat}`)));
      }
      return line;
    }
    const line = super.statusLine();
    if (this.waiting && this.state.status !== "waiting") {
      line.prepend(h("span", { class: "spectating round-waiting" }, t("sr_you_wait"), " "));
    }
    return line;
  }

  /** The round: every participant with what they do this game and their Marken; then this game's Augen. */
  scoreboard() {
    const s = this.state;
    const m = this.round;
    const v = s.view;
    const n = m.participants || (s.players || []).length;
    const players = m.players || [];
    const role = (p) => {
      if (p === m.dealer) return t("sr_role_dealer");
      const g = players.indexOf(p);
      if (g === 0) return t("sr_role_vorhand");
      if (g === 1) return t("sr_role_plays");
      return t("sr_role_waits");
    };
    const balance = m.balance || [];
    const rows = [];
    for (let p = 0; p < n; p++) {
      const cls = [players.includes(p) ? "plays" : "waits", p === this.participant ? "me" : ""].join(" ").trim();
      const value = balance[p] ?? 0;
      rows.push(
        h(
          "tr",
          { class: cls, dataset: { participant: String(p) } },
          h("th", { scope: "row" }, this.participantName(p)),
          h("td", { class: "round-role" }, role(p)),
          h("td", { class: "round-marken" }, value > 0 ? `+${value}` : String(value)),
        ),
      );
    }
    const table = h(
      "table",
      { class: "score round-score", id: "round-score" },
      h("caption", {}, t("sr_round")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, t("sr_col_role")), h("th", { scope: "col" }, t("sr_col_marken")))),
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
      box.append(
        h(
          "table",
          { class: "score round-game" },
          h("caption", {}, t("sr_this_game")),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), h("th", { scope: "col" }, this.nameOf(0)), h("th", { scope: "col" }, this.nameOf(1)))),
          h("tbody", {}, game.map(([label, pair]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, String(pair[0])), h("td", {}, String(pair[1]))))),
        ),
      );
    } else if (!v.augen) {
      box.append(h("p", { class: "score-notes" }, t("augen_hidden")));
    }
    return box;
  }

  eventText(e) {
    switch (e.type) {
      case "game_start":
        if (!Array.isArray(e.players)) return super.eventText(e);
        return t("sr_ev_game_start", {
          game_no: e.game_no,
          dealer: this.participantName(e.dealer),
          a: this.participantName(e.players[0]),
          b: this.participantName(e.players[1]),
        });
      case "game_end": {
        const text = super.eventText(e);
        const pay = this.paymentText(e.result);
        return pay ? `${text} ${pay}` : text;
      }
      case "match_end":
        return this.matchText(e.winners, e.balance);
      default:
        return super.eventText(e);
    }
  }

  /** Who paid whom after a game (the loser pays every other participant), or the stand's replay. */
  paymentText(result) {
    const r = result && result.round;
    if (!r) return "";
    if (r.winner === null || r.winner === undefined) return t("sr_stand_again");
    return t("sr_pays", { you: r.loser === this.participant, name: this.participantName(r.loser), points: pointsText(r.marken, result.unit) });
  }

  matchText(winners, balance) {
    if (!Array.isArray(winners) || !winners.length) return "";
    const top = Math.max(...(balance || this.round.balance || [0]));
    return t("sr_match_won", { names: winners.map((p) => this.participantName(p)).join(", "), top: top > 0 ? `+${top}` : String(top) });
  }

  resultBanner(state, kept) {
    const box = super.resultBanner(state, kept);
    const pay = this.paymentText(state.game_over && state.game_over.result);
    if (pay) box.append(h("div", { class: "result-banner-reason round-pays" }, pay));
    return box;
  }

  gameOverPanel(...args) {
    const box = super.gameOverPanel(...args);
    const state = args[0] || this.state;
    const go = state && state.game_over;
    const m = (state && state.match) || {};
    const lines = [];
    const pay = this.paymentText(go && go.result);
    if (pay) lines.push(h("p", { class: "round-pays" }, pay));
    if (go && go.match_over) lines.push(h("p", { class: "match-line round-match" }, this.matchText(m.winners, m.balance)));
    const anchor = box.querySelector(".result-line") || box.querySelector("h2");
    if (anchor) anchor.after(...lines);
    else box.prepend(...lines);
    return box;
  }
}
