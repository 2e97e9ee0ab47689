// Page summaries: `compact` rides along with every navigation, `full` answers
// analyze(what="full"). One code path, two sizes.

import { ID_ATTR, normalizeSpace, truncate } from './core.js';
import { SelectorBuilder } from './selector.js';
import { TextStats, findMainNode, isInlineTag, previewStart, readableText, textLength } from './content.js';
import { accessibleName } from './accname.js';
import { classifyPage, pageSignals } from './classify.js';
import { absoluteUrl, composedParent, isComposedDescendant, linkUrl, pageUrl } from './dom.js';
import { maskAttribute } from './contact.js';
import { coveringElement, isRendered, styleOf } from './visibility.js';
import { isPasswordField, isSensitiveField } from './sensitive.js';
import { regionOf } from './region.js';

const SUMMARY_LIMITS = {
  compact: { headings: 3, levels: ['h1'], actions: 5, forms: 3, fields: 5, preview: 300 },
  full: { headings: 30, levels: ['h1', 'h2', 'h3'], actions: 0, forms: 10, fields: 25, preview: 500, navLinks: 25 },
};

const CTA_RANK = { submit: 0, button: 1, roleButton: 2, link: 3 };

function ctaRank(control) {
  const el = control.el;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (type === 'submit' && (el.localName === 'button' || el.localName === 'input')) return CTA_RANK.submit;
  if (el.localName === 'button' || (el.localName === 'input' && ['button', 'image', 'reset'].includes(type))) {
    return CTA_RANK.button;
  }
  if (control.role === 'button') return CTA_RANK.roleButton;
  if (control.role === 'link' && el.hasAttribute('href')) return CTA_RANK.link;
  return null;
}

// The visible headings of `levels`, as "h2: text"; `mask` hides contact details.
export function visibleHeadings(levels, max, mask) {
  const out = [];
  for (const h of document.querySelectorAll(levels.join(','))) {
    if (out.length >= max) break;
    if (!isRendered(h)) continue;
    const text = truncate(mask(accessibleName(h) || normalizeSpace(h.textContent)), 100);
    if (text) out.push(`${h.localName}: ${text}`);
  }
  return out;
}

// Hit tests of the summary's candidates stop here: one costs 10 ms or more where thousands
// of boxes are siblings, and the summary is read after every navigation.
const HIT_TEST_BUDGET_MS = 10;

// Whether something stands over the page (a cookie banner, a modal): probed at its edges
// and middle, where they sit, so that a page without one pays five hit tests, not one a
// candidate.
function overlayInView() {
  const w = window.innerWidth, h = window.innerHeight;
  const probes = [[w / 2, h / 2], [w / 2, h - 10], [10, h - 10], [w - 10, h - 10], [w / 2, 10]];
  return probes.some(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && overlayOf(hit) !== null;
  });
}

// The primary actions: visible buttons, submits, role=button and links with a label, in the main
// content first (the rest of the body fills up to `max`; a sidebar or a navigation inside
// the main element is beside the content, not in it); above the fold first, then by
// kind, then in document order; deduplicated by label. Links inside running text
// (citations, "click here") are references rather than calls to action: they only fill
// places left over. Skip links ("Skip to content") only move focus and are left out.
function primaryActions(scan, mainNode, builder, max) {
  const viewportHeight = window.innerHeight;
  const candidates = [];
  const hitTestEnd = overlayInView() ? performance.now() + HIT_TEST_BUDGET_MS : 0;
  scan.controls.forEach((control, order) => {
    const rank = ctaRank(control);
    if (rank === null || !control.visible) return;
    const aboveFold = control.rect.top < viewportHeight;
    const tested = aboveFold && performance.now() < hitTestEnd;
    const cover = tested ? coveringElement(control.el, control.viewRect) : undefined;
    // A covered control cannot be clicked until what covers it is gone: it waits as one
    // below the fold would.
    const fold = aboveFold && !cover ? 0 : 1;
    const inMain = inScope(control.el, mainNode) && !besideContent(control.el, mainNode);
    candidates.push({ control, order, rank, inMain, fold, cover });
  });
  markOnTop(candidates);
  candidates.sort((a, b) => (b.onTop - a.onTop) || (b.inMain - a.inMain) || a.fold - b.fold || a.rank - b.rank ||
    a.order - b.order);
  const seen = new Set();
  const actions = [];
  const deferred = [];
  const take = (control) => {
    // Deduplicated by the label as shown: two long labels may share their first 40 characters.
    const label = truncate(actionLabel(control), 40);
    const key = label.toLowerCase();
    if (!key || seen.has(key)) return;
    seen.add(key);
    actions.push({
      label,
      selector: actionSelector(control, builder, () => labelIsUnique(scan, control)),
      tag: control.tag,
      id: control.id,
    });
  };
  for (const { control } of candidates) {
    if (actions.length >= max) break;
    if (isSkipLink(control)) continue;
    if (isInlineReference(control)) deferred.push(control);
    else take(control);
  }
  for (const control of deferred) {
    if (actions.length >= max) break;
    take(control);
  }
  return actions;
}

