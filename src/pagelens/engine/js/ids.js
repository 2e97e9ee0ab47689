// Stable element ids ("tag & freeze"): `data-llm-id` is stamped once per
// element and kept across captures; an id is never handed to a second element while
// its first is still in the document.
//
// A re-render can replace an element by an identical one. The new element keeps the
// id when it is the same control by content: its identity key (role, name, target and
// the text around it) equals the one its id was last seen with. That covers
//  - a copied attribute (`list.innerHTML = list.innerHTML`, a clone of a removed node),
//    taken over only when the copy still shows the same content, and
//  - a fresh element without the attribute (a list rendered again from data), which
//    inherits the id of the gone element whose key it shares, when that key was unique.
// The surrounding text keeps a removed row's "Delete" button id off another row's
// "Delete" button. Links also match by their URL alone, so a re-rendered navigation
// keeps its ids when only its neighbours changed.

import { EVERY_CHANGE, ID_ATTR, changesPage } from './core.js';
import { accessibleName } from './accname.js';
import { composedParent, walkElements } from './dom.js';
import { getRole } from './role.js';

const MAX_CONTEXT_LEVELS = 6;
const MAX_REMEMBERED_KEYS = 50000;

const idState = {
  next: 1,
  owners: new Map(), // id -> WeakRef(element)
  keyOfId: new Map(), // id -> identity key the id was last stamped with
  byKey: new Map(), // identity key, unique in the last capture it was seen in -> id
  keysOf: new WeakMap(), // element -> { keys, version }: its identity keys when last shown in a run
  adopted: false,
  // During a stamping run: text hashes, the keys of the ids shown so far, and the
  // version of the document it sees.
  capture: null,
};

// ---- stamping runs: a scan (scanPage) opens one; it ends in a microtask, as soon as
// the evaluation that made the scan returns, and then remembers the keys of the ids
// it showed.

// Adopt ids stamped by an earlier world (the page navigated within the same document, or
// the browser layer recreated its world) rather than renumber them.
export function beginStamping(shadowRoots) {
  adoptIds(shadowRoots);
  if (idState.capture) return;
  idState.capture = { texts: new Map(), stamped: [], version: documentVersion(shadowRoots), mayInherit: undefined };
  queueMicrotask(() => endStamping(shadowRoots));
}

function adoptIds(shadowRoots) {
  if (idState.adopted) return;
  idState.adopted = true;
  for (const root of [document, ...shadowRoots]) {
    for (const el of root.querySelectorAll(`[${ID_ATTR}]`)) {
      const id = el.getAttribute(ID_ATTR);
      const n = parseInt(id, 10);
      if (Number.isFinite(n) && n >= idState.next) idState.next = n + 1;
      if (!idState.owners.has(id)) idState.owners.set(id, new WeakRef(el));
      else el.removeAttribute(ID_ATTR); // a duplicate; restamped when next seen
    }
  }
}

// Remember, for the next capture, which id each key had where the key was unique among
// the ids shown in this run.
function endStamping(shadowRoots) {
  const capture = idState.capture;
  if (!capture) return;
  watchDocument(shadowRoots);
  const ids = new Map();
  for (const { keys, id } of capture.stamped) {
    for (const key of keys) ids.set(key, ids.has(key) && ids.get(key) !== id ? null : id);
  }
  for (const [key, id] of ids) {
    if (id === null) idState.byKey.delete(key); // ambiguous now: inherit nothing
    else idState.byKey.set(key, id);
  }
  // Texts change between runs: ids stamped outside one (the action layer) hash them afresh.
  idState.capture = null;
  if (idState.byKey.size > MAX_REMEMBERED_KEYS) forgetGoneKeys();
}

function forgetGoneKeys() {
  for (const [key, id] of idState.byKey) {
    if (!isLive(id)) idState.byKey.delete(key);
  }
}

// ---- changes between runs
// Identity keys are read from the document (roles, names, the text around). Each
// stamping run sees a version of it, a new one when it has changed since the last run;
// an element shown again in the same version keeps the keys it had. A MutationObserver
// watches the document and its open shadow roots between runs (it stops at the first
// change); our own id stamps are no change. A change made by style alone (a :hover rule
// showing a menu) is not seen: keys then stay as they were, and the worst that follows
// is a re-rendered copy of an element missing its id.

const watch = { observer: null, roots: [], changed: true, version: 0 };

function watchDocument(shadowRoots) {
  if (!watch.observer) {
    watch.observer = new MutationObserver((records) => {
      if (!changesPage(records)) return;
      watch.changed = true;
      watch.observer.disconnect();
    });
  }
  watch.changed = false;
  watch.roots = shadowRoots.slice();
  for (const root of [document, ...shadowRoots]) watch.observer.observe(root, EVERY_CHANGE);
}

// The version of the document a run sees: the last run's, when nothing has changed since
// and the run finds the same shadow roots (a root attached since, to an element already
// there, is seen by no observer). Watching stops for the run: its own stamps are no
// change to record.
function documentVersion(shadowRoots) {
  const unchanged = watch.observer !== null && !watch.changed && !changesPage(watch.observer.takeRecords()) &&
    watch.roots.length === shadowRoots.length && watch.roots.every((root, i) => root === shadowRoots[i]);
  if (watch.observer) watch.observer.disconnect();
  watch.changed = true;
  if (!unchanged) watch.version++;
  return watch.version;
}

