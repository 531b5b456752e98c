// Help at the table (issue 13): the expert's hint ("Tipp"), the learning mode, the hints agreement at a table where
// several people play, and the question before going out with too few Augen.
//
//   this.help = new TableHelp({ socket, render: () => this.render() });
//   onMessage(m):   if (this.help.onMessage(m)) return;     // `hint`, `review` and the errors about them
//   a new state:    this.help.onState(state);                // the learning mode asks for its review here
//   act(token):     if (this.help.asks(state, token, () => this.act(token, true))) return;
//                   this.help.acted(state, token);
//   drawing:        box.append(this.help.element(state, { say, schnorps, table }));
//   after drawing:  this.help.decorate(root);                // marks the advised card or button
//
// Nothing is judged here. The server computes a hint from the seat's view alone and says whether hints are allowed
// (`state.hints`: every person at the table has agreed, or bots are the only others); it says whether going out now
// wins (`state.declare_check`: the engine scores the declaration, so the 66 rule is never restated here), and in
// Schnapsen scharf it does not say it: the count is what that variant hides (docs/web-ui.md, "Help at the table").

import { formatNumber, t } from "./i18n.js";
import { h } from "./render.js";

const LEARNING_KEY = "bummerl.learning";
const CONFIRM_KEY = "bummerl.confirm_declare";

function stored(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "1";
  } catch {
    return fallback;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    // No storage (a private window): the choice holds for this visit.
  }
}

/** A value in expected game points with its sign, in the page's language: "+0,52", "−1.25". */
export function points(value) {
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" });
}

/** The reason of a hint in words: how the expert got its values (the server's `method`). */
function reason(hint, say) {
  const values = (hint.values || []).map(([token, v]) => `${say(token)} ${points(v)}`).join(" · ");
  let how;
  if (hint.method === "exact") how = t("hint_how_exact");
  else if (hint.method === "search" && hint.worlds)
    how = t(hint.all_worlds ? "hint_how_all" : "hint_how_search", { n: hint.worlds });
  else if (hint.method === "search") how = t("hint_how_table");
  else if (hint.method === "bidding") how = t("hint_how_bidding");
  else if (hint.method === "forced") return t("hint_how_forced");
  else return t(hint.why === "early" ? "hint_how_early" : "hint_how_phase");
  const unvalued = (hint.unvalued || []).length
    ? ` ${t("hint_unvalued", { actions: hint.unvalued.map(say).join(", ") })}`
    : "";
  return `${how}: ${values}${unvalued}`;
}

export class TableHelp {
  constructor({ socket, render }) {
    this.socket = socket;
    this.rerender = render;
    this.state = null;
    this.hint = null; // the last `hint` answer
    // Every reviewed decision of the game on the table, in order: a `review` answer, or { pending, game_id, ply }
    // while it waits. The server computes one request per seat at a time, so the page sends one review at a time
    // and keeps the others queued: a quick move after Zudrehen must not cost Zudrehen its verdict (issue 24).
    this.reviews = [];
    this.queue = []; // decisions waiting to be sent, { game_id, ply }
    this.sent = null; // the decision whose review the server is computing
    this.asking = false; // a hint was asked and not answered yet
    this.error = null; // the last refusal of a hint or review (`error` with `about`)
    this.toReview = null; // { game_id, ply }: one's own decision to judge once the table has moved on
    this.learning = stored(LEARNING_KEY, false);
    this.dialog = null;
  }

  get confirming() {
    return stored(CONFIRM_KEY, true);
  }

  /** Takes the server's `hint` and `review` answers and the errors about them; whether it took `message`. */
  onMessage(message) {
    if (message.type === "hint") {
      this.hint = message;
      this.asking = false;
      this.error = null;
    } else if (message.type === "review") {
      const at = this.reviews.findIndex((r) => r.game_id === message.game_id && r.ply === message.ply);
      if (at >= 0) this.reviews[at] = message;
      else this.reviews.push(message);
      this.sent = null;
      this.sendReview();
    } else if (message.type === "error" && message.about) {
      if (message.about === "hint") this.asking = false;
      if (message.about === "review") {
        // That decision gets no verdict; the next one queued is sent.
        const failed = this.sent;
        if (failed) this.reviews = this.reviews.filter((r) => !(r.pending && r.ply === failed.ply));
        this.sent = null;
        this.sendReview();
      }
      this.error = message;
    } else {
      return false;
    }
    this.rerender();
    return true;
  }

