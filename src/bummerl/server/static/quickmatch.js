// Quick match in the lobby: sit down with others who want the same game now (docs/web-ui.md "Quick match").
//
//   import { QuickMatchPanel } from "./quickmatch.js";
//   const panel = new QuickMatchPanel({ title: (name) => variantTitle(name) });
//   section.append(panel.render());   // the panel: counts, the choice, the wait, the open tables
//   panel.destroy();                  // the lobby is left: the counts stop (a wait goes on, see below)
//
// The server decides everything: who waits with whom, who sits where, what is dealt (POST /api/quickmatch,
// docs/web.md "Quick match"). The page polls its ticket every second; a ticket nobody polls for 15 s is gone, so
// a closed tab stops waiting. The wait belongs to the page, not to the lobby: it goes on while the player looks at
// the rules or the history, and when the seat is found the page goes to the table. The ticket is kept in
// sessionStorage, so a reload of the tab waits on with the same ticket.

import { ApiError, api, prefs, seats } from "./api.js";
import { formatNumber, has, t } from "./i18n.js";
import { ensurePlayer } from "./profile.js";
import { h } from "./render.js";

const TICKET_KEY = "bummerl.quickmatch";
const PLAYER_KEY = "bummerl.player"; // profile.js's: a key the server no longer knows is forgotten and made anew
const COUNTS_MS = 5000;

/** Seconds as "0:07", "1:30": how long the player has waited. */
export function waitedText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The seconds until bots sit down for a waiting `ticket`, or null (never, or a two-player game). */
export function botsIn(ticket) {
  if (!ticket || ticket.bots_after === null || ticket.bots_after === undefined) return null;
  return Math.max(0, Math.ceil(ticket.bots_after - ticket.waited));
}

/** A preset's name in the page's language ("Standard", "Kurz (bis 12 Punkte)"), else the server's name. */
export function presetLabel(name) {
  return has(`qm_preset_${name}`) ? t(`qm_preset_${name}`) : name;
}

/** Why the server refused a quick match, in the page's language where the page knows the refusal, else the
 *  server's own words. */
export function refusalText(err) {
  const key = `qm_refused_${err && err.code}`;
  return has(key) ? t(key) : t("error", { message: err ? err.message : "" });
}

/** A wait for bots as the select names it. */
export function botWaitLabel(seconds) {
  if (seconds === null) return t("qm_bots_never");
  if (seconds === 0) return t("qm_bots_now");
  return t("qm_bots_after", { seconds: formatNumber(seconds) });
}

function loadTicket() {
  try {
    const value = JSON.parse(sessionStorage.getItem(TICKET_KEY) || "null");
    return value && typeof value.ticket === "string" ? value : null;
  } catch {
    return null;
  }
}

function keepTicket(ticket) {
  try {
    if (ticket) sessionStorage.setItem(TICKET_KEY, JSON.stringify(ticket));
    else sessionStorage.removeItem(TICKET_KEY);
  } catch {
    // A private window may refuse storage: the wait lasts while the tab stays.
  }
}

// ------------------------------------------------------------------ the one wait of this page
/**
 * The wait of this tab, shared by every lobby drawn while it lasts: `ticket` (the server's answer), the `notice`
 * to show after it ended, and who to tell when it changes.
 */
const wait = {
  ticket: loadTicket(),
  notice: null,
  timer: null,
  listeners: new Set(),
  pollMs: 1000,

  changed() {
    for (const listener of this.listeners) listener();
  },

  /** Ask the server again in `ms`. */
  schedule(ms = this.pollMs) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), ms);
  },

  async poll() {
    const mine = this.ticket;
    if (!mine) return;
    try {
      const { data } = await api("GET", `/api/quickmatch/${encodeURIComponent(mine.ticket)}`);
      if (this.ticket !== mine) return; // cancelled meanwhile
      this.update(data);
    } catch (err) {
      if (this.ticket !== mine) return;
      if (err instanceof ApiError && err.status === 404) {
        this.end("qm_expired");
        return;
      }
      this.schedule(3000); // the network or a busy server: the ticket lives 15 s, try again
    }
  },

  /** The server's answer for our ticket: wait on, or go to the table. */
  update(data) {
    if (data.state === "seated" && data.table) {
      const table = data.table;
      seats.save(table.table_id, {
        token: table.token,
        seat: table.seat,
        kind: table.kind,
        variant: data.variant,
        opponent: null,
        quick: true,
      });
      this.ticket = null;
      keepTicket(null);
      this.notice = null;
      clearTimeout(this.timer);
      location.hash = `#/table/${table.table_id}`;
      this.changed();
      return;
    }
    this.ticket = { ...data, received: Date.now() };
    keepTicket(this.ticket);
    this.changed();
    this.schedule();
  },

  end(notice) {
    clearTimeout(this.timer);
    this.ticket = null;
    keepTicket(null);
    this.notice = notice;
    this.changed();
  },
};

if (wait.ticket) wait.schedule(0); // a reload waits on with the same ticket

