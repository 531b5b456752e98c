// The table page, for every variant: one WebSocket, the server's `state` messages drawn as a card table, actions
// sent back.
//
//   const page = new TablePage(root, tableId, { spectator: false, ctx, socket });
//   page.render();      // again after a change of language or faces
//   page.destroy();     // closes the socket
//
// The page holds what every table has: the connection and its banners, the order of the states (a taken trick
// stays in view for a moment), the log, the result of a game kept after another player dealt on, the seats' names,
// invitations, hints, motion. The table itself is drawn by the part of its family, chosen by the variant's traits
// (`view.variant.traits.seats`): talon.js for two seats (also each game of a Schnorps round of three or four,
// round.js), bidding.js for the table games of three and four seats; both lay the trick out with trick.js and put
// the Bummerl sheet (sheet.js) beside the table.
//
// Legality is never computed here: a card or button is enabled exactly when its token is in the server's `legal`
// list, and the hands, the known cards and everything else come from the server's view.

import { AnalysisPoller } from "./analysis.js";
import { absoluteUrl, api, seats, TableSocket } from "./api.js";
import { BiddingTable } from "./bidding.js";
import { TableClock, timeoutText } from "./clock.js";
import { TableHelp } from "./hints.js";
import { t } from "./i18n.js";
import { h, seatNames, tableBanners, traits, variantList } from "./render.js";
import { motionPlay, motionSnapshot } from "./motion.js";
import { phraseLine, TablePhrases } from "./phrases.js";
import { claimSeat } from "./profile.js";
import { TalonTable } from "./talon.js";

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

/** How many seats play a game of the variant of `view` (2 where the server sent no traits: a two-player view). */
function gameSeats(view) {
  return traits(view).seats || (view && view.players) || 2;
}

export class TablePage {
  /** `socket`: the table's open TableSocket (the route that opened it), else a new one. */
  constructor(root, tableId, { spectator, ctx, socket = null }) {
    this.root = root;
    this.tableId = tableId;
    this.ctx = ctx; // { faces, lang } getters
    const stored = spectator ? null : seats.get(tableId);
    this.token = stored ? stored.token : null;
    // The seat is recorded for this browser's player once (its statistics count the games here): profile.js.
    if (stored) claimSeat(tableId);
    this.state = null;
    this.part = null; // the family's part (TalonTable or BiddingTable), made at the first state
    this.lastSeq = -1;
    this.log = [];
    this.trickOpen = false;
    this.connection = "connecting";
    this.retrySeconds = 0;
    this.error = null;
    this.analysis = null; // an AnalysisPoller once a game is over
    this.sendLock = false;
    this.queue = [];
    this.holdUntil = 0;
    this.drainTimer = null;
    // Issue 13 (area D): the variant's title for the header, what stays open across updates, the result of a
    // game that another player's "next game" replaced (kept until this player closes it).
    this.variants = [];
    variantList().then((list) => {
      this.variants = list;
      this.render();
    });
    this.keysOpen = false;
    this.recordOpen = false;
    this.kept = null; // { state, analysis }: the last game's result, kept after another player dealt the next
    this.nextSent = false;
    this.invites = null; // the open invitations as the server last said
    this.facts = { rated: false, moveSeconds: null }; // the welcome's: a rated table, its time per move
    this.invitesAsked = -1;
    // Hints, the learning mode and the question before going out (hints.js); it sends through the table's socket.
    this.help = new TableHelp({ socket: null, render: () => this.render() });
    // The move clock's countdown and the phrases (clock.js, phrases.js): drawn onto the family's table.
    this.clock = new TableClock(this);
    this.phrases = new TablePhrases(this);
    const handlers = { onMessage: (m) => this.onMessage(m), onStatus: (kind, info) => this.onStatus(kind, info) };
    if (socket) socket.attach(handlers);
    this.socket = socket || new TableSocket(tableId, this.token, handlers);
    this.help.socket = this.socket;
    this.render();
  }

  destroy() {
    this.socket.close();
    this.help.destroy();
    this.clock.destroy();
    this.phrases.destroy();
    if (this.analysis) this.analysis.stop();
    if (this.kept && this.kept.analysis) this.kept.analysis.stop();
    clearTimeout(this.drainTimer);
  }

  // ------------------------------------------------------------------ messages
  onStatus(kind, info = {}) {
    // While retrying, a new attempt is still "reconnecting" for the player, until the server answers.
    if (kind === "connecting" && this.connection === "retry") return;
    if (kind === "gone") seats.forget(this.tableId);
    this.connection = kind;
    this.retrySeconds = info.seconds || 0;
    this.render();
  }

