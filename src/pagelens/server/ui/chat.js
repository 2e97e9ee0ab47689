// The conversation: the person's turns on the right in blue, the agent's on the left in
// grey, each step of the agent with its Thought (collapsible), its Action (a badge) and
// its Observation (✅ / ❌). Messages are merged by id and ordered by sequenceNumber.

import { h, fill, keepingFocus } from "./dom.js";

const opened = new Set(); // the thoughts the person unfolded, kept across re-renders
const VERDICTS = new Set(["completed", "failed", "stopped"]);

/** Merge `incoming` into `messages` (a Map by messageId); the list in order. */
export const merge = (messages, incoming) => {
  for (const message of incoming) messages.set(message.messageId, message);
  return [...messages.values()].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
};

/** @param {HTMLElement} list @param {any[]} messages */
export const renderChat = (list, messages) => {
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  keepingFocus(list, () => fill(list, ...messages.map(turn))); // an unfolded Thought keeps the focus
  if (atBottom) list.scrollTop = list.scrollHeight;
};

const turn = (message) => {
  const role = message.role ?? "assistant";
  const key = message.messageId;
  if (role === "user") return h("li", { className: "turn user", "data-key": key }, who("You"), h("p", { className: "bubble" }, message.content));
  if (role === "system") return h("li", { className: "turn system", "data-key": key }, h("p", { className: "bubble" }, message.content));
  if (VERDICTS.has(message.status)) {
    const label = `${message.status.toUpperCase()}: `;
    // The daemon writes a failed or stopped verdict as "FAILED: reason": the label says it once.
    const text = message.content.startsWith(label) ? message.content.slice(label.length) : message.content;
    return h(
      "li",
      { className: `turn assistant verdict ${message.status}`, "data-key": key },
      who("Agent"),
      h("p", { className: "bubble" }, h("strong", {}, label), text),
    );
  }
  const thought = message.metadata?.thought;
  const ok = message.status !== "failure";
  return h(
    "li",
    { className: "turn assistant", "data-key": key },
    who("Agent"),
    h(
      "div",
      { className: "bubble" },
      thought ? thoughtOf(message.messageId, thought) : null,
      message.actionString ? h("p", { className: "action" }, h("span", { className: "visually-hidden" }, "Action: "), h("code", { className: "badge" }, message.actionString)) : null,
      h("p", { className: ok ? "observation ok" : "observation failed" }, observation(message.content, ok)),
      message.error && !message.content.includes(message.error) ? h("p", { className: "error" }, message.error) : null,
    ),
  );
};

const who = (name) => h("span", { className: "visually-hidden" }, `${name}: `);

const thoughtOf = (id, text) => {
  const details = h("details", { className: "thought", open: opened.has(id) }, h("summary", {}, "Thought"), h("p", {}, text));
  details.addEventListener("toggle", () => {
    if (/** @type {HTMLDetailsElement} */ (details).open) opened.add(id);
    else opened.delete(id);
  });
  return details;
};

// A step's observation starts with ✅ or ❌; a message from elsewhere may not.
const observation = (text, ok) => (/^[✅❌]/u.test(text) ? text : `${ok ? "✅" : "❌"} ${text}`);
