// The semantic view's recent events (docs/views.md#recent-events): what changed on the
// page since the agent last looked, as short lines ("[3s ago] Added: 'Shipping
// calculated'", "[1s ago] Error: 'Invalid ZIP code'"), with whether an error or a success
// message was among them. One log per document, kept by its isolated world.
//
// Cheap on any page: the browser filters the attributes watched (the ids captures stamp
// make no record at all), the observer only queues the records it is given, and they are
// read in bursts a moment later (or at the view), describing a bounded number of nodes.
// What a user typed never enters the log: values are not read, and text changes inside
// text areas and editable regions are passed over.

import { LIVE_REGION_SELECTOR, announcerOf, hintTone, isAnnouncer, styleTone, toneOf } from './announce.js';
import { getRole, interactiveRole, isEditingHost } from './role.js';
import { normalizeSpace, truncate } from './core.js';
import { accessibleName } from './accname.js';
import { maskContactDetails } from './contact.js';
import { isRendered, isShownIgnoringOpacity } from './visibility.js';
import { isStyledInvalid } from './states.js';
import { HEADING_SELECTOR, composedParent } from './dom.js';

// Attributes that can show, hide or restyle a message, or change a control's state.
const STATE_ATTRS = ['aria-expanded', 'aria-checked', 'aria-pressed', 'aria-selected', 'aria-disabled',
  'disabled', 'aria-invalid'];
const SHOWING_ATTRS = new Set(['class', 'style', 'hidden', 'open', 'aria-hidden']);
const WATCHED = {
  subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true,
  attributeFilter: [...SHOWING_ATTRS, ...STATE_ATTRS],
};

const MAX_PENDING = 5000; // records waiting to be read; past it they are only counted
const READ_AFTER_MS = 250; // the records of a burst are read together, this long after its first
const MAX_NODES_PER_READ = 100; // nodes described in one reading
const ORDINARY_PER_READ = 3; // ordinary elements described per reading and kind; the rest counted
const MAX_EVENTS = 12; // kept between two views, the oldest dropped first
const MAX_TEXT = 80;
const TEXT_SCAN_CHARS = 400; // raw text read from an element to describe it

// Roles named in a line; other elements are described by their text alone.
const NAMED_ROLES = new Set(['dialog', 'alertdialog', 'heading']);
// Not text a person reads, or text a person typed.
const NO_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'select', 'svg', 'math',
  'head', 'title']);
const LABELS = { added: 'Added', removed: 'Removed', changed: 'Changed' };

const log = {
  observer: null,
  batches: [], // the record lists the observer was given, with when: [{records, at}]
  pending: 0,
  unread: 0,
  timer: 0,
  events: [], // {el, kind, role, text, detail, tone, at, section}
  dropped: 0,
  more: { added: 0, removed: 0, changed: 0, at: 0 }, // ordinary changes only counted
  errors: false,
  success: false,
  looked: false, // the agent has had a view of this document
};
// Whether an element showed a message the last time it was read: a class flip on a toast
// already shown is no news, the one that shows it is.
const shownBefore = new WeakMap();
const watchedRoots = new WeakSet();
// Every open shadow root a scan has found, held weakly: a MutationObserver on the document
// does not see inside them, so each observer of the page observes them too.
let knownRoots = [];

export function watchChanges() {
  if (log.observer) return;
  log.observer = new MutationObserver(queue);
  observeComposed(log.observer, WATCHED);
}

// From the document's load: a navigation evaluates the engine while its document still
// loads, and the loading is not news. (An arrival starts the log at once, so a page that
// never finishes loading has one too.)
export function watchChangesFromLoad() {
  if (document.readyState === 'complete') watchChanges();
  else addEventListener('load', () => watchChanges(), { once: true });
}

// Open shadow roots are watched once a scan has found them.
export function watchShadowRoots(roots) {
  for (const root of roots) {
    if (watchedRoots.has(root)) continue;
    watchedRoots.add(root);
    knownRoots.push(new WeakRef(root));
    if (log.observer) log.observer.observe(root, WATCHED);
  }
}

