// Motion and sound at the table: played cards fly in from their seat, a taken trick flies to its winner, a card
// drawn from the talon flies into the hand; optional short sounds made with WebAudio (no audio files).
//
//   import { motionSnapshot, motionPlay, motionControls } from "./motion.js";
//   const before = motionSnapshot(root);          // before the page replaces its DOM (finishes running motion)
//   root.replaceChildren(build());
//   motionPlay(root, before, { winner: 1, yourTurn: true, gameOver: false });
//   prefsBar.append(...motionControls(() => rerender()));   // the two switches of the header
//
// The page draws every state at once and in full: an animation only moves the cards already where they belong
// (the CSS `translate`/`scale` properties, over their own transform), so nothing waits for it and a test or a
// screen reader reads the new state immediately. Every animation lasts MOTION_MS, ends at a click or tap (or a key)
// anywhere and at the next update, and is off with `prefers-reduced-motion: reduce` or the header's switch
// (`localStorage` `bummerl.motion` = "off"). Sounds are off unless switched on (`bummerl.sound` = "on").
// Cards are matched by their code only among what the page shows anyway: the motion tells nothing new.

import { t } from "./i18n.js";
import { h } from "./render.js";

/** How long one animation lasts (ms). */
export const MOTION_MS = 260;

// The elements motion looks at: seats (data-seat), cards in the trick, in the own hand, the talon.
const TRICK_CARDS = ".trick [data-card], .tg-trick [data-card]";
const HAND_CARDS = ".seat-bottom .hand [data-card], #tg-hand [data-card]";
const TALON = ".pile .talon-top, .tg-talon";

const running = new Set(); // Animation objects not finished yet
let ghosts = null; // the layer that holds the cards of a trick flying away

function readPref(name, fallback) {
  try {
    return localStorage.getItem(name) ?? fallback;
  } catch {
    return fallback;
  }
}

function writePref(name, value) {
  try {
    localStorage.setItem(name, value);
  } catch {
    // No storage: the switch holds for this visit only.
  }
}

const session = { motion: null, sound: null };

/** Whether the user wants motion: the header's switch, and not `prefers-reduced-motion: reduce`. */
export function motionOn() {
  const chosen = session.motion ?? readPref("bummerl.motion", "on");
  if (chosen === "off") return false;
  return !reducedBySystem();
}

/** Whether sounds are on (off unless the player switched them on). */
export function soundOn() {
  return (session.sound ?? readPref("bummerl.sound", "off")) === "on";
}

/** Finish every running animation at once (a click or tap, or the next update). */
export function finishMotion() {
  for (const animation of [...running]) {
    try {
      animation.finish();
    } catch {
      animation.cancel();
    }
  }
  running.clear();
  if (ghosts) ghosts.replaceChildren();
}

// A click or tap ends the motion once it is done: the click goes to the card where the player saw it (ending it on
// pointerdown would move a card from under the pointer before the button is released, and the click would be lost).
document.addEventListener("click", finishMotion, true);
document.addEventListener("keydown", finishMotion, true);

