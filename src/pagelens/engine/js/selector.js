// Unique CSS selectors that find their element again in a fresh load of the page, where
// no pagelens stamp exists. By preference: #id (unless generated-looking) > test ids >
// tag[name] > tag[aria-label] > a CSS path, as short as it can be, grown one level at a
// time up to the top of the element's tree (see path()). Every selector matches exactly
// its own element across the document and open shadow roots, each queried on its own (as
// our own actions resolve CSS). null when none qualifies: an element whose path up to the
// top of its shadow tree matches in another root too (three identical components), since
// CSS cannot enter a shadow tree from its host. docs/ids.md, "Selectors".
//
// Uniqueness is checked without querying the page once per candidate: attribute
// selectors by counts from one indexed pass, short CSS paths by matching their simple
// steps (tag, classes, :nth-of-type, joined by `>`) structurally against cached candidate
// sets, longer ones by construction below a unique anchor. A querySelectorAll per control
// and level made large pages quadratic.

import { HTML_NS } from './accname.js';
import { maskContactDetails, unmasked } from './contact.js';
import { walkElements } from './dom.js';

const TEST_ID_ATTRS = ['data-testid', 'data-test', 'data-qa', 'data-cy'];
const INDEXED_ATTRS = ['id', 'name', 'aria-label', ...TEST_ID_ATTRS];
// Paths of up to this many levels are checked against the page step by step; beyond,
// only anchors are looked for (see path()).
const CHECKED_LEVELS = 4;

function looksGenerated(token) {
  return token.length > 40 ||
    /\d{4,}/.test(token) ||
    /^[:_]|^(react|ember|yui_|ext-|gwt-|mui-|radix-|headlessui-|sc-|css-|jss|svelte-|v-)/i.test(token) ||
    (/^[a-f0-9-]{8,}$/i.test(token) && /\d/.test(token)) ||
    /[a-z]+\d+[a-z]+\d+/i.test(token) ||
    /_[A-Za-z0-9]{5,}$/.test(token) && /[A-Z]/.test(token) && /\d/.test(token);
}

function cssString(value) {
  return '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ') + '"';
}

export class SelectorBuilder {
  // `few`: for a handful of selectors (the summary's actions), each candidate is counted
  // by the browser's querySelectorAll, which costs less than indexing a large page.
  // `mask`: what the views show of a text (contact.js); an attribute whose value it
  // changes is never part of a selector, so no selector repeats what the views mask.
  constructor(shadowRoots, { few = false, mask = unmasked } = {}) {
    this.few = few;
    this.mask = mask;
    this.roots = [document, ...shadowRoots];
    this.quirks = document.compatMode === 'BackCompat';
    this.counts = null;
    this.byTag = new Map(); // local name -> elements, every root
    this.matchSets = new Map(); // path selector -> the elements it matches
    this.groupSets = new Map(); // path selector -> its matches grouped by the ancestor above
    this.byClass = new Map(); // class name -> elements, every root
    this.stepCounts = new Map(); // step text -> elements it matches alone (0, 1 or 2)
    this.owns = new Map(); // element -> its own selector, or null
    this.positions = new Map(); // element -> { index, group: { count } } among same-type siblings
    this.steps = new Map(); // element -> its path step
    this.bareSteps = new Map(); // element -> its path step without classes
    this.lowered = new Map(); // element -> its class names in lower case (quirks mode)
  }

  // One pass over the elements carrying an indexed attribute counts every id and
  // attribute value, so the usual candidates are checked by lookup.
  index() {
    if (this.counts) return this.counts;
    const counts = new Map();
    const bump = (key) => counts.set(key, (counts.get(key) || 0) + 1);
    const query = INDEXED_ATTRS.map((attr) => `[${attr}]`).join(',');
    for (const root of this.roots) {
      for (const el of root.querySelectorAll(query)) {
        if (el.id) bump('#' + this.idKey(el.id));
        for (const attr of TEST_ID_ATTRS) {
          const v = el.getAttribute(attr);
          if (v !== null) bump(`${attr}=${v}`);
        }
        const name = el.getAttribute('name');
        if (name !== null) bump(`${el.localName}[name]=${name}`);
        const label = el.getAttribute('aria-label');
        if (label !== null) bump(`${el.localName}[aria-label]=${label}`);
      }
    }
    this.counts = counts;
    return counts;
  }

