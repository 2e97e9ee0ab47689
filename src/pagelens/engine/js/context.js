// The heading each control sits under: what an agent's words for a control may name
// beside its label ("add the Summit Pro to the cart", where every card has its own "Add
// to cart"). Read for ranking a view against a query only, never shown.

import { elementById } from './capture.js';
import { isRendered } from './visibility.js';
import { normalizeSpace, truncate } from './core.js';
import { HEADING_SELECTOR } from './dom.js';

const HEADING_CHARS = 80;

// {headings: [text], of: {id: index into headings}} for the controls `ids` of this
// frame's document that have a rendered heading before them (or around them).
export function headingsOf(ids) {
  const headings = Array.from(document.querySelectorAll(HEADING_SELECTOR)).filter(isRendered);
  const texts = [];
  const index = new Map();
  const of = {};
  for (const id of ids) {
    const el = elementById(id);
    const heading = el ? lastBefore(headings, el) : null;
    if (!heading) continue;
    if (!index.has(heading)) {
      index.set(heading, texts.length);
      texts.push(truncate(normalizeSpace(heading.textContent), HEADING_CHARS));
    }
    of[id] = index.get(heading);
  }
  return { headings: texts, of };
}

// The last of `sorted` (in document order) that comes before `el` or holds it.
function lastBefore(sorted, el) {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) low = middle + 1;
    else high = middle;
  }
  return low > 0 ? sorted[low - 1] : null;
}
