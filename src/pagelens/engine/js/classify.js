import { countWords } from './content.js';
import { isRepeatedBlock } from './items.js';
import { isEditingHost } from './role.js';
import { isRendered } from './visibility.js';
import { normalizeSpace } from './core.js';
import { isPasswordField } from './sensitive.js';

/*
 * Page type classification, from signals a saved page shows even without its CSS and
 * scripts (text, links, forms, metadata; never layout). Rules, first match wins:
 *
 *  error_page      the title or first heading names an HTTP error, an outage, maintenance
 *                  or a bot check ("404", "Not Found", "Just a moment") and the page says
 *                  little (< 300 words) and asks for no password.
 *  article         a strong prose cluster: >= 250 words of running text gathered under one
 *                  container (see TextStats). Checked this early because articles carry
 *                  sign-in boxes, comment forms and search fields in their chrome.
 *  login           a form with exactly one password field (by type, or by its label: some
 *                  templates type it "email") and at most two other text fields, not in
 *                  page chrome (a sign-in box in a sidebar, header or dialog sits beside the
 *                  content), on a page of modest size (< 800 words: forums and shops put a
 *                  sign-in box in the header of big pages) whose largest form is not a big
 *                  one (< 10 fields).
 *  search_results  a search field holds a query (not a placeholder) and the title repeats it
 *                  or the page states a result count or "no results".
 *  form            a registration form (two password fields, or one beside three or more
 *                  text fields) on a page of < 1000 words, or a password-recovery heading.
 *  dashboard       two or more charts (canvases or elements named "chart"/"graph"/"plot")
 *                  and little prose (cluster < 150 words); or a title segment or the main
 *                  heading names a dashboard screen ("Dashboard", "Overview", "Analytics")
 *                  on a page of >= 20 controls and little prose.
 *  app             a title segment or the main heading names an application screen (inbox,
 *                  calendar, chat, kanban board, file manager, editor, ...) on a page of
 *                  >= 20 controls and little prose (cluster < 100 words).
 *  app             a screen for work, not reading: < 300 words, cluster < 50, no password
 *                  field, and state the page keeps (>= 2 list items or rows outside any form
 *                  with a checkbox, a switch or a drag handle; an editor or a toolbar) or a
 *                  text field only its script reads (no form or button submits it).
 *  form            a form of three or more fields dominating a small page (< 600 words,
 *                  cluster < 150).
 *  error_page      the main document came with an HTTP status >= 400 (given by the caller)
 *                  and the page does not read as an article (the two article rules below):
 *                  what the rules below say is weaker than the status.
 *  form            a near-empty page (< 60 words) with a form field.
 *  article         the page declares itself an article (og:type, or schema.org Article,
 *                  NewsArticle, BlogPosting, ...) and has some prose (a 30-word cluster or
 *                  150 prose words) or no rendered text at all (built by script).
 *  generic         a product page (og:type or schema.org Product, or one or two add-to-cart
 *                  controls): product pages carry long lists of related items.
 *  link_list       a listing: >= 25 items (rows, list items, cards) that each hold a link and
 *                  some text, or >= 10 such items on one page of a paginated series
 *                  (rel=next), or >= 100 links that are most (>= 60 %) of the page's words.
 *  article         a weaker but concentrated prose cluster: >= 100 words and >= 35 % of all
 *                  the page's prose.
 *  generic         everything else.
 */

const ERROR_RE = /\b(404|403|410|500|502|503|504|not found|page not found|error|forbidden|unavailable|maintenance|just a moment|attention required|access denied|doesn.t exist|does not exist|went wrong|bad request|unprocessable|not acceptable|right back)\b/i;
const SEARCH_HINT_RE = /search|query|^q$|^p$|^wd$|^kw$|^k$|^s$|^text$|keyword|such|recherch|busca|cerca|поиск|搜索|検索/i;
const PLACEHOLDER_VALUE_RE = /^(search|suche|suchen|recherche|buscar|cerca|keywords?|enter .*|type .*|find .*|what are you looking for.*)\W*$/i;
// Result-count and no-result phrases of result pages. Letter lookarounds stand in for \b,
// which knows only ASCII letters.
const RESULTS_RE = /(?<!\p{L})((about|ungefähr|environ|circa) )?\d[\d.,]* (results?|ergebnisse|résultats|resultados|risultati|treffer|hits|matches|результат\p{L}*)(?!\p{L})|(?<!\p{L})(results? (for|of)|search results|no results|did not match any|nothing found|ничего не нашлось|keine ergebnisse|ergebnisse für|résultats pour|resultados para|showing \d)|找到约|相关结果|件の検索結果/iu;
// A screen named by a whole title segment or the main heading, with at most one more
// word and an unread count ("Inbox (3) - Mail", "Site | Kanban Board", "Mailbox -
// Compose", "Admin | Dashboard v2"); "Board of Directors", a shop called
// "Calendars.com" or a template called "Light Bootstrap Dashboard" is not one.
function screenNameRe(names) {
  return new RegExp(`(^|[|\\-–—:·] *)(${names})( +[\\w-]+)?( *\\(\\d+\\))? *($|[|\\-–—:·])`, 'i');
}
const APP_RE = screenNameRe('inbox|mailbox|compose|calendar|chat|messages|messenger|kanban|board|file manager|' +
  'files|my drive|drive|editor|workspace|to-?do|tasks|conversations?');