  // Ids match case-insensitively in quirks mode.
  idKey(id) {
    return this.quirks ? asciiLower(id) : id;
  }

  // How many elements `selector` matches in all roots, counting no further than 2.
  countMatches(selector) {
    let count = 0;
    for (const root of this.roots) {
      count += root.querySelectorAll(selector).length;
      if (count > 1) break;
    }
    return count;
  }

  idIsUnique(id) {
    return this.few ? this.countMatches('#' + CSS.escape(id)) === 1 : this.index().get('#' + this.idKey(id)) === 1;
  }

  uniqueBy(key, selector, el, value) {
    if (this.mask(value) !== value) return null;
    try {
      if (this.few ? this.countMatches(selector) !== 1 : this.index().get(key) !== 1) return null;
      return el.matches(selector) ? selector : null;
    } catch (e) {
      return null;
    }
  }

  build(el) {
    return this.ownSelector(el) || this.path(el);
  }

  // The element named by what it carries itself (an id, a test id, a name, a label), when
  // that is unique; cached, since ancestors are asked again for every control below them.
  ownSelector(el) {
    let own = this.owns.get(el);
    if (own === undefined) {
      own = this.attributeSelector(el);
      this.owns.set(el, own);
    }
    return own;
  }

  attributeSelector(el) {
    const tag = el.localName;
    if (el.id && !looksGenerated(el.id)) {
      const found = this.uniqueBy('#' + this.idKey(el.id), '#' + CSS.escape(el.id), el, el.id);
      if (found) return found;
    }
    for (const attr of TEST_ID_ATTRS) {
      const v = el.getAttribute(attr);
      if (v === null) continue;
      const found = this.uniqueBy(`${attr}=${v}`, `[${attr}=${cssString(v)}]`, el, v);
      if (found) return found;
    }
    const name = el.getAttribute('name');
    if (name) {
      const found = this.uniqueBy(`${tag}[name]=${name}`, `${CSS.escape(tag)}[name=${cssString(name)}]`, el, name);
      if (found) return found;
    }
    const label = el.getAttribute('aria-label');
    if (label) {
      const found = this.uniqueBy(`${tag}[aria-label]=${label}`,
        `${CSS.escape(tag)}[aria-label=${cssString(label)}]`, el, label);
      if (found) return found;
    }
    return null;
  }

  // ---- CSS paths

  // Position among the siblings of the same type (CSS :nth-of-type: local name and
  // namespace), computed for a whole sibling list at once.
  position(el) {
    let pos = this.positions.get(el);
    if (pos) return pos;
    const parent = el.parentNode;
    const seen = new Map(); // type -> { count } shared by the siblings of that type
    for (let sib = parent ? parent.firstElementChild : el; sib; sib = sib.nextElementSibling) {
      // An HTML element's type is its local name (no string to build for most siblings).
      const type = sib.namespaceURI === HTML_NS ? sib.localName : `${sib.namespaceURI}|${sib.localName}`;
      let group = seen.get(type);
      if (!group) seen.set(type, (group = { count: 0 }));
      group.count++;
      this.positions.set(sib, { index: group.count, group });
      if (!parent) break;
    }
    return this.positions.get(el);
  }

  // One path step: tag, up to two meaningful classes, and :nth-of-type when the
  // element's parent (an element or a shadow root) has other children of its type.
  step(el) {
    let step = this.steps.get(el);
    if (step) return step;
    const classes = Array.from(el.classList).filter((c) => !looksGenerated(c)).slice(0, 2);
    const nth = this.position(el).group.count > 1 ? this.position(el).index : 0;
    let text = CSS.escape(el.localName);
    for (const c of classes) text += '.' + CSS.escape(c);
    if (nth) text += `:nth-of-type(${nth})`;
    step = { tag: el.localName, classes: this.quirks ? classes.map(asciiLower) : classes, nth, text };
    this.steps.set(el, step);
    return step;
  }