// The controls of whatever stands over other controls (a cookie banner, a modal) come
// first: the page asks for them before anything under them can be used.
function markOnTop(candidates) {
  const overlays = new Set(candidates.map((c) => c.cover && overlayOf(c.cover)).filter(Boolean));
  for (const c of candidates) {
    c.onTop = [...overlays].some((overlay) => isComposedDescendant(c.control.el, overlay)) ? 1 : 0;
  }
}

// The dialog or box fixed over the page that a covering element belongs to (what is hit
// is the banner's text, its buttons are in the banner); null for anything else covering,
// a sticky header included: it is the page's own.
function overlayOf(el) {
  let overlay = null;
  for (let cur = el; cur && cur !== document.body; cur = composedParent(cur)) {
    const role = cur.getAttribute('role');
    if (cur.localName === 'dialog' || role === 'dialog' || role === 'alertdialog' || styleOf(cur).position === 'fixed') {
      overlay = cur;
    }
  }
  return overlay;
}

// Icon fonts put glyphs from the Unicode private use area into captions.
function actionLabel(control) {
  return normalizeSpace(control.name.replace(/[\uE000-\uF8FF]/g, ''));
}

// A link inside a paragraph that says much more than the link does.
function isInlineReference(control) {
  if (control.role !== 'link' || control.el.localName !== 'a') return false;
  let block = control.el.parentElement;
  while (block && isInlineTag(block.localName)) block = block.parentElement;
  if (!block || (block.localName !== 'p' && block.localName !== 'blockquote')) return false;
  return textLength(block) > 2 * (control.el.textContent || '').length + 40;
}

const BESIDE_CONTENT = 'aside, nav, [role="complementary" i], [role="navigation" i]';

// Inside a sidebar or a navigation block that sits within `scope` (a sign-in box in the
// sidebar of <main>, a table of contents), or within the body when no main content was
// found.
function besideContent(el, scope) {
  const beside = el.closest(BESIDE_CONTENT);
  return !!beside && beside !== scope && scope.contains(beside);
}

function inScope(el, scope) {
  if (scope === document.body || scope.contains(el)) return true;
  return el.getRootNode() !== document && isComposedDescendant(el, scope);
}

function isSkipLink(control) {
  const href = control.el.getAttribute('href') || '';
  return control.role === 'link' && href.startsWith('#') && /^skip\b/i.test(control.name);
}

// Whether no other visible control carries the same accessible name (compared by name
// itself: defaults like "Submit", generated content and SVG titles make names that no
// attribute shows). Names are costly, so on pages with very many controls this answers
// false and the caller uses a CSS or id selector, which is always exact.
const MAX_CONTROLS_FOR_TEXT_SELECTOR = 400;
const nameCounts = new WeakMap();

function labelIsUnique(scan, control) {
  if (scan.controls.length > MAX_CONTROLS_FOR_TEXT_SELECTOR) return false;
  let counts = nameCounts.get(scan);
  if (!counts) {
    counts = new Map();
    nameCounts.set(scan, counts);
    for (const other of scan.controls) {
      if (!other.visible) continue;
      const name = other.name.toLowerCase();
      counts.set(name, (counts.get(name) || 0) + 1);
    }
  }
  return counts.get(control.name.toLowerCase()) === 1;
}

// Attribute selectors first; a `text=` selector (resolved by the action layer against
// accessible names) when the label is unique and short; then the CSS path. Selectors
// longer than MAX_SELECTOR fall back to the element's stamped id, which stays valid
// for as long as the element does.
const MAX_SELECTOR = 80;

function actionSelector(control, builder, uniqueLabel) {
  const selector = builder.build(control.el);
  const isPath = !selector || /[> ]|:nth-/.test(selector.replace(/\[[^\]]*\]/g, ''));
  if ((isPath || selector.length > MAX_SELECTOR) && control.name.length <= 40 && !control.nameIsMasked &&
    uniqueLabel()) {
    return `text=${control.name}`;
  }
  if (selector && selector.length <= MAX_SELECTOR) return selector;
  return `[${ID_ATTR}="${control.id}"]`;
}

const FIELD_TAGS = new Set(['input', 'select', 'textarea']);
export const NON_FIELD_TYPES = new Set(['submit', 'button', 'reset', 'image', 'hidden']);

