// The session list: newest first, each opened with its button and renamed inline (a
// small form in place of its title; Enter saves, Escape gives up).

import { h, fill, itemOf, keepingFocus } from "./dom.js";

let editing = null; // the id of the session being renamed
let shown = null; // the latest arguments of renderSessions, to render again with

/**
 * @param {HTMLElement} list
 * @param {any[]} sessions
 * @param {string | null} openId
 * @param {{onOpen: (id: string) => void, onRename: (id: string, title: string) => Promise<void>}} actions
 */
export const renderSessions = (list, sessions, openId, actions) => {
  shown = { list, sessions, openId, actions };
  // A list refreshed while the person types a new title keeps what they typed.
  const typing = list.querySelector("input");
  const typed = typing instanceof HTMLInputElement ? typing.value : null;
  keepingFocus(list, () => fill(list, ...sessions.map((session) => item(session, session.sessionId === openId, actions))));
  const input = list.querySelector("input");
  if (input instanceof HTMLInputElement) {
    if (typed !== null) input.value = typed;
    input.focus();
  }
};

const again = () => renderSessions(shown.list, shown.sessions, shown.openId, shown.actions);

const item = (session, open, actions) => {
  const id = session.sessionId;
  if (editing === id) return h("li", { className: "session editing", "data-key": id }, renameForm(session, actions));
  return h(
    "li",
    { className: open ? "session open" : "session", "data-key": id },
    h(
      "button",
      { type: "button", className: "open-session", "aria-current": open ? "true" : false, onclick: () => actions.onOpen(id) },
      h("span", { className: "session-title" }, session.title),
      h("span", { className: "muted session-time" }, when(session.updatedAt)),
    ),
    h(
      "button",
      {
        type: "button",
        className: "icon rename",
        "aria-label": `Rename ${session.title}`,
        title: "Rename",
        onclick: () => {
          editing = id;
          again();
        },
      },
      "✎",
    ),
  );
};

const renameForm = (session, actions) => {
  const id = session.sessionId;
  const inputId = `rename-${id}`;
  // The focus goes back to the session's own button: its rename button when given up.
  const done = (focusSelector) => {
    editing = null;
    again();
    const button = itemOf(shown.list, id)?.querySelector(focusSelector);
    if (button instanceof HTMLElement) button.focus();
  };
  const input = h("input", { id: inputId, name: "title", value: session.title, required: true, maxlength: 200 });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") done(".rename");
  });
  return h(
    "form",
    {
      className: "rename-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const title = /** @type {HTMLInputElement} */ (input).value.trim();
        if (title) await actions.onRename(id, title);
        done(".open-session");
      },
    },
    h("label", { for: inputId, className: "visually-hidden" }, `New title for ${session.title}`),
    input,
    h("button", { type: "submit" }, "Save"),
    h("button", { type: "button", onclick: () => done(".rename") }, "Cancel"),
  );
};

const when = (iso) => new Date(iso).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