  // Does `el` match a step, with the semantics of the step's selector text?
  matchesStep(el, step) {
    if (!el || el.localName !== step.tag) return false;
    if (step.classes.length) {
      if (this.quirks) {
        const own = this.lowerClasses(el);
        if (!step.classes.every((c) => own.has(c))) return false;
      } else if (!step.classes.every((c) => el.classList.contains(c))) {
        return false;
      }
    }
    return !step.nth || this.position(el).index === step.nth;
  }

  // In quirks mode class names match ASCII case-insensitively.
  lowerClasses(el) {
    let classes = this.lowered.get(el);
    if (!classes) {
      classes = new Set(Array.from(el.classList, asciiLower));
      this.lowered.set(el, classes);
    }
    return classes;
  }

  // Elements of one local name in every root, from the browser's own (cached) lists:
  // one native pass per tag name beats indexing the whole page in script.
  elementsByTag(tag) {
    let list = this.byTag.get(tag);
    if (!list) {
      list = [];
      for (const root of this.roots) {
        const found = root === document ? document.getElementsByTagNameNS('*', tag) : root.querySelectorAll(CSS.escape(tag));
        for (const el of found) if (el.localName === tag) list.push(el);
      }
      this.byTag.set(tag, list);
    }
    return list;
  }

  // Every element matching `steps` (top first, joined by `>`), in all roots. A path one
  // step longer than a known one only looks at the ancestors its new top step can match,
  // so a thousand rows' "div.row:nth-of-type(i) > a" cost one pass over the links.
  matches(steps) {
    const key = pathKey(steps);
    let set = this.matchSets.get(key);
    if (set) return set;
    const top = steps[0];
    if (steps.length === 1) {
      set = this.elementsByTag(top.tag).filter((el) => this.matchesStep(el, top));
    } else {
      const groups = this.ancestorGroups(steps.slice(1));
      const candidates = (top.nth ? this.groupsAt(groups, top.tag, top.nth) : groups.byTag.get(top.tag)) || [];
      set = [];
      for (const group of candidates) {
        if (this.matchesStep(group.ancestor, top)) for (const el of group.members) set.push(el);
      }
    }
    this.matchSets.set(key, set);
    return set;
  }

  // The elements matching `steps`, grouped by their ancestor one level above the path,
  // the groups indexed by that ancestor's local name (and, on first use for a name, by
  // its position among its type: most ancestors are never asked for theirs).
  ancestorGroups(steps) {
    const key = pathKey(steps);
    let groups = this.groupSets.get(key);
    if (groups) return groups;
    const byAncestor = new Map();
    for (const el of this.matches(steps)) {
      const ancestor = ancestorAt(el, steps.length);
      if (!ancestor) continue;
      const group = byAncestor.get(ancestor);
      if (group) group.members.push(el);
      else byAncestor.set(ancestor, { ancestor, members: [el] });
    }
    groups = { byTag: new Map(), byPosition: new Map() };
    for (const group of byAncestor.values()) pushTo(groups.byTag, group.ancestor.localName, group);
    this.groupSets.set(key, groups);
    return groups;
  }

  // The groups whose ancestor is the `nth` of its type `tag`.
  groupsAt(groups, tag, nth) {
    let byIndex = groups.byPosition.get(tag);
    if (!byIndex) {
      byIndex = new Map();
      for (const group of groups.byTag.get(tag) || []) pushTo(byIndex, this.position(group.ancestor).index, group);
      groups.byPosition.set(tag, byIndex);
    }
    return byIndex.get(nth);
  }

  // Whether the path `steps` (its text: `selector`) matches `el` and nothing else.
  isOnlyMatch(el, steps, selector) {
    if (!safeMatches(el, selector)) return false;
    if (this.few) return this.countMatches(selector) === 1;
    const set = this.matches(steps);
    return set.length === 1 && set[0] === el;
  }

