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
export class Deadline {
  constructor(ms) {
    this.end = performance.now() + ms;
    this.hit = false;
  }
  expired() {
    if (!this.hit && performance.now() > this.end) this.hit = true;
    return this.hit;
  }
  // For a loop over `count` items so far: the clock is read every 1024th item only.
  passed(count) {
    return this.hit || ((count & 1023) === 0 && this.expired());
  }
}
