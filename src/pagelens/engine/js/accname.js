// Accessible names: W3C accname 1.2 with the HTML-AAM host-language rules, as Chromium
// computes them (Blink's AXNodeObject::TextAlternative), so that a name here is the name
// a screen reader user hears. Where Chromium departs from a literal reading of the spec:
//  - content is joined the way Blink's layout sees it: inline pieces of one line abut;
//    blocks, inline-blocks, images, controls and text taken from attributes (alt,
//    aria-label, title, value) are set apart by a space;
//  - text is the rendered text: text-transform applies, ::before/::after content counts,
//    and whitespace-only text counts only where Blink keeps it (see isRelevantWhitespace);
//  - landmarks, groups, figures, blockquotes, data tables and value widgets never lend
//    their content to an ancestor's name; generic elements never lend their title;
//  - an <input> button's value, an image input's value and a label win over later steps;
//  - one name visits at most 100 elements.
// Deliberately unlike Chromium: a field whose label is empty (a <label> wrapping only the
// field) still falls back to its title and placeholder, as HTML-AAM says; Chromium leaves
// it unnamed, which tells an agent nothing. Secrets typed into a field never enter a name.

import { LABELABLE_TAGS, accessibleChildren, closestComposed, composedParent, getElementByIdInScope, idRefs, labelsOf } from './dom.js';
import { composedTreeIsLightTree, isHiddenByStyle, isRendered, styleOf } from './visibility.js';
import { getRole, isFocusable } from './role.js';
import { isComma, ruleQuestion, splitSelector, surveyedElements } from './stylerules.js';
import { isSensitiveField } from './sensitive.js';
import { normalizeSpace, runScopedMap } from './core.js';
import { pseudoStyle } from './pseudo.js';

// Roles that take their own name from their content.
const CONTENT_NAME_ROLES = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell',
  'heading', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio',
  'rowheader', 'switch', 'tab', 'tooltip', 'treeitem']);

// Roles that never contribute their content, not even to an ancestor's name.
const NO_CONTENT_ROLES = new Set(['alert', 'alertdialog', 'application', 'article', 'banner',
  'blockquote', 'color', 'combobox', 'comment', 'complementary', 'contentinfo', 'date', 'dialog',
  'document', 'feed', 'figure', 'form', 'grid', 'group', 'iframe', 'img', 'listbox', 'log', 'main',
  'marquee', 'math', 'menu', 'menubar', 'meter', 'navigation', 'note', 'progressbar', 'radiogroup',
  'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'suggestion',
  'table', 'tablist', 'tabpanel', 'textbox', 'timer', 'toolbar', 'tree', 'treegrid']);

// Roles whose title attribute may not name them (ARIA "name from: prohibited").
const NAME_PROHIBITED_ROLES = new Set(['caption', 'code', 'definition', 'deletion', 'emphasis',
  'generic', 'insertion', 'mark', 'none', 'paragraph', 'presentation', 'strong', 'suggestion',
  'term']);

