// Phrases at the table page: a button that opens the fixed list of phrases and emotes, a short bubble at the seat
// that said one, and a line in the log.
//
//   const phrases = new TablePhrases(page);
//   phrases.onMessage(message);   // true for a message it took: welcome (the list), phrase, a refused phrase
//   phrases.decorate(root);       // after drawing: the button at the own seat, the bubbles at the seats
//   phrases.destroy();
//
// There is no free text: the list comes from the server (`welcome.phrases`), the words from the i18n files
// (`phrase.<id>`), so each reader sees a phrase in their own language. The server checks the id and the rate; a
// refused phrase is told to its sender only (docs/web.md, "Phrases").

import { t } from "./i18n.js";
import { h } from "./render.js";

/** How long (ms) a bubble stays at the seat that said it. */
export const BUBBLE_MS = 4000;

/** A speech bubble, drawn (an emoji needs a font that not every device has). */
const BUBBLE_ICON =
  '<svg viewBox="0 0 16 16" width="1.1em" height="1.1em"><path d="M2 3.5A1.5 1.5 0 0 1 3.5 2h9A1.5 1.5 0 0 1 14 ' +
  '3.5v6a1.5 1.5 0 0 1-1.5 1.5H7l-3.5 3v-3h0A1.5 1.5 0 0 1 2 9.5z" fill="none" stroke="currentColor" ' +
  'stroke-width="1.5" stroke-linejoin="round"/></svg>';

/** How long (ms) the note "not so fast" stays under the menu. */
const NOTE_MS = 4000;

/** A phrase's words in the page's language: the emoji with its words for an emote (`entry.emote`). */
export function phraseText(id, emote = null) {
  const words = t(`phrase.${id}`);
  return emote ? `${emote} ${words}` : words;
}

/** The log's line of a phrase (`e`: `{ seat, id, emote }`); `person(seat)` is `{ you, name }` for a table seat. */
export function phraseLine(e, person) {
  return t("ev_phrase", { ...person(e.seat), text: phraseText(e.id, e.emote || null) });
}

export class TablePhrases {
  constructor(page) {
    this.page = page;
    this.list = [];
    this.open = false;
    this.bubbles = new Map(); // table seat -> { id, emote, until }
    this.note = null; // { text, until }
    this.timer = null;
  }

  destroy() {
    clearTimeout(this.timer);
  }

  /** Take the messages that are the phrases': the list in `welcome`, a `phrase`, a refused phrase. */
  onMessage(message) {
    if (message.type === "welcome") {
      if (Array.isArray(message.phrases)) this.list = message.phrases;
      return false; // the page reads the rest of it
    }
    if (message.type === "phrase") {
      const until = Date.now() + BUBBLE_MS;
      this.bubbles.set(message.seat, { id: message.id, emote: message.emote || null, until });
      this.page.addEvent({ type: "phrase", seat: message.seat, id: message.id, emote: message.emote || null });
      this.later();
      this.page.render();
      return true;
    }
    if (message.type === "error" && (message.code === "phrase_rate" || message.code === "unknown_phrase")) {
      this.note = { text: t(message.code === "phrase_rate" ? "phrase_too_fast" : "phrase_unknown"), until: 0 };
      this.note.until = Date.now() + NOTE_MS;
      this.later();
      this.page.render();
      return true;
    }
    return false;
  }

  /** Draw again when the next bubble or note is due to go. */
  later() {
    clearTimeout(this.timer);
    const ends = [...this.bubbles.values()].map((b) => b.until);
    if (this.note) ends.push(this.note.until);
    if (!ends.length) return;
    const wait = Math.max(0, Math.min(...ends) - Date.now()) + 20;
    this.timer = setTimeout(() => {
      const now = Date.now();
      for (const [seat, b] of this.bubbles) if (b.until <= now) this.bubbles.delete(seat);
      if (this.note && this.note.until <= now) this.note = null;
      this.later();
      this.page.render();
    }, wait);
  }