const DASHBOARD_RE = screenNameRe('dashboard|overview|analytics');

function metaContent(selector) {
  const el = document.querySelector(selector);
  return el ? (el.getAttribute('content') || '').trim().toLowerCase() : '';
}

// schema.org types a page declares about itself (JSON-LD and microdata).
function declaredTypes() {
  const types = [];
  const add = (value) => {
    if (typeof value === 'string') types.push(value.toLowerCase());
    else if (Array.isArray(value)) value.forEach(add);
  };
  const visit = (node, depth) => {
    if (!node || typeof node !== 'object' || depth > 3) return;
    if (Array.isArray(node)) { node.forEach((n) => visit(n, depth + 1)); return; }
    add(node['@type']);
    if (node['@graph']) visit(node['@graph'], depth + 1);
    if (node.mainEntity) visit(node.mainEntity, depth + 1);
  };
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    try { visit(JSON.parse(script.textContent), 0); } catch (e) { /* malformed JSON-LD */ }
  }
  for (const el of document.querySelectorAll('[itemscope][itemtype]')) {
    add((el.getAttribute('itemtype') || '').split('/').pop());
  }
  return types;
}

function isSearchField(control) {
  const el = control.el;
  if (control.role === 'searchbox' || (el.getAttribute('type') || '').toLowerCase() === 'search') return true;
  if (el.closest('[role="search"], search')) return true;
  const name = el.getAttribute('name') || '';
  if (SEARCH_HINT_RE.test(name) || SEARCH_HINT_RE.test(el.getAttribute('id') || '')) return true;
  const hint = `${el.getAttribute('placeholder') || ''} ${el.getAttribute('aria-label') || ''} ${control.name}`;
  if (/search|suche|recherch|buscar|поиск|搜索|検索/i.test(hint)) return true;
  const form = el.form;
  return !!form && /search|suche|find/i.test(`${form.getAttribute('action') || ''} ${form.getAttribute('id') || ''} ${form.getAttribute('class') || ''}`);
}

const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'date']);

// Visible form fields grouped by their form (fields outside any form share one group).
// A group is chrome when all its fields are in page chrome (a sidebar, the header, a
// dialog): a sign-in box beside the content rather than the content.
function formGroups(scan, stats) {
  const groups = new Map();
  for (const control of scan.controls) {
    const el = control.el;
    const tag = el.localName;
    const type = (el.getAttribute('type') || '').toLowerCase();
    const isField = tag === 'select' || tag === 'textarea' ||
      (tag === 'input' && !['submit', 'button', 'reset', 'image', 'hidden'].includes(type)) ||
      (control.role === 'textbox' && el.isContentEditable);
    if (!isField || !control.visible) continue;
    const form = el.form || el.closest('form');
    let group = groups.get(form);
    if (!group) {
      group = { passwords: 0, text: 0, search: 0, other: 0, filledQuery: '', chrome: true };
      groups.set(form, group);
    }
    group.chrome &&= stats.chromeOf(el);
    if (isPasswordField(control.el)) group.passwords++;
    else if (TEXT_ROLES.has(control.role) && tag !== 'select' && isSearchField(control)) {
      group.search++;
      const value = normalizeSpace(el.value || el.getAttribute('value') || '');
      const placeholder = normalizeSpace(el.getAttribute('placeholder') || '');
      if (value && !group.filledQuery && value !== placeholder && !PLACEHOLDER_VALUE_RE.test(value)) {
        group.filledQuery = value;
      }
    } else if (TEXT_ROLES.has(control.role) && tag !== 'select') group.text++;
    else group.other++;
  }
  return Array.from(groups.values());
}

