// The expert's analysis of a finished game (GET /api/games/{id}/analysis), polled until it is ready.
//
//   const poller = new AnalysisPoller("/api/games/7/analysis", () => page.render());
//   el.append(analysisBlock(poller, { faces, lang, marriages: { h: 40, s: 20 }, person: (seat) => ({ you, name }) }));
//   (a table game's page passes `say: (token) => words` for its actions: bids, Kontra, the talon)
//   poller.stop();
//
// The server computes the analysis after the game (202 while it runs); the page asks again every 2 s. Each flagged
// decision links to the replay at that moment (`#/replay/GAME?step=N`: the position before decision N, see
// replayStep); the replay page itself passes `jump(index)` to step there without leaving the page.

import { api } from "./api.js";
import { formatNumber, has, t } from "./i18n.js";

// Expected game points as the analysis prints them: "0,52" (German), "0.52" (English).
export const TWO_DECIMALS = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
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

/** The game id of an analysis address (`/api/games/7/analysis` -> "7"), or null. */
function gameOf(url) {
  const found = /\/api\/games\/(\d+)\/analysis/.exec(url || "");
  return found ? found[1] : null;
}

/**
 * The replay's address at the moment of decision `index` (0-based, as the analysis counts them): its step `index`
 * is the position after `index` actions, the one the player decided in.
 */
export function replayStep(gameId, index) {
  return `#/replay/${encodeURIComponent(gameId)}?step=${index}`;
}

/** The analysis section: "still thinking", the failure, or each player's mistakes with the better move. */
export function analysisBlock(poller, options) {
  const box = h("div", { class: "analysis" }, h("h3", {}, t("analysis")));
  if (!poller || poller.status === "running") box.append(h("p", { class: "muted" }, t("analysis_running")));
  else if (poller.status === "failed")
    box.append(h("p", { class: "muted" }, t("analysis_failed", { message: poller.message || "" })));
  else box.append(analysisList(poller.data, { gameId: gameOf(poller.url), ...options }));
  return box;
}

/**
 * An analysis (bummerl.analysis.Analysis.to_json) as a list; shared with the replay page. One line per seat (its
 * mistakes and the expected game points it gave away: two, three or four seats, as many as the analysis has),
 * the mistakes with the better move, and every move with its verdict. `say(token)` puts an action in words
 * (default: a two-player action, with `marriages` the server's marriage values).
 */
export function analysisList(data, { faces, lang, marriages, person, say = null, gameId = null, jump = null }) {
  const words = say || ((token) => actionText(token, { faces, lang, marriages }));
  const box = h("div", { class: "analysis-list" });
  const decisions = (data && data.decisions) || [];
  const mistakes = decisions.filter((d) => d.mistake);
  const seats = data && data.mistakes ? data.mistakes.length : 2;
  for (let p = 0; p < seats; p++) {
    const lost = data && data.points_lost ? data.points_lost[p] : 0;
    const n = data && data.mistakes ? data.mistakes[p] : mistakes.filter((d) => d.player === p).length;
    box.append(
      h(
        "p",
        { class: "analysis-seat", dataset: { seat: p } },
        t("analysis_mistakes", { name: person(p).name, n, lost: formatNumber(Number(lost), TWO_DECIMALS) }),
      ),
    );
  }
  if (!mistakes.length) box.append(h("p", {}, t("analysis_none")));
  else {
    const list = h("ul", { class: "mistakes" });
    for (const d of mistakes) {
      // The flagged decision opens the replay at its moment (or steps there, on the replay page).
      const link =
        gameId === null || gameId === undefined
          ? null
          : h(
              "a",
              {
                href: replayStep(gameId, d.index),
                class: "jump",
                dataset: { step: String(d.index) },
                onclick: jump
                  ? (e) => {
                      e.preventDefault();
                      jump(d.index);
                    }
                  : null,
              },
              t("analysis_jump"),
            );
      list.append(
        h(
          "li",
          { dataset: { index: String(d.index), seat: String(d.player) } },
          t("analysis_line", {
            ...person(d.player),
            n: d.index + 1,
            chosen: words(d.action),
            best: words(d.best),
            loss: formatNumber(Number(d.loss), TWO_DECIMALS),
          }),
          link ? " " : null,
          link,
        ),
      );
    }
    box.append(list);
  }
  if (decisions.length) {
    const moves = h("ul", { class: "analysis-moves" });
    for (const d of decisions) {
      const verdict = `verdict_${d.verdict}`;
      moves.append(
        h(
          "li",
          { class: `verdict-${d.verdict}`, dataset: { verdict: d.verdict } },
          t("analysis_move", {
            ...person(d.player),
            n: d.index + 1,
            action: words(d.action),
            verdict: has(verdict) ? t(verdict) : d.verdict,
          }),
        ),
      );
    }
    box.append(h("details", { class: "analysis-all" }, h("summary", {}, t("analysis_moves")), moves));
  }
  return box;
}
