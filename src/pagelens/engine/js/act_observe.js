// Action layer: what an action did to the page ("sentinel" verification), and
// waiting for the DOM to settle. Both watch mutations; the ids that captures
// stamp are our own writes and never count as the page changing.

import { EVERY_CHANGE, changesPage, isIdStamp, normalizeSpace, truncate } from './core.js';
import { actFold } from './act_find.js';
import { capture } from './capture.js';
import { LIVE_REGION_SELECTOR, announcerOf, toneOf } from './announce.js';
import { changesMark, changesSince, observeComposed, stateChangeLine } from './changes.js';
import { controlStates } from './states.js';
import { interactiveRole } from './role.js';
import { isRendered } from './visibility.js';

const ACT_MAX_EVENTS = 10;

const actObservations = new Map();
let actObservationSeq = 0;

// One event per region, holding its latest text: a field echoed on every keystroke is
// one event, not one per key; a toast that came and went keeps the text it showed.
function actRecord(state, region) {
  if (!isRendered(region)) return;
  const text = truncate(normalizeSpace(region.innerText || region.textContent || ''), 200);
  if (!text) return;
  const known = state.events.find((e) => e.region === region);
  if (known) known.text = text;
  else if (state.events.length < ACT_MAX_EVENTS) state.events.push({ region, text });
}

function actOnMutations(state, records) {
  for (const record of records) {
    if (isIdStamp(record)) continue;
    state.mutations++;
    const nodes = record.type === 'childList' ? Array.from(record.addedNodes) : [record.target];
    for (const node of nodes) {
      const region = announcerOf(node);
      if (region) actRecord(state, region);
      else if (node.nodeType === 1 && record.type === 'childList') {
        // An added container may hold the toast rather than be it.
        for (const inner of node.querySelectorAll(LIVE_REGION_SELECTOR)) actRecord(state, inner);
      }
    }
  }
}

export function actObserveStart() {
  const token = ++actObservationSeq;
  const state = { mutations: 0, events: [], observer: null, since: changesMark(), target: null, states: null };
  state.observer = new MutationObserver((records) => actOnMutations(state, records));
  observeComposed(state.observer, EVERY_CHANGE);
  actObservations.set(token, state);
  return { token, doc: actDocToken() };
}

export function actObserveEnd(token) {
  const state = actObservations.get(token);
  if (!state) return null;
  actOnMutations(state, state.observer.takeRecords());
  state.observer.disconnect();
  actObservations.delete(token);
  // Judged at the end, on the text each region ended with.
  const events = state.events.map((e) => ({ text: e.text, tone: toneOf(e.region, e.text) }));
  return { mutations: state.mutations, events, changes: actChanges(state), doc: actDocToken() };
}

// The element about to receive the input of the actions under way in this world (actReady
// calls it once the element is ready): its states are compared at the end.
export function actNoteTarget(el) {
  const role = interactiveRole(el);
  if (!role) return;
  for (const state of actObservations.values()) {
    if (state.target) continue;
    state.target = el;
    state.states = controlStates(el, role);
  }
}

// The change log's lines over the action, and the target's own change of state when the
// log has no line for it (a state no attribute carries).
function actChanges(state) {
  const lines = changesSince(state.since);
  const el = state.target;
  const role = el && interactiveRole(el);
  if (!role) return lines;
  const line = stateChangeLine(el, state.states, controlStates(el, role));
  if (!line) return lines;
  const subject = line.slice(0, line.lastIndexOf("' ") + 1); // "Changed: button 'Tips'"
  if (!lines.some((known) => known.startsWith(subject))) lines.push(line);
  return lines;
}

// Identifies the document: a navigation makes a new one, pushState does not.
export function actDocToken() {
  return String(performance.timeOrigin);
}

// The first summary of a document costs several times a later one: the engine's code is
// cold in a new world, and the browser computes styles and boxes on their first read.
// The quiet window is spent waiting anyway, so a compact capture made in it (a third of
// the way in, once the DOM has paused) and thrown away takes most of that cost out of
// the summary that follows. Once per document (a world lives as long as its document),
// and cut short so that it never holds the page's main thread for long.
const WARM_UP_MS = 150;
let actWarmedUp = false;

function actWarmUp() {
  if (actWarmedUp) return;
  actWarmedUp = true;
  try {
    capture('compact', { timeoutMs: WARM_UP_MS, warmUp: true });
  } catch (e) {
    // only a warm-up: the real capture reports its own errors
  }
}

// Resolves once no mutation has happened for quietMs, or at capMs: {quiet, ms}.
export function actWaitQuiet(quietMs, capMs) {
  const started = performance.now();
  return new Promise((resolve) => {
    let quietTimer = null;
    let warmTimer = null;
    const finish = (quiet) => {
      observer.disconnect();
      clearTimeout(quietTimer);
      clearTimeout(warmTimer);
      clearTimeout(capTimer);
      resolve({ quiet, ms: Math.round(performance.now() - started) });
    };
    const restart = () => {
      clearTimeout(quietTimer);
      quietTimer = setTimeout(() => finish(true), quietMs);
      if (!actWarmedUp) {
        clearTimeout(warmTimer);
        warmTimer = setTimeout(actWarmUp, quietMs / 3);
      }
    };
    const observer = new MutationObserver((records) => {
      if (changesPage(records)) restart();
    });
    observeComposed(observer, EVERY_CHANGE);
    restart();
    const capTimer = setTimeout(() => finish(false), capMs);
  });
}

function actHasText(wanted) {
  const body = document.body;
  return !!body && actFold(body.innerText || '').includes(wanted);
}

// Resolves true once the page shows `text`, false after timeoutMs. Checks at most every
// 100 ms, so a page that mutates constantly does not pay for innerText on every change.
export function actWaitForText(text, timeoutMs) {
  const wanted = actFold(text);
  if (actHasText(wanted)) return Promise.resolve(true);
  return new Promise((resolve) => {
    let pending = null;
    const done = (found) => {
      observer.disconnect();
      clearTimeout(pending);
      clearTimeout(cap);
      resolve(found);
    };
    const observer = new MutationObserver(() => {
      if (pending !== null) return;
      pending = setTimeout(() => {
        pending = null;
        if (actHasText(wanted)) done(true);
      }, 100);
    });
    observeComposed(observer, EVERY_CHANGE);
    const cap = setTimeout(() => done(actHasText(wanted)), timeoutMs);
  });
}

// Resolves true at the next change of the page (ids we stamp aside), false after timeoutMs.
export function actWaitForChange(timeoutMs) {
  return new Promise((resolve) => {
    const done = (changed) => {
      observer.disconnect();
      clearTimeout(cap);
      resolve(changed);
    };
    const observer = new MutationObserver((records) => {
      if (changesPage(records)) done(true);
    });
    observeComposed(observer, EVERY_CHANGE);
    const cap = setTimeout(() => done(false), timeoutMs);
  });
}
