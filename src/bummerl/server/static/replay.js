// Replay of a finished game of any variant: step through its actions with every card open
// (GET /api/games/{id}/replay).
//
//   const page = new ReplayPage(root, gameId, { ctx });          // gameId may carry "?step=N" (#/replay/7?step=12)
//   page.onKey(event)   // ← → Home End
//
// `?step=N` opens the replay at step N: the position in which decision N (0-based, as the analysis counts) was taken;
// the analysis's flagged decisions link there, and the step of a flagged decision says so above the board.
//
// The server sends replays only for finished games, so nothing hidden is shown here. A two-player game is drawn
// here; a three- or four-player game (the replay's `kind` is "table_game") with the live table's drawing
// functions (bidding.js, trick.js): each step's board has the fields of a table view, and every hand is open.

import { AnalysisPoller, TWO_DECIMALS, analysisBlock, replayStep } from "./analysis.js";
import { api } from "./api.js";
import { cardName, suitName } from "./cards.js";
import { formatNumber, t } from "./i18n.js";
import {
  actionText,
  botName,
  cardBack,
  cardFace,
  h,
  marriageWord,
  pointsText,
  reasonText,
  seatNames,
  sortHand,
  trumpBadge,
  variantTitle,
} from "./render.js";
import { eventText, lastBid, resultText, seatTags, statusParts, tableTrick, tokenText } from "./bidding.js";
import { positions } from "./trick.js";

export class ReplayPage {
  constructor(root, gameId, { ctx }) {
    this.root = root;
    const [id, query] = String(gameId).split("?");
    this.gameId = id;
    // The step to open at (#/replay/ID?step=N), else the deal.
    const step = Number(new URLSearchParams(query || "").get("step"));
    this.startStep = Number.isInteger(step) && step > 0 ? step : 0;
    this.ctx = ctx;
    this.steps = null;
    this.game = null;
    this.index = 0;
    this.error = null;
    this.analysis = null;
    this.alive = true;
    this.load();
    this.render();
  }

  destroy() {
    this.alive = false;
    if (this.analysis) this.analysis.stop();
  }

  async load() {
    try {
      const [summary, replay, variants] = await Promise.all([
        api("GET", `/api/games/${encodeURIComponent(this.gameId)}`),
        api("GET", `/api/games/${encodeURIComponent(this.gameId)}/replay`),
        api("GET", "/api/variants"),
      ]);
      this.game = summary.data;
      const name = typeof this.game.variant === "string" ? this.game.variant : this.game.variant?.name;
      this.variantTitle = variantTitle(name, variants.data);
      this.steps = replay.data.steps || [];
      this.kind = replay.data.kind || "two_player";
      this.players = replay.data.players || 2;
      this.marriages = replay.data.marriage_values || {};
      this.index = Math.min(this.startStep, Math.max(0, this.steps.length - 1));
      const url = this.game.analysis_url || `/api/games/${encodeURIComponent(this.gameId)}/analysis`;
      if (this.alive) this.analysis = new AnalysisPoller(url, () => this.alive && this.render());
    } catch (err) {
      this.error = err.message;
    }
    if (this.alive) this.render();
  }

  get faces() {
    return this.ctx.faces;
  }

  get lang() {
    return this.ctx.lang;
  }

  get table() {
    return this.kind === "table_game";
  }

  /** The page's `{ faces, lang, name }` for bidding.js's drawing functions. */
  get o() {
    return { faces: this.faces, lang: this.lang, name: (seat) => this.nameOf(seat) };
  }

  nameOf(gameSeat) {
    // A game of Schnorps for three or four: its two game seats are the participants its result names.
    const round =
      this.game && this.game.result && Array.isArray(this.game.result.players) ? this.game.result.players : null;
    const seat = round ? round[gameSeat] : gameSeat;
    // Two bots of one kind are numbered, as at the live table (render.js seatNames).
    const info = this.game && this.game.seats ? this.game.seats[seat] : null;
    if (info && info.kind === "bot") return seatNames(this.game.seats)[seat];
    const players = (this.game && this.game.players) || [];
    const p = players[seat];
    const opponent = this.game && this.game.opponent;
    if (seat === 1 && opponent && opponent !== "friend") return t("computer_named", { bot: opponent });
    if (typeof p === "string") return p;
    if (p && p.kind === "bot") return botName(p);
    if (p && p.name) return p.name;
    return t("seat_n", { n: seat + 1 });
  }

  go(index) {
    if (!this.steps || !this.steps.length) return;
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    this.render();
  }