/** Ask for a seat; `body` is POST /api/quickmatch's. A key the server forgot is made anew, once. */
async function enter(body) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const player = await ensurePlayer();
    try {
      const { data } = await api("POST", "/api/quickmatch", body, { Authorization: `Bearer ${player.key}` });
      wait.notice = null;
      wait.update(data);
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && attempt === 0) {
        try {
          localStorage.removeItem(PLAYER_KEY);
        } catch {
          // nothing stored: ensurePlayer makes a key for this visit
        }
        continue;
      }
      throw err;
    }
  }
}

async function cancel() {
  const mine = wait.ticket;
  if (!mine) return;
  wait.end(null);
  try {
    await api("DELETE", `/api/quickmatch/${encodeURIComponent(mine.ticket)}`);
  } catch (err) {
    // 409: seated meanwhile. The seat is kept: the next poll of a new wait would not find it, so ask once.
    if (err instanceof ApiError && err.status === 409) {
      wait.ticket = mine;
      wait.poll();
    }
  }
}

// ------------------------------------------------------------------ the lobby's panel
export class QuickMatchPanel {
  /**
   * `title(name)`: a variant's title as the lobby shows it. The panel draws into its own element (`el`), part by
   * part: the counts every 5 s and the time waited every second change only their own lines, so a select the
   * player has open or the focused button stays as it is.
   */
  constructor({ title }) {
    this.title = title;
    this.choices = null; // GET /api/quickmatch
    this.counts = null; // GET /api/lobby/counts
    this.error = null;
    this.busy = false;
    this.form = { variant: "schnapsen", preset: "standard", bots: "30" };
    this.el = h("section", { class: "panel quick-match", id: "quick-match-panel", "aria-labelledby": "qm-heading" });
    this.countsEl = h("p", { class: "qm-counts", id: "qm-counts", "aria-live": "polite" });
    this.mainEl = h("div", { class: "qm-main" });
    this.openEl = h("div", { class: "qm-open", id: "qm-open" });
    this.listener = () => this.refresh();
    wait.listeners.add(this.listener);
    this.tick = setInterval(() => this.tickWait(), 1000);
    this.load();
    this.loadCounts();
    this.countsTimer = setInterval(() => this.loadCounts(), COUNTS_MS);
  }

  destroy() {
    this.gone = true;
    wait.listeners.delete(this.listener);
    clearInterval(this.tick);
    clearInterval(this.countsTimer);
  }

  async load() {
    try {
      this.choices = (await api("GET", "/api/quickmatch")).data;
      wait.pollMs = Math.max(500, (this.choices.poll_seconds || 1) * 1000);
    } catch (err) {
      this.error = t("error", { message: err.message });
    }
    this.refresh();
  }

  async loadCounts() {
    try {
      this.counts = (await api("GET", "/api/lobby/counts")).data;
    } catch {
      return; // the counts are a courtesy: the panel works without them
    }
    if (this.gone) return;
    this.renderCounts();
    this.renderOpen();
  }

  variant(name = this.form.variant) {
    const all = (this.choices && this.choices.variants) || [];
    return all.find((v) => v.variant === name) || all[0] || null;
  }

  async start(event, choice = null) {
    if (event) event.preventDefault();
    if (this.busy || wait.ticket) return;
    if (choice) Object.assign(this.form, choice);
    const v = this.variant();
    if (!v) return;
    const body = { variant: v.variant, preset: this.form.preset };
    if (v.seats > 2 && this.form.bots !== "never") body.bots_after = Number(this.form.bots);
    // The name typed in the lobby's form (remembered, as the form remembers it), else the player's own.
    const name = (document.getElementById("player-name") || {}).value;
    if (name && name.trim()) {
      body.name = name.trim();
      prefs.name = body.name;
    }
    this.busy = true;
    this.error = null;
    this.refresh();
    try {
      await enter(body);
    } catch (err) {
      this.error = refusalText(err);
    } finally {
      this.busy = false;
      this.refresh();
    }
  }

  /** Once a second while waiting: the time waited and the seconds to the bots, counted on from the last poll. */
  tickWait() {
    const ticket = wait.ticket;
    const line = this.el.querySelector(".qm-waiting-time");
    if (!ticket || !line) return;
    const waited = ticket.waited + (Date.now() - (ticket.received || Date.now())) / 1000;
    line.textContent = t("qm_waited", { time: waitedText(waited) });
    const bots = this.el.querySelector(".qm-bots-in");
    const left = botsIn({ ...ticket, waited });
    if (bots && left !== null) bots.textContent = t("qm_bots_in", { seconds: left });
  }

  renderCounts() {
    const c = this.counts;
    const text = c ? t("qm_counts", { playing: c.playing, waiting: c.waiting }) : "\u00a0";
    // A live region: said again only when the numbers change, not at every look.
    if (this.countsEl.textContent !== text) this.countsEl.textContent = text;
  }

