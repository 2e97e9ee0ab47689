// What a page says about a control beyond its name (docs/views.md#semantic, `d`): the
// error of an invalid field, its hint, why a button is disabled. Said by reference
// (aria-errormessage, aria-describedby), or for an invalid field that references
// nothing, by an error message laid out beside it in its own field wrapper.

import { referencedText } from './accname.js';
import { idRefs } from './dom.js';
import { hintTone, styleHint, styleTone } from './announce.js';
import { isRendered } from './visibility.js';
import { normalizeSpace } from './core.js';

const NUMBER_RE = /\d+(?:[.,]\d+)*/g;
// Roles whose content is what the user entered or chose, not text of the page's.
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'date', 'color']);

// How far up from a field its wrapper (the element holding it, its label and its
// messages, and no other field) is looked for.
const WRAPPER_DEPTH = 3;
const FIELD_SELECTOR = 'input:not([type="hidden"]), select, textarea, button, [role="textbox"], ' +
  '[role="combobox"], [role="checkbox"], [role="radio"], [role="switch"]';

// `invalid`: the control's state, which lets an error message count (aria-errormessage
// is for an invalid field only). Texts hidden from view are left out: an error container
// a page keeps referenced while empty or hidden is no message.
export function controlDescription(el, name, invalid) {
  const refs = invalid ? idRefs(el, 'aria-errormessage') : [];
  const described = idRefs(el, 'aria-describedby').filter((ref) => !refs.includes(ref));
  // An invalid field's error before its hint, whatever order the page lists them in.
  if (invalid) described.sort((a, b) => errorFirst(b) - errorFirst(a));
  refs.push(...described);
  const parts = [];
  for (const ref of refs) {
    if (ref === el || ref.contains(el) || !isRendered(ref)) continue;
    const text = referencedText(ref);
    if (text && text !== name && !parts.includes(text)) parts.push(text);
  }
  if (!parts.length && invalid) {
    const message = errorBeside(el, name);
    if (message) parts.push(message);
  }
  return parts.join(' ');
}

function errorFirst(ref) {
  return styleTone(ref) === 'error' ? 1 : 0;
}

// Numbers a control shows that its name does not say: a count badge on an icon button
// named by aria-label ("Cart", showing 3), a price on a button labelled without it.
// Only where an ARIA name replaces the control's own text; fields show values, not text.
export function unnamedNumbers(el, role, name) {
  if (TEXT_ROLES.has(role) || !(el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) return '';
  const text = normalizeSpace(el.innerText || '');
  const numbers = text.match(NUMBER_RE);
  return numbers && numbers.some((n) => !name.includes(n)) ? text : '';
}

// An element styled as an error (`.error`, `.invalid-feedback`) in the field's own
// wrapper, shown, with text that is not the field's.
function errorBeside(field, name) {
  let wrapper = field.parentElement;
  for (let depth = 0; wrapper && depth < WRAPPER_DEPTH; depth++, wrapper = wrapper.parentElement) {
    if (wrapper.querySelectorAll(FIELD_SELECTOR).length > 1) return '';
    for (const candidate of wrapper.querySelectorAll('[class], [id]')) {
      if (candidate.contains(field) || field.contains(candidate)) continue;
      if (hintTone(styleHint(candidate)) !== 'error' || !isRendered(candidate)) continue;
      const text = normalizeSpace(candidate.innerText || '');
      if (text && text !== name) return text;
    }
  }
  return '';
}