// The document and the open shadow roots known so far whose hosts are still in it.
export function composedRoots() {
  knownRoots = knownRoots.filter((ref) => ref.deref() !== undefined);
  const roots = [document];
  for (const ref of knownRoots) {
    const root = ref.deref();
    if (root && root.host.isConnected) roots.push(root);
  }
  return roots;
}

export function observeComposed(observer, options) {
  for (const root of composedRoots()) observer.observe(root, options);
}

function queue(records) {
  if (!records.length) return;
  if (log.pending >= MAX_PENDING) {
    log.unread += records.length;
    log.more.at = performance.now();
    return;
  }
  log.batches.push({ records, at: performance.now() });
  log.pending += records.length;
  if (!log.timer) log.timer = setTimeout(readPending, READ_AFTER_MS);
}

// The first view an agent takes of a document (the summary a navigation returns) is
// where its log starts: the page's own loading is not news. A semantic view taken first
// reports what came before it instead.
export function noteView(mode) {
  if (!log.observer || log.looked) return;
  log.looked = true;
  if (mode !== 'semantic') {
    clearTimeout(log.timer);
    log.timer = 0;
    log.batches = [];
    log.pending = 0;
    clearLog();
  }
}

// The lines for the semantic view, or null when nothing changed; the log starts over.
export function takeRecentEvents(mask) {
  if (!log.observer) return null;
  log.looked = true;
  queue(log.observer.takeRecords());
  readPending();
  const more = log.more;
  if (!log.events.length && !more.added && !more.removed && !more.changed && !log.unread) return null;
  const now = performance.now();
  const lines = [];
  if (log.dropped) lines.push(`(${log.dropped} earlier changes not shown)`);
  for (const event of withoutRoundTrips(log.events).sort((a, b) => a.at - b.at)) lines.push(eventLine(event, now, mask));
  // Ordinary changes past the few described, and records past the queue's bound.
  for (const kind of ['added', 'removed', 'changed']) {
    if (more[kind]) lines.push(`[${ago(now - more.at)}] ${LABELS[kind]}: ${more[kind]} more`);
  }
  if (log.unread) lines.push(`[${ago(now - more.at)}] Changed: ${log.unread} more, not read`);
  const result = { recentEvents: lines, hasErrors: log.errors, hasSuccess: log.success };
  clearLog();
  return result;
}

function clearLog() {
  log.events = [];
  log.dropped = 0;
  log.unread = 0;
  log.more = { added: 0, removed: 0, changed: 0, at: 0 };
  log.errors = false;
  log.success = false;
}

function ago(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 120 ? `${seconds}s ago` : `${Math.round(seconds / 60)}m ago`;
}

function eventLine(event, now, mask) {
  return `[${ago(now - event.at)}] ${eventText(event, mask)}`;
}

function eventText(event, mask) {
  const label = event.tone === 'error' && event.kind !== 'removed' ? 'Error' : LABELS[event.kind];
  const what = [event.role, event.text && `'${mask(event.text)}'`, event.detail].filter(Boolean).join(' ');
  return `${label}: ${what}`;
}

// The line for a control whose states (controlStates) went from `before` to `after`,
// or null when none of those an agent acts on changed. For the element an action
// targeted: a popover's invoker, a native checkbox or a <details> change state without
// the attribute the log watches.
const WATCHED_STATES = {
  checked: (v) => ({ true: 'checked', mixed: 'mixed' }[String(v)] || 'unchecked'),
  expanded: (v) => (v ? 'expanded' : 'collapsed'),
  selected: (v) => (v ? 'selected' : 'not selected'),
  pressed: (v) => ({ true: 'pressed', mixed: 'mixed' }[String(v)] || 'not pressed'),
  sort: (v) => (v ? `sorted ${v}` : 'not sorted'),
};

