// The context of controls that share a name (docs/views.md#semantic `c`,
// #interaction `context`). A page repeats "View" on every row of a table, "Add to cart"
// on every card, "Edit" on every setting, and a flat list of controls cannot say which
// is which. Each look-alike is given what tells its item apart: its row's header cell,
// else the row's first cell with other text than the control's name; a card's or list
// item's heading, else its first other link, else its opening words. Without an item,
// the landmark it is in. A context two look-alikes share says nothing: those two try
// the item's next text, then the item around it, then the landmarks around them, and
// get none when nothing tells them apart. Controls whose name no other bears get none.

import { accessibleName } from './accname.js';
import { HEADING_SELECTOR, accessibleChildren, composedParent } from './dom.js';
import { isEditingHost } from './role.js';
import { isInlineTag } from './content.js';
import { isRepeatedBlock } from './items.js';
import { landmarksAround } from './region.js';
import { isRendered } from './visibility.js';
import { normalizeSpace, truncate } from './core.js';

const MAX_CONTEXT = 40;
// How far up from a control its item is looked for.
const ITEM_DEPTH = 8;
// Nodes read for one text (a cell, a heading, an item's opening words).
const TEXT_NODES = 60;
// Texts of one item tried in turn (its cells, or its heading, link and opening words).
const TEXTS_PER_ITEM = 3;
// Times look-alikes that share a context move on to their next one.
const ROUNDS = 4;

// Items the page marks up as such; a block that repeats among its siblings is one too
// when it says something beside its controls (a menu or a toolbar does not).
const MARKED_ITEM = 'tr, li, article, [role="row" i], [role="listitem" i], [role="article" i]';
// Entries of a list inside an item: an item's own text and links are not theirs (a
// menu's next entry says nothing of the control's item, a reply is not its comment).
const ENTRY = 'li, article, [role="listitem" i], [role="article" i]';
const ROW = 'tr, [role="row" i]';
const CELL = 'td, th, [role="cell" i], [role="gridcell" i], [role="rowheader" i], [role="columnheader" i]';
const ROW_HEADER = 'th, [role="rowheader" i]';
const LINK = 'a[href], [role="link" i]';
// Read for no text: what a field holds is a value, not the page's text (docs/privacy.md),
// and another button's caption names an action, not the item.
const UNREAD = new Set(['script', 'style', 'template', 'noscript', 'input', 'textarea', 'select', 'option',
  'button', 'svg', 'math']);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// control → its context, for those of `controls` whose name (case-insensitive) another
// of them bears. Optional work: once the capture is overdue, the rest get none.
export function lookalikeContexts(controls, deadline) {
  const groups = new Map();
  for (const control of controls) {
    if (deadline.overdue()) return new Map();
    const key = control.name.toLowerCase();
    if (!key) continue;
    const group = groups.get(key);
    if (group) group.push(control);
    else groups.set(key, [control]);
  }
  const contexts = new Map();
  for (const group of groups.values()) {
    if (group.length > 1 && !placeGroup(group, contexts, deadline)) break;
  }
  return contexts;
}

// Sets the contexts of one group of look-alikes; false when the capture is overdue.
function placeGroup(group, contexts, deadline) {
  const held = lookalikesHeld(group);
  const places = [];
  for (const control of group) {
    if (deadline.overdue()) return false;
    places.push(new Place(control, held));
  }
  for (let round = 0; round < ROUNDS; round++) {
    const shared = sharedContexts(places);
    let moved = false;
    for (const place of places) {
      if (!shared.has(place.key)) continue;
      if (deadline.overdue()) return false;
      moved = place.moveOn() || moved;
    }
    if (!moved) break;
  }
  const shared = sharedContexts(places);
  for (const place of places) {
    if (place.context && !shared.has(place.key)) contexts.set(place.control, place.context);
  }
  return true;
}

// A look-alike's contexts, from the nearest out, and the one it has reached.
class Place {
  constructor(control, held) {
    this.control = control;
    this.contexts = contextsAround(control, held);
    this.context = '';
    this.moveOn();
  }
  get key() {
    return this.context.toLowerCase();
  }
  // To the next context that differs from this one; false when there is none.
  moveOn() {
    for (let next = this.contexts.next(); !next.done; next = this.contexts.next()) {
      if (next.value.toLowerCase() !== this.key) {
        this.context = next.value;
        return true;
      }
    }
    return false;
  }
}

function sharedContexts(places) {
  const seen = new Set();
  const shared = new Set();
  for (const place of places) {
    if (!place.key) continue;
    if (seen.has(place.key)) shared.add(place.key);
    seen.add(place.key);
  }
  return shared;
}