// Chart containers. Only canvases and elements named for a chart count: an unstyled page
// blows every icon <svg> up to full width, so size says nothing.
const CHART_NAME_RE = /chart|graph|sparkline|plot/i;

function chartCount() {
  let count = 0;
  const named = '[id*="chart" i], [class*="chart" i], [id*="graph" i], [class*="graph" i], [class*="sparkline" i], ' +
    '[id*="plot" i], [class*="plot" i]';
  for (const el of document.querySelectorAll(`canvas, div:is(${named}), figure:is(${named}), section:is(${named})`)) {
    if (el.localName === 'canvas' || CHART_NAME_RE.test(el.getAttribute('id') || '') ||
        Array.from(el.classList).some((c) => CHART_NAME_RE.test(c) && !/icon/i.test(c))) count++;
  }
  return count;
}

// Items of a listing: the nearest block ancestor of a link that repeats among its
// siblings (a row, a list item, a card in a grid), with some text of its own (>= 4
// words, so one-word menu entries do not count). Items are grouped by tag and first
// class across containers, since grids split their cards into rows. Paragraphs are
// running text, not items. Counted until one kind reaches LISTING_ITEMS: all a rule asks.
const LISTING_ITEMS = 25;

function listingItems(scan, stats) {
  const groups = new Map();
  const seen = new Set();
  for (const control of scan.controls) {
    if (control.role !== 'link' || !control.visible || stats.chromeOf(control.el)) continue;
    let item = control.el.parentElement;
    for (let depth = 0; item && item !== document.body && depth < 6; depth++, item = item.parentElement) {
      if (isRepeatedBlock(item)) break;
    }
    // A table's item is its row, not a cell of it.
    if (item && (item.localName === 'td' || item.localName === 'th') && item.parentElement) item = item.parentElement;
    if (!item || item === document.body || item.localName === 'p' || seen.has(item)) continue;
    seen.add(item);
    // The visible words of the item's own block, counted already, settle most items.
    const counted = stats.blocks.get(item);
    if (!(counted && counted.words >= 4) && !hasWords(item, 4)) continue;
    const key = `${item.localName}.${item.classList[0] || ''}`;
    const count = (groups.get(key) || 0) + 1;
    if (count >= LISTING_ITEMS) return count;
    groups.set(key, count);
  }
  return Math.max(0, ...groups.values());
}

// Whether `el` holds at least `min` words, reading its text only as far as needed.
function hasWords(el, min) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let words = 0;
  for (let node = walker.nextNode(); node && words < min; node = walker.nextNode()) words += countWords(/** @type {Text} */ (node).data);
  return words >= min;
}

// Add-to-cart controls, by caption, title or the id/class shops give them. Read from the
// DOM rather than the scan: image-sprite cart buttons have no box on an unstyled page.
// Each reads its candidates' text, so it stops with the capture's budget as the scan does.
const CART_RE = /add[-_ ]?to[-_ ]?(cart|bag|basket)|addtocart|buy[-_ ]?now|in den (warenkorb|einkaufswagen)|ajouter au panier|añadir al carrito|aggiungi al carrello|в корзину|加入购物车|カートに入れる/i;

function cartButtons(deadline) {
  let count = 0;
  let read = 0;
  for (const el of document.querySelectorAll('a, button, input[type="submit"], input[type="button"], input[type="image"]')) {
    if (deadline.passed(++read)) break;
    const hint = `${el.localName === 'a' || el.localName === 'button' ? el.textContent : el.getAttribute('value') || ''} ` +
      `${el.getAttribute('title') || ''} ${el.getAttribute('alt') || ''} ${el.getAttribute('id') || ''} ${el.getAttribute('class') || ''}`;
    if (CART_RE.test(hint) && isRendered(el)) count++;
  }
  return count;
}

// Items of a list the user works through: list items or rows, outside any form, that
// hold a checkbox or a switch (a todo, a mail to select) or can be dragged (a card on a
// board). A form's checkboxes are answers sent with it, not state kept by the page.
const ITEM_SELECTOR = 'li, tr, [role="listitem" i], [role="row" i], [role="option" i], [role="treeitem" i]';