export function stateChangeLine(el, before, after) {
  const words = Object.keys(WATCHED_STATES).filter((key) => before[key] !== after[key])
    .map((key) => WATCHED_STATES[key](after[key]));
  if (!words.length || !el.isConnected) return null;
  return controlLine(el, words.join(', '), null);
}

// A line of what changed in a control: "Changed: button 'Pay' enabled", or with the error
// tone "Error: textbox 'Email' invalid: Please fill out this field."
export function controlLine(el, detail, tone) {
  const { role, text } = described(el);
  return eventText({ kind: 'changed', role, text, detail, tone }, maskContactDetails);
}

// Where the log stands, for changesSince: when, and how many changes it had only counted.
export function changesMark() {
  return { at: performance.now(), more: { ...log.more } };
}

// What changed since `mark`, for an action's observations: the log's lines of that time,
// without their age, left in the log for the semantic view.
export function changesSince(mark) {
  if (!log.observer) return [];
  queue(log.observer.takeRecords());
  readPending();
  const lines = withoutRoundTrips(log.events.filter((e) => e.at >= mark.at)).sort((a, b) => a.at - b.at)
    .map((e) => eventText(e, maskContactDetails));
  for (const kind of ['added', 'removed', 'changed']) {
    const more = log.more[kind] - mark.more[kind];
    if (more > 0) lines.push(`${LABELS[kind]}: ${more} more`);
  }
  return lines;
}

// A part of the page shown and hidden again within the lines read (a list that opened and
// closed as an option was chosen) is no change. A message that came and went is.
function withoutRoundTrips(events) {
  return events.filter((e) => !e.section || !events.some((other) => other.section && other.el === e.el && other.kind !== e.kind));
}

// ---- reading the records

function readPending() {
  clearTimeout(log.timer);
  log.timer = 0;
  const batches = log.batches;
  log.batches = [];
  log.pending = 0;
  if (!batches.length) return;
  const burst = new Burst();
  for (const { records, at } of batches) {
    for (const record of records) burst.note(record, at);
  }
  burst.describe();
}

// The records of one reading, sorted by what they did.
class Burst {
  constructor() {
    this.added = new Map(); // element -> when
    this.removed = []; // [element, its former parent, when]
    this.texts = new Map(); // element whose text changed -> when
    this.attributes = new Map(); // element -> {old: Map(attribute -> first old value), at}
    this.ordinary = { added: 0, removed: 0, changed: 0 };
    this.described = 0;
  }

