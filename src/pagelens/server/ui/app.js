// The web UI's entry: signs in, then keeps the open session's state (its messages, its
// latest run with plan and status, the run's screenshot and question) from the store, and
// up to date from the session's WebSocket. The open session is in the address (#session=),
// so a reload opens it again (docs/server.md, "The web UI").

import * as api from "./api.js";
import { merge, renderChat } from "./chat.js";
import { byId, h, fill } from "./dom.js";
import { explainSignIn, signIn } from "./login.js";
import { renderScreen } from "./screen.js";
import { renderSessions } from "./sessions.js";
import { renderRun } from "./task.js";
import { watch } from "./ws.js";

const CONNECTION = {
  connecting: "Connecting…",
  live: "Live",
  offline: "Offline: reconnecting…",
  gone: "This session does not exist (any more)",
};

const state = {
  sessions: [],
  sessionId: null,
  messages: new Map(),
  run: null,
  activity: "",
  screen: null,
  question: null,
  socket: null,
  shots: 0, // screenshot loads begun: only the latest one is shown
};

const main = async () => {
  const signingIn = !api.token();
  if (signingIn) await signIn();
  byId("app-view").hidden = false;
  byId("sign-out").hidden = false;
  if (signingIn) byId("task-input").focus(); // the sign-in form went: the focus would fall to the page's start
  byId("sign-out").onclick = () => signOut();
  byId("task-form").onsubmit = start;
  byId("task-input").onkeydown = sendOnEnter;
  byId("stop").onclick = stop;
  byId("new-task").onclick = () => byId("task-input").focus();
  // The address holds the open session (#session=): the skip link moves the focus without changing it.
  byId("skip").onclick = (event) => {
    event.preventDefault();
    byId("task-section").focus();
  };
  await guarded(Promise.all([loadModels(), refreshSessions()]));
  const fromAddress = new URLSearchParams(location.hash.slice(1)).get("session");
  const first = fromAddress ?? state.sessions[0]?.sessionId;
  if (first) openSession(first);
};

/** Runs `work`; a token the daemon no longer takes signs out, another failure is shown. */
const guarded = async (work, errorId = "task-error") => {
  try {
    return await work;
  } catch (problem) {
    if (problem instanceof api.ApiError && problem.status === 401) signOut(TOKEN_REFUSED);
    byId(errorId).textContent = problem.message;
    return undefined;
  }
};

const TOKEN_REFUSED = "The daemon no longer takes that token (it restarted with another?): sign in again.";

const signOut = (note = "") => {
  if (note) explainSignIn(note);
  api.forgetToken();
  state.socket?.close();
  location.reload();
};

/** A WebSocket refused does not say why: a token the daemon no longer takes signs out,
 * a daemon that is away is waited for. */
const checkToken = async () => {
  try {
    await api.listModels();
  } catch (problem) {
    if (problem instanceof api.ApiError && problem.status === 401) signOut(TOKEN_REFUSED);
  }
};

const loadModels = async () => {
  const { models } = await api.listModels();
  const select = byId("model-select");
  fill(select, ...models.map((id, index) => h("option", { value: id }, index === 0 ? `${id} (default)` : id)));
  if (!models.length) fill(select, h("option", { value: "" }, "No model is configured"));
};

const refreshSessions = async () => {
  state.sessions = (await api.listSessions()).sessions;
  byId("sessions-empty").hidden = state.sessions.length > 0;
  renderSessionList();
};

const renderSessionList = () =>
  renderSessions(byId("session-list"), state.sessions, state.sessionId, {
    onOpen: openSession,
    onRename: async (id, title) => {
      await guarded(api.renameSession(id, title));
      await guarded(refreshSessions());
    },
  });

const openSession = (id) => {
  if (state.sessionId === id && state.socket) return;
  state.socket?.close();
  Object.assign(state, { sessionId: id, messages: new Map(), run: null, activity: "", screen: null, question: null });
  history.replaceState(null, "", `#session=${encodeURIComponent(id)}`);
  renderSessionList();
  renderChat(byId("chat"), []);
  byId("chat-empty").hidden = true;
  renderRun(null, "");
  renderScreen(null, null, { onPick: answer });
  state.socket = watch(id, {
    onOpen: () => guarded(catchUp(id)),
    onEvent: (event) => guarded(onEvent(event)),
    onState: (connection) => {
      byId("connection").textContent = CONNECTION[connection];
      if (connection === "offline") checkToken();
    },
  });
};

