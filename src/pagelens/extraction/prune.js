// The live-page pre-pass of extraction: a copy of the document without what the reader
// does not see or does not read as content, for an extraction library to work on.
// Runs in pagelens' isolated world and never changes the page: it walks the live DOM
// (where computed styles, roles and resolved URLs are known) and builds a detached copy.
//
// Left out, each counted by reason:
//  - hidden: display:none (the hidden attribute's too), visibility:hidden, aria-hidden,
//    inert (a closed <details> and hidden=until-found keep theirs: the reader can open
//    them);
//  - landmark: navigation, banner, contentinfo, complementary and search landmarks;
//  - overlay: fixed-position layers, dialogs and consent banners (cookie notices).
// Whatever holds half of the page's text, or the page's <main> or <article>, stays: a
// page hidden until its script runs, or behind a modal, or wearing the wrong landmark.
// Scripts, styles, embedded documents and form controls go (JSON-LD stays: metadata);
// open shadow roots are flattened into the copy as rendered; links and images get
// absolute URLs.
import { absoluteUrl, pageUrl, readPageAs } from '../engine/js/dom.js';
import { getRole } from '../engine/js/role.js';

// The pre-pass's entry object (see engine/js/index.js for the engine's).
export const prepass = { prune };

// options.baseUrl: read the page as if loaded from there (links resolve against it, and
// it is the reported url), as the engine's captures do; for this call only.
function prune(options) {
  readPageAs(options.baseUrl);
  try {
    return pruneDocument(options);
  } finally {
    readPageAs(null);
  }
}

function pruneDocument(options) {
  const started = performance.now();
  const budgetMs = options.timeoutMs || 10000;
  // Not content: code, embedded documents, and form controls (a control's caption is an
  // action, and what a field holds is the user's, never the page's).
  const DROPPED_TAGS = new Set(['script', 'style', 'template', 'noscript', 'link', 'iframe', 'frame',
    'frameset', 'object', 'embed', 'canvas', 'button', 'select', 'textarea', 'input']);
  const LANDMARKS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
  const OVERLAY_ROLES = new Set(['dialog', 'alertdialog']);
  // A consent banner by its id or class: a token that names cookies or consent.
  const CONSENT_NAME = /(^|[-_])(cookies?|consent|gdpr|cmp)([-_]|$)/i;
  const URL_ATTRIBUTES = { a: ['href'], img: ['src'], area: ['href'], source: ['src'], video: ['src', 'poster'],
    audio: ['src'] };
  const counts = { hidden: 0, landmark: 0, overlay: 0 };
  // The copy lives in a document without a browsing context: its images do not load and
  // the page's custom elements are not constructed.
  const inert = document.implementation.createHTMLDocument('');
  const body = document.body;
  // Characters of text, not counting scripts and styles (a page can carry more script
  // than prose).
  const textSize = (el) => {
    let size = (el.textContent || '').length;
    for (const code of el.querySelectorAll('script, style, template')) size -= (code.textContent || '').length;
    return size;
  };
  const pageText = body ? textSize(body) : 0;

  const holdsThePage = (el) =>
    textSize(el) > 0.5 * pageText || !!el.querySelector('main, article, [role="main"], [role="article"]');

  const isConsentBanner = (el) => {
    if (CONSENT_NAME.test(el.id || '')) return true;
    for (const token of el.classList) if (CONSENT_NAME.test(token)) return true;
    return false;
  };

  // Why `el` is left out, or null.
  const dropReason = (el, style) => {
    const reason = ownDropReason(el, style);
    return reason && !holdsThePage(el) ? reason : null;
  };

  const ownDropReason = (el, style) => {
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert') || style.display === 'none') {
      return 'hidden';
    }
    // Visibility is inherited and can be turned back on below: it is judged where it is
    // set (so a kept ancestor's hidden children stay too), and only a subtree with
    // nothing visible in it goes.
    if (style.visibility !== 'visible' && parentVisible(el) && !hasVisibleDescendant(el)) return 'hidden';
    const role = getRole(el);
    if (role && LANDMARKS.has(role)) return 'landmark';
    if (OVERLAY_ROLES.has(role) || el.getAttribute('aria-modal') === 'true' || style.position === 'fixed' ||
        isConsentBanner(el)) return 'overlay';
    return null;
  };

  const parentVisible = (el) => !el.parentElement || getComputedStyle(el.parentElement).visibility === 'visible';

  const hasVisibleDescendant = (el) => {
    for (const child of el.querySelectorAll('*')) {
      if (getComputedStyle(child).visibility === 'visible') return true;
    }
    return false;
  };

  const copyElement = (el) => {
    const name = el.localName;
    if (DROPPED_TAGS.has(name) && !(name === 'script' && el.type === 'application/ld+json')) return null;
    if (performance.now() - started > budgetMs) throw new Error('extraction pre-pass ran out of time');
    const inBody = body && body.contains(el) && el !== body;
    if (inBody && name !== 'script') {
      const reason = dropReason(el, getComputedStyle(el));
      if (reason) {
        counts[reason] += 1;
        return null;
      }
    }
    const copy = inert.importNode(el, false);
    for (const attribute of URL_ATTRIBUTES[name] || []) {
      const raw = el.getAttribute(attribute);
      if (raw) copy.setAttribute(attribute, absoluteUrl(raw));
    }
    if (name === 'img' && !el.getAttribute('src') && el.currentSrc) copy.setAttribute('src', el.currentSrc);
    copyChildren(el.shadowRoot || el, copy);
    return copy;
  };

  const copyChildren = (from, into) => {
    for (let child = from.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) {
        into.appendChild(inert.createTextNode(child.data));
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (child.localName === 'slot' && from instanceof ShadowRoot) {
          const assigned = child.assignedNodes();
          if (assigned.length) {
            for (const node of assigned) {
              if (node.nodeType === Node.TEXT_NODE) into.appendChild(inert.createTextNode(node.data));
              else if (node.nodeType === Node.ELEMENT_NODE) appendCopy(into, node);
            }
            continue;
          }
        }
        appendCopy(into, child);
      }
    }
  };

  const appendCopy = (into, el) => {
    const copy = copyElement(el);
    if (copy) into.appendChild(copy);
  };

  const root = document.documentElement;
  const copy = root ? copyElement(root) : null;
  return {
    html: copy ? '<!DOCTYPE html>\n' + copy.outerHTML : '',
    url: pageUrl(),
    lang: (root && root.getAttribute('lang')) || '',
    title: document.title || '',
    dropped: counts,
    ms: Math.round(performance.now() - started),
  };
}