// A password field says so when its label does not: an agent learns where a secret goes.
function fieldLabel(control) {
  const el = control.el;
  const label = truncate(control.mask(actionLabel(control) || el.getAttribute('name') ||
    el.getAttribute('placeholder') || el.getAttribute('type') || el.localName), 30);
  return isPasswordField(el) && !/password/i.test(label) ? `${label} (password)` : label;
}

// The form's target URL. Read from the attribute: a field named "action" shadows
// form.action.
function formAction(form) {
  const action = form ? form.getAttribute('action') : null;
  return action === null ? null : absoluteUrl(action);
}

function visibleForms(scan, maxForms, maxFields, full) {
  const groups = new Map();
  for (const control of scan.controls) {
    const el = control.el;
    const isField = (FIELD_TAGS.has(el.localName) && !NON_FIELD_TYPES.has((el.getAttribute('type') || '').toLowerCase())) ||
      (control.role === 'textbox' && el.isContentEditable);
    if (!isField || !control.visible) continue;
    const form = el.form || el.closest('form') || null;
    if (!groups.has(form)) groups.set(form, []);
    groups.get(form).push(control);
  }
  const forms = [];
  for (const [form, fields] of groups) {
    if (forms.length >= maxForms) break;
    const entry = { fields: fields.slice(0, maxFields).map(fieldLabel) };
    if (full) {
      entry.action = formAction(form);
      entry.method = form ? (form.getAttribute('method') || 'get').toLowerCase() : null;
    }
    forms.push(entry);
  }
  return forms;
}

// Links in navigation landmarks and the banner first; then links in other page chrome
// (elements named nav/menu/header and the like, for pages without landmarks).
function navLinks(scan, stats, max) {
  const out = [];
  const seen = new Set();
  const take = (wanted) => {
    for (const control of scan.controls) {
      if (out.length >= max) break;
      // Names are costly: asked last, of the few links in scope.
      if (control.role !== 'link' || !wanted(control) || !control.visible || !control.name) continue;
      const href = linkUrl(control.el);
      if (seen.has(href + control.name)) continue;
      seen.add(href + control.name);
      out.push({ text: truncate(control.name, 60), href: maskAttribute('href', href, scan.mask) });
    }
  };
  take((c) => /^(navigation|banner)/.test(regionOf(c.el) || ''));
  take((c) => stats.chromeOf(c.el) && !c.el.closest('footer, [role="contentinfo"]'));
  return out;
}

