// Control states: only what is true (or meaningfully false, like expanded) is reported.

import { composedParent } from './dom.js';
import { rangeValue } from './accname.js';
import { getRole, interactiveRole, isDetailsSummary } from './role.js';
import { isPasswordField } from './sensitive.js';
import { normalizeSpace } from './core.js';
import { hintTone } from './announce.js';

// Widgets whose value is a number in ARIA attributes when they are not native inputs.
const RANGE_WIDGET_ROLES = new Set(['slider', 'spinbutton', 'scrollbar']);

function ariaBool(el, attr) {
  const value = el.getAttribute(attr);
  if (value === null || value === 'undefined' || value === '') return undefined;
  return value === 'mixed' ? 'mixed' : value === 'true';
}

// Native disabledness (:disabled covers disabled fieldsets and their first-legend
// exception), or aria-disabled on the element or, as in Chromium, on an ancestor: the
// nearest explicit value wins.
export function isDisabled(el) {
  if (el.matches(':disabled')) return true;
  for (let cur = el; cur; cur = composedParent(cur)) {
    const value = ariaBool(cur, 'aria-disabled');
    if (value !== undefined) return value === true;
  }
  return false;
}

function checkedState(el) {
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
    // indeterminate only means "mixed" on a checkbox.
    return el.type === 'checkbox' && el.indeterminate ? 'mixed' : el.checked;
  }
  return ariaBool(el, 'aria-checked');
}

// A disclosure: aria-expanded, a <details>' summary, or a popover invoker.
function expandedState(el) {
  const expanded = ariaBool(el, 'aria-expanded');
  if (expanded !== undefined) return expanded === true;
  if (el.localName === 'summary' && isDetailsSummary(el)) return el.parentElement.open;
  const popover = el.popoverTargetElement;
  if (popover) return popover.matches(':popover-open');
  return undefined;
}

// Text-entry types where the readonly attribute applies (HTML: not checkboxes, buttons…).
const READONLY_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month',
  'week', 'time', 'datetime-local', 'number']);

function isReadOnly(el) {
  if (el.localName === 'textarea') return el.readOnly;
  if (el.localName === 'input' && READONLY_TYPES.has(el.type)) return el.readOnly;
  return ariaBool(el, 'aria-readonly') === true;
}

const OTHER_VALIDITY_FAILURES = ['customError', 'typeMismatch', 'patternMismatch', 'badInput',
  'rangeUnderflow', 'rangeOverflow', 'stepMismatch', 'tooLong', 'tooShort'];

// Roles that take a value or a choice from the user: the ones a class can mark invalid (a
// button's `btn-danger` is no error).
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch',
  'spinbutton', 'slider', 'date', 'color']);

// A field whose own class says it is in error (`is-invalid`, `input-error`, `has-error`).
export function isStyledInvalid(el, role) {
  return FIELD_ROLES.has(role) && typeof el.className === 'string' && hintTone(el.className) === 'error';
}

// aria-invalid, a class that styles the field as invalid (`is-invalid`, `input-error`:
// the recent events call it invalid too), or a failed native constraint. A required
// field the user has not touched yet is not invalid: `required` already says it needs a
// value.
function isInvalid(el, role) {
  const aria = el.getAttribute('aria-invalid');
  if (aria && aria !== 'false') return true;
  if (aria !== 'false' && isStyledInvalid(el, role)) return true;
  if (!el.willValidate || !el.validity || el.validity.valid) return false;
  const validity = el.validity;
  const onlyMissing = validity.valueMissing && !OTHER_VALIDITY_FAILURES.some((f) => validity[f]);
  return !onlyMissing || el.matches(':user-invalid');
}

export function controlStates(el, role) {
  const states = {};
  const checked = checkedState(el);
  if (checked) states.checked = checked;
  if (isDisabled(el)) states.disabled = true;
  const expanded = expandedState(el);
  if (expanded !== undefined) states.expanded = expanded;
  const selected = el.localName === 'option' ? el.selected : ariaBool(el, 'aria-selected');
  if (selected) states.selected = true;
  const pressed = ariaBool(el, 'aria-pressed');
  if (pressed !== undefined) states.pressed = pressed;
  // The current page of a navigation, the current step of a wizard (aria-current).
  const current = el.getAttribute('aria-current');
  if (current && current !== 'false' && current !== 'undefined') states.current = true;
  const sort = sortState(el);
  if (sort) states.sort = sort;
  if (el.required || ariaBool(el, 'aria-required') === true) states.required = true;
  if (isInvalid(el, role)) states.invalid = true;
  if (isReadOnly(el)) states.readonly = true;
  if (isFocused(el)) states.focused = true;
  // Where a secret goes (its value never shows): said in every view.
  if (isPasswordField(el)) states.password = true;
  return states;
}

// Keyboard focus: the focused element (inside open shadow roots too), or the one it names
// as its active descendant (the option a combobox's arrow keys moved to), where
// assistive technology puts the focus.
function isFocused(el) {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  if (active === el) return true;
  return !!active && !!el.id && active.getAttribute('aria-activedescendant') === el.id &&
    active.getRootNode() === el.getRootNode();
}

const SORT_HEADER_ROLES = new Set(['columnheader', 'rowheader']);

// A header's aria-sort (ascending or descending), said by the control that sorts: the
// header itself when it is a control, else the one control inside it (its sort button).
function sortState(el) {
  const header = el.closest('[aria-sort]');
  if (!header || !SORT_HEADER_ROLES.has(getRole(header))) return undefined;
  const sort = header.getAttribute('aria-sort');
  if (sort !== 'ascending' && sort !== 'descending') return undefined;
  if (header === el) return sort;
  if (interactiveRole(header)) return undefined;
  const controls = Array.from(header.querySelectorAll('*')).filter((d) => interactiveRole(d));
  return controls.length === 1 ? sort : undefined;
}

export function fieldValue(el, role) {
  if (el.localName === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file'].includes(type)) return null;
    return el.value;
  }
  if (el.localName === 'textarea') return el.value;
  if (el.localName === 'select') {
    return Array.from(el.selectedOptions).map((o) => normalizeSpace(o.label || o.text)).join(', ');
  }
  if (role === 'textbox' && el.isContentEditable) return el.innerText;
  // An ARIA slider or spin button holds its value in attributes (aria-valuetext first).
  if (RANGE_WIDGET_ROLES.has(role)) return rangeValue(el);
  return null;
}
