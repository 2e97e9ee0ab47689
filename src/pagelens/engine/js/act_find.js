// Action layer: finding the element an agent means. Targets are element ids, CSS, or
// the semantic forms the summaries emit (text=, role=, aria-label=, label=,
// placeholder=). Whatever is found gets a stable id (the same stamping as the views),
// so a result can name the element and later calls reach it by id.
// Every top-level name here starts with `act` so it can never collide with (or, for
// functions, silently replace) an engine helper in the shared closure.

import { Deadline, ID_ATTR, normalizeSpace, round, truncate } from './core.js';
import { SKIP_TAGS, scanPage } from './collect.js';
import { accessibleName } from './accname.js';
import { boxOf, intersectsViewport, isRendered, isVisible } from './visibility.js';
import { closestComposed, labelsOf, walkElements } from './dom.js';
import { elementById } from './capture.js';
import { getRole, interactiveRole } from './role.js';
import { selectorFor } from './selector.js';
import { maskContactDetails } from './contact.js';
import { shownId } from './ids.js';

const ACT_ROLE_ALIASES = {
  btn: 'button', inp: 'textbox', srch: 'searchbox', sel: 'combobox', lst: 'listbox', opt: 'option',
  chk: 'checkbox', rad: 'radio', sw: 'switch', sld: 'slider', spin: 'spinbutton', menu: 'menuitem',
  mchk: 'menuitemcheckbox', mrad: 'menuitemradio', tree: 'treeitem', cell: 'gridcell',
  sbar: 'scrollbar', click: 'clickable', file: 'button', select: 'combobox', input: 'textbox',
};
const ACT_MAX_CANDIDATES = 5;

function actCanonicalRole(role) {
  const lower = (role || '').toLowerCase();
  return ACT_ROLE_ALIASES[lower] || lower;
}

function actScan() {
  const scan = scanPage(new Deadline(5000));
  return scan;
}

export function actFold(text) {
  return normalizeSpace(text).toLowerCase();
}

// A name from a view may have been truncated with an ellipsis: it then matches by prefix.
// Views mask contact details in names: a name quoted from one matches in that form too.
function actNameMatches(actual, wanted) {
  const w = actFold(wanted);
  return [actual, maskContactDetails(actual)].some((name) => {
    const a = actFold(name);
    return w.endsWith('\u2026') ? a.startsWith(w.slice(0, -1).trimEnd()) : a === w;
  });
}

// The focused element, inside open shadow roots too.
export function actDeepActive() {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

// Whether typing goes into `el`: a text field that is not read-only, or an editable region.
export function actIsEditable(el) {
  if (el.isContentEditable) return true;
  if (el.localName === 'textarea') return !el.readOnly;
  if (el.localName !== 'input') return false;
  const type = (el.getAttribute('type') || 'text').toLowerCase();
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type) && !el.readOnly;
}

// What typing with no target reaches: 'none' when nothing but the page has the focus,
// 'frame' when a frame has it (its own document knows where), else the element and
// whether it takes text.
function actFocused() {
  const el = actDeepActive();
  if (!el || el === document.body || el === document.documentElement) return { status: 'none' };
  if (el.localName === 'iframe' || el.localName === 'frame') return { status: 'frame' };
  return { status: 'ok', ...actInfo(el), editable: actIsEditable(el) };
}

// shownId, not the attribute: a clone carrying a live element's id gets its own.
export function actIdOf(el) {
  return shownId(el);
}

function actCentre(el) {
  const r = boxOf(el);
  return [round(r.left + r.width / 2), round(r.top + r.height / 2)];
}

function actInfo(el) {
  return {
    id: actIdOf(el),
    role: getRole(el) === null ? el.localName : (interactiveRole(el) || getRole(el)),
    name: truncate(accessibleName(el) || normalizeSpace(el.textContent || ''), 80),
    tag: el.localName,
    xy: actCentre(el),
  };
}

function actCandidate(control) {
  const r = control.rect;
  return { id: control.id, role: control.role, name: truncate(control.name, 80),
    xy: [round(r.left + r.width / 2), round(r.top + r.height / 2)] };
}