  renderWaiting(ticket) {
    const game = `${this.title(ticket.variant)} · ${presetLabel(ticket.preset)}`;
    const bots = botsIn(ticket);
    return h(
      "div",
      // Only "what you wait for" is a live region: the seconds counting on would be read out every second.
      { class: "qm-waiting", id: "qm-waiting" },
      h("span", { class: "qm-spinner", "aria-hidden": "true" }),
      h(
        "div",
        { class: "qm-waiting-text" },
        h("p", { class: "qm-waiting-what", role: "status" }, t("qm_waiting", { game })),
        h("p", { class: "qm-waiting-time" }, t("qm_waited", { time: waitedText(ticket.waited) })),
        bots !== null ? h("p", { class: "qm-bots-in muted" }, t("qm_bots_in", { seconds: bots })) : null,
      ),
      h("button", { type: "button", id: "qm-cancel", class: "qm-cancel", onclick: () => cancel() }, t("qm_cancel")),
    );
  }

  renderChoice() {
    const v = this.variant();
    const form = h("form", { class: "qm-form", id: "qm-form", onsubmit: (e) => this.start(e) });
    const variantSelect = h("select", {
      id: "qm-variant",
      onchange: (e) => {
        this.form.variant = e.target.value;
        const presets = this.variant().presets.map((p) => p.name);
        if (!presets.includes(this.form.preset)) this.form.preset = presets[0];
        this.refresh();
        const again = document.getElementById("qm-variant");
        if (again) again.focus(); // drawn anew: the keyboard stays where it was
      },
    });
    for (const x of this.choices.variants)
      variantSelect.append(h("option", { value: x.variant }, this.title(x.variant)));
    variantSelect.value = v.variant;
    const presetSelect = h("select", { id: "qm-preset", onchange: (e) => (this.form.preset = e.target.value) });
    for (const p of v.presets) presetSelect.append(h("option", { value: p.name }, presetLabel(p.name)));
    presetSelect.value = this.form.preset;
    form.append(
      h("label", { class: "qm-field", for: "qm-variant" }, h("span", {}, t("qm_variant")), variantSelect),
      h("label", { class: "qm-field", for: "qm-preset" }, h("span", {}, t("qm_preset")), presetSelect),
    );
    if (v.seats > 2) {
      const botsSelect = h("select", { id: "qm-bots", onchange: (e) => (this.form.bots = e.target.value) });
      for (const w of this.choices.bot_waits) {
        botsSelect.append(h("option", { value: w === null ? "never" : String(w) }, botWaitLabel(w)));
      }
      botsSelect.value = this.form.bots;
      form.append(h("label", { class: "qm-field", for: "qm-bots" }, h("span", {}, t("qm_bots")), botsSelect));
    }
    form.append(
      h(
        "button",
        { type: "submit", class: "primary big", id: "quick-match", disabled: this.busy },
        this.busy ? t("qm_asking") : t("qm_start"),
      ),
    );
    return form;
  }

  /** The queues where somebody waits: a stranger joins one with a click (no name is shown). */
  renderOpen() {
    const queues = ((this.counts && this.counts.queues) || []).filter((q) => this.variant(q.variant));
    this.openEl.replaceChildren(h("h3", {}, t("qm_open")));
    if (!this.choices || !queues.length) {
      this.openEl.append(h("p", { class: "muted" }, t("qm_open_none")));
      return;
    }
    const list = h("ul", { class: "qm-open-list" });
    for (const q of queues.slice(0, 12)) {
      const game = `${this.title(q.variant)} · ${presetLabel(q.preset)}`;
      list.append(
        h(
          "li",
          {},
          h("span", {}, t("qm_open_row", { game, waiting: q.waiting, seats: q.seats })),
          h(
            "button",
            {
              type: "button",
              class: "qm-join",
              disabled: Boolean(wait.ticket) || this.busy,
              onclick: () => this.start(null, { variant: q.variant, preset: q.preset }),
            },
            t("qm_join"),
          ),
        ),
      );
    }
    this.openEl.append(list);
  }

  /** Draw the panel anew (its element stays: the lobby keeps it where it put it). */
  refresh() {
    if (this.gone) return;
    const parts = [h("h2", { id: "qm-heading" }, t("qm_heading")), this.countsEl];
    if (this.error) parts.push(h("p", { class: "notice error", role: "alert" }, this.error));
    if (wait.notice) parts.push(h("p", { class: "notice", role: "status" }, t(wait.notice)));
    if (!this.choices) {
      this.mainEl.replaceChildren(h("p", { class: "muted" }, t("connecting")));
    } else {
      this.mainEl.replaceChildren(
        h(
          "p",
          { class: "qm-intro" },
          this.choices.move_seconds ? t("qm_intro", { seconds: this.choices.move_seconds }) : t("qm_intro_no_clock"),
        ),
        wait.ticket ? this.renderWaiting(wait.ticket) : this.renderChoice(),
      );
    }
    this.renderCounts();
    this.renderOpen();
    this.el.replaceChildren(...parts, this.mainEl, this.openEl);
  }

  /** The panel for the lobby to place (the same element every time: drawing the lobby anew keeps its state). */
  render() {
    if (!this.el.childNodes.length) this.refresh();
    return this.el;
  }
}
