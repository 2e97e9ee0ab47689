// The minified semantic tree (docs/views.md#semantic), with what changed on the page
// since the last one (changes.js). Roles are abbreviated by the one role table,
// ../roles.json (shared with Python): a date/time input is `date`, a colour input
// `color`, a file input `file`, and a focusable or click-handling element without a
// widget role `click`.
import { SKIP_TAGS } from './collect.js';
import { controlStates, fieldValue } from './states.js';
import { isSensitiveField } from './sensitive.js';
import { STOP, detailsSummary, pageUrl, walkRenderedElements } from './dom.js';
import { isComma, ruleQuestion, splitSelector, surveyedElements } from './stylerules.js';
import { centreOf, isOccluded, isRendered, styleOf, viewportSize } from './visibility.js';
import { normalizeSpace, round, truncate } from './core.js';
import { shownId } from './ids.js';
import { controlDescription, unnamedNumbers } from './describe.js';
import { takeRecentEvents } from './changes.js';
import { lookalikeContexts } from './lookalikes.js';
import roleTable from '../roles.json';

const ROLE_SHORT = Object.fromEntries(Object.entries(roleTable.roles).map(([role, [short]]) => [role, short]));

const STATE_ORDER = roleTable.states;

function abbreviateRole(control) {
  if (control.el.localName === 'input' && control.el.type === 'file') return roleTable.fileInput[0];
  return ROLE_SHORT[control.role] || control.role;
}

function stateString(states) {
  const flags = [];
  for (const key of Object.keys(states)) {
    const value = states[key];
    if (key === 'checked' && value === 'mixed') flags.push('mixed');
    else if (key === 'expanded') flags.push(value ? 'expanded' : 'collapsed');
    else if (key === 'sort') flags.push(value);
    else if (value === true) flags.push(key);
  }
  flags.sort((a, b) => STATE_ORDER.indexOf(a) - STATE_ORDER.indexOf(b));
  return flags.join(',');
}

function scrollPercent(top, scrollable) {
  return scrollable > 0 ? `${Math.round((100 * top) / scrollable)}%` : '0%';
}

function scrollInfo(el) {
  const extra = el.scrollHeight - el.clientHeight;
  if (extra <= 8 || el.clientHeight < 40) return null;
  const overflow = styleOf(el).overflowY;
  if (overflow !== 'auto' && overflow !== 'scroll') return null;
  return { depth: scrollPercent(el.scrollTop, extra), h: el.scrollTop + el.clientHeight < el.scrollHeight - 4 };
}

// Elements that are inline unless restyled: when they hold no element, they are passed
// over (overflow does not apply to an inline box, and a restyled leaf that scrolls is
// rare), and nothing inside an <svg> or <math> scrolls. On a large page that spares the
// style of a third of the elements.
const INLINE_LEAF_TAGS = new Set(['a', 'abbr', 'b', 'br', 'button', 'cite', 'code', 'em', 'i', 'img',
  'input', 'kbd', 'label', 'mark', 'option', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'time',
  'u', 'wbr']);

// Rules that can let an element scroll: an overflow other than visible or clip, on either
// axis (hidden too: the other axis' visible then computes to auto, as in a sidebar with
// `overflow-x: hidden`). The shorthand is read too: `overflow: var(--x)` leaves its
// longhands empty.
const NOT_SCROLLING = new Set(['', 'visible', 'clip', 'initial']);
const SCROLLING_RULES = ruleQuestion({
  longhands: ['overflow-x', 'overflow-y', 'overflow-block', 'overflow-inline'],
  bears: (rule) => ['overflow', 'overflow-x', 'overflow-y', 'overflow-block', 'overflow-inline', 'all']
    .some((property) => !NOT_SCROLLING.has(rule.style.getPropertyValue(property).trim())),
  selectors: (selectorText) => splitSelector(selectorText, isComma),
});
// What scrolls by Chromium's own style sheet or by an inline style.
const SCROLLING_BY_DEFAULT = ['textarea', 'select', 'dialog', '[popover]', '[style*="overflow" i]'];

// Content the browser does not render: inside <svg>/<math>, or in a closed <details>
// (other than its summary; asking its layout would make the browser lay it out).
function isUnrenderedContent(el) {
  if (el.closest('svg, math')) return true;
  for (let details = el.closest('details:not([open])'); details;
    details = details.parentElement && details.parentElement.closest('details:not([open])')) {
    const summary = detailsSummary(details);
    if (!summary || !summary.contains(el)) return true;
  }
  return false;
}

// Every element under `root` whose style may let it scroll, reading the style of each.
function walkForScrollers(root, consider, deadline) {
  let visited = 0;
  walkRenderedElements(root, (el) => {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) || tag === 'svg' || tag === 'math') return false;
    if (INLINE_LEAF_TAGS.has(tag) && !el.firstElementChild) return false;
    if (deadline.passed(++visited)) return STOP;
    const style = getComputedStyle(el);
    if (style.display === 'none') return false;
    consider(el, style);
    return true;
  });
}

