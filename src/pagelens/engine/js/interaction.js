// The interaction model (PageModel): every control with role, accessible name,
// states, selector, region and box; values redacted unless asked for, and a password's
// value or length never leaves the page.

import { normalizeSpace, round, truncate } from './core.js';
import { SelectorBuilder } from './selector.js';
import { controlStates, fieldValue } from './states.js';
import { isSensitiveField } from './sensitive.js';
import { isRendered } from './visibility.js';
import { landmarkOf, regionOf } from './region.js';
import { visibleHeadings } from './summary.js';
import { pageUrl } from './dom.js';
import { controlDescription, unnamedNumbers } from './describe.js';
import { lookalikeContexts } from './lookalikes.js';

const MAX_NAME = 160;
const MAX_VALUE = 200;
const MAX_DESCRIPTION = 200;
const TYPE_HINT_ROLES = new Set(['textbox', 'button', 'date']);

function pageHeadings(max, mask) {
  return visibleHeadings(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], max, mask);
}

// A selector that would repeat a masked contact detail (an aria-label holding an
// address) points at the element by its stamped id instead.
// The landmarks of the page, from the candidates the scan noted (LANDMARK_TAGS, roles).
function pageRegions(scan) {
  const out = [];
  const seen = new Set();
  for (const el of scan.landmarkCandidates) {
    const landmark = landmarkOf(el);
    if (landmark && !seen.has(landmark) && isRendered(el)) {
      seen.add(landmark);
      out.push(landmark);
    }
  }
  return out;
}

// When a page has more controls than the cap: the visible ones first, then those in the
// viewport, then the rest, each in document order; kept in document order. Taken in
// that order, visibility is asked only until the cap is full (on a huge page, of a few
// hundred controls rather than all).
function capControls(controls, max) {
  if (controls.length <= max) return controls;
  const keep = new Set();
  const take = (wanted) => {
    for (const control of controls) {
      if (keep.size >= max) return;
      if (!keep.has(control) && wanted(control)) keep.add(control);
    }
  };
  take((c) => c.inViewport && c.visible);
  take((c) => c.visible);
  take((c) => c.inViewport);
  take(() => true);
  return controls.filter((c) => keep.has(c));
}

function valueFields(control, includeValues) {
  const el = control.el;
  const out = {};
  const value = fieldValue(el, control.role);
  if (value === null || isSensitiveField(el)) return out;
  out.value_len = value.length;
  if (includeValues) out.value = truncate(value, MAX_VALUE);
  return out;
}

export function interactionView(scan, options) {
  const builder = new SelectorBuilder(scan.shadowRoots, { mask: scan.mask });
  const kept = capControls(scan.controls, options.maxControls);
  const contexts = lookalikeContexts(kept, options.deadline);
  const controls = [];
  const aimap = {};
  for (const control of kept) {
    if (options.deadline.overdue()) break;
    const el = control.el;
    // For use outside pagelens (a fresh load, a script, another tool): none rather than
    // our stamp when CSS cannot name the element alone (docs/ids.md).
    const selector = builder.build(el) ?? undefined;
    const r = control.rect;
    const states = controlStates(el, control.role);
    /** @type {Record<string, any>} */
    const entry = {
      id: control.id,
      role: control.role,
      name: truncate(control.name, MAX_NAME),
      context: contexts.get(control),
      states,
      selector,
      region: regionOf(el),
      boundingBox: { x: round(r.left), y: round(r.top), width: round(r.width), height: round(r.height) },
      visible: control.visible,
      inViewport: control.inViewport,
      ...valueFields(control, options.includeValues),
    };
    const type = el.localName === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null;
    if (type && TYPE_HINT_ROLES.has(control.role) && type !== 'text') entry.type = type;
    const shown = unnamedNumbers(el, control.role, control.name);
    if (shown) entry.text = truncate(control.mask(shown), MAX_NAME);
    const description = controlDescription(el, control.name, !!states.invalid);
    if (description) entry.description = truncate(control.mask(description), MAX_DESCRIPTION);
    controls.push(entry);
    if (selector) aimap[control.id] = selector;
  }
  return {
    title: normalizeSpace(document.title),
    url: pageUrl(),
    headings: pageHeadings(options.maxHeadings, scan.mask),
    regions: pageRegions(scan),
    controls,
    aimap,
    total_controls: scan.controls.length,
    truncated: controls.length < scan.controls.length,
  };
}