  onMessage(message) {
    if (this.help.onMessage(message)) return;
    if (this.phrases.onMessage(message)) return;
    if (message.type === "welcome") {
      // A new connection (perhaps to a restarted server): its first state is always shown, at once.
      this.lastSeq = -1;
      this.queue = [];
      this.holdUntil = 0;
      // What happened so far in this game, from the server's stored events: the log survives a reload.
      if (Array.isArray(message.log)) this.restoreLog(message.log);
      // What the table's line tells besides its rules: a rated table, its time per move.
      this.facts = { rated: Boolean(message.rated), moveSeconds: message.move_seconds || null };
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
    message.receivedAt = performance.now(); // the clock counts down from here, also while the state waits its turn
    this.queue.push(message);
    this.drain();
  }

  /**
   * Show queued states in order. At two seats a trick just taken stays on the table for a moment (`pace()` ms)
   * before the next state replaces it, so a player can see the card a quick bot answered with (at three and four
   * the table shows the last trick until the next card is led).
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
      const two = gameSeats(message.view) === 2;
      this.holdUntil = two && taken && !(message.view && message.view.lead) ? Date.now() + pace() : 0;
    }
  }

  showState(message) {
    if (typeof message.seq === "number" && message.seq <= this.lastSeq && this.state) {
      // An older or repeated state (e.g. after a reconnect raced a broadcast): the newer one is shown.
      return;
    }
    this.lastSeq = typeof message.seq === "number" ? message.seq : this.lastSeq;
    if (!this.part) this.part = gameSeats(message.view) === 2 ? new TalonTable(this) : new BiddingTable(this);
    this.keepResult(message);
    if (!message.events || message.events.length === 0) {
      // E.g. the first state after hello: the view shows the table; note whether a trick is half played.
      this.trickOpen = Boolean(message.view && message.view.lead);
    }
    // A table game's log starts again with each deal (as the server's `welcome.log` does).
    const before = this.state && this.state.view;
    if (before && before.phase === "over" && message.view && message.view.phase !== "over") this.log = [];
    for (const event of message.events || []) this.addEvent(event);
    // A friend took a seat: the invitations still open are asked for again.
    if ((message.events || []).some((e) => e.type === "joined")) this.invitesAsked = -1;
    this.state = message;
    if (message.sheet) this.sheet = message.sheet; // sent when it changed (a deal, a game's end)
    this.help.onState(message);
    this.clock.onState(message);
    this.sendLock = false;
    this.error = null;
    if (this.part.onState) this.part.onState(message);
    if (message.game_over && message.game_over.game_id) this.startAnalysis(message.game_over);
    this.render();
  }

  /**
   * A new deal replaced a game's result that this player has not dealt on from: another player pressed "next
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
    this.error = null;
    if (this.socket.send(message)) {
      // One action per state: a double click must not send a second action for the same position.
      this.sendLock = true;
    }
    this.render();
  }

  /** Deal the next game: this player's own choice, so no result is kept for them. */
  nextGame() {
    this.nextSent = true;
    this.closeKept();
    this.send({ type: "next_game" });
  }

  act(token, confirmed = false) {
    const s = this.state;
    if (!s || !token || !(s.legal || []).includes(token)) return;
    // A declaration the server says loses (or any, where the Augen are hidden) is asked about first.
    const ask = { schnorps: traits(s.view).terms === "schnorps", table: gameSeats(s.view) > 2 };
    if (!confirmed && this.help.asks(s, token, () => this.act(token, true), ask)) return;
    if (this.part.acted) this.part.acted(token);
    this.help.acted(s, token);
    this.send({ type: "action", action: token });
  }

  // ------------------------------------------------------------------ keyboard
  onKey(event) {
    if (!this.state || !this.part || !this.part.onKey || event.ctrlKey || event.metaKey || event.altKey) return false;
    return this.part.onKey(event);
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

  /** The round of a Schnorps table of three or four (`state.match`: participants, players by game seat), else null. */
  get round() {
    const m = this.state && this.state.match;
    return m && m.kind === "round" ? m : null;
  }

  /** This connection's seat at the table (a participant of a round); null: a spectator. */
  get participant() {
    const s = this.state;
    return s && s.role === "player" && s.seat !== undefined ? s.seat : null;
  }

  /** This connection's seat in the game on the table; null while it watches (or waits, in a round). */
  get mySeat() {
    const s = this.state;
    if (!s || s.role !== "player") return null;
    if (this.round) return s.game_seat ?? null;
    return s.seat ?? null;
  }

  /** A participant of a round who sits this game out. */
  get waiting() {
    return this.participant !== null && this.mySeat === null;
  }

  /** The seat drawn at the bottom: one's own, or seat 0 for a spectator. */
  get bottomSeat() {
    return this.mySeat === null ? 0 : this.mySeat;
  }

  /** Table seat `p` by name: "Du", a player's name, a bot's (numbered where two bots share a name). */
  seatName(p) {
    if (p === null || p === undefined) return "";
    if (p === this.participant) return t("You");
    const names = seatNames((this.state && this.state.players) || []);
    return names[p] || t("seat_n", { n: p + 1 });
  }

  /** Game seat `seat` by name: its participant in a round, else the table's seat. */
  nameOf(seat) {
    if (seat === null || seat === undefined) return "";
    return this.seatName(this.round ? (this.round.players || [])[seat] : seat);
  }

  /** The table seat of a drawn `.seat` element (its `data-seat` is a game seat, which in a round is not the table's). */
  tableSeatOf(el) {
    const seat = Number(el.dataset.seat);
    return this.round ? (this.round.players || [])[seat] : seat;
  }

  /** Table seat `p` as the log's sentences take a person: `{ you, name }`. */
  tablePerson(p) {
    return { you: p !== null && p === this.participant, name: this.seatName(p) };
  }

  /** The log's line of what every family's table shows alike (the clock's moves, phrases), else null. */
  sharedEventText(e) {
    if (e.type === "timeout") return timeoutText(e, (p) => this.tablePerson(p));
    if (e.type === "phrase") return phraseLine(e, (p) => this.tablePerson(p));
    return null;
  }

  person(seat) {
    return { you: seat !== null && seat !== undefined && seat === this.mySeat, name: this.nameOf(seat) };
  }

  /** The page's `{ faces, lang, marriages, name }` for the drawing functions of the families. */
  get o() {
    const marriages = (this.state && this.state.marriage_values) || {};
    return { faces: this.faces, lang: this.lang, marriages, name: (seat) => this.nameOf(seat) };
  }

  /** How the Bummerl sheet calls a seat (the same words as the table). */
  get sheetNames() {
    return { name: (seat) => this.seatName(seat), tableId: this.tableId };
  }

  // ------------------------------------------------------------------ invitations
  /** The open invitations by seat (absolute links), asked from the server again whenever a friend has joined. */
  inviteUrls() {
    const stored = this.token ? seats.get(this.tableId) : null;
    const joined = ((this.state && this.state.players) || []).filter((p) => p.joined).length;
    if (this.token && this.invitesAsked !== joined) {
      this.invitesAsked = joined;
      api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/invite`, undefined, {
        Authorization: `Bearer ${this.token}`,
      })
        .then(({ data }) => {
          this.invites = data.invite_urls || {};
          this.render();
        })
        .catch(() => {});
    }
    let urls = this.invites || (stored && stored.invite_urls) || {};
    if (!Object.keys(urls).length && stored && stored.invite_url) urls = { 1: stored.invite_url };
    return Object.fromEntries(Object.entries(urls).map(([seat, url]) => [seat, absoluteUrl(url)]));
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

  // ------------------------------------------------------------------ drawing
  render() {
    const focusKey =
      document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fkey : null;
    const before = motionSnapshot(this.root);
    this.root.replaceChildren(this.build());
    motionPlay(this.root, before, this.motionHints());
    this.help.decorate(this.root);
    this.clock.decorate(this.root);
    this.phrases.decorate(this.root);
    // The newest events are at the end of the log: keep them in sight.
    for (const log of this.root.querySelectorAll(".log")) log.scrollTop = log.scrollHeight;
    if (focusKey) {
      const again = this.root.querySelector(`[data-fkey="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  build() {
    const s = this.state;
    if (this.connection === "gone" || !s) {
      const page = h("section", { class: "table-page", "aria-label": t("table_area") });
      page.append(...this.banners());
      const gone = this.connection === "gone";
      page.append(h("p", { class: gone ? "notice error" : "notice" }, gone ? t("table_unknown") : t("connecting")));
      return page;
    }
    return this.part.build(s);
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
      mySeat: this.participant,
      name: (p) => this.seatName(p),
    });
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
