// The page an invitation link opens: a name, one button, and what joining does. One page for a friend's
// table (app.js) and for a tournament (tournament.js); each says where to send the name and where to go next.
import { prefs } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./render.js";

/**
 * new InvitationPage(el, {
 *   prefix: "join",                    // element ids: `${prefix}-name`, `${prefix}-button`
 *   section: "lobby", form: "panel join",  // classes of the section and the form
 *   key: "join",                       // i18n keys: `${key}` (the button), `${key}_heading`, `${key}_text`, `${key}_failed`
 *   submit: async (name) => { ... },   // join with this name and go on; throws with a message on refusal
 * })
 */
export class InvitationPage {
  constructor(el, options) {
    this.el = el;
    this.o = options;
    this.error = null;
    this.busy = false;
    this.render();
  }

  async join(event) {
    event.preventDefault();
    const name = this.el.querySelector(`#${this.o.prefix}-name`).value.trim() || t("default_name");
    prefs.name = name;
    this.busy = true;
    this.render();
    try {
      await this.o.submit(name);
    } catch (err) {
      this.busy = false;
      this.error = t(`${this.o.key}_failed`, { message: err.message });
      this.render();
    }
  }

  render() {
    const id = `${this.o.prefix}-name`;
    const form = h(
      "form",
      { class: this.o.form, onsubmit: (e) => this.join(e) },
      h("h1", {}, t(`${this.o.key}_heading`)),
      h("p", {}, t(`${this.o.key}_text`)),
      this.error ? h("p", { class: "notice error", role: "alert" }, this.error) : null,
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, t("your_name")),
        h("input", { id, maxlength: "40", value: prefs.name, placeholder: t("default_name") }),
      ),
      h(
        "button",
        { type: "submit", class: "primary big", id: `${this.o.prefix}-button`, disabled: this.busy },
        t(this.o.key),
      ),
    );
    this.el.replaceChildren(h("section", { class: this.o.section }, form));
  }
}