  /** A new state of the table: a decision of ours that the table has moved past is sent for its review. */
  onState(state) {
    this.state = state;
    const at = state.hints;
    if (!at) return;
    const mine = this.toReview;
    if (mine && (mine.game_id !== at.game_id || at.ply > mine.ply)) {
      this.toReview = null;
      if (this.learning && at.allowed) {
        const decision = { game_id: mine.game_id, ply: mine.ply };
        this.queue.push(decision);
        this.reviews.push({ pending: true, ...decision });
        this.sendReview();
      }
    }
    // A new game: the verdicts of the last one go (its analysis has them all).
    this.reviews = this.reviews.filter((r) => r.game_id === at.game_id);
    this.queue = this.queue.filter((r) => r.game_id === at.game_id);
    if (this.error && this.error.about === "hints") this.error = null;
  }

  /** The player sends `token` now: remember the decision for the learning mode. */
  acted(state, token) {
    const at = state && state.hints;
    this.error = null;
    // A forced move needs no verdict (and the server counts every review against the seat's minute).
    if (!at || !this.learning || !at.allowed || (state.legal || []).length < 2) return;
    this.toReview = { game_id: at.game_id, ply: at.ply, token };
  }

  /** Send the next queued review once the server has answered the last one. */
  sendReview() {
    while (!this.sent && this.queue.length) {
      const next = this.queue.shift();
      if (this.socket.send({ type: "review", game_id: next.game_id, ply: next.ply })) this.sent = next;
      else this.reviews = this.reviews.filter((r) => !(r.pending && r.ply === next.ply));
    }
  }

  ask() {
    if (this.asking) return;
    this.error = null;
    if (this.socket.send({ type: "hint" })) this.asking = true;
    this.rerender();
  }

  vote(allow) {
    this.socket.send({ type: "hints", allow });
  }

  setLearning(on) {
    this.learning = on;
    store(LEARNING_KEY, on);
    if (!on) {
      this.reviews = [];
      this.queue = [];
    }
    this.rerender();
  }

  // ------------------------------------------------------------------ the question before going out
  /**
   * Whether `token` waits for the player's answer first: a declaration the server says loses (or, where the variant
   * hides the Augen, any declaration) while the question is switched on. `go()` sends it once confirmed.
   */
  asks(state, token, go, { schnorps = false, table = false } = {}) {
    if (!token.startsWith("declare") || !this.confirming) return false;
    const check = (state.declare_check || {})[token];
    if (!check || check.wins === true) return false;
    const verb = schnorps ? "schnorps" : "declare";
    let text;
    if (check.wins === null) text = t("confirm_hidden");
    else text = t(table ? "confirm_low_side" : "confirm_low", { augen: check.augen });
    this.showDialog(t(`confirm_title_${verb}`), text, t(`confirm_yes_${verb}`), go);
    return true;
  }

  showDialog(title, text, yes, go) {
    if (!this.dialog) {
      this.dialog = h("dialog", {
        class: "confirm-dialog",
        id: "declare-confirm",
        "aria-labelledby": "declare-confirm-title",
      });
      document.body.append(this.dialog);
    }
    const dialog = this.dialog;
    const off = h("input", { type: "checkbox", id: "confirm-off" });
    const close = (confirmed) => {
      if (off.checked) store(CONFIRM_KEY, false);
      dialog.close();
      if (confirmed) go();
      this.rerender();
    };
    dialog.replaceChildren(
      h("h2", { id: "declare-confirm-title" }, title),
      h("p", { id: "declare-confirm-text" }, text),
      h("label", { class: "choice", for: "confirm-off" }, off, " ", t("confirm_off")),
      h(
        "div",
        { class: "dialog-buttons" },
        h(
          "button",
          { type: "button", id: "confirm-no", class: "primary", onclick: () => close(false) },
          t("confirm_no"),
        ),
        h("button", { type: "button", id: "confirm-yes", onclick: () => close(true) }, yes),
      ),
    );
    dialog.oncancel = () => {
      if (off.checked) store(CONFIRM_KEY, false);
    };
    if (!dialog.open) dialog.showModal();
    dialog.querySelector("#confirm-no").focus();
  }

  destroy() {
    if (this.dialog) {
      if (this.dialog.open) this.dialog.close();
      this.dialog.remove();
      this.dialog = null;
    }
  }

  // ------------------------------------------------------------------ drawing
  /** The current hint if it is for the position on the table. */
  currentHint(state) {
    const at = state.hints;
    const hint = this.hint;
    if (!hint || !at || hint.game_id !== at.game_id || hint.ply !== at.ply) return null;
    return hint;
  }

