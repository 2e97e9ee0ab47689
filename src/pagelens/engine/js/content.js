// Main content: the page's visible text measured block by block (how much of it is
// links, navigation chrome or running prose), the node that holds the reading text,
// and that text in reading order.

import { SKIP_TAGS } from './collect.js';
import { detailsSummary, nextOutside } from './dom.js';
import { isEditingHost } from './role.js';
import { isRendered, isShownIgnoringOpacity } from './visibility.js';
import { normalizeSpace } from './core.js';

// Left out of readable text. Not <form>: ASP.NET and similar pages wrap the whole body
// in one, and a sign-in form's labels are the content of a sign-in page.
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript',
  'template', 'svg', 'button', 'select', 'dialog']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search',
  'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);
// Page furniture named by id or class, for the many pages that predate <nav>/<header>:
// an id or class token that is a chrome name ("sidebar", "nav") or starts with one as a
// component prefix ("footer-bottom", "nav_main"). Tokens that merely contain the name
// ("l-sidebar-fixed", "content-with-sidebar", "article-header") are layout wrappers
// around the content itself.
const CHROME_NAMES = 'nav|navbar|navigation|menu|mainmenu|sidebar|footer|header|masthead|breadcrumbs?|topbar|toolbar|cookies?|cookie-banner|cookie-notice';
const CHROME_NAME_RE = new RegExp(`^(${CHROME_NAMES})([-_].*)?$`, 'i');
// The same test on a whole class attribute at once (one regex run per element, not one
// per class token: this is asked for every ancestor of the page's text).
const CHROME_CLASS_RE = new RegExp(`(^|\\s)(${CHROME_NAMES})([-_]\\S*)?(\\s|$)`, 'i');

// Field contents are values, not page text.
const VALUE_TAGS = new Set(['textarea', 'option', 'select']);

const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em',
  'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u',
  'var', 'font', 'label', 'img', 'wbr', 'del', 'ins', 'tt', 'big', 'nobr']);

export function isInlineTag(tag) {
  return INLINE_TAGS.has(tag);
}

// Words, counting each Han/kana character as one (those scripts do not separate words
// with spaces, so a Chinese paragraph would otherwise count as a single word).
const WORD_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu;

// ASCII text (most of a page's) is counted by character code, the same words: a letter
// or digit starts one, and letters, digits, ' and - continue it. Neither Unicode classes
// nor an array of matches is needed there.
export function countWords(text) {
  let words = 0, inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) {
      const matches = text.match(WORD_RE);
      return matches ? matches.length : 0;
    }
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum && !inWord) words++;
    inWord = alnum || (inWord && (c === 39 || c === 45));
  }
  return words;
}

function ownChromeHint(el) {
  if (CHROME_TAGS.has(el.localName) && el.localName !== 'button' && el.localName !== 'select') return true;
  const role = el.getAttribute('role');
  if (role && CHROME_ROLES.has(role) && role !== 'search') return true;
  return namedChrome(el) && !holdsMostOfPage(el);
}

function namedChrome(el) {
  // getAttribute: on a <form>, a field named "id" shadows the id property.
  const id = el.getAttribute('id');
  if (id && CHROME_NAME_RE.test(id)) return true;
  const classes = el.getAttribute('class');
  return !!classes && CHROME_CLASS_RE.test(classes);
}

// Names are only hints: a wrapper holding most of the page's text is layout, whatever
// its class says ("header-style-2", "sidebar-layout").
let pageChars = { body: null, chars: 0 };

function holdsMostOfPage(el) {
  const body = document.body;
  if (pageChars.body !== body) pageChars = { body, chars: body ? textLength(body) : 0 };
  return textLength(el) > 0.4 * pageChars.chars;
}

const NON_SPACE_RE = /\S/;

function isReadText(el) {
  return !SKIP_TAGS.has(el.localName) && !VALUE_TAGS.has(el.localName);
}

// Statistics of the page's visible text, in one pass over its text nodes. A "block" is
// the nearest non-inline ancestor of a text run (a paragraph, a list item, a cell).
// Prose blocks are blocks of running text (>= 20 words, few of them links) outside page
// chrome; they are also credited to their parent and grandparent, so the container
// holding an article's paragraphs collects the most prose (`topCluster`), as in
// Readability.
export class TextStats {
  constructor(root, deadline = null) {
    pageChars = { body: null, chars: 0 }; // the page may have changed since the last capture
    this.words = 0;
    this.linkWords = 0;
    this.proseWords = 0;
    this.topCluster = 0;
    this.topClusterNode = null;
    this.blocks = new Map();
    this.text = [];
    this.textLength = 0;
    this._parents = new Map();
    this._chrome = new Map();
    if (root) {
      this.collect(root, deadline);
      this.measureProse();
    }
  }