function statefulItems() {
  const items = new Set();
  const toggles = 'input[type="checkbox" i], [role="checkbox" i], [role="switch" i], [draggable="true" i]';
  for (const el of document.querySelectorAll(toggles)) {
    if (el.closest('form')) continue;
    const item = el.matches(ITEM_SELECTOR) ? el : el.closest(ITEM_SELECTOR);
    if (item && !items.has(item) && isRendered(item)) items.add(item);
  }
  return items.size;
}

// Buttons that send what was typed; a field with none of them on its page is read by
// the page's script when the user presses Enter (a todo's title, a chat line).
const SUBMIT_LABEL_RE = /^(submit|send|save|search|go|ok|continue|next|apply|confirm|sign (in|up)|log ?in|register|subscribe|join|post|book|buy|order|pay|find)\b/i;

function isSubmitControl(control) {
  const el = control.el;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (el.localName === 'input' && (type === 'submit' || type === 'image')) return true;
  if (el.localName === 'button' && el.form && (type === '' || type === 'submit')) return true;
  return control.role === 'button' && SUBMIT_LABEL_RE.test(control.name);
}

// A text field (not a search box, not a password) that no form or button sends: entered
// with the Enter key and handled by the page's script.
function scriptedEntry(scan) {
  let field = false;
  for (const control of scan.controls) {
    if (!control.visible) continue;
    if (isSubmitControl(control)) return false;
    const el = control.el;
    if (!field && control.role === 'textbox' && el.localName !== 'textarea' && !isEditingHost(el) &&
        !isPasswordField(el) && !isSearchField(control)) field = true;
  }
  return field;
}

function visibleHeadingText(levels) {
  const out = [];
  for (const h of document.querySelectorAll(levels)) {
    if (out.length >= 6) break;
    if (isRendered(h)) out.push(normalizeSpace(h.textContent));
  }
  return out.join(' | ');
}

// Everything the rules look at, each measured when a rule first reads it: the rules stop
// at their first match, and most pages are decided before the costly signals (forms,
// listings, charts, cart buttons) are asked for. `stats` is the page's TextStats;
// `httpStatus` the status of the page's main document where the caller knows it (a
// navigation does; a page read from an HTML string has none: 0).
export function pageSignals(scan, stats, httpStatus = 0) {
  const title = normalizeSpace(document.title);
  // The signals read from the whole document rather than from the scan are not read once
  // the capture's budget is spent: a huge page is classified on what was read in time.
  const inTime = (measure, otherwise) => () => (scan.deadline.expired() ? otherwise : measure());
  return lazySignals({ title, words: stats.words, linkDensity: stats.linkDensity, proseWords: stats.proseWords,
    topCluster: stats.topCluster, httpStatus }, {
    h1: () => visibleHeadingText('h1'),
    headings: () => visibleHeadingText('h1, h2, h3'),
    links: () => scan.controls.filter((c) => c.role === 'link' && c.visible).length,
    controls: () => scan.controls.filter((c) => c.visible).length,
    forms: () => formGroups(scan, stats),
    query() { return (this.forms.find((f) => f.filledQuery) || {}).filledQuery || ''; },
    // Titles of result pages repeat the query, often shortened ("a long query…").
    queryInTitle() { return !!this.query && title.toLowerCase().includes(this.query.toLowerCase().slice(0, 30)); },
    resultsText: () => RESULTS_RE.test(stats.sample),
    charts: inTime(chartCount, 0),
    listingItems: () => listingItems(scan, stats),
    // One page of a paginated series (rel=next), the shape of listings and result pages.
    paginated: () => !!document.querySelector('link[rel~="next" i], a[rel~="next" i]'),
    cart: inTime(() => cartButtons(scan.deadline), 0),
    ogType: () => metaContent('meta[property="og:type"]'),
    declared: declaredTypes,
    largestForm() { return largestForm(this); },
    statefulItems: inTime(statefulItems, 0),
    toolbars: inTime(() => Array.from(document.querySelectorAll('[role="toolbar" i]')).filter(isRendered).length, 0),
    editors() {
      return scan.controls.filter((c) => c.role === 'textbox' && c.visible && isEditingHost(c.el)).length + this.toolbars;
    },
    scriptedEntry: () => scriptedEntry(scan),
  });
}

// `signals` with a property per `measures` entry, computed (with `this` the signals) on
// first read and then kept.
function lazySignals(signals, measures) {
  for (const [name, measure] of Object.entries(measures)) {
    Object.defineProperty(signals, name, {
      configurable: true,
      enumerable: true,
      get() {
        const value = measure.call(signals);
        Object.defineProperty(signals, name, { value, enumerable: true });
        return value;
      },
    });
  }
  return signals;
}

