// The two-player games' part of the table page (table.js): Schnapsen, scharf, Sechsundsechzig and Schnorps, also
// each game of a Schnorps round of three or four (round.js). The opponent at the top, the talon with the trump card
// across it, the trick, the own hand below; the buttons to exchange the trump, close (Schnorps: decken), declare
// marriages and go out; the score in Bummerl or Marken, the marriages shown, the log, the keys.
//
//   const part = new TalonTable(page);    // page: the TablePage, whose state, names and sending it uses
//   root.replaceChildren(part.build(state));
//   part.onKey(event);                     // 1-6, M, T, Z, G, N, Esc
//
// Legality is never computed here: a card or button is enabled exactly when its token is in the server's `legal`
// list. Whose words the variant uses (Zudrehen/Genug or Decken/Weglegen) is the view's `variant.traits.terms`.

import { analysisBlock } from "./analysis.js";
import { cardName, suitName } from "./cards.js";
import { t } from "./i18n.js";
import {
  actionText,
  cardBack,
  cardButton,
  cardFace,
  classifyLegal,
  h,
  marriageWord,
  pointsText,
  reasonText,
  sortHand,
  traits,
  trumpBadge,
  variantLine,
} from "./render.js";
import { paymentText, roleText, roundEventText, roundScoreboard, roundWonText } from "./round.js";
import { rulesLink } from "./rules.js";
import { sheetDownloads, sheetPanel } from "./sheet.js";
import { trickBox } from "./trick.js";

export class TalonTable {
  /** `page`: the table page (its state, names, sending, the kept result, the sheet). */
  constructor(page) {
    this.page = page;
    this.marriageMode = false;
  }

  get faces() {
    return this.page.faces;
  }

  get lang() {
    return this.page.lang;
  }

  /** Schnorps's words (Decken, Weglegen) instead of Zudrehen and Genug. */
  get schnorpsTerms() {
    return traits(this.page.state && this.page.state.view).terms === "schnorps";
  }

  card(code) {
    return cardName(code, this.faces, this.lang);
  }

  /** A new state: the marriage mode ends when no marriage is allowed any more. */
  onState(message) {
    if (!message.legal || !message.legal.some((x) => x.startsWith("marry:"))) this.marriageMode = false;
  }

  acted() {
    this.marriageMode = false;
  }

  /** The hand in the order drawn (trumps first): the keys 1-6 play by this order. */
  handOrder() {
    const v = this.page.state && this.page.state.view;
    if (!v || !v.hand) return [];
    return sortHand(v.hand, v.trump);
  }

