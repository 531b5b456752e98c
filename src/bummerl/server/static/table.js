// The live table: one WebSocket, the server's `state` messages drawn as a card table, actions sent back.
//
//   const page = new TablePage(root, tableId, { spectator: false, ctx });
//   page.render();      // again after a change of language or faces
//   page.destroy();     // closes the socket
//
// Legality is never computed here: a card or button is enabled exactly when its token is in the server's
// `legal` list, and the hand, the opponent's known cards and everything else come from the server's view.

import { AnalysisPoller, analysisBlock } from "./analysis.js";
import { absoluteUrl, api, seats, TableSocket } from "./api.js";
import { cardName, suitName } from "./cards.js";
import { TableHelp } from "./hints.js";
import { rulesLink } from "./rules.js";
import { t } from "./i18n.js";
import {
  actionText,
  botName,
  reasonText,
  cardBack,
  cardButton,
  cardFace,
  classifyLegal,
  h,
  marriageWord,
  pointsText,
  sortHand,
  tableBanners,
  trumpBadge,
  variantLine,
  variantList,
} from "./render.js";
import { motionPlay, motionSnapshot } from "./motion.js";
import { sheetDownloads, sheetPanel } from "./sheet.js";

const LOG_LIMIT = 60;

/** How long (ms) a taken trick stays in view before the next move is shown; localStorage `bummerl.pace`. */
function pace() {
  try {
    const raw = localStorage.getItem("bummerl.pace");
    if (raw !== null && Number.isFinite(Number(raw))) return Math.max(0, Number(raw));
  } catch {
    // No storage: the default pace.
  }
  return 900;
}

export class TablePage {
  /** `socket`: the table's open TableSocket (the route that learnt the table's kind from it), else a new one. */
  constructor(root, tableId, { spectator, ctx, socket = null }) {
    this.root = root;
    this.tableId = tableId;
    this.ctx = ctx; // { faces, lang } getters
    const stored = spectator ? null : seats.get(tableId);
    this.token = stored ? stored.token : null;
    this.inviteUrl = stored ? stored.invite_url || null : null;
    this.state = null;
    this.lastSeq = -1;
    this.log = [];
    this.trickOpen = false;
    this.marriageMode = false;
    this.connection = "connecting";
    this.retrySeconds = 0;
    this.error = null;
    this.analysis = null; // an AnalysisPoller once a game is over
    this.sendLock = false;
    this.queue = [];
    this.holdUntil = 0;
    this.drainTimer = null;
    // Issue 13 (area D): the variant's title for the header, what stays open across updates, the result of a
    // game that the other player's "next game" replaced (kept until this player closes it).
    this.variants = [];
    variantList().then((list) => {
      this.variants = list;
      this.render();
    });
    this.keysOpen = false;
    this.recordOpen = false;
    this.kept = null; // { state, analysis }: the last game's result, kept after the friend dealt the next
    this.nextSent = false;
    // Hints, the learning mode and the question before going out (hints.js); it sends through the table's socket.
    this.help = new TableHelp({ socket: null, render: () => this.render() });
    const handlers = { onMessage: (m) => this.onMessage(m), onStatus: (kind, info) => this.onStatus(kind, info) };
    if (socket) socket.attach(handlers);
    this.socket = socket || new TableSocket(tableId, this.token, handlers);
    this.help.socket = this.socket;
    this.render();
  }

  destroy() {
    this.socket.close();
    this.help.destroy();
    if (this.analysis) this.analysis.stop();
    if (this.kept && this.kept.analysis) this.kept.analysis.stop();
    clearTimeout(this.drainTimer);
  }

  // ------------------------------------------------------------------ messages
  onStatus(kind, info) {
    // While retrying, a new attempt is still "reconnecting" for the player, until the server answers.
    if (kind === "connecting" && this.connection === "retry") return;
    if (kind === "gone") seats.forget(this.tableId);
    this.connection = kind;
    this.retrySeconds = info.seconds || 0;
    this.render();
  }

