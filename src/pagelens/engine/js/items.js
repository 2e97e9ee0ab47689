// Blocks that repeat among their siblings: the rows, list items and cards of a list.
// Listing detection (classify.js) counts them; the context of controls that share a
// name (lookalikes.js) is read from them.

import { isInlineTag } from './content.js';
import { runScopedMap } from './core.js';

const MIN_REPEATS = 3;
const repeatedCache = runScopedMap();

// Whether `el` is a block whose tag at least MIN_REPEATS of its parent's children share.
export function isRepeatedBlock(el) {
  if (isInlineTag(el.localName)) return false;
  let repeated = repeatedCache.get(el);
  if (repeated === undefined) {
    let same = 0;
    const parent = el.parentElement;
    if (parent) {
      for (let c = parent.firstElementChild; c && same < MIN_REPEATS; c = c.nextElementSibling) {
        if (c.localName === el.localName) same++;
      }
    }
    repeated = same >= MIN_REPEATS;
    repeatedCache.set(el, repeated);
  }
  return repeated;
}