  /** Step to the moment of decision `index` (a flagged decision of the analysis), and say so in the address. */
  jump(index) {
    history.replaceState(null, "", `${location.pathname}${location.search}${replayStep(this.gameId, index)}`);
    this.go(index);
    const board = this.root.querySelector(".replay-flagged") || this.root.querySelector(".replay-nav");
    if (board) board.scrollIntoView({ block: "start" });
  }

  /** An action in words, as the page of its kind of table says it. */
  say(token) {
    return this.table
      ? tokenText(token, this.o)
      : actionText(token, { faces: this.faces, lang: this.lang, marriages: this.marriages });
  }

  /** Above the board at the step of a decision the analysis flagged: who chose what, and what was better. */
  flagged() {
    const a = this.analysis;
    const decisions = a && a.status === "done" && a.data ? a.data.decisions || [] : [];
    const d = decisions.find((x) => x.index === this.index && x.mistake);
    if (!d) return null;
    return h(
      "section",
      { class: "panel replay-flagged", id: "replay-flagged", dataset: { index: String(d.index) } },
      h("p", {}, h("strong", {}, t("replay_flagged"))),
      h(
        "p",
        {},
        t("analysis_line", {
          you: false,
          name: this.nameOf(d.player),
          n: d.index + 1,
          chosen: this.say(d.action),
          best: this.say(d.best),
          loss: formatNumber(Number(d.loss), TWO_DECIMALS),
        }),
      ),
    );
  }

  onKey(event) {
    if (!this.steps) return false;
    switch (event.key) {
      case "ArrowRight":
        this.go(this.index + 1);
        return true;
      case "ArrowLeft":
        this.go(this.index - 1);
        return true;
      case "Home":
        this.go(0);
        return true;
      case "End":
        this.go(this.steps.length - 1);
        return true;
      default:
        return false;
    }
  }

  trumpLetter() {
    const tc = (this.game && this.game.trump_card) || (this.steps && this.steps[0] && this.steps[0].trump_card);
    return tc ? tc.slice(-1) : "h";
  }

