// Messages a page announces (docs/actions.md#verification, docs/views.md#recent-events):
// live regions, alerts, status lines and toasts, and whether what they say is an error
// or a success. Read by an action's verification and by the semantic view's change log.

import { closestComposed } from './dom.js';
import { getRole, isWidget } from './role.js';

export const LIVE_REGION_SELECTOR = '[role="alert"], [role="status"], [role="log"], [role="alertdialog"], ' +
  '[aria-live="polite"], [aria-live="assertive"], output';
const TOAST_HINT_RE = /(^|[-_ ])(toast|snackbar|notification|notice|flash|alert|error|success|feedback|message)s?([-_ ]|$)/i;
const ERROR_HINT_RE = /(^|[-_ ])(error|danger|invalid|fail|failure|warning)([-_ ]|$)/i;
const SUCCESS_HINT_RE = /(^|[-_ ])(success|ok|done|saved|confirm|confirmed)([-_ ]|$)/i;
const ERROR_WORDS_RE = /\b(error|errors|invalid|incorrect|failed|failure|fail|unsuccessful|wrong|denied|not allowed|unable|could not|couldn['’]?t|cannot|can not|can['’]?t|try again|timed out|problem|required|expired|rejected|not found)\b/i;
// An alert styled as information (Bootstrap's `alert alert-info`) is no error.
const NEUTRAL_HINT_RE = /(^|[-_ ])(info|information|notice|note|tip|hint|primary|secondary|neutral)([-_ ]|$)/i;
const SUCCESS_WORDS_RE = /\b(success|successful|successfully|saved|thank you|thanks|added|welcome|completed?|done|sent|updated|confirmed|created|submitted|logged in|signed in|subscribed)\b/i;
// How far up a message's ancestors its styling is looked for (`.alert-danger > p`).
const STYLED_ANCESTORS = 3;

// An element's class names and id as words ("errorMessage" reads "error Message").
export function styleHint(el) {
  const cls = typeof el.className === 'string' ? el.className : '';
  return `${cls} ${el.id || ''}`.replace(/([a-z])([A-Z])/g, '$1 $2');
}

export function isLiveRegion(el) {
  return el.matches(LIVE_REGION_SELECTOR);
}

// A control is no toast whatever its class or id says (a tab `#alerts-tab`, a link
// `.notifications`): its state changing is not a message.
export function isAnnouncer(el) {
  return isLiveRegion(el) || (TOAST_HINT_RE.test(styleHint(el)) && !isWidget(el));
}

// The live region or toast a changed node belongs to, if any.
export function announcerOf(node) {
  const el = node.nodeType === 1 ? node : node.parentElement;
  return el ? closestComposed(el, isAnnouncer) : null;
}

// 'error', 'success' or null, by class names and an id ("alert-danger", "is-invalid").
export function hintTone(hint) {
  if (ERROR_HINT_RE.test(hint)) return 'error';
  return SUCCESS_HINT_RE.test(hint) ? 'success' : null;
}

// The tone of an element's styling: its own classes and id, or a close ancestor's.
export function styleTone(el) {
  for (let cur = el, depth = 0; cur && depth <= STYLED_ANCESTORS; cur = cur.parentElement, depth++) {
    const tone = hintTone(styleHint(cur));
    if (tone) return tone;
  }
  return null;
}

// 'error', 'success' or null: by the element's styling, aria-invalid, and by what it
// says (`text`; '' where the words of an ordinary element, not a message, should not
// count). An alert (role="alert": important and usually time-sensitive, in ARIA's words)
// that neither says nor is styled otherwise is an error: pages raise one when an action
// cannot go on ("Accept the terms first"), and say so when it is good news.
export function toneOf(el, text) {
  const styled = styleTone(el);
  if (styled === 'error' || el.getAttribute('aria-invalid') === 'true' || ERROR_WORDS_RE.test(text)) return 'error';
  if (styled === 'success' || SUCCESS_WORDS_RE.test(text)) return 'success';
  if (getRole(el) === 'alert' && !NEUTRAL_HINT_RE.test(styleHint(el))) return 'error';
  return null;
}