// ---- identity keys

// Identity keys look at the start of a text only: enough to tell rows apart, and
// hashing stays cheap on huge containers.
const KEY_TEXT_CHARS = 256;

// A whitespace-insensitive hash of a text's first KEY_TEXT_CHARS visible characters and
// their count, as a 30-bit integer: keys are compared, never shown, and a small integer
// is the cheapest number to join into a key string.
function textHash(text) {
  let hash = 0x811c9dc5;
  let count = 0;
  for (let i = 0; i < text.length && count < KEY_TEXT_CHARS; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32 || c === 160) continue;
    hash = Math.imul(hash ^ c, 0x01000193);
    count++;
  }
  return (Math.imul(hash, 31) + count) & 0x3fffffff;
}

function textKeyOf(el) {
  const texts = idState.capture ? idState.capture.texts : new Map();
  let key = texts.get(el);
  if (key === undefined) {
    key = textHash(el.textContent || '');
    texts.set(el, key);
  }
  return key;
}

// The text around an element: that of its nearest ancestor showing more than the
// element itself and its label (the row, card or list item it belongs to).
function contextOf(el, name) {
  const own = textKeyOf(el);
  const label = textHash(name);
  let cur = composedParent(el);
  for (let level = 0; cur && level < MAX_CONTEXT_LEVELS; level++, cur = composedParent(cur)) {
    const text = textKeyOf(cur);
    if (text !== own && text !== label) return text;
  }
  return '';
}

// A link's URL identifies it when it is a real destination (not "#" or a script).
function linkTarget(el) {
  const href = el.getAttribute('href');
  if (!href || href.startsWith('#') || /^\s*javascript:/i.test(href)) return '';
  return href;
}

function identityKeys(el) {
  const role = getRole(el) || el.localName;
  const name = accessibleName(el);
  const href = el.getAttribute('href') || '';
  const own = [role, name, href, el.getAttribute('name') || '', el.getAttribute('type') || '',
    el.id || '', contextOf(el, name)].join('\u0001');
  const target = linkTarget(el);
  return target ? [own, ['link', role, name, target].join('\u0001')] : [own];
}

// ---- ids

function ownerOf(id) {
  const ref = idState.owners.get(id);
  return ref ? ref.deref() : undefined;
}

function isLive(id) {
  const owner = ownerOf(id);
  return !!owner && owner.isConnected;
}

function assignId(el, id) {
  if (el.getAttribute(ID_ATTR) !== id) el.setAttribute(ID_ATTR, id);
  if (ownerOf(id) !== el) idState.owners.set(id, new WeakRef(el));
  return id;
}

// Whether an element without an id could inherit one: only the id of a remembered key
// whose element is gone. Within a run the document does not change, so it is asked once
// there: a huge page's second capture stamps what its first did not read, and naming each
// of those elements for nothing cost more than the rest of the stamping.
function mayInherit() {
  const capture = idState.capture;
  if (!capture) return idState.byKey.size > 0;
  if (capture.mayInherit === undefined) {
    capture.mayInherit = false;
    for (const id of idState.byKey.values()) {
      if (!isLive(id)) {
        capture.mayInherit = true;
        break;
      }
    }
  }
  return capture.mayInherit;
}

// The id of `el`, stamping one when needed. An element that keeps its own id costs two
// lookups; identity keys (they need the accessible name) are computed only when an
// earlier id could be taken over. A new document stamps its controls in document order.
export function stableId(el) {
  const current = el.getAttribute(ID_ATTR);
  if (current !== null && ownerOf(current) === el) return current;
  if (current !== null || mayInherit()) {
    const keys = identityKeys(el);
    // A copy of a gone element's attribute, still showing the same content. (Otherwise
    // it was copied from a live element (cloneNode), or its content changed.)
    if (current !== null && !isLive(current) && idState.keyOfId.get(current) === keys[0]) {
      return assignId(el, current);
    }
    for (const key of keys) {
      const inherited = idState.byKey.get(key);
      if (inherited !== undefined && !isLive(inherited)) return assignId(el, inherited);
    }
  }
  return assignId(el, String(idState.next++));
}

// The id of `el` as shown to an agent (in a view or an action result): its identity keys
// are remembered, so that a re-rendered copy of the element takes the id over.
export function shownId(el) {
  const id = stableId(el);
  const capture = idState.capture;
  const known = capture && idState.keysOf.get(el);
  let keys = known && known.version === capture.version ? known.keys : undefined;
  if (!keys) {
    keys = identityKeys(el);
    if (capture) idState.keysOf.set(el, { keys, version: capture.version });
  }
  idState.keyOfId.set(id, keys[0]);
  if (capture) capture.stamped.push({ keys, id });
  return id;
}

// The element stamped `id`, or null when it is gone (never a stale copy of its id).
export function resolveId(id) {
  if (!idState.adopted) {
    const shadowRoots = [];
    if (document.documentElement) walkElements(document.documentElement, () => true, shadowRoots);
    adoptIds(shadowRoots);
  }
  const owner = ownerOf(id);
  return owner && owner.isConnected && owner.getAttribute(ID_ATTR) === id ? owner : null;
}