// Widget roles Blink treats as controls: a space always separates them from their neighbours.
const CONTROL_ROLES = new Set(['button', 'checkbox', 'color', 'combobox', 'date', 'listbox', 'menu',
  'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'radio', 'scrollbar', 'searchbox',
  'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'tree', 'treegrid']);
const FORM_CONTROL_TAGS = new Set(['button', 'fieldset', 'input', 'output', 'select', 'textarea']);
const RANGE_ROLES = new Set(['meter', 'progressbar', 'scrollbar', 'slider', 'spinbutton']);
const TEXT_CONTROL_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number']);
// Elements whose content never reaches a name (replaced elements and form widgets).
const LEAF_TAGS = new Set(['audio', 'br', 'embed', 'frame', 'hr', 'iframe', 'img', 'input', 'meter',
  'progress', 'select', 'textarea', 'video']);
// Replaced elements lay out as atomic inlines even with display: inline.
const REPLACED_TAGS = new Set(['audio', 'button', 'canvas', 'embed', 'iframe', 'img', 'input',
  'meter', 'object', 'progress', 'select', 'textarea', 'video']);
const MAX_VISITED_ELEMENTS = 100;
const HTML_SPACE = /[ \t\n\f\r]/;

const nameCache = runScopedMap();

export function accessibleName(el) {
  let name = nameCache.get(el);
  if (name === undefined) {
    name = plainTextName(el);
    if (name === null) name = normalizeSpace(textAlternative(el, { visited: new Set(), labelRoot: null }, false).text);
    nameCache.set(el, name);
  }
  return name;
}

// The name views give a control: its accessible name, except that an element taken for
// clickable (no widget role: a tabindex, a click handler, a pointer cursor; role.js),
// which ARIA names from its attributes only, is named by the text it shows, as a button is.
export function controlName(el, role) {
  const name = accessibleName(el);
  return name || role !== 'clickable' ? name : referencedText(el);
}

// The text an element lends when another names or describes it by reference
// (aria-labelledby, aria-describedby).
export function referencedText(ref) {
  return normalizeSpace(textAlternative(ref, { visited: new Set(), labelRoot: ref }, true).text);
}

// Most controls are a link or button holding one run of text (directly, or through plain
// wrappers: an icon button's visually hidden `<span class=sr-only>Close</span>`), or a
// field with one label holding one. Where nothing else can name such an element (no ARIA
// naming, no generated content, no shadow tree), every step before that text finds
// nothing: the name textAlternative would give, at a fraction of the cost. Null when the
// element is not such a case.
const PLAIN_NAME_TAGS = new Set(['a', 'button', 'span', 'div', 'li', 'summary', 'td', 'th', 'p', 'label',
  'b', 'strong', 'em', 'i', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

// The context of a name asked for its own sake (not as part of another element's name).
const TOP_LEVEL = Object.freeze({ labelRoot: null });

function plainTextName(el) {
  if (el.namespaceURI !== HTML_NS || el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-label')) return null;
  if (LABELABLE_TAGS.has(el.localName)) {
    const labels = labelsOf(el);
    if (labels.length) return labels.length === 1 ? textHolderName(labels[0], el) : null;
    if (el.localName !== 'button') return null; // other fields: title, placeholder, value...
  }
  if (!PLAIN_NAME_TAGS.has(el.localName) || !CONTENT_NAME_ROLES.has(getRole(el)) || isTextField(el)) return null;
  return textHolderName(el, el);
}

// The name of `el` when it is the one run of text in `holder` (holder is el itself, or
// its label); null otherwise.
function textHolderName(holder, el) {
  if (holder.shadowRoot || holder.hasAttribute('aria-owns')) return null;
  if (holder !== el && ['aria-labelledby', 'aria-label', 'role', 'contenteditable'].some((a) => holder.hasAttribute(a))) {
    return null;
  }
  if (hasPseudo(holder, '::before') || hasPseudo(holder, '::after')) return null;
  const text = soleText(holder, el, 0);
  if (!text) return null;
  if (isHiddenForName(el, TOP_LEVEL, false)) return '';
  if (holder !== el && isHiddenForName(holder, TOP_LEVEL, false)) return null; // then other sources name it
  // Preserved or collapsed, whitespace ends up as single spaces in a name; text-transform
  // is inherited, so the text's own parent has the one that applies.
  return normalizeSpace(transformText(text.data, textTransformOf(text.parentNode)));
}

// The one text node with more than whitespace in `holder`'s content, or null when
// something else could add to a name. Whitespace-only text adds at most a space at an
// end (trimmed), a comment nothing, `el` nothing to its own label, and a plain wrapper
// only what it holds. `undefined` for content that adds nothing at all (a wrapper's
// caller passes over it; for `holder` itself, that is no plain name either).
function soleText(holder, el, depth) {
  let found;
  for (let child = holder.firstChild; child; child = child.nextSibling) {
    if (child === el || child.nodeType === 8) continue;
    let text;
    if (child.nodeType === 3) {
      if (!/[^ \t\n\f\r]/.test(child.data)) continue;
      text = child;
    } else if (depth < MAX_PLAIN_WRAPPERS && isPlainWrapper(child)) {
      text = soleText(child, el, depth + 1);
      if (text === undefined) continue;
    } else {
      return null;
    }
    if (found || !text) return null;
    found = text;
  }
  return found;
}

// Elements that only pass their content on to a name: phrasing and generic tags with no
// attribute that names, hides, gives a role or generated content, nor a shadow tree.
const PLAIN_WRAPPER_TAGS = new Set(['span', 'b', 'strong', 'em', 'i', 'small', 'u', 'div', 'p']);
const PLAIN_WRAPPER_ATTRS = new Set(['class', 'id', 'style', 'lang', 'dir']);
const MAX_PLAIN_WRAPPERS = 3;

function isPlainWrapper(el) {
  if (el.nodeType !== 1 || el.namespaceURI !== HTML_NS || !PLAIN_WRAPPER_TAGS.has(el.localName) || el.shadowRoot) {
    return false;
  }
  if (el.hasAttributes() && !el.getAttributeNames().every((a) => PLAIN_WRAPPER_ATTRS.has(a) || a.startsWith('data-'))) {
    return false;
  }
  return !hasPseudo(el, '::before') && !hasPseudo(el, '::after') && !isHiddenForName(el, TOP_LEVEL, false);
}

// A piece of a name and where it came from: text from `attribute`, `related` elements,
// `title`, `value` or `cssalt` is set apart from its neighbours; `contents` is not.
function piece(text, from) {
  return { text, from };
}
const NOTHING = piece('', 'none');

// `shown`: the caller already knows the element is not hidden (step 2A).
function textAlternative(node, ctx, recursive, shown = false) {
  if (node.nodeType === 3) return piece(renderedText(node), 'contents');
  const el = node;
  // Line breaks, and word-break opportunities, which Blink also exposes as breaks.
  if (el.localName === 'br' || el.localName === 'wbr') return piece('\n', 'contents');
  // 2C/2E: a control inside another control's label contributes its value.
  if (recursive && !ctx.visited.has(el)) {
    const value = embeddedValue(el);
    if (value !== null) return piece(value, 'value');
  }
  const alreadyVisited = ctx.visited.has(el);
  ctx.visited.add(el);
  // Slots cannot be named; they only pass their assigned content on.
  if (el.localName !== 'slot') {
    if (!shown && isHiddenForName(el, ctx, false)) return NOTHING;
    if (!ctx.labelRoot && !alreadyVisited) {
      const labelledBy = labelledByText(el, ctx);
      if (labelledBy.trim()) return piece(labelledBy, 'related');
    }
    const ariaLabel = el.getAttribute('aria-label');
    if (ariaLabel && ariaLabel.trim()) return piece(ariaLabel, 'attribute');
    const native = nativeTextAlternative(el, ctx);
    if (native && (native.text || native.final)) return native;
  }
  if (includesContent(el, ctx, recursive)) {
    const text = contentText(el, ctx);
    if (text) return piece(text, 'contents');
  }
  if (ctx.labelRoot || !isNameProhibited(el)) {
    const title = tooltip(el);
    if (title) return piece(title, 'title');
  }
  return NOTHING;
}

// Step 2A. Inside an aria-labelledby target that is itself hidden, everything counts.
// `viaParent`: reached from a parent already known to be shown, so only the element's
// own style can hide it.
function isHiddenForName(el, ctx, viaParent) {
  if (el.localName === 'noscript') return true;
  if (el.namespaceURI === SVG_NS && (el.localName === 'title' || el.localName === 'desc')) return false;
  if (ctx.labelRoot && !isRendered(ctx.labelRoot)) return false;
  if (el.getAttribute('aria-hidden') === 'true') return true;
  if (viaParent) {
    const style = styleOf(el);
    return style.display === 'none' || style.visibility !== 'visible';
  }
  return isHiddenByStyle(el);
}

function labelledByText(el, ctx) {
  const parts = [];
  for (const ref of idRefs(el, 'aria-labelledby')) {
    const text = textAlternative(ref, { visited: ctx.visited, labelRoot: ref }, true).text;
    ctx.visited.add(ref);
    if (text) parts.push(text);
  }
  return parts.join(' ');
}

function tooltip(el) {
  const title = el.getAttribute('title');
  if (!title || !title.trim()) return '';
  // A title that repeats the element's own text is no name of its own.
  const inner = el.localName === 'input' ? '' : (el.innerText || '');
  return title.trim() === inner.trim() ? '' : title;
}

function isNameProhibited(el) {
  if (isFocusable(el) || el.localName.includes('-')) return false;
  const role = getRole(el);
  if (role === null) return el.namespaceURI === HTML_NS && GENERIC_TAGS.has(el.localName);
  return NAME_PROHIBITED_ROLES.has(role);
}

// HTML elements without a role of their own that Blink maps to a generic container.
const GENERIC_TAGS = new Set(['b', 'bdi', 'bdo', 'big', 'center', 'cite', 'data', 'font', 'i', 'kbd',
  'q', 'rp', 'rt', 's', 'samp', 'small', 'strike', 'tt', 'u', 'var', 'pre', 'picture']);

export const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

// ---- embedded controls (2C/2E)

function isTextField(el) {
  if (el.localName === 'textarea') return true;
  if (el.localName === 'input') {
    const role = getRole(el);
    return role === 'textbox' || role === 'searchbox' || role === 'combobox';
  }
  const role = getRole(el);
  return role === 'textbox' || role === 'searchbox';
}

// The value an embedded control lends to the name of the widget it sits in, or null.
function embeddedValue(el) {
  // A password (or other secret) inside a label must not leak into a name.
  if (isSensitiveField(el)) return '';
  if (isTextField(el)) {
    if (el.localName === 'input' || el.localName === 'textarea') return el.value;
    return el.isContentEditable ? el.innerText : el.textContent;
  }
  const role = getRole(el);
  if (RANGE_ROLES.has(role)) return rangeValue(el);
  if (role === 'combobox' || role === 'listbox') return selectedOptionsText(el);
  return null;
}

export function rangeValue(el) {
  const valueText = el.getAttribute('aria-valuetext');
  if (valueText !== null) return valueText;
  const now = el.getAttribute('aria-valuenow');
  if (now !== null && now.trim() && Number.isFinite(Number(now))) return String(Number(now));
  if (['input', 'meter', 'progress'].includes(el.localName) && el.value !== '' &&
      Number.isFinite(Number(el.value))) return String(Number(el.value));
  return null;
}

function selectedOptionsText(el) {
  if (el.localName === 'select') {
    return Array.from(el.selectedOptions).map(optionLabel).join(' ');
  }
  // An ARIA combobox's options may sit in a listbox it owns rather than contains.
  const selected = [];
  for (const root of [el, ...idRefs(el, 'aria-owns')]) {
    if (root.matches('[role="option"][aria-selected="true"]')) selected.push(root);
    selected.push(...root.querySelectorAll('[role="option"][aria-selected="true"]'));
  }
  return selected.map((option) => accessibleName(option)).join(' ');
}

function optionLabel(option) {
  const label = option.getAttribute('label');
  return label && label.trim() ? label : normalizeSpace(option.text);
}

// ---- host language (2D, HTML-AAM)

function nativeTextAlternative(el, ctx) {
  const tag = el.localName;
  if (tag === 'option' && el.childNodes.length === 1 && el.firstChild.nodeType === 3) {
    return piece(optionLabel(el), 'contents');
  }
  if (tag === 'optgroup') return piece(el.getAttribute('label') || '', 'attribute');
  if (LABELABLE_TAGS.has(tag) && el.namespaceURI === HTML_NS) {
    const text = labelsText(labelsOf(el), ctx).trim();
    if (text) return piece(text, 'related');
  }
  if (tag === 'input') return inputTextAlternative(el);
  if (tag === 'textarea') return textFieldFallback(el);
  if (tag === 'img' || tag === 'area') {
    const alt = el.getAttribute('alt');
    return alt && alt.trim() ? piece(alt, 'attribute') : null;
  }
  if (tag === 'table') return tableCaption(el, ctx);
  if (tag === 'fieldset') return childNamer(el, 'legend', ctx);
  if (el.namespaceURI === SVG_NS) return svgTitle(el);
  if (isTextField(el)) return textFieldFallback(el);
  return null;
}

function labelsText(labels, ctx) {
  const parts = [];
  for (const label of labels) {
    // A label whose content is being read already holds this control: its text is said
    // around it, not again as the control's name.
    if ((ctx.visited.has(label) && !ctx.labelRoot) || contentInProgress.has(label)) continue;
    const text = textAlternative(label, ctx, true).text;
    ctx.visited.add(label);
    if (text) parts.push(text);
  }
  return parts.join(' ');
}

function inputTextAlternative(el) {
  const type = (el.getAttribute('type') || 'text').toLowerCase();
  if (type === 'button' || type === 'submit' || type === 'reset') {
    // A value attribute is the name even when empty; otherwise the button's default label.
    if (el.hasAttribute('value')) return { text: el.value, from: 'value', final: true };
    if (type === 'submit') return piece('Submit', 'contents');
    if (type === 'reset') return piece('Reset', 'contents');
    return null;
  }
  if (type === 'image') {
    const alt = el.getAttribute('alt');
    if (alt && alt.trim()) return piece(alt, 'attribute');
    if (el.hasAttribute('value')) return { text: el.getAttribute('value'), from: 'attribute', final: true };
    return piece(tooltip(el) || 'Submit', 'attribute');
  }
  if (type === 'file') return piece(el.multiple ? 'Choose Files' : 'Choose File', 'contents');
  if (TEXT_CONTROL_TYPES.has(type) || isTextField(el)) return textFieldFallback(el);
  return null;
}

// Text fields end their search with title, placeholder, then aria-placeholder.
function textFieldFallback(el) {
  const title = tooltip(el);
  if (title) return piece(title, 'title');
  const placeholder = (el.getAttribute('placeholder') || '').replace(/[\r\n]/g, '');
  if (placeholder && (el.localName === 'input' || el.localName === 'textarea')) {
    return { text: placeholder, from: 'placeholder', final: true };
  }
  const ariaPlaceholder = el.getAttribute('aria-placeholder');
  return { text: ariaPlaceholder || '', from: 'placeholder', final: true };
}

function tableCaption(el, ctx) {
  const caption = el.caption;
  if (caption) {
    const text = textAlternative(caption, ctx, true).text;
    if (text) return piece(text, 'caption');
  }
  const summary = el.getAttribute('summary');
  return summary !== null ? piece(summary, 'attribute') : null;
}

function childNamer(el, tag, ctx) {
  const child = Array.from(el.children).find((c) => c.localName === tag);
  if (!child || ctx.visited.has(child)) return null;
  return piece(textAlternative(child, ctx, true).text, 'related');
}

// SVG-AAM: a <title> child names its parent; a <use> takes the title of what it shows.
function svgTitle(el) {
  let title = Array.from(el.children).find((c) => c.localName === 'title');
  if (!title && el.localName === 'use') {
    const href = el.getAttribute('href') || el.getAttribute('xlink:href') || '';
    const target = href.startsWith('#') ? getElementByIdInScope(el, href.slice(1)) : null;
    if (target) title = Array.from(target.children).find((c) => c.localName === 'title');
  }
  if (title && title.textContent) return piece(title.textContent, 'related');
  if (el.localName === 'a') {
    const xlinkTitle = el.getAttribute('xlink:title');
    if (xlinkTitle) return piece(xlinkTitle, 'attribute');
  }
  return null;
}

// ---- name from content (2F)

function includesContent(el, ctx, recursive) {
  if (!ctx.labelRoot && !supportsNameFromContent(el, recursive)) return false;
  if (el.localName === 'select') return false;
  return !isTextField(el) || ctx.labelRoot === el;
}

function supportsNameFromContent(el, recursive) {
  const role = getRole(el);
  if (el.localName === 'details' && role === 'group') return recursive;
  if (CONTENT_NAME_ROLES.has(role)) return true;
  // A row names itself only inside a grid, but any row lends its cells' text.
  if (role === 'row') {
    return recursive || !!closestComposed(composedParent(el), (a) => ['grid', 'treegrid'].includes(getRole(a)));
  }
  if (NO_CONTENT_ROLES.has(role) && !(role === 'table' && !isDataTable(el))) return false;
  if (el === document.body || el === document.documentElement) return false;
  // Everything else lends its content to an ancestor's name but has none of its own.
  return recursive;
}

// Blink tells data tables from layout tables; only layout tables lend their content.
function isDataTable(el) {
  if (el.localName !== 'table' || el.hasAttribute('role')) return true;
  if (el.caption || el.tHead || el.tFoot || el.hasAttribute('summary')) return true;
  return !!el.querySelector('th, colgroup, col, td[headers], td[scope], td[abbr]');
}

// The children the accessibility tree gives an element: ::before, the flat-tree children
// (shadow tree or slotted nodes), elements it aria-owns, ::after.
function nameChildren(el) {
  const children = [];
  const before = pseudoPiece(el, '::before');
  if (before) children.push(before);
  const owned = ownedElements();
  for (const child of accessibleChildren(el)) {
    if (!owned.has(child)) children.push(child);
  }
  for (const ref of idRefs(el, 'aria-owns')) children.push(ref);
  const after = pseudoPiece(el, '::after');
  if (after) children.push(after);
  return children;
}

const ownedCache = runScopedMap();

// Elements some other element claims through aria-owns: they belong to their owner.
function ownedElements() {
  let owned = ownedCache.get(document);
  if (!owned) {
    owned = new Set();
    for (const owner of document.querySelectorAll('[aria-owns]')) {
      for (const ref of idRefs(owner, 'aria-owns')) owned.add(ref);
    }
    ownedCache.set(document, owned);
  }
  return owned;
}

// Blink's TextFromDescendants: the text of each child in Blink's tree, with a space
// between two children unless they share one line of inline content. Elements Blink
// leaves out of its tree (plain generic wrappers) are looked through, so the spacing
// is decided between the texts, images and named elements on either side.
// Elements whose content is being read, outermost first. Text lent by reference
// (labelRoot) may revisit what was visited, so `visited` alone does not end the cycle of
// a control inside its own label (the label's content, the control, its labels...).
const contentInProgress = new Set();

function contentText(el, ctx) {
  if (LEAF_TAGS.has(el.localName) || contentInProgress.has(el)) return '';
  const run = { text: '', previous: null, lastFrom: 'none' };
  contentInProgress.add(el);
  try {
    appendChildren(el, ctx, run, false);
  } finally {
    contentInProgress.delete(el);
  }
  return run.text;
}

// `textHidden`: el is hidden by visibility, so only descendants made visible again count.
function appendChildren(el, ctx, run, textHidden) {
  for (const child of nameChildren(el)) {
    if (ctx.visited.size > MAX_VISITED_ELEMENTS) return;
    if (child.nodeType === 1 && !(child instanceof PseudoChild)) {
      if (isVisibilityHidden(child, ctx)) {
        appendChildren(child, ctx, run, true);
        continue;
      }
      if (!isHiddenForName(child, ctx, true) && isLeftOutOfTree(child)) {
        appendChildren(child, ctx, run, false);
        continue;
      }
    } else if (textHidden) {
      continue;
    }
    const item = childPiece(child, ctx);
    if (item) appendPiece(run, item);
  }
}

function appendPiece(run, { part, layout }) {
  if (part.text && run.previous && run.text && !HTML_SPACE.test(run.text[run.text.length - 1]) &&
      !HTML_SPACE.test(part.text[0]) && needsSpace(run.previous, layout, run.lastFrom, part.from)) {
    run.text += ' ';
  }
  run.text += part.text;
  run.previous = layout;
  if (part.text) run.lastFrom = part.from;
}

// Hidden by visibility alone, which a descendant can undo (display:none and aria-hidden
// hide the whole subtree).
function isVisibilityHidden(el, ctx) {
  if (ctx.labelRoot && !isRendered(ctx.labelRoot)) return false;
  const style = styleOf(el);
  return style.visibility !== 'visible' && style.display !== 'none' &&
    el.getAttribute('aria-hidden') !== 'true';
}

// Plain wrappers Blink keeps out of its accessibility tree: generic or presentational
// elements with nothing that names, focuses or positions them, and unnamed <svg>.
function isLeftOutOfTree(el) {
  if (el.localName === 'slot') return true;
  const role = getRole(el);
  // Presentational elements only pass their content on (conflicts were resolved by getRole).
  if (role === 'none' || role === 'presentation') return true;
  const generic = role === 'generic' ||
    (role === null && ((el.namespaceURI === HTML_NS && GENERIC_TAGS.has(el.localName)) ||
      el.localName.includes('-') || isUnnamedSvg(el)));
  if (!generic || isFocusable(el)) return false;
  // Generated content is an object of its own, parented by its element.
  if (hasPseudo(el, '::before') || hasPseudo(el, '::after')) return false;
  if (['aria-label', 'aria-labelledby', 'aria-describedby', 'title'].some((a) => el.hasAttribute(a))) {
    return false;
  }
  const style = styleOf(el);
  return style.display !== 'contents' && style.position !== 'absolute' && style.position !== 'fixed';
}

function isUnnamedSvg(el) {
  return el.namespaceURI === SVG_NS && el.localName === 'svg' &&
    !Array.from(el.children).some((c) => c.localName === 'title');
}

// One child's contribution and its layout, or null when the child is not in the tree.
function childPiece(child, ctx) {
  if (child instanceof PseudoChild) return { part: child.part, layout: child.layout };
  if (child.nodeType === 3) {
    ctx.visited.add(child);
    if (!/[^ \t\n\f\r]/.test(child.data)) {
      return isRelevantWhitespace(child) ? { part: piece(' ', 'contents'), layout: textLayout(child) } : null;
    }
    return { part: piece(renderedText(child), 'contents'), layout: textLayout(child) };
  }
  if (child.nodeType !== 1 || isHiddenForName(child, ctx, true)) return null;
  const part = ctx.visited.has(child) && !ctx.labelRoot ? NOTHING : textAlternative(child, ctx, true, true);
  return { part, layout: elementLayout(child) };
}

// ---- layout, as far as name spacing depends on it: two pieces abut only when both are
// inline, neither is an atomic inline (inline-block, image, widget), and they sit in the
// same block container.

function elementLayout(el) {
  const display = styleOf(el).display;
  const svgInner = el.namespaceURI === SVG_NS && el.localName !== 'svg';
  const inline = !svgInner && (display.startsWith('inline') || display.startsWith('ruby'));
  const replaced = REPLACED_TAGS.has(el.localName) || (el.namespaceURI === SVG_NS && el.localName === 'svg');
  const atomic = inline && (display !== 'inline' || replaced);
  return {
    node: el,
    boxed: display !== 'contents',
    inline,
    atomic,
    flow: atomic ? el : blockContainer(composedParent(el)),
    control: (FORM_CONTROL_TAGS.has(el.localName) && el.type !== 'hidden') || CONTROL_ROLES.has(getRole(el)),
  };
}

function textLayout(node) {
  const parent = node.assignedSlot || node.parentElement || (node.parentNode && node.parentNode.host);
  let flow = parent ? blockContainer(parent) : null;
  // Text directly in a flex or grid container is wrapped in an anonymous block of its own.
  if (flow === parent && parent && /flex|grid/.test(styleOf(parent).display)) flow = node;
  return { node, boxed: true, inline: true, atomic: false, flow, control: false };
}

const blockContainerCache = runScopedMap();

// The nearest ancestor-or-self that lays out as a block container (not inline, not
// display:contents): where an inline piece's line box lives.
function blockContainer(el) {
  if (!el) return null;
  let found = blockContainerCache.get(el);
  if (found === undefined) {
    const display = styleOf(el).display;
    found = display === 'inline' || display === 'contents' || display.startsWith('ruby')
      ? blockContainer(composedParent(el)) : el;
    blockContainerCache.set(el, found);
  }
  return found;
}

const SEPARATED_FROM = new Set(['attribute', 'caption', 'cssalt', 'placeholder', 'related', 'title', 'value']);

function needsSpace(previous, next, lastFrom, nextFrom) {
  if (!previous.boxed || !next.boxed || !previous.inline || !next.inline) return true;
  if (previous.flow !== next.flow || previous.atomic || next.atomic) return true;
  if (SEPARATED_FROM.has(lastFrom) || SEPARATED_FROM.has(nextFrom)) return true;
  if (previous.control || next.control) return true;
  return blockInInline(previous.node, next.node);
}

// A block inside the inline content between two pieces breaks the line (a hidden <p>
// between two words still does).
function blockInInline(from, to) {
  if (!from || !to) return false;
  let budget = 200;
  for (let node = nextInPreOrder(from, false); node && node !== to && --budget > 0;) {
    if (node.nodeType === 1) {
      const style = styleOf(node);
      if (style.display === 'none') {
        node = nextInPreOrder(node, true);
        continue;
      }
      if (!/^(inline|contents|ruby)/.test(style.display) && style.position !== 'absolute' &&
          style.position !== 'fixed' && style.float === 'none') return true;
      // An atomic inline's inside is a line layout of its own.
      if (style.display !== 'inline' && style.display !== 'contents') {
        node = nextInPreOrder(node, true);
        continue;
      }
    }
    node = nextInPreOrder(node, false);
  }
  return false;
}

function nextInPreOrder(node, skipChildren) {
  if (!skipChildren && node.firstChild) return node.firstChild;
  for (let cur = node; cur; cur = cur.parentNode) {
    if (cur.nextSibling) return cur.nextSibling;
  }
  return null;
}

// ---- rendered text

function renderedText(node) {
  const parent = node.parentElement || (node.parentNode && node.parentNode.host);
  if (!parent) return node.data;
  const style = styleOf(parent);
  const collapse = style.whiteSpaceCollapse || style.whiteSpace;
  const text = /preserve|pre|break-spaces/.test(collapse) ? node.data : node.data.replace(/[ \t\n\f\r]+/g, ' ');
  return transformText(text, style.textTransform);
}

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

// text-transform, as rules or inline styles give it (rules setting none change nothing).
const TEXT_TRANSFORM_RULES = ruleQuestion({
  longhands: ['text-transform'],
  bears: (rule) => !['', 'none'].includes(rule.style.getPropertyValue('text-transform').trim()),
  selectors: (selectorText) => splitSelector(selectorText, isComma),
});
const TEXT_TRANSFORM_BY_DEFAULT = ['[style*="text-transform" i]'];

// The text-transform of the text in `el`. It is inherited, and most pages transform
// no element at all: then (their sheets readable, no shadow tree) no style is read.
function textTransformOf(el) {
  const transformed = surveyedElements(TEXT_TRANSFORM_RULES, TEXT_TRANSFORM_BY_DEFAULT);
  if (transformed && transformed.size === 0 && composedTreeIsLightTree()) return 'none';
  return styleOf(el).textTransform;
}

function transformText(text, transform) {
  switch (transform) {
    case 'uppercase': return text.toUpperCase();
    case 'lowercase': return text.toLowerCase();
    case 'capitalize': {
      let out = '';
      for (const { segment } of wordSegmenter.segment(text)) {
        out += segment.charAt(0).toUpperCase() + segment.slice(1);
      }
      return out;
    }
    default: return text;
  }
}

// ::before / ::after content as a child of its element, or null when there is none.
function pseudoPiece(el, which) {
  const style = pseudoStyle(el, which);
  if (!style || style.visibility !== 'visible') return null;
  const content = style.content;
  const slash = splitAltText(content);
  const strings = cssStrings(el, slash ? slash.alt : content);
  const part = slash ? piece(strings, 'cssalt') : piece(transformText(strings, style.textTransform), 'contents');
  const inline = style.display.startsWith('inline');
  const atomic = inline && style.display !== 'inline';
  return new PseudoChild(part, {
    node: null, boxed: true, inline, atomic, flow: atomic ? part : blockContainer(el), control: false,
  });
}

// ::before / ::after as a child in name computation, and as a neighbour of whitespace.
class PseudoChild {
  constructor(part, layout) {
    this.part = part;
    this.layout = layout;
  }
}

class PseudoRef {
  constructor(el, which) {
    this.el = el;
    this.which = which;
  }
}

// `content: "x" / "alt"`: the text after the slash is the alternative text.
function splitAltText(content) {
  let quote = null;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '/') {
      return { content: content.slice(0, i), alt: content.slice(i + 1) };
    }
  }
  return null;
}

// The text of a computed `content` value: its strings and attr() values. Counters,
// quotes and images (whose url() strings are addresses, not text) carry none.
function cssStrings(el, value) {
  let out = '';
  const re = /(?:url|image-set|-webkit-image-set)\((?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)])*\)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([^)\s]+)\s*\)|\b(open|close)-quote\b/g;
  let m;
  while ((m = re.exec(value))) {
    if (m[3]) out += el.getAttribute(m[3]) || '';
    else if (m[4]) out += quoteMark(el, m[4] === 'open');
    else if (m[1] !== undefined || m[2] !== undefined) out += unescapeCss(m[1] !== undefined ? m[1] : m[2]);
  }
  return out;
}