  chromeOf(el) {
    if (!el || el === document.body || el === document.documentElement) return false;
    let flag = this._chrome.get(el);
    if (flag === undefined) {
      flag = ownChromeHint(el) || this.chromeOf(el.parentElement);
      this._chrome.set(el, flag);
    }
    return flag;
  }

  parentInfo(el) {
    let info = this._parents.get(el);
    if (info === undefined) {
      const visible = isShownIgnoringOpacity(el);
      let block = el;
      while (block.parentElement && isInlineTag(block.localName)) block = block.parentElement;
      info = visible ? { link: !!el.closest('a[href]'), block } : null;
      this._parents.set(el, info);
    }
    return info;
  }

  // Text nodes in document order, as a TreeWalker gives them, but passing over what is
  // never read: skipped tags and the content of a closed <details> (its <summary> is
  // read). Asking whether that content shows makes the browser lay it out, which on a
  // page of many made every later geometry read slow. A huge page past the capture's
  // deadline is measured on the text read so far.
  collect(root, deadline) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let read = 0;
    let node = walker.nextNode();
    while (node) {
      if (deadline && deadline.passed(++read)) break;
      if (node.nodeType === 3) {
        this.addText(node);
      } else if (!isReadText(node)) {
        node = nextOutside(walker, root);
        continue;
      } else if (/** @type {Element} */ (node).localName === 'details' && !(/** @type {HTMLDetailsElement} */ (node)).open) {
        const summary = detailsSummary(node);
        if (summary) this.collect(summary, deadline);
        node = nextOutside(walker, root);
        continue;
      }
      node = walker.nextNode();
    }
  }

  addText(node) {
    const data = node.data;
    if (!NON_SPACE_RE.test(data)) return; // the whitespace between tags: most text nodes
    const info = this.parentInfo(node.parentElement);
    if (!info) return;
    const words = countWords(data);
    if (!words) return;
    let block = this.blocks.get(info.block);
    if (!block) {
      block = { words: 0, linkWords: 0 };
      this.blocks.set(info.block, block);
    }
    block.words += words;
    if (info.link) block.linkWords += words;
    this.words += words;
    if (info.link) this.linkWords += words;
    if (this.textLength < 20000) {
      this.text.push(data);
      this.textLength += data.length;
    }
  }

  measureProse() {
    const clusters = new Map();
    const credit = (el, words) => { if (el) clusters.set(el, (clusters.get(el) || 0) + words); };
    for (const [el, block] of this.blocks) {
      if (block.words < 20 || block.linkWords > 0.3 * block.words || this.chromeOf(el)) continue;
      this.proseWords += block.words;
      credit(el, block.words);
      credit(el.parentElement, block.words);
      if (el.parentElement) credit(el.parentElement.parentElement, block.words / 2);
    }
    for (const [el, words] of clusters) {
      if (words > this.topCluster) { this.topCluster = words; this.topClusterNode = el; }
    }
  }

  get linkDensity() {
    return this.words ? this.linkWords / this.words : 0;
  }

  get sample() {
    return normalizeSpace(this.text.join(' ')).slice(0, 20000);
  }
}

export function textLength(el) {
  return (el.textContent || '').length;
}

// The element holding the reading text: <main> or the largest <article> when they hold
// the bulk of the prose, else the container that collected the most prose, else <main>
// or <body>.
export function findMainNode(stats) {
  const body = document.body;
  if (!body) return document.documentElement;
  stats = stats || new TextStats(body);
  const cluster = stats.topClusterNode;
  const main = Array.from(document.querySelectorAll('main, [role="main"]')).find((m) => isRendered(m));
  const holdsCluster = (el) => !cluster || el.contains(cluster);
  if (main && textLength(main) > 200 && holdsCluster(main)) return narrowToArticle(main, cluster);
  const article = narrowToArticle(body, cluster);
  if (article !== body) return article;
  if (cluster && stats.topCluster >= 60) return cluster;
  return main || body;
}