// A conservative estimate of o200k tokens (calibrated on the corpus summaries: never
// below the real count, about 1.5 times it on English): ASCII letters one token per 4,
// digits one per 3, ASCII punctuation one per 2, Greek/Cyrillic/Armenian one per 2
// letters, CJK 1.5 per character and anything else (accents, symbols, mis-decoded text)
// 2 per character.
const TOKEN_RUN_RE = /[A-Za-z]+|\d+|[\u0370-\u058F]+|[!-/:-@[-`{-~]+|\s+|./gsu;

function estimateTokens(text) {
  let tokens = 0;
  for (const run of text.match(TOKEN_RUN_RE) || []) {
    const c = run.codePointAt(0);
    if (/\s/.test(run)) continue;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) tokens += Math.ceil(run.length / 4);
    else if (c >= 48 && c <= 57) tokens += Math.ceil(run.length / 3);
    else if (c >= 0x370 && c <= 0x58F) tokens += Math.ceil(run.length / 2);
    else if (c < 128) tokens += Math.ceil(run.length / 2);
    else if ((c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF)) tokens += 1.5;
    else tokens += 2;
  }
  return tokens;
}

// The compact summary is budgeted at ~400 tokens. Long non-Latin titles, headings
// and previews can blow that, so the least useful detail is trimmed first until the
// estimate fits: preview, form labels, action labels and selectors, headings, title.
const COMPACT_BUDGET = 380;
const SHRINK_STEPS = [
  (s) => { s.content_preview = truncate(s.content_preview, 200); },
  (s) => { s.forms = s.forms.slice(0, 2).map((f) => ({ fields: f.fields.slice(0, 4).map((x) => truncate(x, 20)) })); },
  (s) => {
    for (const a of s.primary_actions) {
      a.label = truncate(a.label, 25);
      if (a.selector.length > 40) a.selector = `[${ID_ATTR}="${a.id}"]`;
    }
  },
  (s) => { s.headings = s.headings.slice(0, 2).map((h) => truncate(h, 64)); },
  (s) => { s.content_preview = truncate(s.content_preview, 120); },
  (s) => { s.title = truncate(s.title, 80); },
  (s) => { s.primary_actions = s.primary_actions.slice(0, 3); },
  (s) => { s.headings = s.headings.slice(0, 1).map((h) => truncate(h, 48)); s.forms = s.forms.slice(0, 1); },
  (s) => { s.content_preview = truncate(s.content_preview, 60); s.title = truncate(s.title, 60); },
  (s) => {
    s.forms = s.forms.map((f) => ({ fields: f.fields.slice(0, 3).map((x) => truncate(x, 12)) }));
    for (const a of s.primary_actions) a.label = truncate(a.label, 16);
  },
];

function fitCompactBudget(summary) {
  for (const step of SHRINK_STEPS) {
    if (estimateTokens(JSON.stringify(summary)) <= COMPACT_BUDGET) break;
    step(summary);
  }
  const seen = new Set();
  summary.primary_actions = summary.primary_actions.filter((action) => {
    const key = action.label.toLowerCase();
    delete action.id;
    return key && !seen.has(key) && seen.add(key);
  });
  return summary;
}

// Field values never leave the page, not even inside a name: aria-labelledby can
// pull a field's value into a button's name, and a label can embed a field. The values
// to strip: whatever the user typed into a field, and any value of a sensitive one
// (password, one-time code, card).
const NO_VALUE_TYPES = new Set(['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'hidden']);

function valuesToRedact(scan) {
  const values = [];
  for (const control of scan.controls) {
    const el = control.el;
    let value = null;
    if (el.localName === 'input' || el.localName === 'textarea') {
      if (NO_VALUE_TYPES.has((el.getAttribute('type') || '').toLowerCase())) continue;
      const initial = el.localName === 'textarea' ? el.defaultValue : el.getAttribute('value') || '';
      if (el.value === initial && !isSensitiveField(el)) continue;
      value = el.value;
    } else if (el.isContentEditable) {
      value = el.innerText;
    }
    value = normalizeSpace(value || '');
    if (value.length >= 2) values.push(value);
  }
  return values;
}

function redact(text, values) {
  let out = text;
  for (const value of values) out = out.split(value).join(' ');
  return out === text ? text : normalizeSpace(out);
}

function redactSummary(summary, values) {
  if (!values.length) return summary;
  summary.headings = summary.headings.map((h) => redact(h, values));
  for (const action of summary.primary_actions || []) {
    action.label = redact(action.label, values);
    // A text= selector repeats the name: point at the element by its stamped id instead.
    if (action.selector.startsWith('text=') && redact(action.selector, values) !== action.selector) {
      action.selector = `[${ID_ATTR}="${action.id}"]`;
    }
  }
  for (const form of summary.forms) form.fields = form.fields.map((f) => redact(f, values));
  return summary;
}

// `options.httpStatus`: the main document's HTTP status where the caller knows it, else
// the browser's record of it (a navigation a click started), else 0.
export function summaryView(scan, mode, options) {
  const httpStatus = options.httpStatus || documentStatus();
  const limits = SUMMARY_LIMITS[mode];
  const stats = new TextStats(document.body, options.deadline?.afterReading());
  const mainNode = findMainNode(stats);
  const type = classifyPage(pageSignals(scan, stats, httpStatus));
  const title = truncate(normalizeSpace(document.title), 120);
  const headings = visibleHeadings(limits.levels, limits.headings, scan.mask);
  const start = previewStart(stats);
  const previewRoot = start && !mainNode.contains(start) ? document.body : mainNode;
  const preview = truncate(scan.mask(readableText(previewRoot, limits.preview * 2, true, start)),
    limits.preview);
  const forms = visibleForms(scan, limits.forms, limits.fields, mode === 'full');
  const interactive = scan.controls.filter((c) => c.visible).length;
  const wordCount = stats.words;
  const secrets = valuesToRedact(scan);
  if (mode === 'compact') {
    const builder = new SelectorBuilder(scan.shadowRoots, { few: true, mask: scan.mask });
    return fitCompactBudget(redactSummary({
      type, title, headings,
      primary_actions: primaryActions(scan, mainNode, builder, limits.actions),
      forms, content_preview: preview, interactive_count: interactive, word_count: wordCount,
    }, secrets));
  }
  return redactSummary({
    url: pageUrl(), title, type, headings,
    nav_links: navLinks(scan, stats, limits.navLinks).map((link) => ({ ...link, text: redact(link.text, secrets) })),
    forms, main_content_preview: preview, interactive_element_count: interactive, word_count: wordCount,
  }, secrets);
}

// The HTTP status of the document's own response, as the browser recorded it: 0 for a
// document not loaded over HTTP (an HTML string, about:blank) or a browser without it.
function documentStatus() {
  const entry = /** @type {any} */ (performance.getEntriesByType('navigation')[0]);
  return entry && typeof entry.responseStatus === 'number' ? entry.responseStatus : 0;
}
