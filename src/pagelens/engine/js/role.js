// Roles: explicit `role` (first valid token) else the implicit role per HTML-AAM.

import { closestComposed, composedParent, detailsSummary } from './dom.js';
import { runScopedMap } from './core.js';

const ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell ' +
  'checkbox code columnheader combobox comment complementary contentinfo definition deletion dialog ' +
  'directory document emphasis feed figure form generic grid gridcell group heading img image insertion ' +
  'link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox ' +
  'menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup ' +
  'region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status ' +
  'strong subscript suggestion superscript switch tab table tablist tabpanel term textbox time timer ' +
  'toolbar tooltip tree treegrid treeitem').split(' '));

// Roles an agent acts on. `generic` elements join only when focusable (tabindex>=0),
// carrying an inline click handler or given the pointer cursor (pointer.js);
// contenteditable hosts report as textbox.
const INTERACTIVE_ROLES = new Set(['button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'searchbox', 'slider', 'spinbutton',
  'switch', 'tab', 'textbox', 'treeitem', 'scrollbar', 'gridcell']);

// Whether the element has a widget role of its own (a button, a tab, a field).
export function isWidget(el) {
  return INTERACTIVE_ROLES.has(getRole(el));
}

export const LANDMARK_ROLES = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo',
  'search', 'form', 'region']);

const GLOBAL_ARIA = ['aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby',
  'aria-details', 'aria-dropeffect', 'aria-flowto', 'aria-grabbed', 'aria-keyshortcuts', 'aria-label',
  'aria-labelledby', 'aria-live', 'aria-owns', 'aria-relevant', 'aria-roledescription'];

export function isFocusable(el) {
  if (el.hasAttribute('disabled') && 'disabled' in el) return false;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && !Number.isNaN(parseInt(tabindex, 10))) return true;
  return isNativelyFocusable(el);
}

function isNativelyFocusable(el) {
  switch (el.localName) {
    case 'a': case 'area': return el.hasAttribute('href');
    case 'button': case 'select': case 'textarea': case 'iframe': return true;
    case 'summary': return isDetailsSummary(el);
    case 'input': return el.type !== 'hidden';
    default: return isEditingHost(el);
  }
}

export function isEditingHost(el) {
  const value = el.getAttribute('contenteditable');
  if (value === null || value === 'false') return false;
  const parent = composedParent(el);
  return !(parent && parent.isContentEditable);
}

function explicitRole(el) {
  const attr = el.getAttribute('role');
  if (!attr) return null;
  for (const token of attr.trim().toLowerCase().split(/\s+/)) {
    if (!ARIA_ROLES.has(token)) continue;
    if (token === 'none' || token === 'presentation') {
      // Presentational role conflict resolution: ignored on focusable elements and
      // elements with global ARIA attributes.
      if (isFocusable(el) || GLOBAL_ARIA.some((a) => el.hasAttribute(a))) continue;
    }
    // Chromium drops a role that needs a name or a context the element lacks, and falls
    // back to the element's own role (a link marked role=listitem outside a list).
    if ((token === 'region' || token === 'form') && !hasAuthorName(el)) return null;
    if (REQUIRED_CONTEXT[token] && !inRequiredContext(el, REQUIRED_CONTEXT[token])) return null;
    return token === 'image' ? 'img' : token;
  }
  return null;
}

// Roles Chromium honours only inside their container (generic wrappers and groups between
// the two are fine).
const REQUIRED_CONTEXT = {
  listitem: ['list', 'directory'],
  option: ['listbox'],
  treeitem: ['tree', 'group'],
};
const CONTEXT_TRANSPARENT_ROLES = new Set([null, 'generic', 'none', 'presentation', 'group']);

function inRequiredContext(el, containers) {
  for (let cur = composedParent(el); cur; cur = composedParent(cur)) {
    const role = cur.localName === 'select' || cur.localName === 'datalist' ? 'listbox' : getRole(cur);
    if (containers.includes(role)) return true;
    if (!CONTEXT_TRANSPARENT_ROLES.has(role)) return false;
  }
  return false;
}

function hasAuthorName(el) {
  return !!((el.getAttribute('aria-label') || '').trim() || el.hasAttribute('aria-labelledby') ||
    (el.getAttribute('title') || '').trim());
}

// HTML-AAM scoping: a header/footer inside sectioning content or main is generic; an
// aside is scoped the same way except that main does not count.
function isInsideSectioning(el, countMain = true) {
  return !!closestComposed(composedParent(el) || document.documentElement, (cur) =>
    ['article', 'aside', 'nav', 'section'].includes(cur.localName) ||
    ['article', 'complementary', 'navigation', 'region'].includes(cur.getAttribute('role')) ||
    (countMain && (cur.localName === 'main' || cur.getAttribute('role') === 'main')));
}

