// Unique CSS selectors, by preference: #id (unless generated-looking) > test ids >
// tag[name] > tag[aria-label] > a short CSS path (at most 4 levels). Every selector is
// checked to match exactly its own element, across the document and open shadow roots
// (the scope Playwright's CSS engine pierces); null when none qualifies.

const TEST_ID_ATTRS = ['data-testid', 'data-test', 'data-qa', 'data-cy'];
const MAX_PATH_LEVELS = 4;

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

class SelectorBuilder {
  constructor(shadowRoots) {
    this.roots = [document, ...shadowRoots];
    this.quirks = document.compatMode === 'BackCompat';
    this.counts = null;
  }

  // One pass over the page counts every id and indexed attribute value, so the usual
  // candidates are checked by lookup rather than by querying a large DOM again.
  index() {
    if (this.counts) return this.counts;
    const counts = new Map();
    const bump = (key) => counts.set(key, (counts.get(key) || 0) + 1);
    for (const root of this.roots) {
      const base = root === document ? document.documentElement : root;
      const scan = (el) => {
        if (el.id) bump('#' + (this.quirks ? el.id.toLowerCase() : el.id));
        for (const attr of TEST_ID_ATTRS) {
          const v = el.getAttribute(attr);
          if (v !== null) bump(`${attr}=${v}`);
        }
        const name = el.getAttribute('name');
        if (name !== null) bump(`${el.localName}[name]=${name}`);
        const label = el.getAttribute('aria-label');
        if (label !== null) bump(`${el.localName}[aria-label]=${label}`);
      };
      if (root === document) {
        for (const el of document.getElementsByTagName('*')) scan(el);
      } else {
        for (const el of base.querySelectorAll('*')) scan(el);
      }
    }
    this.counts = counts;
    return counts;
  }

  count(selector) {
    let n = 0;
    for (const root of this.roots) n += root.querySelectorAll(selector).length;
    return n;
  }

  uniqueBy(key, selector, el) {
    if (this.index().get(key) !== 1) return null;
    try {
      return el.matches(selector) ? selector : null;
    } catch (e) {
      return null;
    }
  }

  build(el) {
    const tag = el.localName;
    if (el.id && !looksGenerated(el.id)) {
      const key = '#' + (this.quirks ? el.id.toLowerCase() : el.id);
      const found = this.uniqueBy(key, '#' + CSS.escape(el.id), el);
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

  step(el) {
    let part = CSS.escape(el.localName);
    const classes = Array.from(el.classList).filter((c) => !looksGenerated(c)).slice(0, 2);
    for (const c of classes) part += '.' + CSS.escape(c);
    const parent = el.parentElement;
    if (parent) {
      let index = 0, same = 0;
      for (let sib = parent.firstElementChild; sib; sib = sib.nextElementSibling) {
        if (sib.localName !== el.localName) continue;
        same++;
        if (sib === el) index = same;
      }
      if (same > 1) part += `:nth-of-type(${index})`;
    }
    return part;
  }

  path(el) {
    const parts = [];
    let cur = el;
    for (let level = 0; level < MAX_PATH_LEVELS && cur; level++) {
      parts.unshift(this.step(cur));
      const selector = parts.join(' > ');
      const parent = cur.parentElement;
      // Anchored at a parent with a usable id, uniqueness is checked in that subtree only.
      if (parent && parent.id && !looksGenerated(parent.id) &&
          this.index().get('#' + (this.quirks ? parent.id.toLowerCase() : parent.id)) === 1) {
        const anchored = `#${CSS.escape(parent.id)} > ${selector}`;
        if (parent.querySelectorAll(`:scope > ${selector}`).length === 1 && el.matches(anchored)) {
          return anchored;
        }
      }
      if (el.matches(selector) && this.count(selector) === 1) return selector;
      cur = parent;
    }
    return null;
  }
}
