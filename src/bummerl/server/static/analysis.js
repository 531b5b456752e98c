// The expert's analysis of a finished game (GET /api/games/{id}/analysis), polled until it is ready.
//
//   const poller = new AnalysisPoller("/api/games/7/analysis", () => page.render());
//   el.append(analysisBlock(poller, { faces, lang, trump: "h", person: (seat) => ({ you, name }) }));
//   poller.stop();
//
// The server computes the analysis after the game (202 while it runs); the page asks again every 2 s.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { actionText, h } from "./render.js";

const POLL_MS = 2000;

export class AnalysisPoller {
  constructor(url, onChange) {
    this.url = url;
    this.onChange = onChange;
    this.status = "running"; // "running", "done" or "failed"
    this.data = null;
    this.message = null;
    this.stopped = false;
    this.timer = null;
    this.poll();
  }

  poll() {
    api("GET", this.url)
      .then(({ status, data }) => {
        if (this.stopped) return;
        if (status === 202 || (data && data.status === "running")) {
          this.timer = setTimeout(() => this.poll(), POLL_MS);
          return;
        }
        if (data && data.status === "failed") {
          this.status = "failed";
          this.message = data.message || "";
        } else {
          this.status = "done";
          this.data = (data && data.analysis) || data;
        }
        this.onChange();
      })
      .catch((err) => {
        if (this.stopped) return;
        this.status = "failed";
        this.message = err.message;
        this.onChange();
      });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** The analysis section: "still thinking", the failure, or each player's mistakes with the better move. */
export function analysisBlock(poller, options) {
  const box = h("div", { class: "analysis" }, h("h3", {}, t("analysis")));
  if (!poller || poller.status === "running") box.append(h("p", { class: "muted" }, t("analysis_running")));
  else if (poller.status === "failed") box.append(h("p", { class: "muted" }, t("analysis_failed", { message: poller.message || "" })));
  else box.append(analysisList(poller.data, options));
  return box;
}

/** The mistakes of an analysis (bummerl.analysis.Analysis.to_json) as a list; shared with the replay page. */
export function analysisList(data, { faces, lang, trump, person }) {
  const box = h("div", { class: "analysis-list" });
  const decisions = (data && data.decisions) || [];
  const mistakes = decisions.filter((d) => d.mistake);
  for (const p of [0, 1]) {
    const lost = data && data.points_lost ? data.points_lost[p] : 0;
    const n = data && data.mistakes ? data.mistakes[p] : mistakes.filter((d) => d.player === p).length;
    box.append(h("p", {}, t("analysis_mistakes", { name: person(p).name, n, lost: Number(lost).toFixed(2) })));
  }
  if (!mistakes.length) {
    box.append(h("p", {}, t("analysis_none")));
    return box;
  }
  const list = h("ul", { class: "mistakes" });
  for (const d of mistakes) {
    list.append(
      h(
        "li",
        {},
        t("analysis_line", {
          ...person(d.player),
          n: d.index + 1,
          chosen: actionText(d.action, { faces, lang, trump }),
          best: actionText(d.best, { faces, lang, trump }),
          loss: Number(d.loss).toFixed(2),
        }),
      ),
    );
  }
  box.append(list);
  return box;
}
