// Action layer: the parts of an action that are not pointer or keyboard input. Focus and
// selection prepare real typing; native <select>s, and inputs with no typeable text
// (date, colour, range), take their value the way a browser's own picker sets it (value
// then input and change events), as Playwright does too; scrolling is exact.

import { actDeepActive, actDescribe, actFold, actIdOf, actIsEditable } from './act_find.js';
import { boxOf, isRendered, isVisible, styleOf, viewRect } from './visibility.js';
import { composedParent, isComposedDescendant, labelsOf } from './dom.js';
import { elementById } from './capture.js';
import { frameContentOrigin } from './document.js';
import { getRole } from './role.js';
import { isSensitiveField } from './sensitive.js';
import { normalizeSpace, round } from './core.js';

const ACT_PICKER_TYPES = new Set(['date', 'datetime-local', 'month', 'week', 'time', 'color', 'range']);

function actElement(id) {
  const el = elementById(id);
  if (!el) throw new Error(`no element with id ${id}`);
  return el;
}

// Focus; for typing, with the caret at the end (selection 'end': type appends) or
// everything selected ('all': set_value and clear replace); 'keep' leaves the selection.
// Returns how a value must be set ('keyboard' or 'picker') and whether the element has
// the focus now.
export function actFocus(id, selection) {
  const el = actElement(id);
  el.focus({ preventScroll: true });
  const type = el.localName === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
  const focused = () => actDeepActive() === el || isComposedDescendant(actDeepActive(), el);
  if (ACT_PICKER_TYPES.has(type)) return { mode: 'picker', focused: focused() };
  if (selection === 'keep') return { mode: 'keyboard', focused: focused() };
  const selectAll = selection === 'all';
  if (el.localName === 'input' || el.localName === 'textarea') {
    try {
      if (selectAll) el.select();
      else el.setSelectionRange(el.value.length, el.value.length);
    } catch (e) {
      // email and number inputs have no selection API; select() still works on them.
      if (selectAll) el.select();
    }
  } else if (el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!selectAll) range.collapse(false);
    const current = getSelection();
    current.removeAllRanges();
    current.addRange(range);
  }
  return { mode: 'keyboard', focused: focused() };
}

