// Elements a style rule gives the pointer cursor (on hover too): often the only sign that
// a page's script listens for clicks on a `div`, `span` or `li` (a link drawn by a span, a
// tree's items, a mail list's rows, an autocomplete's suggestions). Such an element is a
// `clickable` control (role.js). Found by a survey of the rules (stylerules.js), on every
// page: reading every element's computed cursor would cost a style read per element.

import { closestComposed, composedParent } from './dom.js';
import { getRole, isWidget, setPointerClickable } from './role.js';
import { isComma, ruleQuestion, splitSelector, surveyedElements } from './stylerules.js';

const USER_ACTION = /:(?:hover|active|focus|focus-visible|focus-within)(?![\w-])/g;

const POINTER_RULES = ruleQuestion({
  alwaysSurvey: true,
  longhands: ['cursor'],
  bears: (rule) => rule.style.getPropertyValue('cursor').trim() === 'pointer',
  // `.row:hover { cursor: pointer }` says the row is clickable: the rule, hover or not.
  selectors: (selectorText) => splitSelector(selectorText, isComma).map((s) => s.replace(USER_ACTION, '')),
  maxSelectors: 200,
});
const INLINE_POINTER = ['[style*="cursor"]'];
// Roles a pointer can make clickable, as tabindex does: none of them a control.
const POINTABLE_ROLES = new Set(['generic', 'img', 'listitem', 'cell', 'row', 'paragraph']);
// A pointer inside or around these is theirs (an icon in a button, a card around a link).
const NATIVE_CONTROLS = 'a[href], button, input, select, textarea, summary, label';

function isPointerClickable(el) {
  const styled = surveyedElements(POINTER_RULES, INLINE_POINTER);
  if (!styled || !styled.has(el)) return false;
  const role = getRole(el);
  if (role !== null && !POINTABLE_ROLES.has(role)) return false;
  if (el.localName === 'body' || el.localName === 'html' || el.querySelector(NATIVE_CONTROLS)) return false;
  // `auto` where the rule gives the pointer on hover only; another cursor overrides the rule.
  const cursor = getComputedStyle(el).cursor;
  if (cursor !== 'pointer' && cursor !== 'auto') return false;
  const parent = composedParent(el);
  return !parent || !closestComposed(parent, (cur) => cur.matches(NATIVE_CONTROLS) ||
    (cur.hasAttribute('role') && isWidget(cur)));
}

setPointerClickable(isPointerClickable);