// Within `scope`, the rendered <article> that holds the prose cluster (a page of teasers
// has many articles; the one with the cluster is the story).
function narrowToArticle(scope, cluster) {
  if (!cluster) return scope;
  for (let cur = cluster; cur && cur !== scope; cur = cur.parentElement) {
    if ((cur.localName === 'article' || cur.getAttribute('role') === 'article') && textLength(cur) > 500) {
      return cur;
    }
  }
  return scope;
}

// Left out of readable text: page chrome, plus buttons and pickers (their captions are
// controls, not content).
function isChrome(el) {
  return el.localName === 'button' || el.localName === 'select' || ownChromeHint(el) ||
    el.getAttribute('role') === 'search';
}

// Visible text of `root`, in reading order, leaving out navigation and page chrome,
// from `start` (a node inside root; root itself when omitted) up to maxChars characters
// (Infinity for all of it). Blocks and line breaks separate words; so do adjacent links,
// which render apart even when the markup puts nothing between them ("Sign up" "Sign
// in"): a link boundary between two letters becomes a space, one beside punctuation or a
// space disappears. Field contents (textarea, option) are values, not page text.
const LINK_EDGE = '\u0001';
// Figures (images and their captions) interrupt the running text of a preview.
const FIGURE_TAGS = new Set(['figure', 'figcaption', 'picture']);

export function readableText(root, maxChars, skipChrome = true, start = null) {
  if (!root) return ''; // a document with no element at all
  const parts = [];
  let length = 0;
  let started = !start || start === root;
  const visibleCache = new Map();
  const shown = (el) => {
    let flag = visibleCache.get(el);
    if (flag === undefined) {
      flag = isShownIgnoringOpacity(el);
      visibleCache.set(el, flag);
    }
    return flag;
  };
  const pushText = (text, el) => {
    if (!started) return;
    // Spacing between elements (`<b>Was</b> <s>$120</s>`) separates their words.
    if (!text.trim()) {
      parts.push(' ');
      return;
    }
    if (!el || !shown(el)) return;
    parts.push(text);
    length += text.length;
  };
  const visit = (node, el) => {
    for (let child = node.firstChild; child && length < maxChars; child = child.nextSibling) {
      if (child.nodeType === 3) pushText(child.data, el);
      else if (child.nodeType === 1) visitElement(child);
    }
  };
  const visitElement = (child) => {
    if (SKIP_TAGS.has(child.localName) || VALUE_TAGS.has(child.localName)) {
      parts.push(' ');
      return;
    }
    if (!started) {
      // Before `start`, only its ancestors are entered (chrome or not).
      if (child === start) started = true;
      else if (!child.contains(start)) return;
    } else if ((skipChrome && (isChrome(child) || FIGURE_TAGS.has(child.localName))) || isEditingHost(child)) {
      // What an editable region holds is the user's input, not page text.
      parts.push(' ');
      return;
    }
    const edge = isInlineTag(child.localName) && child.localName !== 'br'
      ? (child.localName === 'a' ? LINK_EDGE : '') : ' ';
    parts.push(edge);
    if (child.localName === 'slot' && child.assignedNodes().length) {
      for (const assigned of child.assignedNodes()) {
        if (assigned.nodeType === 1) visitElement(assigned);
        else if (assigned.nodeType === 3) pushText(assigned.data, assigned.parentElement);
      }
    } else {
      visit(child.shadowRoot || child, child);
    }
    parts.push(edge);
  };
  visit(root.shadowRoot || root, root.nodeType === 1 ? root : document.body);
  const joined = parts.join('').replace(/([\p{L}\p{N}])\u0001+(?=[\p{L}\p{N}])/gu, '$1 ');
  return normalizeSpace(joined.replace(/\u0001/g, ''));
}

function isCaption(el) {
  return !!el.closest('figure, figcaption, [class*="caption" i], [class*="credit" i]');
}

// Where a preview of the main content starts: the first block of running text near the
// prose cluster (inside the cluster's parent, so a lead paragraph set apart from the
// body still counts), past headlines, bylines, breadcrumbs and share bars. Null when
// the page has no real prose cluster.
export function previewStart(stats) {
  const cluster = stats.topClusterNode;
  if (!cluster || stats.topCluster < 60) return null;
  const scope = cluster.parentElement || cluster;
  for (const [el, block] of stats.blocks) {
    if (block.words < 20 || block.linkWords > 0.3 * block.words || !scope.contains(el) || stats.chromeOf(el) ||
        isCaption(el)) continue;
    return el;
  }
  return cluster;
}