  say(id) {
    this.open = false;
    this.page.socket.send({ type: "phrase", id });
    this.page.render();
    // The menu is gone: the focus goes back to its button, so the keyboard stays where it was.
    const again = this.page.root.querySelector(".phrase-toggle");
    if (again) again.focus();
  }

  toggle(open) {
    this.open = open;
    this.page.render();
  }

  /** After every drawing: a bubble beside the name of each seat that just said something, the button at one's own. */
  decorate(root) {
    if (!root || !this.page.state) return;
    const now = Date.now();
    const seatsDrawn = [...root.querySelectorAll(".seat[data-seat]")];
    for (const el of seatsDrawn) {
      const said = this.bubbles.get(this.page.tableSeatOf(el));
      const label = el.querySelector(".seat-name");
      if (!said || said.until <= now || !label) continue;
      // In the seat's name line: it covers no card, name or countdown, and never reaches past a phone's edge.
      label.append(
        " ",
        h(
          "span",
          { class: `phrase-bubble${said.emote ? " emote" : ""}`, dataset: { phrase: said.id } },
          said.emote ? h("span", { class: "phrase-emoji", "aria-hidden": "true" }, said.emote) : null,
          h("span", { class: said.emote ? "phrase-words" : "" }, t(`phrase.${said.id}`)),
        ),
      );
    }
    const me = this.page.participant;
    if (me === null || !this.list.length) return;
    const tools = this.tools();
    const own = seatsDrawn.find((el) => this.page.tableSeatOf(el) === me);
    const label = own && own.querySelector(".seat-name");
    // Closed, the button sits in the own seat's name line, so it adds no line above the hand (on a phone the hand
    // and the bidding must stay on the first screen); open, the menu takes the room below the name.
    if (label && this.open) label.after(tools);
    else if (label) label.append(" ", tools);
    else (root.firstElementChild || root).append(tools);
  }

  /** The button and, while open, the menu of phrases and emotes. */
  tools() {
    const box = h("div", {
      class: "phrase-tools",
      onkeydown: (e) => {
        if (e.key === "Escape" && this.open) {
          e.stopPropagation();
          this.toggle(false);
          const again = this.page.root.querySelector(".phrase-toggle");
          if (again) again.focus();
        }
      },
    });
    box.append(
      h(
        "button",
        {
          type: "button",
          class: "phrase-toggle",
          "aria-expanded": this.open ? "true" : "false",
          "aria-controls": this.open ? "phrase-menu" : null, // only while the menu is there to point to
          dataset: { fkey: "phrase-toggle" },
          onclick: () => this.toggle(!this.open),
        },
        h("span", { class: "phrase-icon", "aria-hidden": "true", html: BUBBLE_ICON }),
        " ",
        t("phrase_button"),
      ),
    );
    if (this.open) {
      const words = this.list.filter((p) => !p.emote);
      const emotes = this.list.filter((p) => p.emote);
      const item = (p) =>
        h(
          "button",
          {
            type: "button",
            class: p.emote ? "phrase-item emote" : "phrase-item",
            dataset: { phrase: p.id, fkey: `phrase-${p.id}` },
            "aria-label": p.emote ? t(`phrase.${p.id}`) : null,
            title: p.emote ? t(`phrase.${p.id}`) : null,
            onclick: () => this.say(p.id),
          },
          p.emote || t(`phrase.${p.id}`),
        );
      box.append(
        h(
          "div",
          { class: "phrase-menu", id: "phrase-menu", role: "group", "aria-label": t("phrase_menu") },
          h("div", { class: "phrase-words-list" }, words.map(item)),
          h("div", { class: "phrase-emotes" }, emotes.map(item)),
        ),
      );
    }
    if (this.note && this.note.until > Date.now())
      box.append(h("p", { class: "phrase-note", role: "status" }, this.note.text));
    return box;
  }
}
