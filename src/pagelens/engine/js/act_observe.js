// Action layer: what an action did to the page ("sentinel" verification), and
// waiting for the DOM to settle. Both watch mutations; the ids that captures
// stamp are our own writes and never count as the page changing.

import { EVERY_CHANGE, changesPage, isIdStamp, normalizeSpace, truncate } from './core.js';
import { actFold } from './act_find.js';
import { capture } from './capture.js';
import { LIVE_REGION_SELECTOR, announcerOf, toneOf } from './announce.js';
import { changesMark, changesSince, composedRoots, controlLine, observeComposed, stateChangeLine } from './changes.js';
import { controlStates } from './states.js';
import { interactiveRole } from './role.js';
import { accessibleName } from './accname.js';
import { maskContactDetails } from './contact.js';
import { isRendered } from './visibility.js';

const ACT_MAX_EVENTS = 10;
const ACT_MAX_INVALID = 3; // invalid fields told one by one; the rest counted

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
  const state = {
    mutations: 0, events: [], observer: null, since: changesMark(), target: null, states: null,
    invalid: new Set(), roots: composedRoots(), onInvalid: null,
  };
  state.observer = new MutationObserver((records) => actOnMutations(state, records));
  observeComposed(state.observer, EVERY_CHANGE);
  // The browser's own validation stops a submit with a bubble that is never in the DOM:
  // `invalid` is all a page script sees of it. It does not bubble (nor leave a shadow
  // root), so it is caught on the way down, in each root.
  state.onInvalid = (event) => state.invalid.add(event.target);
  for (const root of state.roots) root.addEventListener('invalid', state.onInvalid, true);
  actObservations.set(token, state);
  return { token, doc: actDocToken() };
}

export function actObserveEnd(token) {
  const state = actObservations.get(token);
  if (!state) return null;
  actOnMutations(state, state.observer.takeRecords());
  state.observer.disconnect();
  for (const root of state.roots) root.removeEventListener('invalid', state.onInvalid, true);
  actObservations.delete(token);
  // Judged at the end, on the text each region ended with.
  const events = state.events.map((e) => ({ text: e.text, tone: toneOf(e.region, e.text) }));
  const invalid = invalidFields(state);
  for (const { field, message } of invalid.told) {
    const name = accessibleName(field);
    events.push({ text: maskContactDetails(name ? `${name}: ${message}` : message), tone: 'error' });
  }
  // A page that marks the fields itself (aria-invalid on `invalid`) says the same, less.
  const changes = invalid.lines.concat(actChanges(state).filter((line) => !invalid.marked.has(line)));
  return { mutations: state.mutations, events, changes, doc: actDocToken() };
}

// The fields the browser found invalid during the action and that still are (a page that
// checks its form on every key makes them fire as the user types): the first few told
// with the browser's message ("Error: textbox 'Email' invalid: Please fill out this
// field."), the rest counted. A group of radios is told by its first.
function invalidFields(state) {
  const told = [];
  const radios = [];
  const marked = new Set(); // the line the change log has for a field the page marks invalid
  let more = 0;
  for (const field of state.invalid) {
    // (An `invalid` a script dispatched may come from an element without validity.)
    if (!field.isConnected || !field.validity || field.validity.valid) continue;
    marked.add(controlLine(field, 'invalid', 'error'));
    if (field.type === 'radio' && field.name) {
      if (radios.some((radio) => radio.name === field.name && radio.form === field.form)) continue;
      radios.push(field);
    }
    if (told.length < ACT_MAX_INVALID) told.push({ field, message: validityMessage(field) });
    else more++;
  }
  const lines = told.map(({ field, message }) => controlLine(field, `invalid: ${message}`, 'error'));
  if (more) lines.push(`Error: ${more} more ${more === 1 ? 'field' : 'fields'} invalid`);
  return { told, lines, marked };
}

// Which flag of a field's validity the browser's message speaks of, in the browser's order.
const VALIDITY_FLAGS = ['customError', 'valueMissing', 'badInput', 'typeMismatch', 'tooLong', 'tooShort',
  'patternMismatch', 'rangeUnderflow', 'rangeOverflow', 'stepMismatch'];
// Chromium's messages for these quote or measure what was typed ("'ada' is missing an
// '@'", "you are currently using 3 characters", the two valid numbers nearest it): they
// are said from the field's attributes instead.
const VALUE_FREE_MESSAGES = {
  typeMismatch: (field) => (field.type === 'url' ? 'Please enter a URL.' : 'Please enter an email address.'),
  tooLong: (field) => `Please use at most ${field.maxLength} characters.`,
  tooShort: (field) => `Please use at least ${field.minLength} characters.`,
  stepMismatch: () => 'Please enter a valid value.',
};

function validityMessage(field) {
  const flag = VALIDITY_FLAGS.find((name) => field.validity[name]);
  if (VALUE_FREE_MESSAGES[flag]) return VALUE_FREE_MESSAGES[flag](field);
  const message = normalizeSpace(field.validationMessage || '');
  // The browser shows a pattern's description (the page's title) under its message.
  const title = flag === 'patternMismatch' ? normalizeSpace(field.getAttribute('title') || '') : '';
  return truncate(title ? `${message.replace(/\.$/, '')}: ${title}` : message, 200);
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