// How many of the group each ancestor (up to the item depth) holds: an item is one that
// holds its control alone.
function lookalikesHeld(group) {
  const held = new Map();
  for (const control of group) {
    let cur = composedParent(control.el);
    for (let depth = 0; cur && depth <= ITEM_DEPTH; depth++, cur = composedParent(cur)) {
      held.set(cur, (held.get(cur) || 0) + 1);
    }
  }
  return held;
}

// The texts of the items around the control that hold no other look-alike, nearest
// first, then its landmarks; as shown: masked and cut.
function* contextsAround(control, held) {
  const el = control.el;
  const name = control.name.toLowerCase();
  const usable = (text) => LETTER_OR_DIGIT.test(text) && text.toLowerCase() !== name;
  const shown = (text) => truncate(control.mask(text), MAX_CONTEXT);
  let cur = composedParent(el);
  for (let depth = 0; cur && cur !== document.body && depth < ITEM_DEPTH && held.get(cur) === 1; depth++) {
    const parent = composedParent(cur);
    // The widest element that holds it alone is an item when a twin (the same tag and
    // first class) stands beside it: two cards of a short grid, a form per section.
    const widest = !parent || held.get(parent) !== 1;
    const marked = cur.matches(MARKED_ITEM);
    if (marked || (isRepeatedBlock(cur) && !cur.matches(CELL)) || (widest && hasTwin(cur))) {
      let taken = 0;
      for (const text of itemTexts(cur, el, usable, marked)) {
        if (!usable(text)) continue;
        yield shown(text);
        if (++taken === TEXTS_PER_ITEM) break;
      }
    }
    cur = parent;
  }
  for (const landmark of landmarksAround(el)) yield shown(landmark);
}

// A neighbour of the same tag and first class.
function hasTwin(el) {
  const kind = el.classList[0] || '';
  return [el.previousElementSibling, el.nextElementSibling]
    .some((sibling) => sibling && sibling.localName === el.localName && (sibling.classList[0] || '') === kind);
}

// The texts that may tell an item apart, best first, each read when asked for. A block
// not `marked` as an item has none unless it has a heading or text beside its controls.
function* itemTexts(item, control, usable, marked) {
  if (item.matches(ROW)) {
    const cells = Array.from(item.querySelectorAll(CELL)).filter((cell) => cell.closest(ROW) === item);
    for (const cell of cells) if (cell.matches(ROW_HEADER)) yield textOf(cell, control);
    for (const cell of cells) if (!cell.matches(ROW_HEADER)) yield textOf(cell, control);
    return;
  }
  const heading = firstOwn(item, HEADING_SELECTOR, control, (h) => textOf(h, control), usable);
  if (heading) yield heading;
  else if (!marked && !usable(textOf(item, control, false))) return;
  yield firstOwn(item, LINK, control, (a) => normalizeSpace(accessibleName(a)), usable);
  yield textOf(item, control);
}

// The first usable text of the elements of `item` matching `selector` that are
// rendered, its own (not in another entry) and neither are nor hold the control.
function firstOwn(item, selector, control, textOfElement, usable) {
  for (const el of item.querySelectorAll(selector)) {
    if (el.contains(control) || control.contains(el) || !isRendered(el)) continue;
    const entry = el.closest(ENTRY);
    if (entry && entry !== item && item.contains(entry) && !entry.contains(control)) continue;
    const text = textOfElement(el);
    if (usable(text)) return text;
  }
  return '';
}

// The rendered text of `root`, enough of it for a context, without `skip`, what is
// UNREAD or being edited, the other entries of a list in it, and without `links` the
// links' text; blocks are kept apart by a space.
function textOf(root, skip, links = true) {
  const parts = [];
  let length = 0;
  let nodes = 0;
  const read = (node) => {
    if (length > MAX_CONTEXT || ++nodes > TEXT_NODES) return;
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.data);
      length += node.data.trim().length;
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE || node === skip) return;
    const el = /** @type {Element} */ (node);
    if (UNREAD.has(el.localName) || (!links && el.matches(LINK)) || isEditingHost(el)) return;
    if ((el !== root && el.matches(ENTRY) && !el.contains(skip)) || !isRendered(el)) return;
    const block = !isInlineTag(el.localName);
    if (block) parts.push(' ');
    for (const child of accessibleChildren(el)) read(child);
    if (block) parts.push(' ');
  };
  read(root);
  return normalizeSpace(parts.join(''));
}