// The quotation mark of a <q> (or any open-quote/close-quote content): from the element's
// `quotes`, else the typographic quotes Chromium uses by default, single ones when nested.
function quoteMark(el, open) {
  const depth = el.parentElement && el.parentElement.closest('q') ? 1 : 0;
  const marks = Array.from(styleOf(el).quotes.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g),
    (m) => unescapeCss(m[1] !== undefined ? m[1] : m[2]));
  const defaults = depth ? ['\u2018', '\u2019'] : ['\u201c', '\u201d'];
  const pair = marks.length >= 2 ? marks.slice(Math.min(depth, (marks.length >> 1) - 1) * 2) : defaults;
  return open ? pair[0] : pair[1];
}

function unescapeCss(text) {
  return text.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex, ch) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : ch));
}

// ---- whitespace-only text: kept in Blink's tree only between two pieces of inline
// content that would otherwise run together (Blink's IsLayoutTextRelevantForAccessibility).

function isRelevantWhitespace(node) {
  if (!hasWhitespaceBox(node)) return false;
  const prev = previousAbsolute(node);
  const next = nextAbsolute(node);
  if (!prev || !next) return false;
  if (canIgnoreSpaceNextTo(prev, false, 0) || canIgnoreSpaceNextTo(next, true, 0)) return false;
  const box = enclosingBox(node);
  if (prev.nodeType === 3 && enclosingBox(prev) !== box) return false;
  if (next.nodeType === 3 && enclosingBox(next) !== box) return false;
  return true;
}

