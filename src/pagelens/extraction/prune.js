// The live-page pre-pass of extraction: a copy of the document without what the reader
// does not see or does not read as content, for an extraction library to work on.
// Runs in pagelens' isolated world and never changes the page: it walks the live DOM
// (where computed styles, roles and resolved URLs are known) and builds a detached copy.
//
// Left out, each counted by reason:
//  - hidden: display:none (the hidden attribute's too), visibility:hidden, aria-hidden,
//    inert (a closed <details> and hidden=until-found keep theirs: the reader can open
//    them);
//  - landmark: navigation, banner, contentinfo, complementary and search landmarks, and
//    skip links ("Skip to main content", see isSkipLink);
//  - overlay: fixed-position layers, dialogs and consent banners (cookie notices).
// Whatever holds half of the page's text, or the page's <main> or <article>, stays: a
// page hidden until its script runs, or behind a modal, or wearing the wrong landmark.
// Scripts, styles, embedded documents and form controls go (JSON-LD stays: metadata);
// open shadow roots are flattened into the copy as rendered; links and images get
// absolute URLs.
import { absoluteUrl, linkUrl, pageUrl, readPageAs } from '../engine/js/dom.js';
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
  // Skip links are looked for until the copy has text a reader sees: at the start.
  let atStart = true;
  const skipped = new Set(); // the skip links left out
  const emptied = new Set(); // copies that held one: left out too when nothing else is in them

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
      if (atStart && isSkipLink(el) && !holdsThePage(el)) {
        counts.landmark += 1;
        skipped.add(el);
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
        copyText(into, child, from);
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (child.localName === 'slot' && from instanceof ShadowRoot) {
          const assigned = child.assignedNodes();
          if (assigned.length) {
            for (const node of assigned) {
              if (node.nodeType === Node.TEXT_NODE) copyText(into, node, child);
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
    else if (skipped.has(el)) emptied.add(into);
  };

  // Text a reader sees ends the start (a script's JSON, an icon's <title>, a visually
  // hidden heading such as "Accessibility links" do not).
  const copyText = (into, node, from) => {
    const holder = from instanceof ShadowRoot ? from.host : from;
    if (atStart && node.data.trim() && body && body.contains(holder) && holder.localName !== 'script' &&
        !holder.closest('svg') && !isVisuallyHidden(holder)) atStart = false;
    into.appendChild(inert.createTextNode(node.data));
  };

  const root = document.documentElement;
  const copy = root ? copyElement(root) : null;
  for (const wrapper of emptied) dropIfEmpty(wrapper);
  return {
    html: copy ? '<!DOCTYPE html>\n' + copy.outerHTML : '',
    url: pageUrl(),
    lang: (root && root.getAttribute('lang')) || '',
    title: document.title || '',
    dropped: counts,
    ms: Math.round(performance.now() - started),
  };
}

// ---- skip links
//
// "Skip to main content": a link at the very start of the body that moves the focus
// past the navigation, for keyboard and screen reader users; often shown only when
// focused. It is the page's navigation, not its content. One is known by its place (no
// text a reader sees before it in the copy), its in-page target (a #fragment; or no
// href at all, a script's), and its words or, for a #fragment link, its being visually
// hidden or named a skip link, so one in a language the phrases miss is still one.
const SKIP_PHRASE = new RegExp('^(?:' + [
  '(?:skip|jump|go|move)(?: directly)? (?:to|over)\\b', 'skip (?:main )?(?:navigation|nav|menu|links|content)',
  '(?:direkt )?(?:zum|zur|zu den) ', '(?:inhalt|navigation|menü) überspringen', // de
  '(?:aller|passer|accéder|sauter)(?: directement)? (?:au|à la|aux) ', // fr
  '(?:saltar|ir|pasar) (?:al|a la) ', // es
  '(?:salta|vai|passa) (?:al|alla|ai) ', // it
  '(?:pular|ir|saltar|avançar) para ', // pt
  '(?:ga |direct |spring )?naar (?:de |het )?(?:hoofd)?(?:inhoud|navigatie|menu|content)', // nl
  'przejdź do ', 'hoppa (?:till|över) ', '(?:spring|gå|hopp) til ', // pl, sv, da and no
  '(?:перейти|пропустить|к) ', // ru
  '本文へ', 'メインコンテンツへ', 'コンテンツへ', '跳(?:到|至|过|過|轉|转)', '略过', '본문', // ja, zh, ko
].join('|') + ')', 'i');
const SKIP_PHRASE_MAX = 60; // characters: a skip link says where it goes, and no more
// A class or id token naming one: skip-link, skip-nav, skiplink, js-skip-to-content.
const SKIP_NAME = /(^|[-_])skip[-_]?(link|nav|to|main|content)/i;
// The "screen reader only" classes of the common frameworks: shown to nobody until
// focused, even when the page's style sheet is not there (a saved copy read offline).
const SCREEN_READER_ONLY = new Set(['sr-only', 'visually-hidden', 'visuallyhidden', 'screen-reader-text',
  'element-invisible', 'show-on-focus']);

function isSkipLink(el) {
  if (el.localName !== 'a') return false;
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
  if (!text) return false;
  const phrase = text.length <= SKIP_PHRASE_MAX && SKIP_PHRASE.test(text);
  if (!el.hasAttribute('href')) return phrase;
  return isInPageLink(el) && (phrase || isNamedSkipLink(el) || isVisuallyHidden(el));
}

function isNamedSkipLink(el) {
  return SKIP_NAME.test(el.id || '') || [...el.classList].some((token) => SKIP_NAME.test(token));
}

function isInPageLink(link) {
  const raw = link.getAttribute('href') || '';
  if (raw.startsWith('#')) return raw.length > 1;
  const url = linkUrl(link);
  const at = url.indexOf('#');
  return at > 0 && at < url.length - 1 && url.slice(0, at) === pageUrl().split('#')[0];
}

// Out of sight though rendered: the usual "visually hidden" styles (moved off the page,
// clipped, shrunk to a pixel, transparent, a screen-reader-only class), on the element
// or a wrapper of it.
function isVisuallyHidden(el) {
  const wrappers = [];
  for (let at = el; at && at !== document.body; at = at.parentElement) wrappers.push(at);
  if (wrappers.some((at) => [...at.classList].some((token) => SCREEN_READER_ONLY.has(token)))) return true;
  // Not rendered at all (a page hidden until its script runs, kept as the page's text):
  // no layout to tell by.
  if (!el.checkVisibility()) return false;
  // Its box and its children's (an inline link's box can be empty beside its blocks').
  const boxes = [el, ...[...el.children].slice(0, 20)].map((at) => at.getBoundingClientRect());
  const seen = (box) => box.width > 1 && box.height > 1 && box.right + scrollX > 0 && box.bottom + scrollY > 0;
  if (!boxes.some(seen)) return true;
  for (const at of wrappers) {
    const style = getComputedStyle(at);
    const positioned = style.position === 'absolute' || style.position === 'fixed';
    if ((positioned && (style.clip !== 'auto' || style.clipPath !== 'none')) || style.opacity === '0') return true;
  }
  return false;
}

// Leave out `copy`, which held a skip link, and the wrappers above it, while they hold
// nothing else (a list of skip links, its items).
function dropIfEmpty(copy) {
  const MEDIA = 'img, picture, video, audio, svg, table, hr';
  for (let at = copy; at && at.parentElement && at.localName !== 'body'; ) {
    if ((at.textContent || '').trim() || at.querySelector(MEDIA)) return;
    const parent = at.parentElement;
    at.remove();
    at = parent;
  }
}