function center(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function rects(root, selector) {
  const out = new Map();
  for (const el of root.querySelectorAll(selector)) {
    const code = el.dataset.card;
    if (code) out.set(code, { el, rect: el.getBoundingClientRect() });
  }
  return out;
}

/** Where things are before the page redraws: call it right before replacing the table's DOM. */
export function motionSnapshot(root) {
  finishMotion();
  if (!root || !root.isConnected) return null;
  const seatRects = new Map();
  for (const el of root.querySelectorAll("[data-seat]")) {
    if (el.closest(".trick, .tg-trick")) continue;
    if (!seatRects.has(el.dataset.seat)) seatRects.set(el.dataset.seat, el.getBoundingClientRect());
  }
  const talon = root.querySelector(TALON);
  return {
    trick: rects(root, TRICK_CARDS),
    hand: rects(root, HAND_CARDS),
    seats: seatRects,
    talon: talon ? talon.getBoundingClientRect() : null,
    hints: root.__motionHints || null,
  };
}

function track(animation) {
  running.add(animation);
  const done = () => running.delete(animation);
  animation.addEventListener("finish", done);
  animation.addEventListener("cancel", done);
  return animation;
}

/** Move `el` from where `from` (a rect) is to where it stands now. */
function flyIn(el, from, { shrink = 1 } = {}) {
  const to = el.getBoundingClientRect();
  if (!to.width) return;
  const a = center(from);
  const b = center(to);
  const frames = [
    { translate: `${a.x - b.x}px ${a.y - b.y}px`, scale: String(shrink), opacity: 0.4 },
    { translate: "0px 0px", scale: "1", opacity: 1 },
  ];
  track(el.animate(frames, { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" }));
}

/** A copy of a card of the taken trick, flying from where it lay to the winner's seat, then gone. */
function flyAway(card, rect, target) {
  if (!ghosts || !ghosts.isConnected) {
    ghosts = h("div", { class: "motion-layer", "aria-hidden": "true" });
    document.body.append(ghosts);
  }
  const copy = card.cloneNode(true);
  copy.removeAttribute("role");
  copy.removeAttribute("aria-label");
  copy.removeAttribute("data-card");
  copy.classList.add("motion-ghost");
  Object.assign(copy.style, {
    left: `${rect.left}px`,
    top: `${rect.top}px`,
    width: `${rect.width}px`,
    height: `${rect.height}px`,
  });
  ghosts.append(copy);
  const a = center(rect);
  const b = center(target);
  const animation = copy.animate(
    [
      { translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: `${b.x - a.x}px ${b.y - a.y}px`, scale: "0.45", opacity: 0 },
    ],
    { duration: MOTION_MS, easing: "ease-in", fill: "forwards" },
  );
  track(animation);
  const remove = () => copy.remove();
  animation.addEventListener("finish", remove);
  animation.addEventListener("cancel", remove);
}

/**
 * Animate what changed since `before` (motionSnapshot) and play its sounds. `hints`: `winner` (the seat that took
 * the last trick, as the new state says), `yourTurn`, `gameOver`.
 */
export function motionPlay(root, before, hints = {}) {
  if (!root) return;
  const previous = before && before.hints;
  root.__motionHints = hints;
  if (!before) return;
  const trick = rects(root, TRICK_CARDS);
  const hand = rects(root, HAND_CARDS);
  const played = [...trick.keys()].filter((code) => !before.trick.has(code));
  const taken = [...before.trick.keys()].filter((code) => !trick.has(code) && !hand.has(code));
  const drawn = before.talon
    ? [...hand.keys()].filter((code) => !before.hand.has(code) && !before.trick.has(code))
    : [];
  const sounds = [];
  if (played.length) sounds.push("card");
  if (taken.length) sounds.push("trick");
  if (drawn.length) sounds.push("draw");
  if (hints.gameOver && previous && !previous.gameOver) sounds.push("over");
  else if (hints.yourTurn && previous && !previous.yourTurn) sounds.push("turn");
  if (soundOn()) for (const [i, name] of sounds.entries()) playSound(name, i * 0.09);
  if (!motionOn() || typeof Element.prototype.animate !== "function") return;
  for (const code of played) {
    const { el } = trick.get(code);
    const seat = el.closest("[data-seat]");
    const fromHand = before.hand.get(code);
    const from = fromHand ? fromHand.rect : seat && before.seats.get(seat.dataset.seat);
    if (from) flyIn(el, from, { shrink: fromHand ? 1 : 0.6 });
  }
  const winner = hints.winner === undefined || hints.winner === null ? null : String(hints.winner);
  const target = winner !== null ? before.seats.get(winner) : null;
  if (target) for (const code of taken) flyAway(before.trick.get(code).el, before.trick.get(code).rect, target);
  for (const code of drawn) flyIn(hand.get(code).el, before.talon, { shrink: 0.8 });
}

// ------------------------------------------------------------------ sounds (WebAudio, made on the spot)
let audio = null;

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function tone(ctx, start, { freq, to = freq, length, type = "sine", volume = 0.18 }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function noise(ctx, start, { length, volume = 0.25, band = 1800 }) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = band;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start);
}

/** The sounds: a card laid down, a trick swept in, a card drawn, your turn, the end of a game. */
export const SOUNDS = {
  card: (ctx, at) => noise(ctx, at, { length: 0.07, band: 2400 }),
  trick: (ctx, at) => noise(ctx, at, { length: 0.16, band: 900, volume: 0.3 }),
  draw: (ctx, at) => noise(ctx, at, { length: 0.1, band: 3200, volume: 0.18 }),
  turn: (ctx, at) => tone(ctx, at, { freq: 880, length: 0.12, volume: 0.08 }),
  over: (ctx, at) => {
    tone(ctx, at, { freq: 523, length: 0.18, type: "triangle", volume: 0.12 });
    tone(ctx, at + 0.12, { freq: 659, length: 0.18, type: "triangle", volume: 0.12 });
    tone(ctx, at + 0.24, { freq: 784, length: 0.3, type: "triangle", volume: 0.12 });
  },
};

/** Play sound `name` (`delay` seconds from now) if sounds are on. */
export function playSound(name, delay = 0) {
  if (!soundOn() || !SOUNDS[name]) return;
  const ctx = context();
  if (!ctx) return;
  SOUNDS[name](ctx, ctx.currentTime + delay);
}

// ------------------------------------------------------------------ the header's switches
// Small icons of our own (no emoji font needed): a card with motion lines, a loudspeaker with or without waves.
const ICON_MOTION =
  '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="10" y="4" width="10" height="15" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M2 8h6M4 12h4M2 16h6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const ICON_SOUND_ON =
  '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M16 8a5 5 0 0 1 0 8M18.5 5.5a8.5 8.5 0 0 1 0 13" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const ICON_SOUND_OFF =
  '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/><path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

function reducedBySystem() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}
/**
 * Two switches for the header (`#motion-toggle`, `#sound-toggle`): animations (on unless the system asks for
 * reduced motion) and sounds (off by default). `onChange()` is called after a switch.
 */
export function motionControls(onChange = () => {}) {
  const toggle = (id, icon, label, on, set, { disabled = false, title = label } = {}) =>
    h(
      "button",
      {
        type: "button",
        id,
        class: "pref-toggle",
        "aria-pressed": on ? "true" : "false",
        "aria-label": label,
        title,
        disabled,
        onclick: () => {
          set(!on);
          onChange();
        },
      },
      h("span", { html: icon }),
      h("span", { class: "pref-label", "aria-hidden": "true" }, label),
    );
  const system = reducedBySystem();
  const motionOptions = system ? { disabled: true, title: t("d_pref_motion_system") } : {};
  return [
    toggle(
      "motion-toggle",
      ICON_MOTION,
      t("d_pref_motion"),
      motionOn(),
      (value) => {
        session.motion = value ? "on" : "off";
        writePref("bummerl.motion", session.motion);
        if (!value) finishMotion();
      },
      motionOptions,
    ),
    toggle("sound-toggle", soundOn() ? ICON_SOUND_ON : ICON_SOUND_OFF, t("d_pref_sound"), soundOn(), (value) => {
      session.sound = value ? "on" : "off";
      writePref("bummerl.sound", session.sound);
      if (value) {
        // The switch is a user's gesture: the browser lets the audio start now, and the player hears what it is.
        context();
        playSound("card");
      }
    }),
  ];
}