const ARTICLE_TYPES_RE = /^(article|newsarticle|blogposting|reportagenewsarticle|analysisnewsarticle|opinionnewsarticle|reviewnewsarticle|backgroundnewsarticle|techarticle|scholarlyarticle|report|liveblogposting|posting|socialmediaposting)$/;

function declaresArticle(s) {
  return s.ogType === 'article' || s.declared.some((t) => ARTICLE_TYPES_RE.test(t));
}

function declaresProduct(s) {
  return s.ogType.startsWith('product') || s.declared.includes('product');
}

const RECOVERY_RE = /(forgot|forgotten|reset|recover|lost|request)\w*\W+(\w+\W+){0,2}password|password\W+(reset|recovery)|passwort vergessen|mot de passe oubli|olvid\S* (tu |su )?contraseña|glemt\S* (mitt |ditt )?passord|glömt\S* lösenord/i;

function hasLoginForm(s) {
  return s.forms.some((f) => f.passwords === 1 && f.text <= 2 && !f.chrome);
}

function hasRegistrationForm(s) {
  return s.forms.some((f) => f.passwords >= 2 || (f.passwords === 1 && f.text >= 3));
}

// Fields of the largest form, counting an advanced search's own search box.
function largestForm(s) {
  let best = 0;
  for (const f of s.forms) {
    const fields = f.text + f.other + f.passwords + (f.text + f.other > 0 ? f.search : 0);
    best = Math.max(best, fields);
  }
  return best;
}

export function classifyPage(s) {
  const heading = `${s.title} ${s.h1}`;
  if (ERROR_RE.test(heading) && s.words < 300 && !s.forms.some((f) => f.passwords)) return 'error_page';
  if (s.topCluster >= 250) return 'article';
  if (hasLoginForm(s) && s.words < 800 && s.largestForm < 10) return 'login';
  if (s.query && (s.queryInTitle || s.resultsText)) return 'search_results';
  if ((hasRegistrationForm(s) && s.words < 1000) || RECOVERY_RE.test(`${s.title} ${s.headings}`)) return 'form';
  if (s.charts >= 2 && s.topCluster < 150) return 'dashboard';
  if (namesScreen(s, DASHBOARD_RE) && s.controls >= 20 && s.topCluster < 150) return 'dashboard';
  if (namesScreen(s, APP_RE) && s.controls >= 20 && s.topCluster < 100) return 'app';
  if (isAppShell(s)) return 'app';
  if (s.largestForm >= 3 && s.words < 600 && s.topCluster < 150) return 'form';
  // An error status outweighs what the rules below would say, except text to read.
  if (s.httpStatus >= 400 && !(s.words > 0 && (isDeclaredArticle(s) || isProseArticle(s)))) return 'error_page';
  if (s.words < 60 && s.largestForm >= 1) return 'form';
  if (isDeclaredArticle(s)) return 'article';
  if (declaresProduct(s) || (s.cart >= 1 && s.cart <= 2)) return 'generic';
  if (isListing(s)) return 'link_list';
  if (isProseArticle(s)) return 'article';
  return 'generic';
}

// Declared an article, with some prose (or no rendered text at all: built by a script).
function isDeclaredArticle(s) {
  return declaresArticle(s) && (s.topCluster >= 30 || s.proseWords >= 150 || s.words === 0);
}

// A concentrated cluster of prose: most of what the page has to read is in one place.
function isProseArticle(s) {
  return s.topCluster >= 100 && s.topCluster >= 0.35 * s.proseWords;
}

// A screen built for work rather than reading: few words, no prose, and state the page
// keeps (items with checkboxes or drag handles, an editor or a toolbar) or a field only
// its script reads.
function isAppShell(s) {
  if (s.words >= APP_MAX_WORDS || s.topCluster >= 50 || s.forms.some((f) => f.passwords)) return false;
  return s.statefulItems >= 2 || s.editors >= 1 || s.scriptedEntry;
}
const APP_MAX_WORDS = 300;

function namesScreen(s, re) {
  return re.test(s.title) || re.test(s.h1);
}

function isListing(s) {
  return s.listingItems >= LISTING_ITEMS || (s.listingItems >= 10 && s.paginated) ||
    (s.links >= 100 && s.linkDensity >= 0.6);
}