  // ------------------------------------------------------------------ keyboard
  onKey(event) {
    const page = this.page;
    const s = page.state;
    const key = event.key.toLowerCase();
    const legal = classifyLegal(s.legal);
    if (/^[1-9]$/.test(key)) {
      const code = this.handOrder()[Number(key) - 1];
      if (!code) return false;
      if (this.marriageMode) {
        if (legal.marriages.has(code)) page.act(legal.marriages.get(code));
      } else if (legal.plays.has(code)) {
        page.act(code);
      }
      return true;
    }
    switch (key) {
      case "m":
        if (legal.marriages.size === 1) page.act([...legal.marriages.values()][0]);
        else if (legal.marriages.size > 1) {
          this.marriageMode = !this.marriageMode;
          page.render();
        }
        return true;
      case "t":
        if (legal.exchange) page.act("exchange");
        return true;
      case "z":
        if (legal.close) page.act("close");
        return true;
      case "g":
        if (legal.declare) page.act("declare");
        else if (legal.declareWith.length === 1) page.act(`declare:${legal.declareWith[0]}`);
        return true;
      case "n":
        if (s.game_over && s.game_over.next_game && s.role === "player") {
          page.nextGame();
          return true;
        }
        return false;
      case "escape":
        if (this.marriageMode) {
          this.marriageMode = false;
          page.render();
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  // ------------------------------------------------------------------ drawing
  /** The whole table of state `s`: the board, the panel after a game, the side with score, sheet and log. */
  build(s) {
    const page = this.page;
    const root = h("section", { class: "table-page", "aria-label": t("table_area") });
    root.append(...page.banners());
    const board = h("div", { class: "board" });
    board.append(this.statusLine());
    // The result at the top of the table: seen at once, also on a phone (the details follow below the table).
    if (page.kept) board.append(this.resultBanner(page.kept.state, true));
    else if (s.game_over) board.append(this.resultBanner(s, false));
    board.append(this.seatArea(1 - page.bottomSeat, "top"));
    board.append(this.middle());
    board.append(this.seatArea(page.bottomSeat, "bottom"));
    board.append(this.actionBar());
    const say = (token) => actionText(token, { faces: this.faces, lang: this.lang, marriages: s.marriage_values });
    board.append(page.help.element(s, { lang: this.lang, say }));
    const side = h(
      "aside",
      { class: "side" },
      page.round ? roundScoreboard(page) : this.scoreboard(),
      sheetPanel(page.sheet || null, page.sheetNames),
      this.marriagesPanel(),
      this.logPanel(),
      this.keysPanel(),
    );
    // The rules of this table's variant with its house rules (rules.js), one tap away.
    const variant = s.view.variant;
    root.append(
      h(
        "div",
        { class: "table-tools" },
        variantLine(variant, page.variants, page.facts),
        rulesLink(variant, { table: page.tableId }),
      ),
    );
    // The panel after a game stands right below the table (on a phone before the score and the log).
    let over = null;
    if (page.kept) over = this.gameOverPanel(page.kept.state, page.kept.analysis);
    else if (s.game_over) over = this.gameOverPanel(s, page.analysis);
    root.append(h("div", { class: "table-layout" }, board, over, side));
    return root;
  }

  /** Who won the Bummerl (the match), once a game ended it; else null. */
  matchText(s) {
    const page = this.page;
    const m = s.match || {};
    if (page.round) return s.game_over && s.game_over.match_over ? roundWonText(page, m.winners, m.balance) : null;
    if (!s.game_over || !s.game_over.match_over || m.winner === null || m.winner === undefined) return null;
    const name = (seat) => page.nameOf(seat);
    let text;
    if (m.kind === "marken") {
      text = t("match_won_marken", { name: name(m.winner), a: m.standing[m.winner], b: m.standing[1 - m.winner] });
    } else if (m.winner === page.mySeat) {
      text = t("match_won_you", { name: name(1 - m.winner) });
    } else if (1 - m.winner === page.mySeat) {
      text = t("match_lost_you", { name: name(m.winner) });
    } else {
      text = t("match_won_other", { name: name(m.winner), loser: name(1 - m.winner) });
    }
    return m.schneider ? `${text} ${t("schneider")}` : text;
  }

  /** The result of a game in two lines at the top of the table; a kept one (the next game runs) can be closed. */
  resultBanner(state, kept) {
    const page = this.page;
    const result = state.game_over.result || state.view.result;
    const box = h(
      "div",
      { class: `result-banner${kept ? " kept" : ""}`, role: "status", id: kept ? "result-kept" : "result-banner" },
      h("div", { class: "result-banner-line" }, this.resultText(result)),
      h("div", { class: "result-banner-reason" }, this.reasonText(result, state.view)),
    );
    const pay = paymentText(page, result);
    if (pay) box.append(h("div", { class: "result-banner-reason round-pays" }, pay));
    const matchText = this.matchText(state);
    if (matchText && !page.round) {
      // A lost Bummerl is no success: its line is told in the loss's colour, a won one in the felt's green.
      const winner = (state.match || {}).winner;
      const mine = page.mySeat === null || page.mySeat === undefined ? "" : winner === page.mySeat ? " won" : " lost";
      box.append(h("div", { class: `result-banner-match${mine}`, id: "result-match" }, matchText));
    }
    if (kept) {
      const close = () => (page.closeKept(), page.render());
      box.append(
        h("div", { class: "result-banner-note" }, t("d_result_kept")),
        h("button", { type: "button", class: "result-close", onclick: close }, t("d_close")),
      );
    }
    return box;
  }

  statusLine() {
    const page = this.page;
    const s = page.state;
    const line = h("div", { class: "status-line", role: "status", "aria-live": "polite" });
    if (s.status === "waiting") {
      const urls = Object.entries(page.inviteUrls());
      if (page.round || urls.length > 1) {
        // A round of three or four: an invitation link per open seat.
        line.append(t("tg_waiting"));
        for (const [seat, url] of urls) {
          const field = page.copyField(url, `invite-${seat}`);
          line.append(h("div", { class: "round-invite" }, t("tg_invite", { n: Number(seat) + 1 }), " ", field));
        }
        return line;
      }
      if (s.role !== "player") line.append(h("span", { class: "spectating" }, t("spectating"), " "));
      line.append(t("waiting_friend"), " ");
      if (urls.length) line.append(page.copyField(urls[0][1], "invite"));
      return line;
    }
    if (page.waiting) line.append(h("span", { class: "spectating round-waiting" }, t("sr_you_wait"), " "));
    else if (s.role !== "player") line.append(h("span", { class: "spectating" }, t("spectating"), " "));
    if (s.game_over) {
      line.append(t("game_over"));
    } else if (s.your_turn) {
      line.append(h("strong", {}, t("your_turn")));
    } else if (s.to_move !== null && s.to_move !== undefined) {
      // A seat the clock's bot took over (also one's own: "Du ist am Zug" would be wrong) is played by the computer.
      const seat = page.round ? (page.round.players || [])[s.to_move] : s.to_move;
      if ((s.taken_over || []).includes(seat)) line.append(t("clock_stand_in_turn", page.tablePerson(seat)));
      else line.append(t("their_turn", { name: page.nameOf(s.to_move) }));
    }
    if (this.marriageMode) line.append(" ", h("em", {}, t("choose_marriage")));
    return line;
  }

  /** A seat's name and cards: the own hand as buttons (an accessible group), the other's face down. */
  seatArea(seat, where) {
    const page = this.page;
    const s = page.state;
    const v = s.view;
    const area = h("div", { class: `seat seat-${where}`, dataset: { seat: String(seat) } });
    const label = h("div", { class: "seat-name" }, page.nameOf(seat));
    // In a round the dealer does not play: each game seat says its role instead.
    if (page.round) label.append(" ", h("span", { class: "round-chip" }, roleText(seat, seat === page.mySeat)));
    else if (v.dealer === seat) label.append(" ", h("span", { class: "dealer-chip" }, t("dealer_chip")));
    if (s.to_move === seat && !s.game_over) label.classList.add("to-move");
    area.append(label);
    const row = h("div", { class: "hand", role: "group" });
    if (seat === page.mySeat) {
      row.setAttribute("aria-label", t("your_hand"));
      const legal = classifyLegal(s.legal);
      this.handOrder().forEach((code, i) => {
        const canMarry = legal.marriages.has(code);
        const enabled = this.marriageMode ? canMarry : legal.plays.has(code);
        row.append(
          cardButton(code, {
            faces: this.faces,
            lang: this.lang,
            enabled: enabled && page.canAct,
            key: String(i + 1),
            cls: canMarry ? "can-marry" : "",
            onClick: (c) => (this.marriageMode ? page.act(legal.marriages.get(c)) : page.act(c)),
          }),
        );
      });
    } else {
      row.setAttribute("aria-label", t("hand_of", { name: page.nameOf(seat) }));
      // The opponent's cards: those this player knows face up (a shown marriage card, an exchanged trump),
      // the rest face down. A spectator knows none.
      const known = seat === page.mySeat ? [] : sortHand(v.opponent_known || [], v.trump);
      const size = this.handSize(seat);
      for (const code of known) row.append(cardFace(code, { faces: this.faces, lang: this.lang, cls: "small known" }));
      for (let i = known.length; i < size; i++) row.append(cardBack({ cls: "small" }));
    }
    area.append(row);
    return area;
  }

  handSize(seat) {
    const page = this.page;
    const v = page.state.view;
    if (Array.isArray(v.hand_sizes)) return v.hand_sizes[seat];
    if (seat === page.mySeat) return v.hand.length;
    return v.opponent_hand_size;
  }

  /** The middle: the talon with the trump card across it, the trick, the last trick while a new one is led. */
  middle() {
    const page = this.page;
    const v = page.state.view;
    const o = { faces: this.faces, lang: this.lang };
    const mid = h("div", { class: "middle" });
    const closed = v.closed_by !== null && v.closed_by !== undefined;
    const stock = h("div", { class: "stock", "aria-label": t("talon") });
    stock.append(h("div", { class: "stock-title" }, trumpBadge(v.trump, o)));
    const pile = h("div", { class: "pile" });
    if (v.trump_card) pile.append(cardFace(v.trump_card, { ...o, cls: `trump-card${closed ? " turned" : ""}` }));
    if (v.talon_size > 0)
      pile.append(cardBack({ cls: "talon-top", label: `${t("talon")}: ${t("talon_cards", { n: v.talon_size })}` }));
    stock.append(pile);
    let caption;
    if (closed) {
      caption = t(this.schnorpsTerms ? "talon_covered" : "talon_closed", page.person(v.closed_by));
    } else if (v.talon_size === 0 && !v.trump_card) {
      caption = t("talon_empty");
    } else {
      caption = `${t("talon")}: ${t("talon_cards", { n: v.talon_size + (v.trump_card ? 1 : 0) })}`;
    }
    stock.append(h("div", { class: "stock-caption" }, caption));
    mid.append(stock);

    // The trick: the card led now, or the last trick until the next card is led.
    const where = { [page.bottomSeat]: "bottom", [1 - page.bottomSeat]: "top" };
    const last = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
    if (v.lead) {
      mid.append(trickBox([{ seat: v.leader, card: v.lead }], where, o));
    } else if (last) {
      const cards = [
        { seat: last.leader, card: last.lead },
        { seat: 1 - last.leader, card: last.follow },
      ];
      const taken = `${t("last_trick")} ${t("trick_to", { name: page.nameOf(last.winner) })}`;
      mid.append(trickBox(cards, where, o, { caption: taken }));
    } else {
      mid.append(trickBox([], where, o));
    }
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
            cardFace(last.lead, { ...o, cls: "mini" }),
            cardFace(last.follow, { ...o, cls: "mini" }),
          ),
          h("div", { class: "mini-title" }, t("trick_to", { name: page.nameOf(last.winner) })),
        ),
      );
    }
    return mid;
  }

  /** The buttons under the hand: marriages, exchange, close, go out, the next game. */
  actionBar() {
    const page = this.page;
    const s = page.state;
    const bar = h("div", { class: "actions", role: "toolbar", "aria-label": "actions" });
    if (s.role !== "player") return bar;
    const legal = classifyLegal(s.legal);
    const v = s.view;
    const schnorps = this.schnorpsTerms;
    const button = (label, key, onclick, fkey, extra = {}) =>
      h(
        "button",
        { type: "button", class: "action", onclick, dataset: { fkey, action: fkey }, disabled: !page.canAct, ...extra },
        label,
        key ? h("kbd", { "aria-hidden": "true" }, key) : null,
      );
    if (legal.marriages.size) {
      const suits = [...new Set([...legal.marriages.keys()].map((c) => c.slice(-1)))];
      for (const suit of suits) {
        const value = marriageWord((s.marriage_values || {})[suit]);
        for (const [card, token] of legal.marriages) {
          if (card.slice(-1) !== suit) continue;
          const text = t("act_marriage", { value, card: this.card(card) });
          bar.append(button(text, "M", () => page.act(token), token, { class: "action marriage" }));
        }
      }
    }
    if (legal.exchange) {
      const title = v.trump_card ? this.card(v.trump_card) : null;
      bar.append(button(t("act_exchange"), "T", () => page.act("exchange"), "exchange", { title }));
    }
    if (legal.close) {
      bar.append(button(t(schnorps ? "act_close_schnorps" : "act_close"), "Z", () => page.act("close"), "close"));
    }
    if (legal.declare) {
      const text = t(schnorps ? "act_declare_schnorps" : "act_declare");
      bar.append(button(text, "G", () => page.act("declare"), "declare", { class: "action declare" }));
    }
    for (const suit of legal.declareWith) {
      const token = `declare:${suit}`;
      const text = actionText(token, { faces: this.faces, lang: this.lang, marriages: s.marriage_values });
      bar.append(button(text, "G", () => page.act(token), token, { class: "action declare" }));
    }
    if (this.marriageMode) {
      bar.append(button(t("cancel"), "Esc", () => ((this.marriageMode = false), page.render()), "cancel"));
    }
    if (s.game_over && s.game_over.next_game) {
      const text = t(s.game_over.match_over ? "new_bummerl" : "next_game");
      bar.append(button(text, "N", () => page.nextGame(), "next_game", { class: "action primary" }));
    }
    return bar;
  }

  /** The score as players keep it: Bummerl counting down (or Marken), Bummerl won, Augen, tricks. */
  scoreboard() {
    const page = this.page;
    const s = page.state;
    const m = s.match || {};
    const v = s.view;
    const seatsInOrder = [page.bottomSeat, 1 - page.bottomSeat];
    const cols = seatsInOrder.map((p) => h("th", { scope: "col" }, page.nameOf(p)));
    const head = h("tr", {}, h("th", { scope: "col" }, ""), cols);
    // One row per count the state has, each seat's number under its name.
    const row = ([label, values, cls]) =>
      h(
        "tr",
        { class: cls },
        h("th", { scope: "row" }, label),
        ...seatsInOrder.map((p) => h("td", {}, String(values[p]))),
      );
    const marken = m.kind === "marken";
    const rows = [
      [t(marken ? "score_marken" : "score_bummerl"), m.standing || [null, null], "standing"],
      [t("bummerl_won"), m.matches_won, "matches"],
      [t("augen"), v.augen, "augen"],
      [t("tricks"), v.tricks_won, "tricks"],
    ]
      .filter(([, values]) => values)
      .map(row);
    const table = h(
      "table",
      { class: "score" },
      h("caption", {}, t("score")),
      h("thead", {}, head),
      h("tbody", {}, rows),
    );
    const box = h("section", { class: "panel score-panel" }, table);
    const notes = [];
    box.append(
      h(
        "p",
        { class: "score-notes" },
        t(marken ? "score_marken_note" : "score_bummerl_note", { target: m.target ?? 7 }),
      ),
    );
    if (m.game_no) notes.push(t("game_no", { n: m.game_no }));
    notes.push(t("dealer", { name: page.nameOf(v.dealer) }));
    if (m.multiplier && m.multiplier > 1) notes.push(t("multiplier", { m: m.multiplier }));
    box.append(h("p", { class: "score-notes" }, notes.join(" · ")));
    if (!v.augen) box.append(h("p", { class: "score-notes" }, t("augen_hidden")));
    return box;
  }

  marriagesPanel() {
    const page = this.page;
    const v = page.state.view;
    const box = h("section", { class: "panel marriages-panel" }, h("h2", {}, t("marriages")));
    if (!v.marriages || !v.marriages.length) {
      box.append(h("p", { class: "muted" }, "–"));
      return box;
    }
    for (const m of v.marriages) {
      const text = t("marriage_item", {
        name: page.nameOf(m.seat),
        value: marriageWord((page.state.marriage_values || {})[m.suit]),
        suit: suitName(m.suit, this.faces, this.lang),
      });
      box.append(
        h(
          "div",
          { class: "marriage-item" },
          cardFace(`K${m.suit}`, { faces: this.faces, lang: this.lang, cls: "mini" }),
          cardFace(`Q${m.suit}`, { faces: this.faces, lang: this.lang, cls: "mini" }),
          h("span", {}, text),
        ),
      );
    }
    return box;
  }

  /** One event of the log in words (null: not shown, e.g. a card drawn). */
  eventText(e) {
    const page = this.page;
    const shared = page.sharedEventText(e); // the clock's moves, phrases (table.js)
    if (shared !== null) return shared;
    if (page.round) {
      const text = roundEventText(page, e);
      if (text) return text;
    }
    const person = (seat) => page.person(seat);
    const v = page.state.view;
    switch (e.type) {
      case "play":
        return t(e.lead ? "ev_lead" : "ev_follow", { ...person(e.seat), card: this.card(e.card) });
      case "trick":
        // Scharf: "Abgelegte Stiche dürfen nichtmehr angesehen werden" (seeds/000) — no Augen to count from.
        return t("ev_trick", { ...person(e.winner), augen: v.augen === null ? undefined : e.augen });
      case "marriage":
        return t("ev_marriage", {
          ...person(e.seat),
          value: marriageWord(e.value),
          suit: suitName(e.suit, this.faces, this.lang),
        });
      case "exchange":
        return t("ev_exchange", { ...person(e.seat), took: this.card(e.took), gave: this.card(e.gave) });
      case "close":
        return t("ev_close", person(e.seat));
      case "declare":
        return t("ev_declare", person(e.seat));
      case "game_start":
        return t("ev_game_start", { game_no: e.game_no, dealer: page.nameOf(e.dealer) });
      case "game_end": {
        const text = this.resultText(e.result);
        const pay = paymentText(page, e.result);
        return pay ? `${text} ${pay}` : text;
      }
      case "match_end":
        return t("ev_match_end", person(e.winner)) + (e.schneider ? ` ${t("schneider")}` : "");
      case "joined":
        return t("ev_joined", { name: e.name || page.nameOf(e.seat) });
      default:
        // E.g. "draw": the own card is in the hand, the other's is not told. Unknown kinds are not shown.
        return null;
    }
  }

  resultText(result) {
    if (!result) return "";
    if (result.winner === null || result.winner === undefined) return t("res_stand");
    return t("res_win", { ...this.page.person(result.winner), points: pointsText(result.points, result.unit) });
  }

  reasonText(result, view) {
    return reasonText(result, {
      person: (p) => this.page.person(p),
      closedBy: view.closed_by,
      variant: view.variant,
    });
  }

  logPanel() {
    // Focusable: a log longer than its box scrolls, and the keyboard must reach it (WCAG 2.1.1).
    const list = h("ul", { class: "log", "aria-live": "polite", tabindex: "0" });
    for (const e of this.page.log.slice(-30)) {
      const text = this.eventText(e);
      if (text) list.append(h("li", { class: `ev-${e.type}` }, text));
    }
    return h("section", { class: "panel log-panel" }, h("h2", {}, t("log")), list);
  }

  keysPanel() {
    const page = this.page;
    // Open or closed as the player left it: the page redraws at every update.
    const box = h(
      "details",
      { class: "panel keys-panel", open: page.keysOpen, ontoggle: (e) => (page.keysOpen = e.target.open) },
      h("summary", {}, t("keys_heading")),
      h("p", {}, t("keys_text")),
    );
    box.append(h("p", {}, page.copyField(`${location.origin}/#/watch/${page.tableId}`, "watch"), " ", t("watch_link")));
    return box;
  }

  /** The panel after a game: of the state on the table, or of a kept one (`state`, with its `analysis`). */
  gameOverPanel(s, analysis) {
    const page = this.page;
    const go = s.game_over;
    const v = s.view;
    const result = go.result || v.result;
    const kept = s !== page.state;
    const box = h("section", { class: `panel game-over${kept ? " kept" : ""}`, "aria-labelledby": "game-over-title" });
    box.append(h("h2", { id: "game-over-title" }, t("game_over")));
    if (kept) {
      const close = () => (page.closeKept(), page.render());
      box.append(
        h(
          "p",
          { class: "kept-note" },
          t("d_result_kept"),
          " ",
          h("button", { type: "button", class: "result-close", onclick: close }, t("d_close")),
        ),
      );
    }
    box.append(h("p", { class: "result-line" }, this.resultText(result)));
    const pay = paymentText(page, result);
    if (pay) box.append(h("p", { class: "round-pays" }, pay));
    const matchText = this.matchText(s);
    if (matchText && page.round) box.append(h("p", { class: "match-line round-match" }, matchText));
    box.append(h("p", {}, this.reasonText(result, v)));
    if (result && result.augen) {
      const b = page.bottomSeat;
      const a = `${page.nameOf(b)} ${result.augen[b]}`;
      box.append(h("p", {}, t("final_augen", { a, b: `${result.augen[1 - b]} ${page.nameOf(1 - b)}` })));
    }
    if (matchText && !page.round) box.append(h("p", { class: "match-line" }, matchText));
    // Both hands as dealt.
    if (go.hands_at_deal) {
      const hands = h("div", { class: "dealt" }, h("h3", {}, t("hands_at_deal")));
      for (const seat of [page.bottomSeat, 1 - page.bottomSeat]) {
        const name = page.nameOf(seat);
        const row = h("div", { class: "hand dealt-hand", role: "group", "aria-label": t("hand_of", { name }) });
        for (const code of sortHand(go.hands_at_deal[seat], v.trump)) {
          row.append(cardFace(code, { faces: this.faces, lang: this.lang, cls: "mini" }));
        }
        hands.append(h("div", { class: "dealt-row" }, h("span", { class: "dealt-name" }, name), row));
      }
      if (go.trump_card) hands.append(h("p", {}, t("trump_card_dealt", { card: this.card(go.trump_card) })));
      box.append(hands);
    }
    // The record.
    const recordUrl = `/api/games/${encodeURIComponent(go.game_id)}/record?format=text`;
    const rec = h(
      "details",
      { class: "record", open: page.recordOpen, ontoggle: (e) => (page.recordOpen = e.target.open) },
      h("summary", {}, t("record")),
      h(
        "p",
        {},
        h("a", { href: recordUrl, download: `bummerl-${go.game_id}.txt`, class: "download" }, t("download_record")),
      ),
      page.sheet ? sheetDownloads(page.sheet, page.sheetNames) : null,
    );
    if (go.record) rec.append(h("pre", { class: "record-text" }, go.record));
    box.append(rec);
    const person = (p) => page.person(p);
    box.append(analysisBlock(analysis, { faces: this.faces, lang: this.lang, marriages: s.marriage_values, person }));
    return box;
  }
}
