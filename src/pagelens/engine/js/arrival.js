// A document's arrival: what a navigation reports of the page it loaded (its token,
// address and title, whether `load` came, and the compact summary), in one call
// (browser/page.py, Page.arrive).
//
// A navigation that settles by a fixed delay makes the call as soon as the document is
// parsed, and the engine waits for `load` (`loadWaitMs` at most) and the delay
// (`delayMs`) itself: told of `load` in Python and asking after it, the result would come
// a round trip through the driver later. With a delay, the compact summary is taken
// right after `load` and kept while it still holds: no change to the DOM (the ids
// captures stamp aside), the same address, no scroll, the same viewport; anything else
// takes it afresh after the delay.

import { EVERY_CHANGE, changesPage } from './core.js';
import { capture, captureWithScan } from './capture.js';
import { actDocToken } from './act_observe.js';
import { noteView, watchChanges } from './changes.js';

// Whether `load` came within `limitMs` (at once where it has come); resolved in a task
// after the page's own load handlers, so that what they change is read too.
function loadEvent(limitMs) {
  if (document.readyState === 'complete') return Promise.resolve(true);
  return new Promise((resolve) => {
    const onLoad = () => setTimeout(() => finish(true), 0);
    const timer = setTimeout(() => finish(false), limitMs);
    function finish(loaded) {
      clearTimeout(timer);
      removeEventListener('load', onLoad);
      resolve(loaded);
    }
    addEventListener('load', onLoad, { once: true });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Where the page stands: its address (pushState moves it without a DOM change), its
// scroll position and its viewport.
function standing() {
  return [location.href, scrollX, scrollY, innerWidth, innerHeight].join(' ');
}

// The compact summary now, and a way to have it later while the page is as it was; null
// when it could not be taken whole (the arrival takes it afresh).
function keepSummary(options) {
  try {
    const { result, scan } = captureWithScan('compact', { ...options, warmUp: true });
    if (result.stats.partial) return null;
    let changed = false;
    const observer = new MutationObserver((records) => {
      changed ||= changesPage(records);
    });
    for (const root of [document, ...scan.shadowRoots]) observer.observe(root, EVERY_CHANGE);
    const at = standing();
    return () => {
      changed ||= changesPage(observer.takeRecords());
      observer.disconnect();
      return changed || at !== standing() ? null : result.view;
    };
  } catch {
    return null; // only a head start
  }
}

// { doc, href, title, loaded, waitedMs }, and with `summary` the compact summary (capture
// options as for capture('compact')) or, where it could not be taken, summaryError: a
// summary that fails never fails the arrival. `waitedMs`: how long of the call went to
// waiting for `load` and the delay, which the summary's own limit does not count.
export async function arrive(summary, options) {
  const started = performance.now();
  const loaded = options.loadWaitMs ? await loadEvent(options.loadWaitMs) : document.readyState === 'complete';
  let kept = null;
  if (options.delayMs) {
    if (summary) kept = keepSummary(options);
    await sleep(options.delayMs);
  }
  const facts = { doc: actDocToken(), href: location.href, title: document.title, loaded };
  facts.waitedMs = performance.now() - started;
  watchChanges(); // at the latest: the log starts with `load`, which may never come
  if (!summary) return facts;
  try {
    const view = kept && kept();
    if (view) noteView('compact');
    facts.summary = view || capture('compact', options).view;
  } catch (e) {
    facts.summaryError = String((e && e.message) || e);
  }
  return facts;
}