  onMessage(message) {
    if (this.help.onMessage(message)) return;
    if (message.type === "welcome") {
      // A new connection (perhaps to a restarted server): its first state is always shown, at once.
      this.lastSeq = -1;
      this.queue = [];
      this.holdUntil = 0;
      // What happened so far in this game, from the server's stored events: the log survives a reload.
      if (Array.isArray(message.log)) this.restoreLog(message.log);
      if (this.token && message.role !== "player") {
        // The stored token no longer holds a seat here: forget it and watch instead.
        seats.forget(this.tableId);
        this.token = null;
      }
      return;
    }
    if (message.type === "error") {
      this.sendLock = false;
      this.error = message.message || message.code;
      if (message.code === "bad_token") {
        seats.forget(this.tableId);
        this.token = null;
        this.socket.token = null;
        this.socket.send({ type: "hello", token: null });
      }
      this.render();
      return;
    }
    if (message.type !== "state") return;
    this.queue.push(message);
    this.drain();
  }

  /**
   * Show queued states in order. A trick just taken stays on the table for a moment (`pace()` ms) before the
   * next state replaces it, so a player can see the card a quick bot answered with.
   */
  drain() {
    clearTimeout(this.drainTimer);
    while (this.queue.length) {
      const wait = this.holdUntil - Date.now();
      if (wait > 0) {
        this.drainTimer = setTimeout(() => this.drain(), wait);
        return;
      }
      const message = this.queue.shift();
      this.showState(message);
      const taken = (message.events || []).some((e) => e.type === "trick");
      this.holdUntil = taken && !(message.view && message.view.lead) ? Date.now() + pace() : 0;
    }
  }

  showState(message) {
    if (typeof message.seq === "number" && message.seq <= this.lastSeq && this.state) {
      // An older or repeated state (e.g. after a reconnect raced a broadcast): the newer one is shown.
      return;
    }
    this.lastSeq = typeof message.seq === "number" ? message.seq : this.lastSeq;
    this.keepResult(message);
    if (!message.events || message.events.length === 0) {
      // E.g. the first state after hello: the view shows the table; note whether a trick is half played.
      this.trickOpen = Boolean(message.view && message.view.lead);
    }
    for (const event of message.events || []) this.addEvent(event);
    this.state = message;
    if (message.sheet) this.sheet = message.sheet; // sent when it changed (a deal, a game's end)
    this.help.onState(message);
    this.sendLock = false;
    if (!message.legal || !message.legal.some((x) => x.startsWith("marry:"))) this.marriageMode = false;
    if (message.game_over && message.game_over.game_id) this.startAnalysis(message.game_over);
    this.render();
  }

  /**
   * A new deal replaced a game's result that this player has not dealt on from: the other player pressed "next
   * game". The result stays on the page (with its analysis) until this player closes it or deals on.
   */
  keepResult(message) {
    const before = this.state;
    if (message.game_over) {
      if (this.kept) this.closeKept(); // the game after it is over too: its result is the one to read now
      return;
    }
    if (before && before.game_over && before.role === "player" && !this.nextSent) {
      if (this.kept && this.kept.analysis) this.kept.analysis.stop();
      this.kept = { state: before, analysis: this.analysis };
      this.analysis = null;
    }
    this.nextSent = false;
  }

  closeKept() {
    if (this.kept && this.kept.analysis) this.kept.analysis.stop();
    this.kept = null;
  }

  /** The log as the server keeps it for the game on the table (`welcome.log`), with who led each trick. */
  restoreLog(events) {
    let open = false;
    this.log = events.map((event) => {
      const entry = { ...event };
      if (event.type === "play") {
        entry.lead = !open;
        open = !open;
      } else if (event.type === "trick" || event.type === "game_start") {
        open = false;
      }
      return entry;
    });
    this.log.splice(0, Math.max(0, this.log.length - LOG_LIMIT));
  }

  /** How the Bummerl sheet calls a seat (the same words as the table). */
  get sheetNames() {
    return { name: (seat) => this.nameOf(seat), tableId: this.tableId };
  }