  note(record, at) {
    const target = record.target;
    if (record.type === 'childList') {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1) this.added.set(node, at);
        else if (node.nodeType === 3 && target.nodeType === 1) this.texts.set(target, at);
      }
      for (const node of record.removedNodes) {
        if (node.nodeType === 1) this.removed.push([node, target, at]);
        else if (node.nodeType === 3 && target.nodeType === 1) this.texts.set(target, at);
      }
    } else if (record.type === 'characterData') {
      if (target.parentElement) this.texts.set(target.parentElement, at);
    } else {
      let entry = this.attributes.get(target);
      if (!entry) this.attributes.set(target, (entry = { old: new Map(), at }));
      if (!entry.old.has(record.attributeName)) entry.old.set(record.attributeName, record.oldValue);
      entry.at = at;
    }
  }

  // Whether `el` is inside (or is) an element added in this burst: described with it.
  isNew(el) {
    for (let cur = el; cur; cur = cur.parentElement) if (this.added.has(cur)) return true;
    return false;
  }

  spent() {
    return this.described++ >= MAX_NODES_PER_READ;
  }

  describe() {
    // A re-render replaces elements with look-alikes: a removal and an addition that
    // read the same cancel out.
    const removals = [];
    for (const [el, parent, at] of this.removed) {
      // Moved rather than removed, or gone with an ancestor removed too.
      if (el.isConnected || (parent.nodeType === 1 && !parent.isConnected)) continue;
      if (this.spent()) break;
      const found = removedMessage(el, parent);
      if (found) removals.push({ el, at, ...found });
    }
    const additions = [];
    for (const [el, at] of this.added) {
      if (el.parentElement && this.isNew(el.parentElement)) continue;
      if (this.spent()) break;
      const found = addedMessage(el);
      if (found) additions.push({ el, at, ...found });
    }
    const kept = [];
    for (const addition of additions) {
      const twin = removals.findIndex((removal) => sameLook(removal, addition));
      if (twin >= 0) removals.splice(twin, 1);
      else kept.push(addition);
    }
    for (const removal of removals) this.record(removal, 'removed');
    for (const addition of kept) this.record(addition, 'added');
    for (const [el, at] of this.texts) {
      if (!el.isConnected || this.isNew(el) || this.spent()) continue;
      const found = changedText(el);
      if (found) this.record({ at, ...found }, 'changed');
    }
    for (const [el, { old, at }] of this.attributes) {
      if (!el.isConnected || this.isNew(el) || this.spent()) continue;
      const found = changedAttributes(el, old);
      if (found) this.record({ el, at, ...found }, found.kind);
    }
  }

  // One event per element: a toast that came, changed its text and went is one line
  // for each step at most, its text the latest.
  record(found, kind) {
    const { el, at, role, text, detail, tone, message, section } = found;
    if (tone === 'error' && kind !== 'removed') log.errors = true;
    if (tone === 'success' && kind !== 'removed') log.success = true;
    const known = log.events.find((e) => e.el === el && (e.kind === kind || (e.kind === 'added' && kind === 'changed')));
    if (known) {
      Object.assign(known, { text, detail, at, tone: tone || known.tone });
      return;
    }
    if (!message && this.ordinary[kind]++ >= ORDINARY_PER_READ) {
      log.more[kind]++;
      log.more.at = at;
      return;
    }
    log.events.push({ el, kind, role, text, detail, tone, at, section });
    if (log.events.length > MAX_EVENTS) {
      log.events.shift();
      log.dropped++;
    }
  }
}

function sameLook(a, b) {
  return a.role === b.role && a.text === b.text;
}

// ---- describing elements

// What an element says, read from its text nodes (never a field's value, nor what a
// text area or an editable region holds), at most TEXT_SCAN_CHARS of it.
function textOf(el) {
  const parts = [];
  let left = TEXT_SCAN_CHARS;
  const visit = (node) => {
    for (let child = node.firstChild; child && left > 0; child = child.nextSibling) {
      if (child.nodeType === 3) {
        parts.push(child.data);
        left -= child.data.length;
      } else if (child.nodeType === 1 && !NO_TEXT_TAGS.has(child.localName) && !child.hasAttribute('hidden') &&
        child.getAttribute('aria-hidden') !== 'true' && !isEditingHost(child)) {
        visit(child);
        parts.push(' ');
      }
    }
  };
  if (!NO_TEXT_TAGS.has(el.localName) && !isEditingHost(el)) visit(el);
  return truncate(normalizeSpace(parts.join('')), MAX_TEXT);
}

// Roles a removed element loses with the container they need (an option its listbox):
// its role attribute still says what it was.
const CONTAINED_ROLES = new Set(['option', 'treeitem']);

function removedContainedRole(el) {
  if (el.isConnected) return null;
  const role = (el.getAttribute('role') || '').trim().toLowerCase();
  return CONTAINED_ROLES.has(role) ? role : null;
}

