// Unique CSS selectors that find their element again in a fresh load of the page, where
// no pagelens stamp exists. By preference: #id (unless generated-looking) > test ids >
// tag[name] > tag[aria-label] > a CSS path, as short as it can be: it grows one level at
// a time (tags, meaningful classes, :nth-of-type where siblings share a type), anchored
// at the nearest ancestor with a usable id, up to the root of its tree. Every selector is
// checked to match exactly its own element across the document and open shadow roots,
// each queried on its own (as our own actions resolve CSS). null when none qualifies: an
// element whose path up to the top of its shadow tree matches in another root too (three
// identical components) has no CSS selector, since CSS cannot enter a shadow tree from
// its host. docs/ids.md, "Selectors".
//
// Uniqueness is checked without querying the page once per candidate: attribute
// selectors by counts from one indexed pass, CSS paths by matching their simple steps
// (tag, classes, :nth-of-type, joined by `>`) structurally against cached candidate sets.
// A querySelectorAll per control and level made large pages quadratic.

import { HTML_NS } from './accname.js';

const TEST_ID_ATTRS = ['data-testid', 'data-test', 'data-qa', 'data-cy'];
const INDEXED_ATTRS = ['id', 'name', 'aria-label', ...TEST_ID_ATTRS];

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
  constructor(shadowRoots, { few = false } = {}) {
    this.few = few;
    this.roots = [document, ...shadowRoots];
    this.quirks = document.compatMode === 'BackCompat';
    this.counts = null;
    this.byTag = new Map(); // local name -> elements, every root
    this.matchSets = new Map(); // path selector -> the elements it matches
    this.groupSets = new Map(); // path selector -> its matches grouped by the ancestor above
    this.childIndexes = new Map(); // element -> its children by tag and position
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

  uniqueBy(key, selector, el) {
    try {
      if (this.few ? this.countMatches(selector) !== 1 : this.index().get(key) !== 1) return null;
      return el.matches(selector) ? selector : null;
    } catch (e) {
      return null;
    }
  }

  build(el) {
    const tag = el.localName;
    if (el.id && !looksGenerated(el.id)) {
      const found = this.uniqueBy('#' + this.idKey(el.id), '#' + CSS.escape(el.id), el);
      if (found) return found;
    }
    for (const attr of TEST_ID_ATTRS) {
      const v = el.getAttribute(attr);
      if (v === null) continue;
      const found = this.uniqueBy(`${attr}=${v}`, `[${attr}=${cssString(v)}]`, el);
      if (found) return found;
    }
    const name = el.getAttribute('name');
    if (name) {
      const found = this.uniqueBy(`${tag}[name]=${name}`, `${CSS.escape(tag)}[name=${cssString(name)}]`, el);
      if (found) return found;
    }
    const label = el.getAttribute('aria-label');
    if (label) {
      const found = this.uniqueBy(`${tag}[aria-label]=${label}`,
        `${CSS.escape(tag)}[aria-label=${cssString(label)}]`, el);
      if (found) return found;
    }
    return this.path(el);
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

  // How many children-chains below `anchor` match `steps` (the `#id > path` form). Each
  // level looks its step up in an index of the parent's children, not among all of them.
  countBelow(anchor, steps) {
    let level = [anchor];
    for (const step of steps) {
      const next = [];
      for (const el of level) {
        const index = this.childIndex(el);
        const candidates = (step.nth ? index.byPosition.get(`${step.tag}:${step.nth}`) : index.byTag.get(step.tag)) || [];
        for (const child of candidates) if (this.matchesStep(child, step)) next.push(child);
      }
      level = next;
    }
    return level.length;
  }

  // An element's children by local name, and by local name and position among their type.
  childIndex(parent) {
    let index = this.childIndexes.get(parent);
    if (!index) {
      index = { byTag: new Map(), byPosition: new Map() };
      for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
        pushTo(index.byTag, child.localName, child);
        pushTo(index.byPosition, `${child.localName}:${this.position(child).index}`, child);
      }
      this.childIndexes.set(parent, index);
    }
    return index;
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

  // The shortest path that is unique, one level longer each round. At the root of its
  // tree a path with :nth-of-type wherever siblings share a type names one element of
  // that tree; it fails only when the same path exists in another root. A path of
  // several levels then drops the classes below its top step when it stays unique
  // without them: the top step's classes are what set it apart, the rest mostly length.
  path(el) {
    const chain = []; // el and its ancestors, top first
    for (let cur = el; cur; cur = cur.parentElement) {
      chain.unshift(cur);
      const found = this.uniquePath(el, chain.map((e) => this.step(e)), cur.parentElement);
      if (!found) continue;
      if (chain.length === 1) return found;
      const lean = [this.step(chain[0]), ...chain.slice(1).map((e) => this.bareStep(e))];
      return (lean.some((s, i) => s !== this.step(chain[i])) && this.uniquePath(el, lean, cur.parentElement)) || found;
    }
    return null;
  }

  // `steps` as a selector when it matches `el` alone: anchored at `parent` when that has
  // a usable id (uniqueness is then checked in its subtree only), else on its own.
  uniquePath(el, steps, parent) {
    const selector = pathKey(steps);
    if (parent && parent.id && !looksGenerated(parent.id) && this.idIsUnique(parent.id)) {
      const anchored = `#${CSS.escape(parent.id)} > ${selector}`;
      if (this.countBelow(parent, steps) === 1 && safeMatches(el, anchored)) return anchored;
    }
    return this.isOnlyMatch(el, steps, selector) ? selector : null;
  }
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
