// Shared helpers. The engine runs in an isolated world, so the builtins it uses are the
// world's own and cannot be patched by the page.

export const ID_ATTR = 'data-llm-id';

// Every change to a tree, for the observers that ask whether the page changed at all.
export const EVERY_CHANGE = { subtree: true, childList: true, attributes: true, characterData: true };

// A mutation of the engine's own: an id stamped on an element, no change to the page.
export function isIdStamp(record) {
  return record.type === 'attributes' && record.attributeName === ID_ATTR;
}

// Whether mutation records change the page: any but the engine's own id stamps.
export function changesPage(records) {
  return !records.every(isIdStamp);
}

export function normalizeSpace(text) {
  return (text || '').replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

export function truncate(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - 1)).trimEnd() + '\u2026';
}

export function round(n) {
  return Math.round(n);
}

// Caches for one synchronous run of the engine (a capture, an action): the page may
// change between runs, so nothing computed from it is kept longer. Every cache is
// emptied in a microtask queued by its first write, which runs as soon as the current
// evaluation returns, and again when a scan starts (scanPage).
class RunScopedMap extends Map {
  set(key, value) {
    armRunCaches();
    return super.set(key, value);
  }
}

const runCaches = [];
let runCachesArmed = false;

export function runScopedMap() {
  const cache = new RunScopedMap();
  runCaches.push(cache);
  return cache;
}

function armRunCaches() {
  if (runCachesArmed) return;
  runCachesArmed = true;
  queueMicrotask(resetRunCaches);
}

export function resetRunCaches() {
  for (const cache of runCaches) cache.clear();
  runCachesArmed = false;
}

// A wall-clock budget shared by one capture, so huge pages stop early instead of hanging.
// Reading the page stops at `ms`; what is built from what was read (ids, each control's
// visibility) gets as long again, and then stops too (`overdue`): that work is CPU work,
// and on a busy machine it would stretch past the view's limit (docs/views.md, "Huge pages").
export class Deadline {
  constructor(ms) {
    const now = performance.now();
    this.ms = ms;
    this.end = now + ms;
    this.buildEnd = now + 2 * ms;
    this.hit = false;
    this.late = false;
    this.asked = 0;
  }
  expired() {
    if (!this.hit && performance.now() > this.end) this.hit = true;
    return this.hit;
  }
  // For a loop over `count` items so far: the clock is read every 1024th item only.
  passed(count) {
    return this.hit || ((count & 1023) === 0 && this.expired());
  }
  // The time for one more pass over the page once the reading's time is spent (its text,
  // for the word count and the main content): a quarter of the reading's, from now, taken
  // out of the building's.
  afterReading() {
    if (!this.expired()) return this;
    const pass = new Deadline(this.ms / 4);
    pass.end = Math.min(pass.end, this.buildEnd);
    return pass;
  }
  // Whether the building's time is spent too. Asked once per control: the clock is read
  // every 16th time, which on a huge page costs less than reading it for every control
  // and overruns by no more than 15 of the costliest controls (the interaction view's).
  overdue() {
    if (!this.late && (++this.asked & 15) === 0 && performance.now() > this.buildEnd) this.late = true;
    return this.late;
  }
}