// Prefer what a person could click: visible, then in the viewport, then document order.
function actPreferVisible(elements) {
  const rank = (el) => {
    if (!isRendered(el)) return 2;
    const rect = boxOf(el);
    if (!isVisible(el, rect)) return 2;
    return intersectsViewport(rect) ? 0 : 1;
  };
  let best = null, bestRank = 3;
  for (const el of elements) {
    const r = rank(el);
    if (r < bestRank) { best = el; bestRank = r; }
    if (r === 0) break;
  }
  return best;
}

function actQueryAll(css, roots) {
  const out = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll(css)) out.push(el);
  }
  return out;
}

// Controls whose name equals `wanted`, else contains it.
function actByName(controls, wanted, accept) {
  const pool = controls.filter(accept);
  const exact = pool.filter((c) => actNameMatches(c.name, wanted));
  if (exact.length) return exact.map((c) => c.el);
  const w = actFold(wanted);
  return pool.filter((c) => w && actFold(c.name).includes(w)).map((c) => c.el);
}

// Controls found by `wanted`, or, when their names only contain it, the parts inside them
// that read it exactly: one clickable drawn around several ("Reply Forward", each word its
// own handler) is clicked at its centre, which may be neither.
function actPartReading(controls, wanted) {
  if (controls.some((el) => actNameMatches(accessibleName(el) || normalizeSpace(el.textContent || ''), wanted))) {
    return controls;
  }
  const parts = actByText(wanted).filter((el) => !controls.includes(el) &&
    controls.some((control) => control.contains(el)) && actNameMatches(normalizeSpace(el.textContent || ''), wanted));
  return parts.length ? parts : controls;
}

// Elements whose own text contains `wanted`, deepest first (Playwright's text= semantics).
function actByText(wanted) {
  const w = actFold(wanted);
  if (!w || !document.body) return [];
  const out = [];
  walkElements(document.body, (el) => {
    if (SKIP_TAGS.has(el.localName)) return false;
    const text = actFold(el.textContent || '');
    if (!text.includes(w)) return false;
    const childHas = Array.from(el.children).some((c) => actFold(c.textContent || '').includes(w));
    if (!childHas) out.push(el);
    return true;
  });
  return out;
}

function actLabelText(el) {
  return labelsOf(el).map((l) => normalizeSpace(l.textContent || '')).join(' ');
}

// spec: {kind: 'id'|'css'|'text'|'role'|'aria-label'|'label'|'placeholder', value, name?},
// or {kind: 'focused'}: the element that has the focus.
export function actFind(spec) {
  if (spec.kind === 'id') {
    const el = elementById(spec.value);
    return el ? { status: 'ok', ...actInfo(el) } : { status: 'none' };
  }
  if (spec.kind === 'focused') return actFocused();
  const scan = actScan();
  const roots = [document, ...scan.shadowRoots];
  let found = [];
  switch (spec.kind) {
    case 'css':
      try {
        found = actQueryAll(spec.value, roots);
      } catch (e) {
        return { status: 'bad_selector', message: String(e.message || e) };
      }
      break;
    case 'text':
      found = actByName(scan.controls, spec.value, () => true);
      found = found.length ? actPartReading(found, spec.value) : actByText(spec.value);
      break;
    case 'role': {
      const role = actCanonicalRole(spec.value);
      const ofRole = (c) => c.role === role;
      found = spec.name === undefined || spec.name === null
        ? scan.controls.filter(ofRole).map((c) => c.el)
        : actByName(scan.controls, spec.name, ofRole);
      break;
    }
    case 'aria-label': {
      const w = actFold(spec.value);
      const all = actQueryAll('[aria-label]', roots);
      found = all.filter((el) => actFold(el.getAttribute('aria-label')) === w);
      if (!found.length) found = all.filter((el) => actFold(el.getAttribute('aria-label')).includes(w));
      break;
    }
    case 'label': {
      const w = actFold(spec.value);
      const fields = scan.controls.filter((c) => c.role !== 'link' && c.role !== 'button');
      found = fields.filter((c) => actFold(actLabelText(c.el)) === w || actFold(c.name) === w).map((c) => c.el);
      if (!found.length) {
        found = fields.filter((c) => w && (actFold(actLabelText(c.el)).includes(w) || actFold(c.name).includes(w)))
          .map((c) => c.el);
      }
      break;
    }
    case 'placeholder': {
      const w = actFold(spec.value);
      const all = actQueryAll('[placeholder]', roots);
      found = all.filter((el) => actFold(el.getAttribute('placeholder')) === w);
      if (!found.length) found = all.filter((el) => actFold(el.getAttribute('placeholder')).includes(w));
      break;
    }
    default:
      return { status: 'bad_selector', message: `unknown selector kind ${spec.kind}` };
  }
  const el = actPreferVisible(found);
  return el ? { status: 'ok', count: found.length, ...actInfo(el) } : { status: 'none' };
}