function implicitRole(el) {
  switch (el.localName) {
    case 'a': case 'area': return anchorRole(el);
    case 'button': return 'button';
    case 'input': return inputRole(el);
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'option': return 'option';
    case 'summary': return isDetailsSummary(el) ? 'button' : 'generic';
    case 'details': return 'group';
    case 'fieldset': case 'optgroup': return 'group';
    case 'img': return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? 'presentation' : 'img';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'aside': return isInsideSectioning(el, false) && !hasAuthorName(el) ? 'generic' : 'complementary';
    case 'header': return isInsideSectioning(el) ? 'generic' : 'banner';
    case 'footer': return isInsideSectioning(el) ? 'generic' : 'contentinfo';
    case 'form': return 'form';
    case 'search': return 'search';
    case 'section': return hasAuthorName(el) ? 'region' : 'generic';
    case 'ul': case 'ol': case 'menu': return 'list';
    case 'li': return 'listitem';
    case 'table': return 'table';
    case 'tr': return 'row';
    case 'td': return 'cell';
    case 'th': return 'columnheader';
    case 'dialog': return 'dialog';
    case 'article': return 'article';
    case 'progress': return 'progressbar';
    case 'meter': return 'meter';
    case 'hr': return 'separator';
    case 'p': return 'paragraph';
    case 'figure': return 'figure';
    case 'blockquote': return 'blockquote';
    case 'output': return 'status';
    case 'iframe': return 'iframe';
    case 'label': return 'label';
    case 'div': case 'span': return 'generic';
    default: return null;
  }
}

// A link needs an href, except that Chromium also counts an <a> with a click handler
// (the only kind visible from script is the onclick attribute).
function anchorRole(el) {
  if (el.hasAttribute('href')) return 'link';
  if (el.localName === 'area') return null;
  return el.hasAttribute('onclick') ? 'link' : 'generic';
}

// Only a <details> element's first <summary> child is its disclosure button.
export function isDetailsSummary(el) {
  const parent = el.parentElement;
  return !!parent && parent.localName === 'details' && detailsSummary(parent) === el;
}

function inputRole(el) {
  const type = (el.getAttribute('type') || '').toLowerCase();
  const hasList = el.hasAttribute('list');
  switch (type) {
    case 'hidden': return null;
    case 'button': case 'submit': case 'reset': case 'image': return 'button';
    case 'checkbox': return el.hasAttribute('switch') ? 'switch' : 'checkbox';
    case 'radio': return 'radio';
    case 'range': return 'slider';
    case 'number': return 'spinbutton';
    case 'search': return hasList ? 'combobox' : 'searchbox';
    case 'file': return 'button';
    case 'color': return 'color';
    case 'date': case 'datetime-local': case 'month': case 'week': case 'time': return 'date';
    default: return hasList && type !== 'password' ? 'combobox' : 'textbox';
  }
}

const roleCache = runScopedMap();

export function getRole(el) {
  let role = roleCache.get(el);
  if (role === undefined) {
    role = explicitRole(el) || implicitRole(el) || (isEditingHost(el) ? 'textbox' : null);
    if (role === 'generic' && isEditingHost(el)) role = 'textbox';
    roleCache.set(el, role);
  }
  return role;
}

// Elements whose own role can be one an agent acts on; any other element is a control
// only through one of these attributes. Most elements of a page are neither, and are
// passed over without computing a role.
const CONTROL_TAGS = new Set(['a', 'area', 'button', 'input', 'select', 'textarea', 'option', 'summary']);
const CONTROL_ATTRIBUTES = '[role], [tabindex], [onclick], [contenteditable]';

// Whether a pointer cursor makes an element without a role of its own clickable: the
// test is pointer.js's, set as the engine loads (it reads the style rules, and
// stylerules.js's imports lead back here); none where role.js is bundled alone.
/** @type {(el: Element) => boolean} */
let pointerClickable = () => false;
export function setPointerClickable(test) {
  pointerClickable = test;
}

// The role an agent acts through, or null when the element is not a control.
export function interactiveRole(el) {
  // Half of a page's elements carry no attribute at all: asked first, it spares the match.
  if (!CONTROL_TAGS.has(el.localName) && !(el.hasAttributes() && el.matches(CONTROL_ATTRIBUTES))) {
    return pointerClickable(el) ? 'clickable' : null;
  }
  const role = getRole(el);
  if (role && (INTERACTIVE_ROLES.has(role) || role === 'color' || role === 'date')) {
    if (role === 'option' && el.localName === 'option') return null; // part of its <select>
    if (role === 'gridcell' && !isFocusable(el)) return null;
    return role;
  }
  if (el.localName === 'iframe' || el.localName === 'frame') return null;
  const tabindex = parseInt(el.getAttribute('tabindex'), 10);
  if (tabindex >= 0 && (role === null || role === 'generic' || role === 'img' || role === 'listitem' ||
      role === 'label' || role === 'cell' || role === 'row')) return 'clickable';
  if (el.hasAttribute('onclick') && el.localName !== 'body' && el.localName !== 'html') return 'clickable';
  return pointerClickable(el) ? 'clickable' : null;
}