  addEvent(event) {
    const entry = { ...event };
    if (event.type === "play") {
      entry.lead = !this.trickOpen;
      this.trickOpen = !this.trickOpen;
    } else if (event.type === "trick" || event.type === "game_start") {
      this.trickOpen = false;
    }
    if (event.type === "game_start") {
      if (this.analysis) this.analysis.stop();
      this.analysis = null;
    }
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  send(message) {
    if (this.sendLock) return;
    if (message.type === "next_game") {
      // Dealing on is this player's own choice: no result is kept for them.
      this.nextSent = true;
      this.closeKept();
    }
    this.error = null;
    if (this.socket.send(message)) {
      // One action per state: a double click must not send a second action for the same position.
      this.sendLock = true;
    }
    this.render();
  }

  act(token, confirmed = false) {
    if (!this.state || !this.state.legal.includes(token)) return;
    // A declaration the server says loses (or any, where the Augen are hidden) is asked about first.
    if (!confirmed && this.help.asks(this.state, token, () => this.act(token, true), { schnorps: this.isSchnorps() })) return;
    this.marriageMode = false;
    this.help.acted(this.state, token);
    this.send({ type: "action", action: token });
  }

  // ------------------------------------------------------------------ keyboard
  onKey(event) {
    const s = this.state;
    if (!s || event.ctrlKey || event.metaKey || event.altKey) return false;
    const key = event.key.toLowerCase();
    const legal = classifyLegal(s.legal);
    if (/^[1-9]$/.test(key)) {
      const hand = this.handOrder();
      const code = hand[Number(key) - 1];
      if (!code) return false;
      if (this.marriageMode) {
        if (legal.marriages.has(code)) this.act(legal.marriages.get(code));
      } else if (legal.plays.has(code)) {
        this.act(code);
      }
      return true;
    }
    switch (key) {
      case "m":
        if (legal.marriages.size === 1) this.act([...legal.marriages.values()][0]);
        else if (legal.marriages.size > 1) {
          this.marriageMode = !this.marriageMode;
          this.render();
        }
        return true;
      case "t":
        if (legal.exchange) this.act("exchange");
        return true;
      case "z":
        if (legal.close) this.act("close");
        return true;
      case "g":
        if (legal.declare) this.act("declare");
        else if (legal.declareWith.length === 1) this.act(`declare:${legal.declareWith[0]}`);
        return true;
      case "n":
        if (s.game_over && s.game_over.next_game && s.role === "player") {
          this.send({ type: "next_game" });
          return true;
        }
        return false;
      case "escape":
        if (this.marriageMode) {
          this.marriageMode = false;
          this.render();
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  // ------------------------------------------------------------------ names
  get faces() {
    return this.ctx.faces;
  }

  get lang() {
    return this.ctx.lang;
  }

  /** Whether a click can go out now: connected, and no action of ours still waiting for its answer. */
  get canAct() {
    return this.connection === "open" && !this.sendLock;
  }

  get mySeat() {
    return this.state && this.state.role === "player" ? this.state.seat : null;
  }

  /** The seat drawn at the bottom: one's own, or seat 0 for a spectator. */
  get bottomSeat() {
    return this.mySeat === null ? 0 : this.mySeat;
  }

  nameOf(seat) {
    if (seat === null || seat === undefined) return "";
    if (seat === this.mySeat) return t("You");
    const players = (this.state && this.state.players) || [];
    const p = players[seat];
    if (!p) return t("seat_n", { n: seat + 1 });
    if (p.kind === "bot") return botName(p);
    return p.name || t("seat_n", { n: seat + 1 });
  }

  person(seat) {
    return { you: seat === this.mySeat, name: this.nameOf(seat) };
  }

  card(code) {
    return cardName(code, this.faces, this.lang);
  }

  handOrder() {
    const v = this.state && this.state.view;
    if (!v || !v.hand) return [];
    return sortHand(v.hand, v.trump);
  }

  isSchnorps() {
    const v = this.state && this.state.view;
    return Boolean(v && v.variant && v.variant.name === "schnorps");
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.fkey
      : null;
    const before = motionSnapshot(this.root);
    this.root.replaceChildren(this.build());
    motionPlay(this.root, before, this.motionHints());
    this.help.decorate(this.root);
    // The newest events are at the end of the log: keep them in sight.
    for (const log of this.root.querySelectorAll(".log")) log.scrollTop = log.scrollHeight;
    if (focusKey) {
      const again = this.root.querySelector(`[data-fkey="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  build() {
    const s = this.state;
    const page = h("section", { class: "table-page", "aria-label": t("table_area") });
    page.append(...this.banners());
    if (this.connection === "gone") {
      page.append(h("p", { class: "notice error" }, t("table_unknown")));
      return page;
    }
    if (!s) {
      page.append(h("p", { class: "notice" }, t("connecting")));
      return page;
    }
    const board = h("div", { class: "board" });
    board.append(this.statusLine());
    // The result at the top of the table: seen at once, also on a phone (the details follow below the table).
    if (this.kept) board.append(this.resultBanner(this.kept.state, true));
    else if (s.game_over) board.append(this.resultBanner(s, false));
    board.append(this.seatArea(1 - this.bottomSeat, "top"));
    board.append(this.middle());
    board.append(this.seatArea(this.bottomSeat, "bottom"));
    board.append(this.actionBar());
    board.append(
      this.help.element(s, { lang: this.lang, say: (token) => actionText(token, { faces: this.faces, lang: this.lang, marriages: s.marriage_values }) }),
    );
    const side = h(
      "aside",
      { class: "side" },
      this.scoreboard(),
      sheetPanel(this.sheet || null, this.sheetNames),
      this.marriagesPanel(),
      this.logPanel(),
      this.keysPanel(),
    );
    // The rules of this table's variant with its house rules (rules.js), one tap away.
    page.append(h("div", { class: "table-tools" }, variantLine(s.view.variant, this.variants), rulesLink(s.view.variant, { table: this.tableId })));
    // The panel after a game stands right below the table (on a phone before the score and the log).
    const over = this.kept ? this.gameOverPanel(this.kept.state, this.kept.analysis) : s.game_over ? this.gameOverPanel() : null;
    page.append(h("div", { class: "table-layout" }, board, over, side));
    return page;
  }

  /** What the motion of the next drawing needs: who took the last trick, whose turn, whether the game is over. */
  motionHints() {
    const s = this.state;
    if (!s || !s.view) return {};
    const tricks = s.view.tricks || [];
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    return { winner: last ? last.winner : null, yourTurn: Boolean(s.your_turn), gameOver: Boolean(s.game_over) };
  }

  /** The banners above the table: the own connection, an error, another player who is not connected. */
  banners() {
    const s = this.state;
    return tableBanners({
      connection: this.connection,
      seconds: this.retrySeconds,
      onReconnect: () => this.socket.reconnectNow(),
      error: this.error,
      players: s && s.status !== "waiting" ? s.players : [],
      mySeat: this.mySeat,
      name: (seat) => this.nameOf(seat),
    });
  }

  /** Who won the Bummerl (the match), once a game ended it; else null. */
  matchText(s) {
    const m = s.match || {};
    if (!s.game_over || !s.game_over.match_over || m.winner === null || m.winner === undefined) return null;
    let text;
    if (m.kind === "marken") {
      text = t("match_won_marken", { name: this.nameOf(m.winner), a: m.standing[m.winner], b: m.standing[1 - m.winner] });
    } else if (m.winner === this.mySeat) {
      text = t("match_won_you", { name: this.nameOf(1 - m.winner) });
    } else {
      text = t("match_won_other", { name: this.nameOf(m.winner), loser: this.nameOf(1 - m.winner) });
    }
    return m.schneider ? `${text} ${t("schneider")}` : text;
  }

  /** The result of a game in two lines at the top of the table; a kept one (the next game runs) can be closed. */
  resultBanner(state, kept) {
    const result = state.game_over.result || state.view.result;
    const box = h(
      "div",
      { class: `result-banner${kept ? " kept" : ""}`, role: "status", id: kept ? "result-kept" : "result-banner" },
      h("div", { class: "result-banner-line" }, this.resultText(result, state.view)),
      h("div", { class: "result-banner-reason" }, this.reasonText(result, state.view)),
    );
    const matchText = this.matchText(state);
    if (matchText) box.append(h("div", { class: "result-banner-match" }, matchText));
    if (kept) {
      box.append(
        h("div", { class: "result-banner-note" }, t("d_result_kept")),
        h("button", { type: "button", class: "result-close", onclick: () => ((this.closeKept(), this.render())) }, t("d_close")),
      );
    }
    return box;
  }

  statusLine() {
    const s = this.state;
    const line = h("div", { class: "status-line", role: "status", "aria-live": "polite" });
    if (s.role !== "player") line.append(h("span", { class: "spectating" }, t("spectating"), " "));
    if (s.status === "waiting") {
      line.append(t("waiting_friend"), " ");
      const url = this.inviteUrl;
      if (url) line.append(this.copyField(absoluteUrl(url), "invite"));
      else if (this.token) this.fetchInvite();
      return line;
    }
    if (s.game_over) {
      line.append(t("game_over"));
    } else if (s.your_turn) {
      line.append(h("strong", {}, t("your_turn")));
    } else if (s.to_move !== null && s.to_move !== undefined) {
      line.append(t("their_turn", { name: this.nameOf(s.to_move) }));
    }
    if (this.marriageMode) line.append(" ", h("em", {}, t("choose_marriage")));
    return line;
  }

  fetchInvite() {
    if (this.inviteFetching) return;
    this.inviteFetching = true;
    api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/invite`, undefined, {
      Authorization: `Bearer ${this.token}`,
    })
      .then(({ data }) => {
        this.inviteUrl = data.invite_url;
        this.render();
      })
      .catch(() => {});
  }

  copyField(text, id) {
    const input = h("input", { class: "copy-text", readonly: true, value: text, id: `copy-${id}`, "aria-label": text });
    const button = h(
      "button",
      {
        type: "button",
        onclick: async (e) => {
          try {
            await navigator.clipboard.writeText(text);
          } catch {
            input.select();
          }
          e.target.textContent = t("copied");
        },
      },
      t("copy"),
    );
    return h("span", { class: "copy-field" }, input, button);
  }

  seatArea(seat, where) {
    const s = this.state;
    const v = s.view;
    const area = h("div", { class: `seat seat-${where}`, dataset: { seat: String(seat) } });
    const label = h("div", { class: "seat-name" }, this.nameOf(seat));
    if (v.dealer === seat) label.append(" ", h("span", { class: "dealer-chip" }, t("dealer_chip")));
    if (s.to_move === seat && !s.game_over) label.classList.add("to-move");
    area.append(label);
    const row = h("div", { class: "hand", role: "group" });
    if (seat === this.mySeat) {
      row.setAttribute("aria-label", t("your_hand"));
      const legal = classifyLegal(s.legal);
      this.handOrder().forEach((code, i) => {
        const canMarry = legal.marriages.has(code);
        const enabled = this.marriageMode ? canMarry : legal.plays.has(code);
        row.append(
          cardButton(code, {
            faces: this.faces,
            lang: this.lang,
            enabled: enabled && this.canAct,
            key: String(i + 1),
            cls: canMarry ? "can-marry" : "",
            onClick: (c) => (this.marriageMode ? this.act(legal.marriages.get(c)) : this.act(c)),
          }),
        );
      });
    } else {
      row.setAttribute("aria-label", t("hand_of", { name: this.nameOf(seat) }));
      // The opponent's cards: those this player knows face up (a shown marriage card, an exchanged trump),
      // the rest face down. A spectator knows none.
      const known = seat === this.mySeat ? [] : sortHand(v.opponent_known || [], v.trump);
      const size = this.handSize(seat);
      for (const code of known) row.append(cardFace(code, { faces: this.faces, lang: this.lang, cls: "small known" }));
      for (let i = known.length; i < size; i++) row.append(cardBack({ cls: "small" }));
    }
    area.append(row);
    return area;
  }

  handSize(seat) {
    const v = this.state.view;
    if (Array.isArray(v.hand_sizes)) return v.hand_sizes[seat];
    if (seat === this.mySeat) return v.hand.length;
    return v.opponent_hand_size;
  }

  middle() {
    const v = this.state.view;
    const mid = h("div", { class: "middle" });
    // Talon and trump card.
    const stock = h("div", { class: "stock", "aria-label": t("talon") });
    stock.append(h("div", { class: "stock-title" }, trumpBadge(v.trump, { faces: this.faces, lang: this.lang })));
    const pile = h("div", { class: "pile" });
    if (v.trump_card) {
      const closed = v.closed_by !== null && v.closed_by !== undefined;
      pile.append(cardFace(v.trump_card, { faces: this.faces, lang: this.lang, cls: `trump-card${closed ? " turned" : ""}` }));
    }
    if (v.talon_size > 0) pile.append(cardBack({ cls: "talon-top", label: `${t("talon")}: ${t("talon_cards", { n: v.talon_size })}` }));
    stock.append(pile);
    let caption;
    if (v.closed_by !== null && v.closed_by !== undefined) {
      caption = t(this.isSchnorps() ? "talon_covered" : "talon_closed", this.person(v.closed_by));
    } else if (v.talon_size === 0 && !v.trump_card) {
      caption = t("talon_empty");
    } else {
      caption = `${t("talon")}: ${t("talon_cards", { n: v.talon_size + (v.trump_card ? 1 : 0) })}`;
    }
    stock.append(h("div", { class: "stock-caption" }, caption));
    mid.append(stock);

    // The trick: the card led now, or the last trick until the next card is led.
    const trick = h("div", { class: "trick", role: "group", "aria-label": t("table_area") });
    const last = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
    if (v.lead) {
      trick.append(this.trickCard(v.lead, v.leader));
    } else if (last) {
      trick.classList.add("done");
      trick.append(this.trickCard(last.lead, last.leader), this.trickCard(last.follow, 1 - last.leader));
      trick.append(h("div", { class: "trick-caption" }, `${t("last_trick")} ${t("trick_to", { name: this.nameOf(last.winner) })}`));
    }
    mid.append(trick);
    // Scharf: a trick once taken may not be looked at again, so the previous trick is not kept in view.
    if (v.lead && last && v.augen !== null) {
      mid.append(
        h(
          "div",
          { class: "last-trick", "aria-label": t("last_trick") },
          h("div", { class: "mini-title" }, t("last_trick")),
          h(
            "div",
            { class: "last-trick-cards" },
            cardFace(last.lead, { faces: this.faces, lang: this.lang, cls: "mini" }),
            cardFace(last.follow, { faces: this.faces, lang: this.lang, cls: "mini" }),
          ),
          h("div", { class: "mini-title" }, t("trick_to", { name: this.nameOf(last.winner) })),
        ),
      );
    }
    return mid;
  }

  trickCard(code, seat) {
    const where = seat === this.bottomSeat ? "from-bottom" : "from-top";
    const card = cardFace(code, { faces: this.faces, lang: this.lang, cls: `played ${where}` });
    card.dataset.seat = String(seat); // whose card it is: it flies in from that seat (motion.js)
    return card;
  }

  actionBar() {
    const s = this.state;
    const bar = h("div", { class: "actions", role: "toolbar", "aria-label": "actions" });
    if (s.role !== "player") return bar;
    const legal = classifyLegal(s.legal);
    const v = s.view;
    const button = (label, key, onclick, fkey, extra = {}) =>
      h(
        "button",
        { type: "button", class: "action", onclick, dataset: { fkey, action: fkey }, disabled: !this.canAct, ...extra },
        label,
        key ? h("kbd", { "aria-hidden": "true" }, key) : null,
      );
    if (legal.marriages.size) {
      const suits = [...new Set([...legal.marriages.keys()].map((c) => c.slice(-1)))];
      for (const suit of suits) {
        const value = marriageWord((s.marriage_values || {})[suit]);
        for (const [card, token] of legal.marriages) {
          if (card.slice(-1) !== suit) continue;
          bar.append(
            button(t("act_marriage", { value, card: this.card(card) }), "M", () => this.act(token), token, {
              class: "action marriage",
            }),
          );
        }
      }
    }
    if (legal.exchange) {
      bar.append(
        button(t("act_exchange"), "T", () => this.act("exchange"), "exchange", {
          title: v.trump_card ? this.card(v.trump_card) : null,
        }),
      );
    }
    if (legal.close) {
      bar.append(button(t(this.isSchnorps() ? "act_close_schnorps" : "act_close"), "Z", () => this.act("close"), "close"));
    }
    if (legal.declare) {
      bar.append(
        button(t(this.isSchnorps() ? "act_declare_schnorps" : "act_declare"), "G", () => this.act("declare"), "declare", {
          class: "action declare",
        }),
      );
    }
    for (const suit of legal.declareWith) {
      const token = `declare:${suit}`;
      bar.append(
        button(actionText(token, { faces: this.faces, lang: this.lang, marriages: s.marriage_values }), "G", () => this.act(token), token, {
          class: "action declare",
        }),
      );
    }
    if (this.marriageMode) {
      bar.append(button(t("cancel"), "Esc", () => ((this.marriageMode = false), this.render()), "cancel"));
    }
    if (s.game_over && s.game_over.next_game) {
      bar.append(
        button(t(s.game_over.match_over ? "new_bummerl" : "next_game"), "N", () => this.send({ type: "next_game" }), "next_game", {
          class: "action primary",
        }),
      );
    }
    return bar;
  }

  scoreboard() {
    const s = this.state;
    const m = s.match || {};
    const v = s.view;
    const seatsInOrder = [this.bottomSeat, 1 - this.bottomSeat];
    const head = h("tr", {}, h("th", { scope: "col" }, ""), ...seatsInOrder.map((p) => h("th", { scope: "col" }, this.nameOf(p))));
    const row = (label, values, cls = "") =>
      h("tr", { class: cls }, h("th", { scope: "row" }, label), ...values.map((x) => h("td", {}, String(x))));
    const rows = [];
    const standing = m.standing || [null, null];
    const marken = m.kind === "marken";
    rows.push(row(t(marken ? "score_marken" : "score_bummerl"), seatsInOrder.map((p) => standing[p]), "standing"));
    if (m.matches_won) rows.push(row(t("bummerl_won"), seatsInOrder.map((p) => m.matches_won[p]), "matches"));
    if (v.augen) rows.push(row(t("augen"), seatsInOrder.map((p) => v.augen[p]), "augen"));
    if (v.tricks_won) rows.push(row(t("tricks"), seatsInOrder.map((p) => v.tricks_won[p]), "tricks"));
    const table = h("table", { class: "score" }, h("caption", {}, t("score")), h("thead", {}, head), h("tbody", {}, rows));
    const box = h("section", { class: "panel score-panel" }, table);
    const notes = [];
    box.append(h("p", { class: "score-notes" }, t(marken ? "score_marken_note" : "score_bummerl_note", { target: m.target ?? 7 })));
    if (m.game_no) notes.push(t("game_no", { n: m.game_no }));
    notes.push(t("dealer", { name: this.nameOf(v.dealer) }));
    if (m.multiplier && m.multiplier > 1) notes.push(t("multiplier", { m: m.multiplier }));
    box.append(h("p", { class: "score-notes" }, notes.join(" · ")));
    if (!v.augen) box.append(h("p", { class: "score-notes" }, t("augen_hidden")));
    return box;
  }

  marriagesPanel() {
    const v = this.state.view;
    const box = h("section", { class: "panel marriages-panel" }, h("h2", {}, t("marriages")));
    if (!v.marriages || !v.marriages.length) {
      box.append(h("p", { class: "muted" }, "–"));
      return box;
    }
    for (const m of v.marriages) {
      box.append(
        h(
          "div",
          { class: "marriage-item" },
          cardFace(`K${m.suit}`, { faces: this.faces, lang: this.lang, cls: "mini" }),
          cardFace(`Q${m.suit}`, { faces: this.faces, lang: this.lang, cls: "mini" }),
          h(
            "span",
            {},
            t("marriage_item", {
              name: this.nameOf(m.seat),
              value: marriageWord((this.state.marriage_values || {})[m.suit]),
              suit: suitName(m.suit, this.faces, this.lang),
            }),
          ),
        ),
      );
    }
    return box;
  }

  eventText(e) {
    const faces = this.faces;
    const lang = this.lang;
    const v = this.state.view;
    switch (e.type) {
      case "play":
        return t(e.lead ? "ev_lead" : "ev_follow", { ...this.person(e.seat), card: this.card(e.card) });
      case "trick":
        // Scharf: "Abgelegte Stiche dürfen nichtmehr angesehen werden" (seeds/000) — no Augen to count from.
        return t("ev_trick", { ...this.person(e.winner), augen: v.augen === null ? undefined : e.augen });
      case "marriage":
        return t("ev_marriage", {
          ...this.person(e.seat),
          value: marriageWord(e.value),
          suit: suitName(e.suit, faces, lang),
        });
      case "exchange":
        return t("ev_exchange", { ...this.person(e.seat), took: this.card(e.took), gave: this.card(e.gave) });
      case "close":
        return t("ev_close", this.person(e.seat));
      case "declare":
        return t("ev_declare", this.person(e.seat));
      case "game_start":
        return t("ev_game_start", { game_no: e.game_no, dealer: this.nameOf(e.dealer) });
      case "game_end":
        return this.resultText(e.result, v);
      case "match_end":
        return t("ev_match_end", this.person(e.winner)) + (e.schneider ? ` ${t("schneider")}` : "");
      case "joined":
        return t("ev_joined", { name: e.name || this.nameOf(e.seat) });
      default:
        // E.g. "draw": the own card is in the hand, the other's is not told. Unknown kinds are not shown.
        return null;
    }
  }

  resultText(result, view) {
    if (!result) return "";
    if (result.winner === null || result.winner === undefined) return t("res_stand");
    return t("res_win", { ...this.person(result.winner), points: pointsText(result.points, result.unit) });
  }

  reasonText(result, view) {
    return reasonText(result, {
      person: (p) => this.person(p),
      closedBy: view.closed_by,
      variant: view.variant && view.variant.name,
    });
  }

  logPanel() {
    const list = h("ul", { class: "log", "aria-live": "polite" });
    for (const e of this.log.slice(-30)) {
      const text = this.eventText(e);
      if (text) list.append(h("li", { class: `ev-${e.type}` }, text));
    }
    const box = h("section", { class: "panel log-panel" }, h("h2", {}, t("log")), list);
    return box;
  }

  keysPanel() {
    // Open or closed as the player left it: the page redraws at every update.
    const box = h(
      "details",
      { class: "panel keys-panel", open: this.keysOpen, ontoggle: (e) => (this.keysOpen = e.target.open) },
      h("summary", {}, t("keys_heading")),
      h("p", {}, t("keys_text")),
    );
    box.append(h("p", {}, this.copyField(`${location.origin}/#/watch/${this.tableId}`, "watch"), " ", t("watch_link")));
    return box;
  }

  /** The panel after a game: of the state on the table, or of a kept one (`state`, with its `analysis`). */
  gameOverPanel(s = this.state, analysis = this.analysis) {
    const go = s.game_over;
    const v = s.view;
    const result = go.result || v.result;
    const kept = s !== this.state;
    const box = h("section", { class: `panel game-over${kept ? " kept" : ""}`, "aria-labelledby": "game-over-title" });
    box.append(h("h2", { id: "game-over-title" }, t("game_over")));
    if (kept) {
      box.append(
        h("p", { class: "kept-note" }, t("d_result_kept"), " ", h("button", { type: "button", class: "result-close", onclick: () => ((this.closeKept(), this.render())) }, t("d_close"))),
      );
    }
    box.append(h("p", { class: "result-line" }, this.resultText(result, v)));
    box.append(h("p", {}, this.reasonText(result, v)));
    if (result && result.augen) {
      const b = this.bottomSeat;
      box.append(h("p", {}, t("final_augen", { a: `${this.nameOf(b)} ${result.augen[b]}`, b: `${result.augen[1 - b]} ${this.nameOf(1 - b)}` })));
    }
    const matchText = this.matchText(s);
    if (matchText) box.append(h("p", { class: "match-line" }, matchText));
    // Both hands as dealt.
    if (go.hands_at_deal) {
      const hands = h("div", { class: "dealt" }, h("h3", {}, t("hands_at_deal")));
      for (const seat of [this.bottomSeat, 1 - this.bottomSeat]) {
        const row = h("div", { class: "hand dealt-hand", role: "group", "aria-label": t("hand_of", { name: this.nameOf(seat) }) });
        for (const code of sortHand(go.hands_at_deal[seat], v.trump)) {
          row.append(cardFace(code, { faces: this.faces, lang: this.lang, cls: "mini" }));
        }
        hands.append(h("div", { class: "dealt-row" }, h("span", { class: "dealt-name" }, this.nameOf(seat)), row));
      }
      if (go.trump_card) hands.append(h("p", {}, t("trump_card_dealt", { card: this.card(go.trump_card) })));
      box.append(hands);
    }
    // The record.
    const recordUrl = `/api/games/${encodeURIComponent(go.game_id)}/record?format=text`;
    const rec = h(
      "details",
      { class: "record", open: this.recordOpen, ontoggle: (e) => (this.recordOpen = e.target.open) },
      h("summary", {}, t("record")),
      h("p", {}, h("a", { href: recordUrl, download: `bummerl-${go.game_id}.txt`, class: "download" }, t("download_record"))),
      this.sheet ? sheetDownloads(this.sheet, this.sheetNames) : null,
    );
    if (go.record) rec.append(h("pre", { class: "record-text" }, go.record));
    box.append(rec);
    box.append(
      analysisBlock(analysis, { faces: this.faces, lang: this.lang, marriages: s.marriage_values, person: (p) => this.person(p) }),
    );
    return box;
  }

  // ------------------------------------------------------------------ analysis
  startAnalysis(go) {
    if (!go.analysis_url) return;
    if (this.analysis && this.analysis.gameId === go.game_id) return;
    if (this.analysis) this.analysis.stop();
    this.analysis = new AnalysisPoller(go.analysis_url, () => this.render());
    this.analysis.gameId = go.game_id;
  }
}