/** What the store holds for the session: on opening, and after a reconnection. */
const catchUp = async (id) => {
  const [page, runs] = await Promise.all([api.sessionMessages(id), api.sessionRuns(id)]);
  if (state.sessionId !== id) return;
  showMessages(page.messages);
  await showRun(runs.runs[0] ?? null);
};

const showMessages = (messages) => {
  const ordered = merge(state.messages, messages);
  byId("chat-empty").hidden = ordered.length > 0;
  renderChat(byId("chat"), ordered);
};

const showRun = async (run) => {
  state.run = run;
  renderRun(run, state.activity);
  if (!run) return;
  if (JSON.stringify(run.question) !== JSON.stringify(state.question)) {
    state.question = run.question;
    renderScreen(state.screen, state.question, { onPick: answer });
  }
  if (run.screen && run.screen.hash !== state.screen?.hash) await showScreenshot(run.id, run.screen);
};

const refreshRun = async (runId) => {
  const run = await api.getRun(runId);
  if (run.sessionId === state.sessionId) await showRun(run);
};

const showScreenshot = async (runId, screen) => {
  const mine = ++state.shots;
  const src = await api.screenshotUrl(runId);
  if (mine !== state.shots || runId !== state.run?.id) {
    URL.revokeObjectURL(src);
    return;
  }
  if (state.screen) URL.revokeObjectURL(state.screen.src);
  state.screen = { ...screen, src };
  renderScreen(state.screen, state.question, { onPick: answer });
};

const onEvent = async (event) => {
  if (event.sessionId && event.sessionId !== state.sessionId) return;
  const current = state.run?.id === event.runId;
  switch (event.type) {
    case "new_message":
      showMessages([event.message]);
      break;
    case "interact_response":
      showMessages((await api.sessionMessages(state.sessionId)).messages);
      break;
    case "run_event":
      if (!current) await refreshRun(event.runId);
      else if (event.event.type === "plan_updated") {
        state.run.plan = event.event.plan;
        renderRun(state.run, state.activity);
      } else if (event.event.type === "tool_started") {
        state.activity = `Step ${event.event.index + 1}: ${event.event.tool}…`;
        renderRun(state.run, state.activity);
      }
      break;
    case "run_screenshot":
      if (current) await showScreenshot(event.runId, { url: event.url, title: event.title, hash: event.hash });
      break;
    case "run_question":
      if (current) {
        state.question = event.question;
        renderScreen(state.screen, state.question, { onPick: answer });
      }
      break;
    case "run_finished":
      state.activity = "";
      await refreshRun(event.runId);
      await refreshSessions();
      break;
    default:
      break;
  }
};

/** Enter starts the task, as in a chat; Shift+Enter makes a new line. */
const sendOnEnter = (/** @type {KeyboardEvent} */ event) => {
  if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  /** @type {HTMLFormElement} */ (byId("task-form")).requestSubmit();
};

const start = async (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const data = new FormData(form);
  const button = /** @type {HTMLButtonElement} */ (byId("start"));
  const task = String(data.get("task")).trim();
  byId("task-error").textContent = "";
  if (!task) {
    // `required` lets blanks through; the daemon would answer in its own words.
    byId("task-error").textContent = "Write a task first.";
    byId("task-input").focus();
    return;
  }
  const hadFocus = document.activeElement === button;
  button.disabled = true; // a disabled button drops the focus: it gets it back below
  const run = await guarded(api.startRun(task, String(data.get("url") || "").trim() || null, String(data.get("model") || "") || null));
  button.disabled = false;
  if (hadFocus) button.focus();
  if (!run) return;
  /** @type {HTMLTextAreaElement} */ (byId("task-input")).value = "";
  openSession(run.sessionId);
  await guarded(refreshSessions());
};

const stop = async () => {
  const button = /** @type {HTMLButtonElement} */ (byId("stop"));
  if (!state.run) return;
  button.disabled = true;
  const run = await guarded(api.stopRun(state.run.id));
  button.disabled = false;
  if (run) {
    state.activity = "Stopping…";
    renderRun(state.run, state.activity);
  }
};

const answer = async (reply) => {
  const run = state.run;
  const question = state.question;
  if (!run || !question) return;
  state.question = null;
  renderScreen(state.screen, null, { onPick: answer });
  await guarded(api.pick(run.id, { questionId: question.id, ...reply }));
};

main();