function actDispatchValueEvents(el) {
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

export function actSetPickerValue(id, value) {
  const el = actElement(id);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(el, value);
  actDispatchValueEvents(el);
  return { value: el.value, accepted: el.value === value || (el.type === 'range' && el.value !== '') };
}

// An ARIA slider or spin button that takes no typed text (a native range or number input
// takes its value as a field does): its value and range from its attributes, a slider's
// range 0 to 100 by default; null for anything else. `typed` (the field refused the text
// typed into it): a text field given the role by its script, as a spinner is, counts too,
// its value its aria-valuenow or else the number it holds.
export function actRangeWidget(id, typed = false) {
  const el = actElement(id);
  const role = getRole(el);
  if ((role !== 'slider' && role !== 'spinbutton') || (!typed && (el.localName === 'input' || actIsEditable(el)))) {
    return null;
  }
  const asNumber = (text) => (text && Number.isFinite(Number(text)) ? Number(text) : null);
  const number = (attr) => asNumber((el.getAttribute(attr) || '').trim());
  const slider = role === 'slider';
  const held = typed && el.localName === 'input' ? asNumber(el.value.trim()) : null;
  return {
    now: number('aria-valuenow') ?? held,
    min: number('aria-valuemin') ?? (slider ? 0 : null),
    max: number('aria-valuemax') ?? (slider ? 100 : null),
  };
}

export function actFieldText(id) {
  const el = actElement(id);
  if (isSensitiveField(el)) return null;
  return el.localName === 'input' || el.localName === 'textarea' ? el.value : normalizeSpace(el.innerText || '');
}

// A scripted dropdown: what ARIA says opens a list of options (a combobox, a listbox, a
// button with a listbox or menu popup; "true" means menu), or a button that opens
// something and says so (aria-expanded: a style framework's dropdown toggle often says
// no more than that).
function actIsDropdown(el) {
  const role = getRole(el);
  if (role === 'combobox' || role === 'listbox') return true;
  if (role !== 'button') return false;
  const popup = (el.getAttribute('aria-haspopup') || '').toLowerCase();
  return ['listbox', 'menu', 'true'].includes(popup) || el.hasAttribute('aria-expanded');
}

// Native <select>: options by value, else by label (exact, then contained). Anything else
// says whether it is a scripted dropdown, which the caller opens and picks from.
export function actSelectOptions(id, wanted) {
  const el = actElement(id);
  if (el.localName !== 'select') return { native: false, dropdown: actIsDropdown(el) };
  const options = Array.from(el.options);
  const chosen = [];
  const missing = [];
  for (const value of wanted) {
    const fold = actFold(value);
    const option = options.find((o) => o.value === value) ||
      options.find((o) => actFold(o.label || o.text) === fold) ||
      options.find((o) => fold && actFold(o.label || o.text).includes(fold));
    if (option) chosen.push(option);
    else missing.push(value);
  }
  const labels = options.slice(0, 30).map((o) => normalizeSpace(o.label || o.text));
  if (missing.length) return { native: true, ok: false, missing, options: labels };
  const disabled = chosen.find((o) => o.disabled);
  if (disabled) return { native: true, ok: false, disabled: normalizeSpace(disabled.label || disabled.text), options: labels };
  if (!el.multiple && chosen.length > 1) return { native: true, ok: false, single: true, options: labels };
  for (const option of options) option.selected = chosen.includes(option);
  actDispatchValueEvents(el);
  return { native: true, ok: true, selected: chosen.map((o) => normalizeSpace(o.label || o.text)) };
}

export function actCheckedState(id) {
  const el = actElement(id);
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (aria === null) return null;
  return aria === 'true';
}

// The visible label of a native checkbox or radio whose input is hidden by custom styling.
export function actLabelFor(id) {
  const el = actElement(id);
  for (const label of labelsOf(el)) {
    const rect = boxOf(label);
    if (isRendered(label) && isVisible(label, rect)) return actIdOf(label);
  }
  return null;
}

export function actScrollable(el) {
  for (let cur = el; cur; cur = composedParent(cur)) {
    const style = styleOf(cur);
    if (cur.scrollHeight - cur.clientHeight > 1 && /(auto|scroll)/.test(style.overflowY)) return cur;
  }
  return document.scrollingElement || document.documentElement;
}

// how: 'down' | 'up' (a viewport's height, less a little overlap), 'top', 'bottom', or
// a number of pixels. id null scrolls the page.
export function actScroll(id, how) {
  const box = id === null ? (document.scrollingElement || document.documentElement) : actScrollable(actElement(id));
  const isPage = box === document.scrollingElement || box === document.documentElement;
  const page = isPage ? window.innerHeight : box.clientHeight;
  const before = box.scrollTop;
  const max = () => box.scrollHeight - box.clientHeight;
  let top;
  if (how === 'top') top = 0;
  else if (how === 'bottom') top = max();
  else if (how === 'up') top = before - page * 0.85;
  else if (how === 'down') top = before + page * 0.85;
  else top = before + Number(how);
  box.scrollTo({ top, behavior: 'instant' });
  return { container: isPage ? 'page' : actDescribe(box), before: round(before), after: round(box.scrollTop),
    max: round(max()), atEnd: box.scrollTop >= max() - 2 };
}

export function actScrollIntoView(id) {
  const el = actElement(id);
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return { inViewport: viewRect(el, boxOf(el)) !== null };
}

// Where a frame element's document starts, in this frame's viewport; null when no frame
// element has that id (an id from another page, or of something else).
export function actFrameOffset(id) {
  const el = elementById(id);
  if (!el || (el.localName !== 'iframe' && el.localName !== 'frame')) return null;
  return frameContentOrigin(el);
}

// A file input and whether it takes several files; null for any other element.
export function actFileInput(id) {
  const el = actElement(id);
  return el.localName === 'input' && el.type === 'file' ? { multiple: el.multiple } : null;
}