  /**
   * The help panel of a seat (nothing for a spectator): the hint button and the hint, the learning mode and its mark,
   * the vote on hints where several people play. `say(token)` names an action as the page's buttons do.
   */
  element(state, { say }) {
    if (!state || state.role !== "player" || !state.hints) return document.createDocumentFragment();
    const at = state.hints;
    const box = h("section", { class: "help-panel", id: "help-panel", "aria-label": t("help_heading") });
    const row = h("div", { class: "help-row" });
    const hint = this.currentHint(state);
    const canAsk = at.allowed && state.your_turn && !this.asking && !hint;
    row.append(
      h(
        "button",
        {
          type: "button",
          class: "action hint-button",
          id: "hint-button",
          disabled: !canAsk,
          onclick: () => this.ask(),
          dataset: { fkey: "hint" },
        },
        t("hint_button"),
      ),
    );
    const learning = h("input", {
      type: "checkbox",
      id: "learning-mode",
      checked: this.learning,
      disabled: !at.allowed,
      onchange: (e) => this.setLearning(e.target.checked),
    });
    row.append(
      h(
        "label",
        { class: "choice", for: "learning-mode", title: t("learning_help") },
        learning,
        " ",
        t("learning_mode"),
      ),
    );
    if (at.needed.length) {
      const mine = at.agreed.includes(state.seat);
      const vote = h("input", {
        type: "checkbox",
        id: "hints-vote",
        checked: mine,
        onchange: (e) => this.vote(e.target.checked),
      });
      row.append(h("label", { class: "choice", for: "hints-vote" }, vote, " ", t("hints_vote")));
    }
    if (!this.confirming) {
      const again = h("input", {
        type: "checkbox",
        id: "confirm-declare",
        onchange: (e) => (store(CONFIRM_KEY, e.target.checked), this.rerender()),
      });
      row.append(h("label", { class: "choice", for: "confirm-declare" }, again, " ", t("confirm_again")));
    }
    box.append(row);
    if (at.needed.length)
      box.append(h("p", { class: "hints-status muted", id: "hints-status" }, this.agreementText(state)));
    if (this.asking)
      box.append(h("p", { class: "hint-line muted", id: "hint-line", role: "status" }, t("hint_thinking")));
    else if (hint) {
      box.append(
        h(
          "p",
          { class: "hint-line", id: "hint-line", role: "status", dataset: { best: hint.best, method: hint.method } },
          h("strong", {}, t("hint_best", { action: say(hint.best) })),
          " – ",
          reason(hint, say),
        ),
      );
    }
    const reviews = this.reviewList(say);
    if (reviews) box.append(reviews);
    if (this.error)
      box.append(
        h(
          "p",
          { class: "hint-error", id: "hint-error", role: "alert", dataset: { code: this.error.code } },
          t("hint_refused", { message: this.error.message }),
        ),
      );
    return box;
  }

  /** Who has agreed to hints, who not yet (by the page's names of the seats). */
  agreementText(state) {
    const at = state.hints;
    if (at.allowed) return t("hints_all_agreed");
    const players = state.players || [];
    const missing = at.needed
      .filter((s) => !at.agreed.includes(s))
      .map((s) => (s === state.seat ? t("hints_you") : (players[s] && players[s].name) || t("seat_n", { n: s + 1 })));
    return t("hints_missing", { names: missing.join(", ") });
  }

  /** Every reviewed decision of this game with its verdict, the newest last (`#review-line`). */
  reviewList(say) {
    if (!this.reviews.length || !this.learning) return null;
    const list = h("ol", { class: "review-list", id: "review-list", "aria-live": "polite" });
    this.reviews.forEach((r, i) => list.append(this.reviewLine(r, say, i === this.reviews.length - 1)));
    return list;
  }

  reviewLine(r, say, newest) {
    const n = r.ply + 1;
    const id = newest ? "review-line" : null;
    const ply = String(r.ply);
    if (r.pending) return h("li", { class: "review-line muted", id, dataset: { ply } }, t("review_pending", { n }));
    const params = { n, action: say(r.action), best: say(r.best), loss: points(r.loss).replace("+", "") };
    const key =
      {
        best: "review_best",
        optimal: "review_best",
        good: "review_good",
        mistake: "review_mistake",
        losing: "review_mistake",
        forced: "review_forced",
        not_valued: "review_not_valued",
        unevaluated: r.why === "phase" ? "review_not_analysed" : "review_unevaluated",
      }[r.verdict] || "review_unevaluated";
    const cls = r.mistake
      ? "mistake"
      : r.verdict === "best" || r.verdict === "optimal" || r.verdict === "good"
        ? "fine"
        : "";
    return h("li", { class: `review-line ${cls}`.trim(), id, dataset: { verdict: r.verdict, ply } }, t(key, params));
  }

  /** Mark the advised card or button of the hint on the drawn table. */
  decorate(root) {
    const hint = this.state && this.currentHint(this.state);
    if (!hint || !root) return;
    const token = hint.best;
    const card = /^(?:discard:)?([AKQJT987][hdcs])$/.exec(token);
    const found = card
      ? root.querySelector(`.in-hand[data-card="${card[1]}"]`)
      : root.querySelector(`[data-action="${CSS.escape(token)}"], [data-token="${CSS.escape(token)}"]`);
    if (found) found.classList.add("hinted");
  }
}
