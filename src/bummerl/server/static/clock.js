// The move clock at the table page: a countdown at the seat whose move the clock times, the same for every seat
// and spectator, and the log's line when the computer moved for a seat.
//
//   const clock = new TableClock(page);
//   clock.onState(message);    // each state the page shows (`message.clock`, `message.receivedAt`)
//   clock.decorate(root);      // after drawing: the countdown at the seat on the clock
//   clock.destroy();
//
// The server sends the time left in milliseconds (`state.clock.remaining_ms`), never an instant: the page counts
// down from the moment the message arrived, so a wrong clock on this device changes nothing. Nothing is decided
// here: when the time is up the server moves (docs/web.md, "Clocks").

import { formatNumber, t } from "./i18n.js";
import { h } from "./render.js";

/** A stopwatch, drawn (an emoji needs a font that not every device has). */
const CLOCK_ICON =
  '<svg viewBox="0 0 16 16" width="1em" height="1em"><circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" ' +
  'stroke-width="1.6"/><path d="M8 9V5.5M6.5 1.5h3M12.5 3.5l1 1" stroke="currentColor" stroke-width="1.6" ' +
  'stroke-linecap="round"/></svg>';

/** Below this many milliseconds the countdown turns urgent (colour and weight; clock.css). */
export const LOW_MS = 10_000;

/** `ms` as the countdown shows it: "0:07", "1:30", "10:00" (rounded up: "0:01" until the very end). */
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Milliseconds left of `clock` (a state's `clock`) that arrived at `receivedAt`, at `now` (both ms, one clock). */
export function remainingMs(clock, receivedAt, now) {
  if (!clock) return null;
  return Math.max(0, clock.remaining_ms - Math.max(0, now - receivedAt));
}

/**
 * The log's line of a `timeout` event (the server's, docs/web.md): the computer moved for `e.seat` because its time
 * ran out or its player was away; `taken_over` once it plays the seat for the rest of the game.
 * `person(seat)` is `{ you, name }` for a table seat.
 */
export function timeoutText(e, person) {
  const who = person(e.seat);
  const line = t(e.reason === "away" ? "ev_timeout_away" : "ev_timeout", who);
  return e.taken_over ? `${line} ${t("ev_taken_over", { ...who, n: e.strikes })}` : line;
}

export class TableClock {
  constructor(page) {
    this.page = page;
    this.clock = null;
    this.receivedAt = 0;
    this.timer = null;
  }

  destroy() {
    clearInterval(this.timer);
    this.timer = null;
  }

  /** The clock of the state now shown; the countdown ticks while one runs. */
  onState(message) {
    this.clock = message.clock || null;
    this.receivedAt = typeof message.receivedAt === "number" ? message.receivedAt : performance.now();
    if (this.clock && !this.timer) this.timer = setInterval(() => this.tick(), 250);
    if (!this.clock) this.destroy();
  }

  /** Milliseconds left on the clock now, or null when no clock runs. */
  left() {
    return remainingMs(this.clock, this.receivedAt, performance.now());
  }

  /** Put the countdown at the seat on the clock (after every drawing of the table). */
  decorate(root) {
    if (!this.clock || !root) return;
    for (const el of root.querySelectorAll(".seat[data-seat]")) {
      if (this.page.tableSeatOf(el) !== this.clock.seat) continue;
      const label = el.querySelector(".seat-name");
      if (label) label.append(" ", this.badge());
    }
    this.tick();
  }

  badge() {
    const c = this.clock;
    const you = c.seat === this.page.participant;
    const title = [t("clock_per_move", { n: c.move_seconds })];
    if (c.strikes) title.push(t("clock_strikes", { n: c.strikes, max: c.max_strikes }));
    if (c.away && !you) title.push(t("clock_away"));
    return h(
      "span",
      {
        class: `clock-badge${you ? " mine" : ""}`,
        role: "timer",
        "aria-live": "off",
        title: title.join(" · "),
        dataset: { clockSeat: String(c.seat) },
      },
      h("span", { class: "clock-icon", "aria-hidden": "true", html: CLOCK_ICON }),
      h("span", { class: "clock-time" }, ""),
      // Read by a screen reader when it reaches the countdown, not shown (style.css).
      h("span", { class: "clock-words visually-hidden" }, ""),
    );
  }

  /** Count down in place: only the numbers change, the table is not drawn again. */
  tick() {
    const root = this.page.root;
    const ms = this.left();
    if (ms === null || !root) return;
    const you = this.clock.seat === this.page.participant;
    const words = t("clock_label", {
      you,
      name: this.page.seatName(this.clock.seat),
      seconds: formatNumber(Math.ceil(ms / 1000)),
    });
    for (const badge of root.querySelectorAll(".clock-badge")) {
      badge.classList.toggle("low", ms <= LOW_MS);
      badge.querySelector(".clock-time").textContent = clockText(ms);
      const hidden = badge.querySelector(".clock-words");
      if (hidden.textContent !== words) hidden.textContent = words;
    }
  }
}