// A control is named by its role and accessible name, a dialog or a heading by its role
// and text, anything else by its text. A removed element keeps the role its tag and
// attributes give it, so that a re-render's removed button and added twin cancel out.
function described(el) {
  const control = interactiveRole(el) || removedContainedRole(el);
  if (control) {
    // A control hidden by now (an option of a list that closed as it was chosen) or
    // removed has no accessible name: its label or text still says which it was.
    const name = (el.isConnected && accessibleName(el)) || el.getAttribute('aria-label') ||
      (el.labels && el.labels.length ? textOf(el.labels[0]) : '') || textOf(el);
    return { role: control === 'clickable' ? '' : control, text: truncate(name, MAX_TEXT), control: true };
  }
  const role = getRole(el);
  if (NAMED_ROLES.has(role)) {
    // A hidden or detached element has no accessible name: its label still says what it was.
    const name = (el.isConnected && accessibleName(el)) || el.getAttribute('aria-label') || '';
    return { role, text: truncate(name || textOf(el), MAX_TEXT), control: false };
  }
  return { role: '', text: textOf(el), control: false };
}

// What a state line is about: as described, but a group of controls marked as a whole (a
// fieldset of radios made invalid) is named by its legend or label, not by all its text.
function describedState(el) {
  const subject = described(el);
  if (subject.control || subject.role) return subject;
  const name = el.isConnected ? accessibleName(el) : '';
  return name ? { role: getRole(el) || '', text: truncate(name, MAX_TEXT), control: false } : subject;
}

// The message an element is or holds: itself when it is an announcer, else the first
// live region or styled message inside it.
function messageIn(el) {
  if (isAnnouncer(el) || styleTone(el)) return el;
  return el.querySelector(`${LIVE_REGION_SELECTOR}, [class*="error" i], [class*="danger" i], [class*="invalid" i], ` +
    '[class*="success" i], [class*="toast" i], [class*="alert" i]');
}

function messageTone(el, text) {
  const region = announcerOf(el) || messageIn(el);
  if (!region) return { tone: styleTone(el), message: false };
  return { tone: toneOf(region, text), message: true };
}

function addedMessage(el) {
  if (NO_TEXT_TAGS.has(el.localName) || el.localName === 'link' || el.localName === 'meta') return null;
  if (el.isConnected && (isInsideUserInput(el) || !isRendered(el))) return null;
  const { role, text, control } = described(el);
  if (!text && !role) return null;
  shownBefore.set(el, true);
  const { tone, message } = messageTone(el, text);
  return { role, text, tone, message: message || control || !!role };
}

// A removed element is detached: what it was is read from its own attributes and text,
// and from its former parent.
function removedMessage(el, parent) {
  if (NO_TEXT_TAGS.has(el.localName) || el.hidden || el.getAttribute('aria-hidden') === 'true') return null;
  if (shownBefore.get(el) === false) return null;
  const { role, text } = described(el);
  if (!text) return null;
  const region = (parent.nodeType === 1 && announcerOf(parent)) || messageIn(el);
  const tone = region ? toneOf(region, text) : styleTone(el);
  return { role, text, tone, message: !!region || !!role || logged(el) };
}

function logged(el) {
  return log.events.some((e) => e.el === el);
}

function isInsideUserInput(el) {
  for (let cur = el; cur; cur = cur.parentElement) {
    if (cur.localName === 'textarea' || isEditingHost(cur)) return true;
  }
  return false;
}

// The element a text change belongs to: its message, control or heading, else itself.
function textOwner(el) {
  const region = announcerOf(el);
  if (region) return region;
  for (let cur = el, depth = 0; cur && depth < 4; cur = cur.parentElement, depth++) {
    if (interactiveRole(cur) || NAMED_ROLES.has(getRole(cur))) return cur;
  }
  return el;
}

function changedText(el) {
  if (NO_TEXT_TAGS.has(el.localName) || isInsideUserInput(el)) return null;
  const owner = textOwner(el);
  if (!isRendered(owner)) return null;
  const { role, text, control } = described(owner);
  if (!text) return null;
  const { tone, message } = messageTone(owner, text);
  return { el: owner, role, text, tone, message: message || control || !!role };
}

