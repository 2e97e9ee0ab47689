// A document's arrival: what a navigation reports of the page it loaded (its token,
// address and title, and the compact summary), in one call (browser/page.py,
// Page.arrive). A navigation that will not watch the page settle says so while the
// document loads (`expectArrival`): the engine then takes the compact summary by itself
// right after `load` and keeps it while it still holds: no change to the DOM (the ids
// captures stamp aside), the same address, no scroll, the same viewport. The arrival a
// moment later finds it ready instead of waiting for it; anything else takes it afresh.
// Kept for one arrival only.

import { ID_ATTR } from './core.js';
import { capture, captureWithScan } from './capture.js';
import { actDocToken } from './act_observe.js';
import { noteView, watchChanges } from './changes.js';

// The kept summary's own budget: a page that needs longer gets its summary when asked,
// with the navigation's budget, rather than the main thread held unasked.
const KEEP_BUDGET_MS = 1000;
const WATCHED = { subtree: true, childList: true, characterData: true, attributes: true };

let kept = null; // { view, observer, at: where the page stood }
let timer = 0;
let asked = false; // an arrival has been read: nothing more to keep

// The summary is kept from `load` (at once when it has come); true.
export function expectArrival() {
  if (asked || kept || timer) return true;
  // In a task of its own: the page's load event is not held up by it.
  const keep = () => {
    if (!asked) timer = setTimeout(keepSummary, 0);
  };
  if (document.readyState === 'complete') keep();
  else addEventListener('load', keep, { once: true });
  return true;
}

// Where the page stands: its address (pushState moves it without a DOM change), its
// scroll position and its viewport.
function standing() {
  return [location.href, scrollX, scrollY, innerWidth, innerHeight].join(' ');
}

function keepSummary() {
  timer = 0;
  try {
    const { result, scan } = captureWithScan('compact', { timeoutMs: KEEP_BUDGET_MS, warmUp: true });
    if (result.stats.partial) return;
    const observer = new MutationObserver((records) => {
      if (changedPage(records)) drop();
    });
    for (const root of [document, ...scan.shadowRoots]) observer.observe(root, WATCHED);
    kept = { view: result.view, observer, at: standing() };
  } catch {
    kept = null; // only a head start: the arrival takes its summary itself
  }
}

function changedPage(records) {
  return records.some((r) => r.type !== 'attributes' || r.attributeName !== ID_ATTR);
}

function drop() {
  if (!kept) return;
  kept.observer.disconnect();
  kept = null;
}

// The kept summary if it still holds and was taken as `options` ask (contact details
// masked, no base URL, no HTTP error status: the kept one was taken without them).
function keptSummary(options) {
  if (!kept) return null;
  if (changedPage(kept.observer.takeRecords())) drop();
  const usable = kept && kept.at === standing() && options.maskContactDetails !== false && !options.baseUrl
    && !(options.httpStatus >= 400);
  const view = usable ? kept.view : null;
  drop();
  return view;
}

// { doc, href, title }, and with `summary` the compact summary (capture options as for
// capture('compact')) or, where it could not be taken, summaryError: a summary that
// fails never fails the arrival.
export function arrive(summary, options) {
  watchChanges(); // at the latest: the log starts with `load`, which may never come
  const facts = { doc: actDocToken(), href: location.href, title: document.title };
  if (!summary) return facts;
  asked = true;
  clearTimeout(timer);
  try {
    const view = keptSummary(options);
    if (view) noteView('compact');
    facts.summary = view || capture('compact', options).view;
  } catch (e) {
    facts.summaryError = String((e && e.message) || e);
  }
  return facts;
}