  render() {
    const focusKey =
      document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fkey : null;
    this.root.replaceChildren(this.build());
    if (focusKey) {
      const again = this.root.querySelector(`[data-fkey="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  build() {
    const page = h("section", { class: "replay-page" });
    if (this.error) {
      page.append(h("p", { class: "notice error" }, t("error", { message: this.error })));
      return page;
    }
    if (!this.steps) {
      page.append(h("p", { class: "notice" }, t("connecting")));
      return page;
    }
    const g = this.game || {};
    page.append(h("h1", {}, t("replay_heading", { n: g.game_no ?? "" }), " · ", this.variantTitle || ""));
    const step = this.steps[this.index];
    const n = this.steps.length;
    const nav = h(
      "div",
      { class: "replay-nav", role: "toolbar" },
      h("button", { type: "button", onclick: () => this.go(0), dataset: { fkey: "first" } }, "« ", t("first")),
      h(
        "button",
        { type: "button", onclick: () => this.go(this.index - 1), dataset: { fkey: "prev" } },
        "◀ ",
        t("prev"),
      ),
      h("span", { class: "step-count", "aria-live": "polite" }, t("step", { i: this.index, n: n - 1 })),
      h(
        "button",
        { type: "button", onclick: () => this.go(this.index + 1), dataset: { fkey: "next" } },
        t("next"),
        " ▶",
      ),
      h("button", { type: "button", onclick: () => this.go(n - 1), dataset: { fkey: "last" } }, t("last"), " »"),
    );
    const slider = h("input", {
      type: "range",
      min: "0",
      max: String(n - 1),
      value: String(this.index),
      class: "replay-slider",
      "aria-label": t("step", { i: this.index, n: n - 1 }),
      dataset: { fkey: "slider" },
      oninput: (e) => this.go(Number(e.target.value)),
    });
    // A phone has no arrow keys: there the help names what a finger can use.
    const touch = globalThis.matchMedia && matchMedia("(pointer: coarse)").matches;
    page.append(nav, slider, h("p", { class: "muted", id: "replay-help" }, t(touch ? "replay_touch" : "replay_keys")));
    const flagged = this.flagged();
    if (flagged) page.append(flagged);
    page.append(this.board(step));
    page.append(this.eventsPanel(step));
    page.append(this.resultPanel());
    return page;
  }

  /** A three- or four-player step: the live table's status line, seats and trick, every hand face up. */
  tableBoard(step) {
    const o = this.o;
    const where = positions(0, this.players);
    const board = h("div", { class: "replay-board tg-replay", dataset: { phase: step.phase } });
    board.append(h("div", { class: "panel tg-status" }, statusParts(step, o)));
    const table = h("div", { class: `tg-table tg-${this.players} tg-open` });
    for (let seat = 0; seat < this.players; seat++) {
      const name = this.nameOf(seat);
      const hand = h("div", { class: "hand tg-open-hand", role: "group", "aria-label": t("hand_of", { name }) });
      for (const code of sortHand(step.hands[seat] || [], step.play_trump || step.trump))
        hand.append(cardFace(code, { ...o, cls: "small" }));
      const moving = step.to_move === seat && step.phase !== "over";
      table.append(
        h(
          "div",
          { class: `seat tg-seat tg-${where[seat]}`, dataset: { seat } },
          h("div", { class: `seat-name ${moving ? "to-move" : ""}`.trim() }, name),
          h("div", { class: "tg-tags" }, seatTags(step, seat)),
          hand,
          lastBid(step, seat, o),
        ),
      );
    }
    table.append(h("div", { class: "tg-center" }, tableTrick(step, where, o)));
    board.append(table);
    const mini = (codes) => codes.map((c) => cardFace(c, { ...o, cls: "mini" }));
    const aside = [];
    if (step.talon.length) aside.push(h("div", { class: "tg-talon-open" }, t("tg_talon_open"), " ", mini(step.talon)));
    if (step.discarded.length)
      aside.push(h("div", { class: "tg-discarded" }, t("tg_discarded"), " ", mini(step.discarded)));
    if (aside.length) board.append(h("div", { class: "panel tg-aside" }, aside));
    return board;
  }

  board(step) {
    if (this.table) return this.tableBoard(step);
    const trump = this.trumpLetter();
    const opts = { faces: this.faces, lang: this.lang };
    const board = h("div", { class: "board replay-board" });
    for (const [seat, where] of [
      [1, "top"],
      [0, "bottom"],
    ]) {
      const area = h("div", { class: `seat seat-${where}` }, h("div", { class: "seat-name" }, this.nameOf(seat)));
      const row = h("div", { class: "hand", role: "group", "aria-label": t("hand_of", { name: this.nameOf(seat) }) });
      for (const code of sortHand(step.hands[seat] || [], trump)) row.append(cardFace(code, { ...opts, cls: "small" }));
      area.append(row);
      if (where === "top") board.append(area);
      else this.bottomArea = area;
    }
    const mid = h("div", { class: "middle" });
    const stock = h("div", { class: "stock" }, h("div", { class: "stock-title" }, trumpBadge(trump, opts)));
    const pile = h("div", { class: "pile" });
    if (step.trump_card)
      pile.append(
        cardFace(step.trump_card, {
          ...opts,
          cls: `trump-card${step.closed_by !== null && step.closed_by !== undefined ? " turned" : ""}`,
        }),
      );
    if (step.talon_size > 0)
      pile.append(cardBack({ cls: "talon-top", label: `${t("talon")}: ${t("talon_cards", { n: step.talon_size })}` }));
    const left = step.talon_size + (step.trump_card ? 1 : 0);
    let caption = left ? `${t("talon")}: ${t("talon_cards", { n: left })}` : t("talon_empty");
    if (step.closed_by !== null && step.closed_by !== undefined) {
      caption = t("talon_closed", { you: false, name: this.nameOf(step.closed_by) });
    }
    stock.append(pile, h("div", { class: "stock-caption" }, caption));
    mid.append(stock);
    const trick = h("div", { class: "trick", role: "group", "aria-label": t("table_area") });
    const done = (step.events || []).find((e) => e.type === "trick");
    if (step.lead) {
      // Only a lead (or a marriage) leaves a card alone on the table, so this step's actor led it.
      const seat = step.seat ?? 0;
      trick.append(cardFace(step.lead, { ...opts, cls: `played ${seat === 0 ? "from-bottom" : "from-top"}` }));
    } else if (done) {
      trick.classList.add("done");
      trick.append(
        cardFace(done.lead, { ...opts, cls: `played ${done.leader === 0 ? "from-bottom" : "from-top"}` }),
        cardFace(done.follow, { ...opts, cls: `played ${done.leader === 0 ? "from-top" : "from-bottom"}` }),
        h("div", { class: "trick-caption" }, t("trick_to", { name: this.nameOf(done.winner) })),
      );
    }
    mid.append(trick);
    board.append(mid, this.bottomArea);
    const score = h(
      "table",
      { class: "score" },
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}), h("th", { scope: "col" }, this.nameOf(0)), h("th", { scope: "col" }, this.nameOf(1))),
      ),
      h(
        "tbody",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("augen")),
          h("td", {}, String(step.augen[0])),
          h("td", {}, String(step.augen[1])),
        ),
        h(
          "tr",
          {},
          h("th", { scope: "row" }, t("tricks")),
          h("td", {}, String(step.tricks_won[0])),
          h("td", {}, String(step.tricks_won[1])),
        ),
      ),
    );
    board.append(h("div", { class: "actions" }, score));
    return board;
  }

  /** A table game's step in words: its events as the live table's log tells them, a card played by its name. */
  tableEvents(step, list) {
    if (step.action === null || step.action === undefined) list.append(h("li", {}, t("dealt")));
    for (const e of step.events || []) {
      const text =
        e.type === "play" ? `${this.nameOf(e.seat)}: ${cardName(e.card, this.faces, this.lang)}` : eventText(e, this.o);
      if (text) list.append(h("li", { class: e.seat === step.seat ? "replay-action" : "" }, text));
    }
    if (step.action && !list.childElementCount)
      list.append(h("li", { class: "replay-action" }, `${this.nameOf(step.seat)}: ${tokenText(step.action, this.o)}`));
  }

  eventsPanel(step) {
    const box = h("section", { class: "panel log-panel" }, h("h2", {}, t("log")));
    const list = h("ol", { class: "log", tabindex: "0" }); // it scrolls: the keyboard must reach it
    if (this.table) {
      this.tableEvents(step, list);
      box.append(list);
      return box;
    }
    // A declare, close or exchange is told by its event; a card played by the action itself.
    const told = (step.events || []).some((e) => ["declare", "close", "exchange"].includes(e.type));
    if (step.action === null || step.action === undefined) list.append(h("li", {}, t("dealt")));
    else if (!told)
      list.append(
        h(
          "li",
          { class: "replay-action" },
          `${this.nameOf(step.seat)}: ${actionText(step.action, { faces: this.faces, lang: this.lang, marriages: this.marriages })}`,
        ),
      );
    for (const e of step.events || []) {
      let text = null;
      const p = { you: false, name: this.nameOf(e.seat ?? e.winner) };
      if (e.type === "trick") text = t("ev_trick", { you: false, name: this.nameOf(e.winner), augen: e.augen });
      else if (e.type === "marriage")
        text = t("ev_marriage", { ...p, value: marriageWord(e.value), suit: suitName(e.suit, this.faces, this.lang) });
      else if (e.type === "exchange")
        text = t("ev_exchange", {
          ...p,
          took: cardName(e.took, this.faces, this.lang),
          gave: cardName(e.gave, this.faces, this.lang),
        });
      else if (e.type === "close") text = t("ev_close", p);
      else if (e.type === "declare") text = t("ev_declare", p);
      if (text) list.append(h("li", {}, text));
    }
    box.append(list);
    return box;
  }

  resultPanel() {
    const g = this.game || {};
    const box = h("section", { class: "panel game-over" });
    const r = g.result;
    if (r && this.table) {
      box.append(h("p", { class: "result-line" }, resultText(r, this.o)));
      if (r.reason !== "redeal") box.append(h("p", {}, t("tg_augen", { a: r.augen[0], b: r.augen[1] })));
    } else if (r) {
      if (r.winner === null || r.winner === undefined) box.append(h("p", { class: "result-line" }, t("res_stand")));
      else
        box.append(
          h(
            "p",
            { class: "result-line" },
            t("res_win", { you: false, name: this.nameOf(r.winner), points: pointsText(r.points, r.unit) }),
          ),
        );
      const last = this.steps[this.steps.length - 1] || {};
      box.append(
        h(
          "p",
          {},
          reasonText(r, {
            person: (p) => ({ you: false, name: this.nameOf(p) }),
            closedBy: last.closed_by,
            // A two-player game's summary describes its variant (with the traits) in variant_info.
            variant: g.variant_info || g.variant,
          }),
        ),
      );
      if (r.augen)
        box.append(
          h("p", {}, t("final_augen", { a: `${this.nameOf(0)} ${r.augen[0]}`, b: `${r.augen[1]} ${this.nameOf(1)}` })),
        );
    }
    const recordUrl = `/api/games/${encodeURIComponent(this.gameId)}/record?format=text`;
    box.append(
      h(
        "p",
        {},
        h("a", { href: recordUrl, download: `bummerl-${this.gameId}.txt`, class: "download" }, t("download_record")),
      ),
    );
    if (g.record)
      box.append(
        h("details", { class: "record" }, h("summary", {}, t("record")), h("pre", { class: "record-text" }, g.record)),
      );
    const an = analysisBlock(this.analysis, {
      faces: this.faces,
      lang: this.lang,
      marriages: this.marriages,
      person: (p) => ({ you: false, name: this.nameOf(p) }),
      say: this.table ? (token) => tokenText(token, this.o) : null,
      jump: (index) => this.jump(index),
    });
    box.append(an);
    return box;
  }
}