// A control's state as words, for the attributes that changed.
function stateWords(el, attributes) {
  const words = [];
  const aria = (name) => el.getAttribute(name);
  for (const attr of attributes) {
    if (attr === 'aria-expanded') words.push(aria(attr) === 'true' ? 'expanded' : 'collapsed');
    else if (attr === 'aria-checked') words.push({ true: 'checked', mixed: 'mixed' }[aria(attr)] || 'unchecked');
    else if (attr === 'aria-pressed') words.push(aria(attr) === 'true' ? 'pressed' : 'not pressed');
    else if (attr === 'aria-selected') words.push(aria(attr) === 'true' ? 'selected' : 'not selected');
    else if (attr === 'aria-invalid') words.push(aria(attr) && aria(attr) !== 'false' ? 'invalid' : 'valid');
    else if (attr === 'disabled' || attr === 'aria-disabled') {
      const disabled = el.hasAttribute('disabled') || aria('aria-disabled') === 'true';
      if (!words.includes('disabled') && !words.includes('enabled')) words.push(disabled ? 'disabled' : 'enabled');
    }
  }
  return words;
}

function changedAttributes(el, old) {
  const changed = [...old.keys()].filter((attr) => el.getAttribute(attr) !== old.get(attr));
  if (!changed.length) return null;
  const states = changed.filter((attr) => STATE_ATTRS.includes(attr));
  const control = interactiveRole(el);
  // A field styled as invalid (`is-invalid`, `has-error`) says so as aria-invalid would.
  const styledInvalid = control && changed.includes('class') &&
    isStyledInvalid(el, control) && hintTone(old.get('class') || '') !== 'error';
  if (states.length && (control || states.includes('aria-invalid')) || styledInvalid) {
    const words = stateWords(el, states);
    if (styledInvalid && !words.includes('invalid')) words.push('invalid');
    const { role, text } = describedState(el);
    const tone = words.includes('invalid') ? 'error' : null;
    return { kind: 'changed', role, text, detail: words.join(', '), tone, message: true };
  }
  if (!changed.some((attr) => SHOWING_ATTRS.has(attr))) return null;
  return shownOrHidden(el, old);
}

// A message, dialog or styled message shown or hidden by an attribute (a class that
// shows a toast, `hidden` taken off an error, a dialog's `open`, a modal's overlay), else
// a part of the page that holds a heading or controls (a wizard's step, a tab's panel).
function shownOrHidden(el, old) {
  const subject = messageOf(el);
  if (!subject) return sectionShownOrHidden(el, old);
  const { role, text } = described(subject);
  const shown = !!text && isRendered(subject);
  let before = shownBefore.get(subject);
  if (before === undefined) before = old.has('hidden') ? old.get('hidden') === null : !shown;
  shownBefore.set(subject, shown);
  if (shown === before) return null;
  const tone = toneOf(subject, text);
  return { kind: shown ? 'added' : 'removed', role, text, tone, message: true };
}

// What an attribute change on `el` may show or hide: `el` itself when it is a message or a
// dialog, else a dialog inside it (a modal shown and hidden by its overlay).
function messageOf(el) {
  const role = getRole(el);
  if (isAnnouncer(el) || styleTone(el) || role === 'dialog' || role === 'alertdialog') return el;
  return el.querySelector('dialog, [role="dialog" i], [role="alertdialog" i]');
}

// A part of the page shown or hidden by its own attributes, told once by what names it
// ("Added: heading 'Step 2 of 3: Payment'"), as an ordinary change: a filter that hides
// forty cards is three lines and a count. Only when the old values (or the last reading)
// tell whether it was shown: a class that changes nothing of its rendering (`is-focused`)
// is no news. Shown to the eye: the page hidden from assistive technologies behind a
// modal (aria-hidden) is still there.
function sectionShownOrHidden(el, old) {
  const shown = isShownIgnoringOpacity(el);
  if (!shown) {
    const parent = composedParent(el);
    if (parent && !isShownIgnoringOpacity(parent)) return null; // hidden with an ancestor, whatever its own attributes say
  }
  const before = wasShown(el, old) ?? shownBefore.get(el) ?? shown;
  shownBefore.set(el, shown);
  if (before === shown) return null;
  const title = sectionTitle(el);
  if (!title || !title.text) return null;
  return { kind: shown ? 'added' : 'removed', role: title.role, text: title.text, tone: null, message: false, section: true };
}

