// The agent's tab: its latest screenshot, URL and title. When the run asks which element,
// the screenshot takes a click (or the arrow keys and Enter) and the point goes back to
// the daemon as fractions of the image, which it maps to the element there.

import { h, byId, fill } from "./dom.js";

const STEP = 0.02; // an arrow key moves the marker this much of the image (Shift: five times)
let marker = { x: 0.5, y: 0.5 };

/**
 * @param {{src: string, hash: string, url: string, title: string} | null} screen
 * @param {{id: string, message: string, inBrowser?: boolean} | null} question
 * @param {{onPick: (answer: {x?: number, y?: number, cancel?: boolean}) => void}} actions
 */
export const renderScreen = (screen, question, actions) => {
  byId("page-title").textContent = screen?.title ?? "";
  byId("page-url").textContent = screen?.url ?? "";
  const prompt = byId("question");
  prompt.hidden = !question;
  // A run with a visible browser window can be answered there too.
  const alsoThere = question?.inBrowser ? " You can also point at it in the agent's browser window." : "";
  byId("question-text").textContent = question ? question.message + alsoThere : "";
  byId("question-cancel").onclick = () => actions.onPick({ cancel: true });
  const frame = byId("shot");
  if (!screen) {
    fill(frame, h("p", { className: "muted" }, "No screenshot yet."));
    return;
  }
  const image = h("img", {
    id: "screenshot",
    src: screen.src,
    alt: `Screenshot of the agent's tab: ${screen.title || screen.url}`,
    "data-hash": screen.hash,
  });
  fill(frame, image, question ? picker(actions) : null);
  frame.classList.toggle("asking", Boolean(question));
};

const picker = (actions) => {
  const dot = h("span", { className: "marker", "aria-hidden": "true" });
  const place = () => {
    dot.style.left = `${marker.x * 100}%`;
    dot.style.top = `${marker.y * 100}%`;
  };
  const button = h("button", {
    type: "button",
    className: "pick-target",
    "aria-label": "Point at the element on the screenshot: click it, or move the marker with the arrow keys and press Enter",
    onclick: (/** @type {MouseEvent} */ event) => {
      const box = button.getBoundingClientRect();
      // A click from the keyboard (Enter, Space) has no pointer: the marker's place counts.
      const point = event.detail > 0 ? { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height } : marker;
      actions.onPick({ x: clamp(point.x), y: clamp(point.y) });
    },
    onkeydown: (/** @type {KeyboardEvent} */ event) => {
      const step = event.shiftKey ? STEP * 5 : STEP;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      marker = { x: clamp(marker.x + move[0]), y: clamp(marker.y + move[1]) };
      place();
    },
  }, dot);
  place();
  return button;
};

const clamp = (value) => Math.min(1, Math.max(0, value));
