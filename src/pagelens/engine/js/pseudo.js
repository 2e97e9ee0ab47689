// Generated content (::before / ::after), as names read it. Reading a pseudo-element's
// computed style makes Blink resolve a style for it, which costs more than the rest of a
// name step, and most elements have no rule that could give them content. The rules that
// set `content` on a ::before/::after are surveyed (stylerules.js) and filed by the last
// compound of their selector (its id, a class or its tag): an element that none of them
// matches has no generated content, and its pseudo styles are never read.

import { isComma, mayMatchRules, ruleQuestion, splitSelector } from './stylerules.js';
import { runScopedMap } from './core.js';

const PSEUDO_ELEMENT_RE = /::?(before|after)(?![\w-])/i;
const MENTIONS_PSEUDO_RE = /before|after/i;

const GENERATED_CONTENT = ruleQuestion({
  longhands: ['content'],
  bears: (rule) => !!rule.style.getPropertyValue('content') && MENTIONS_PSEUDO_RE.test(rule.selectorText),
  // Each selector of the list that ends in ::before/::after, without it.
  selectors: (selectorText) => splitSelector(selectorText, isComma)
    .filter((part) => PSEUDO_ELEMENT_RE.test(part))
    .map((part) => part.slice(0, part.search(PSEUDO_ELEMENT_RE)).trim()),
});

// Chromium's own style sheet gives <q> its quotation marks.
const UA_GENERATED_CONTENT = ['q'];

const pseudoHosts = runScopedMap();

function mayHavePseudo(el) {
  let may = pseudoHosts.get(el);
  if (may === undefined) {
    may = mayMatchRules(el, GENERATED_CONTENT, UA_GENERATED_CONTENT);
    pseudoHosts.set(el, may);
  }
  return may;
}

const pseudoStyles = runScopedMap();

// The computed style of el's ::before or ::after when it generates content, else null.
export function pseudoStyle(el, which) {
  if (!mayHavePseudo(el)) return null;
  const key = which === '::before' ? 0 : 1;
  let styles = pseudoStyles.get(el);
  if (!styles) {
    styles = [undefined, undefined];
    pseudoStyles.set(el, styles);
  }
  if (styles[key] === undefined) {
    const style = getComputedStyle(el, which);
    const content = style.content;
    styles[key] = content && content !== 'none' && content !== 'normal' && style.display !== 'none' ? style : null;
  }
  return styles[key];
}