  // The same step without its classes (tag and :nth-of-type).
  bareStep(el) {
    const step = this.step(el);
    if (!step.classes.length) return step;
    let bare = this.bareSteps.get(el);
    if (!bare) {
      const text = CSS.escape(el.localName) + (step.nth ? `:nth-of-type(${step.nth})` : '');
      bare = { tag: step.tag, classes: [], nth: step.nth, text };
      this.bareSteps.set(el, bare);
    }
    return bare;
  }

  // Whether an element's own step (tag, classes, :nth-of-type) matches it alone in every
  // root. Candidates come from its first class (the browser's index) or its tag, and the
  // count stops at 2: common steps are dismissed after a few elements.
  stepIsUnique(el) {
    const step = this.step(el);
    if (this.few) return this.countMatches(step.text) === 1;
    let count = this.stepCounts.get(step.text);
    if (count === undefined) {
      count = 0;
      const pool = step.classes.length ? this.elementsByClass(step.classes[0]) : this.elementsByTag(step.tag);
      for (const other of pool) if (this.matchesStep(other, step) && ++count > 1) break;
      this.stepCounts.set(step.text, count);
    }
    return count === 1;
  }

  elementsByClass(name) {
    let list = this.byClass.get(name);
    if (!list) {
      list = [];
      for (const root of this.roots) {
        const found = root === document ? document.getElementsByClassName(name) : root.querySelectorAll('.' + CSS.escape(name));
        for (const el of found) list.push(el);
      }
      this.byClass.set(name, list);
    }
    return list;
  }

  // The shortest path that names `el` alone, one level longer each round:
  // - below an ancestor named alone (by its own attributes; beyond the first levels, by
  //   its own step too), a chain of tags with :nth-of-type where siblings share a type
  //   names one element by construction: `#menu > li:nth-of-type(2) > a`;
  // - within the first levels, a path of full steps (tags, classes, :nth-of-type) checked
  //   against the page: `ul.nav > li:nth-of-type(2) > a.link`;
  // - at the top of the document, the chain from `html`; at the top of a shadow tree,
  //   the chain when no other root has it (else null: CSS cannot enter a shadow tree
  //   from its host).
  // Past the first levels only the cheap anchors are tried, so deep elements cost
  // lookups, not matching sets of elements at every level.
  path(el) {
    const full = []; // full steps, top first (the first levels only)
    const chain = []; // bare steps, top first
    for (let cur = el, level = 1; cur; cur = cur.parentElement, level++) {
      chain.unshift(this.bareStep(cur));
      const parent = cur.parentElement;
      if (parent) {
        const anchor = this.ownSelector(parent);
        if (anchor) return `${anchor} > ${pathKey(chain)}`;
      }
      if (level <= CHECKED_LEVELS) {
        full.unshift(this.step(cur));
        const selector = pathKey(full);
        if (this.isOnlyMatch(el, full, selector)) return selector;
      }
      if (!parent) return this.fromTop(el, cur, chain);
      if (level >= CHECKED_LEVELS && this.stepIsUnique(parent)) return `${this.step(parent).text} > ${pathKey(chain)}`;
    }
    return null;
  }

  // The chain from the top of `el`'s tree (`top`): unique in its tree, and so in all
  // roots when the document has one `html` or no other shadow root holds the chain.
  fromTop(el, top, chain) {
    const selector = pathKey(chain);
    if (top === document.documentElement) return this.elementsByTag(top.localName).length === 1 ? selector : null;
    return this.isOnlyMatch(el, chain, selector) ? selector : null;
  }
}

// The selector of one element, as the views give it (contact details masked, as by
// default): for an action's result, or an element a person picked.
export function selectorFor(el) {
  const shadowRoots = [];
  if (document.documentElement) walkElements(document.documentElement, () => true, shadowRoots);
  return new SelectorBuilder(shadowRoots, { few: true, mask: maskContactDetails }).build(el);
}

function asciiLower(text) {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function pathKey(steps) {
  return steps.map((s) => s.text).join(' > ');
}

export function pushTo(map, key, value) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function ancestorAt(el, levels) {
  let cur = el;
  for (let i = 0; i < levels && cur; i++) cur = cur.parentElement;
  return cur;
}

function safeMatches(el, selector) {
  try {
    return el.matches(selector);
  } catch (e) {
    return false;
  }
}