// Whether Blink gives whitespace-only text a layout object (Text::TextLayoutObjectIsNeeded).
function hasWhitespaceBox(node) {
  const parent = node.parentElement;
  if (!parent) return false;
  const style = styleOf(parent);
  if (/pre|break-spaces|preserve-breaks/.test(style.whiteSpaceCollapse || style.whiteSpace)) return true;
  const layoutParent = closestComposed(parent, (e) => styleOf(e).display !== 'contents') || parent;
  const display = styleOf(layoutParent).display;
  const prev = previousInFlow(node);
  if (/flex|grid|table(?!-cell|-caption)/.test(display)) {
    return !!prev && prev.nodeType === 3 && !HTML_SPACE.test(renderedText(prev).slice(-1));
  }
  if (!prev) return display === 'inline';
  if (prev.nodeType === 3) return !HTML_SPACE.test(renderedText(prev).slice(-1));
  if (prev.localName === 'br') return false;
  return styleOf(prev).display.startsWith('inline');
}

// The previous sibling that takes part in the line: no comments, hidden or out-of-flow
// elements, nor whitespace Blink drops.
function previousInFlow(node) {
  for (let sib = node.previousSibling; sib; sib = sib.previousSibling) {
    if (sib.nodeType === 3) {
      if (!sib.data) continue;
      if (/[^ \t\n\f\r]/.test(sib.data)) return sib;
      return sib; // adjacent whitespace: this one collapses into it
    }
    if (sib.nodeType !== 1) continue;
    const style = styleOf(sib);
    if (style.display === 'none' || style.position === 'absolute' || style.position === 'fixed' ||
        style.float !== 'none') continue;
    return sib;
  }
  return null;
}