// Self-healing: the control that now has the role and name a stale id had.
// Several matches: the nearest to the old position wins when it is clearly the nearest.
export function actHeal(role, name, x, y) {
  const scan = actScan();
  const wanted = actCanonicalRole(role);
  const visible = scan.controls.filter((c) => c.visible);
  const matches = visible.filter((c) => c.role === wanted && actNameMatches(c.name, name));
  const distance = (c) => {
    if (x === null || y === null) return 0;
    const [cx, cy] = actCandidate(c).xy;
    return Math.hypot(cx - x, cy - y);
  };
  if (matches.length === 1) return { status: 'ok', ...actCandidate(matches[0]) };
  if (matches.length > 1) {
    const sorted = matches.map((c) => ({ c, d: distance(c) })).sort((a, b) => a.d - b.d);
    if (x !== null && sorted[0].d * 2 < sorted[1].d) return { status: 'ok', ...actCandidate(sorted[0].c) };
    return { status: 'ambiguous', candidates: sorted.slice(0, ACT_MAX_CANDIDATES).map((s) => actCandidate(s.c)) };
  }
  // None: offer what might be meant, same role or a similar name, nearest first.
  const w = actFold(name).replace(/\u2026$/, '');
  const related = visible.filter((c) => c.role === wanted ||
    (w && (actFold(c.name).includes(w) || (c.name && w.includes(actFold(c.name))))));
  related.sort((a, b) => distance(a) - distance(b));
  return { status: 'none', candidates: related.slice(0, ACT_MAX_CANDIDATES).map(actCandidate) };
}

// The selector of the element stamped `id`, for an action's result: null when the element
// is gone or CSS cannot name it alone.
export function actSelectorOf(id) {
  const el = elementById(id);
  return el ? selectorFor(el) : null;
}

// What sits at a viewport point: for coordinate clicks and "occluded by" messages.
export function actDescribe(el) {
  if (!el) return 'nothing';
  let text = el.localName;
  if (el.id) text += `#${el.id}`;
  const classes = Array.from(el.classList || []).slice(0, 2);
  for (const c of classes) text += `.${c}`;
  const role = getRole(el);
  const name = truncate(accessibleName(el) || normalizeSpace(el.innerText || ''), 40);
  if (role && role !== 'generic') text += ` role=${role}`;
  if (name) text += ` "${name}"`;
  const own = el.getAttribute(ID_ATTR);
  if (own) text += ` [id ${own}]`;
  const dialog = closestComposed(el, (cur) => cur !== el && (cur.localName === 'dialog' ||
    cur.getAttribute('role') === 'dialog' || cur.getAttribute('role') === 'alertdialog' ||
    cur.getAttribute('aria-modal') === 'true'));
  if (dialog) {
    const label = truncate(accessibleName(dialog), 40);
    text += ` in dialog${label ? ` "${label}"` : ''}`;
  }
  return text;
}

export function actAtPoint(x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit) return { found: false, description: 'nothing' };
  let target = hit;
  while (target.shadowRoot) {
    const inner = target.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === target) break;
    target = inner;
  }
  const control = closestComposed(target, (cur) => interactiveRole(cur) !== null);
  const el = control || target;
  return { found: true, description: actDescribe(el), id: control ? actIdOf(control) : null,
    frame: el.localName === 'iframe' || el.localName === 'frame' };
}
