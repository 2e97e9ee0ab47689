// Shared helpers. Every engine module runs inside one closure in an isolated world,
// so these builtins are the world's own and cannot be patched by the page.

const ID_ATTR = 'data-llm-id';

function normalizeSpace(text) {
  return (text || '').replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

function truncate(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - 1)).trimEnd() + '\u2026';
}

function round(n) {
  return Math.round(n);
}

// Caches for one synchronous run of the engine (a capture, an action): the page may
// change between runs, so nothing computed from it is kept longer. Every scan
// (scanPage) starts afresh, and the caches are dropped in a microtask, which runs as
// soon as the current evaluation returns. Modules key their per-run caches by name.
const captureCaches = new Map();
let captureCachesArmed = false;

function captureCache(name) {
  if (!captureCachesArmed) {
    captureCachesArmed = true;
    queueMicrotask(resetCaptureCaches);
  }
  let cache = captureCaches.get(name);
  if (!cache) {
    cache = new Map();
    captureCaches.set(name, cache);
  }
  return cache;
}

function resetCaptureCaches() {
  captureCaches.clear();
  captureCachesArmed = false;
}

// A wall-clock budget shared by one capture, so huge pages stop early instead of hanging.
class Deadline {
  constructor(ms) {
    this.end = performance.now() + ms;
    this.hit = false;
  }
  expired() {
    if (!this.hit && performance.now() > this.end) this.hit = true;
    return this.hit;
  }
}

const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// Phone numbers: 7+ digits with the usual separators, optionally international.
const PHONE_RE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}[\s.-]\d{2,4}[\s.-]\d{2,6}\b/g;

function maskPersonalData(text) {
  return text.replace(EMAIL_RE, '[email]').replace(PHONE_RE, (m) =>
    m.replace(/\D/g, '').length >= 7 ? '[phone]' : m,
  );
}