// The body's overflow is the viewport's where the root element's is visible: the page's
// own scroll (scrollPosition), not a container.
function scrollsTheViewport(body) {
  const rootStyle = styleOf(document.documentElement);
  return body === document.body && rootStyle.overflowX === 'visible' && rootStyle.overflowY === 'visible';
}

// Scroll containers have overflow-y auto or scroll. Where the page's style sheets can be
// read, only the elements some rule lets scroll are looked at (a few, even on a huge
// page); otherwise the style of every element is read, a geometry read on each would
// cost far more (Chromium computes some boxes only when asked), and a display:none
// subtree is passed over whole. Shadow trees are always walked.
function scrollableContainers(scan, deadline) {
  const out = [];
  const root = document.body;
  if (!root) return out;
  const consider = (el, style) => {
    if (style.overflowY !== 'auto' && style.overflowY !== 'scroll') return;
    if (el === root && scrollsTheViewport(root)) return;
    const info = scrollInfo(el);
    if (info && isRendered(el)) out.push({ el, info });
  };
  const surveyed = surveyedElements(SCROLLING_RULES, SCROLLING_BY_DEFAULT);
  if (surveyed) {
    for (const el of surveyed) {
      if (deadline.hit || !root.contains(el) || isUnrenderedContent(el)) continue;
      consider(el, getComputedStyle(el));
    }
    for (const shadowRoot of scan.shadowRoots) {
      if (shadowRoot.host.getRootNode() === document) walkForScrollers(shadowRoot, consider, deadline);
    }
  } else {
    walkForScrollers(root, consider, deadline);
  }
  return out.map(({ el, info }) => ({ id: shownId(el), depth: info.depth, hasMore: info.h }));
}

// Hit testing passes over every sibling box on its way down: ~0.05 ms a control on an
// ordinary page, 10 ms on one with thousands of siblings. Past this much of it in one
// view, the remaining controls are left unchecked and counted (occlusionUnchecked).
const OCCLUSION_BUDGET_MS = 120;

export function semanticView(scan, options) {
  const tree = [];
  let hitTestingMs = 0; // the hit tests alone: the rest of the view's work is not counted
  let occlusionUnchecked = 0;
  // What nobody can see (faded out, clipped away) is left out, by the rule every view
  // shares; a skip link is listed once focus shows it. Covered is another case: `occ`.
  const listed = scan.controls.filter((control) => (options.includeOffscreen || control.inViewport) && control.visible);
  const contexts = lookalikeContexts(listed, options.deadline);
  for (const control of listed) {
    const el = control.el;
    const r = control.rect;
    const node = { i: control.id, r: abbreviateRole(control), n: truncate(control.name, 50) };
    const context = contexts.get(control);
    if (context) node.c = context;
    const shown = unnamedNumbers(el, control.role, control.name);
    if (shown) node.t = truncate(control.mask(shown), 50);
    if (options.includeValues && !isSensitiveField(el)) {
      const value = fieldValue(el, control.role);
      if (value) node.v = truncate(value, 100);
    }
    const states = controlStates(el, control.role);
    const s = stateString(states);
    if (s) node.s = s;
    const description = controlDescription(el, control.name, !!states.invalid);
    if (description) node.d = truncate(control.mask(description), 100);
    node.xy = centreOf(control.viewRect || r).map(round);
    if (options.includeBoxes) node.box = [round(r.left), round(r.top), round(r.width), round(r.height)];
    const scr = scrollInfo(el);
    if (scr) node.scr = scr;
    if (control.inViewport) {
      if (hitTestingMs > OCCLUSION_BUDGET_MS) {
        occlusionUnchecked++;
      } else {
        const start = performance.now();
        // At the part in view: a row half scrolled out of its list is not covered by the list.
        if (isOccluded(el, control.viewRect)) node.occ = true;
        hitTestingMs += performance.now() - start;
      }
    }
    tree.push(node);
  }
  const doc = document.scrollingElement || document.documentElement || { scrollTop: 0, scrollHeight: 0, clientHeight: 0 };
  const view = {
    mode: 'semantic',
    url: pageUrl(),
    title: normalizeSpace(document.title),
    viewport: viewportSize(),
    scrollPosition: scrollPercent(doc.scrollTop, doc.scrollHeight - doc.clientHeight),
    interactive_tree: tree,
    scrollableContainers: scrollableContainers(scan, options.deadline),
  };
  if (occlusionUnchecked) view.occlusionUnchecked = occlusionUnchecked;
  const events = takeRecentEvents(scan.mask);
  if (events) Object.assign(view, events);
  return view;
}