// Blink's NodeTraversal::PreviousAbsoluteSiblingIncludingPseudo and
// NextIncludingPseudoSkippingChildren: the node beside this one, climbing to the parent's
// siblings at the edges (a parent's ::before / ::after stand at its edges).
function previousAbsolute(node) {
  for (let cur = node; cur && cur !== document.documentElement; cur = cur.parentElement) {
    if (cur.previousSibling) return cur.previousSibling;
    const parent = cur.parentElement;
    if (parent && hasPseudo(parent, '::before')) return new PseudoRef(parent, '::before');
  }
  return null;
}

function nextAbsolute(node) {
  for (let cur = node; cur && cur !== document.documentElement; cur = cur.parentElement) {
    if (cur.nextSibling) return cur.nextSibling;
    const parent = cur.parentElement;
    if (parent && hasPseudo(parent, '::after')) return new PseudoRef(parent, '::after');
  }
  return null;
}

function hasPseudo(el, which) {
  return pseudoStyle(el, which) !== null;
}

function enclosingBox(node) {
  const start = node.nodeType === 1 ? node : node.parentElement;
  return closestComposed(start, (e) => {
    const display = styleOf(e).display;
    return display !== 'inline' && display !== 'contents';
  });
}

// Blink's CanIgnoreSpaceNextTo: true when the neighbour is read apart anyway (a block,
// a line break, a space of its own), so this whitespace adds nothing.
function canIgnoreSpaceNextTo(node, isAfter, depth) {
  if (node instanceof PseudoRef) {
    const style = pseudoStyle(node.el, node.which);
    if (!style.display.startsWith('inline')) return true;
    const text = cssStrings(node.el, style.content);
    if (!text) return false;
    return HTML_SPACE.test(isAfter ? text[0] : text[text.length - 1]);
  }
  if (node.nodeType === 3) {
    if (!/[^ \t\n\f\r]/.test(node.data)) return true;
    // Leading space after this whitespace collapses into it, so only trailing space counts.
    return !isAfter && HTML_SPACE.test(node.data[node.data.length - 1]);
  }
  if (node.nodeType !== 1) return true;
  if (depth > 3) return false;
  const style = styleOf(node);
  if (style.display === 'none' || style.display === 'contents') return true;
  if (node.localName === 'br') return !isAfter || !node.hasAttribute('role');
  if (node.localName === 'img' || (node.localName === 'input' && node.type === 'image')) return false;
  if (style.display !== 'inline' || REPLACED_TAGS.has(node.localName) || node.namespaceURI !== HTML_NS) return true;
  if (['cell', 'gridcell', 'columnheader', 'rowheader'].includes(node.getAttribute('role'))) return true;
  const child = edgeChild(node, isAfter);
  if (!child) {
    const adjacent = isAfter ? nextAbsolute(node) : previousAbsolute(node);
    return !!adjacent && canIgnoreSpaceNextTo(adjacent, isAfter, depth + 1);
  }
  return canIgnoreSpaceNextTo(child, isAfter, depth + 1);
}

// The first (or last) child of an inline element that has a box: its ::before/::after,
// else a child that is not a comment, hidden, or dropped whitespace.
function edgeChild(el, first) {
  const which = first ? '::before' : '::after';
  if (hasPseudo(el, which)) return new PseudoRef(el, which);
  for (let c = first ? el.firstChild : el.lastChild; c; c = first ? c.nextSibling : c.previousSibling) {
    if (c.nodeType === 3 && c.data && (/[^ \t\n\f\r]/.test(c.data) || hasWhitespaceBox(c))) return c;
    if (c.nodeType === 1 && styleOf(c).display !== 'none') return c;
  }
  return null;
}