// Whether `el` was shown before its attributes changed (its ancestors as they are now),
// or null when that cannot be told.
function wasShown(el, old) {
  let before = true;
  for (const [attr, value] of old) {
    if (el.getAttribute(attr) === value) continue;
    const showed = attributeShowed(el, attr, value);
    if (showed === false) return false;
    if (showed === null) before = null;
  }
  return before;
}

function attributeShowed(el, attr, value) {
  if (attr === 'hidden') return value === null;
  if (attr === 'style') return styleShowed(value, el.getAttribute('style'));
  if (attr === 'class') return classShowed(el, value);
  return true;
}

let styleProbe = null;

function inlineStyle(text) {
  styleProbe ??= document.createElement('div');
  styleProbe.style.cssText = text || '';
  return { display: styleProbe.style.display, visibility: styleProbe.style.visibility };
}

// An old inline style that hid the element, or a script that now sets a display or a
// visibility the old style did not: it shows what the page's styles hide (jQuery's show()).
function styleShowed(oldText, newText) {
  const was = inlineStyle(oldText);
  if (was.display === 'none' || was.visibility === 'hidden' || was.visibility === 'collapse') return false;
  const now = inlineStyle(newText);
  return !((now.display && !was.display) || (now.visibility === 'visible' && !was.visibility));
}

const HIDING_CLASS_RE = /^(is-|u-|js-)?(hidden|hide|d-none|invisible)$/i;
const MAX_SIBLINGS = 50;

// Told by a sibling of the same kind that has the element's old classes (the step a
// wizard left has the classes the next step had: `step is-active` moves), else by a
// class that hides (`d-none`, `is-hidden`) taken off or put on.
function classShowed(el, oldClass) {
  const oldTokens = (oldClass || '').split(/\s+/).filter(Boolean);
  const siblings = el.parentElement ? el.parentElement.children : [];
  for (let i = 0; i < siblings.length && i < MAX_SIBLINGS; i++) {
    const sibling = siblings[i];
    if (sibling !== el && sibling.localName === el.localName && sibling.classList.length === oldTokens.length &&
      oldTokens.every((token) => sibling.classList.contains(token))) return isShownIgnoringOpacity(sibling);
  }
  if (oldTokens.some((token) => HIDING_CLASS_RE.test(token) && !el.classList.contains(token))) return false;
  if ([...el.classList].some((token) => HIDING_CLASS_RE.test(token) && !oldTokens.includes(token))) return true;
  return null;
}

const GROUP_SELECTOR = 'fieldset, [role="group" i], [role="radiogroup" i]';
const CONTROL_SELECTOR = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="button" i], ' +
  '[role="link" i], [role="tab" i], [role="checkbox" i], [role="radio" i], [role="textbox" i], [role="combobox" i]';

// What names a part of the page: itself when it is a heading or a control, else its first
// heading, else its first named group of controls, else its first control.
function sectionTitle(el) {
  if (el.matches(HEADING_SELECTOR) || interactiveRole(el)) return described(el);
  const heading = el.querySelector(HEADING_SELECTOR);
  if (heading) return described(heading);
  const group = el.querySelector(GROUP_SELECTOR);
  const groupName = group && groupLabel(group);
  if (groupName) return { role: getRole(group), text: truncate(groupName, MAX_TEXT) };
  const control = el.querySelector(CONTROL_SELECTOR);
  return control ? described(control) : null;
}

// A group's label, read from the page even when the group is hidden (and has no
// accessible name): aria-label, else its legend.
function groupLabel(group) {
  if (isShownIgnoringOpacity(group)) return accessibleName(group);
  const legend = group.querySelector(':scope > legend');
  return group.getAttribute('aria-label') || (legend ? textOf(legend) : '');
}
