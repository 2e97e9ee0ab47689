/*
 * Page type classification. Rules, first match wins:
 *
 *  error_page      the title or first heading names an HTTP error, an outage, maintenance or a
 *                  bot check ("404", "Not Found", "Just a moment…") and the page says little
 *                  (< 300 words).
 *  login           exactly one visible password field, at most two other text fields beside
 *                  it, and no second (confirmation) password field.
 *  search_results  a search query is on the page (a filled search field, or a query parameter in
 *                  the URL) and there is a run of result links.
 *  form            a registration form (two password fields), or a visible form of four or more
 *                  fields that dominates a page of little text.
 *  dashboard       "dashboard" in the title/heading, or several metric cards, charts and tables
 *                  beside a side navigation.
 *  app             a working screen: many controls, little prose, app furniture (compose boxes,
 *                  grids, draggable boards, calendars, message lists).
 *  article         long-form prose: ≥ 250 words in paragraphs with low link density.
 *  link_list       many links (≥ 30) making up most of the text.
 *  generic         everything else.
 */

const ERROR_RE = /\b(404|403|410|500|502|503|504|not found|page not found|error|forbidden|unavailable|maintenance|just a moment|attention required|access denied|doesn.t exist|does not exist|went wrong|bad request|unprocessable|not acceptable)\b/i;
const QUERY_PARAMS = ['q', 'query', 'search', 'p', 'wd', 'text', 'k', 'keywords', 'search_query', 'term', 'kw'];
const SEARCH_FIELD_RE = /search|query|^q$|^p$|^wd$|^text$|^k$|keyword/i;

function pageSignals(scan, mainNode, wordCount) {
  const visibleControls = scan.controls.filter((c) => c.visible);
  const fields = visibleControls.filter((c) => c.el.localName === 'input' || c.el.localName === 'textarea' ||
    c.el.localName === 'select' || c.role === 'textbox');
  const isSearchField = (c) => c.role === 'searchbox' || SEARCH_FIELD_RE.test(c.el.getAttribute('name') || '') ||
    SEARCH_FIELD_RE.test(c.el.id || '') || !!c.el.closest('[role="search"], search');
  const passwords = fields.filter((c) => c.el.type === 'password');
  const textFields = fields.filter((c) => ['textbox', 'searchbox', 'combobox', 'spinbutton', 'date'].includes(c.role) &&
    c.el.type !== 'password' && !isSearchField(c));
  const searchFields = fields.filter(isSearchField);
  const links = visibleControls.filter((c) => c.role === 'link');
  const url = new URL(location.href);
  const urlQuery = QUERY_PARAMS.some((p) => (url.searchParams.get(p) || '').trim());
  const filledSearch = searchFields.some((c) => (c.el.value || c.el.getAttribute('value') || '').trim());

  let linkChars = 0;
  for (const c of links) linkChars += (c.el.textContent || '').length;
  const bodyText = document.body ? (document.body.innerText || '') : '';
  let paragraphWords = 0;
  for (const p of (mainNode || document).querySelectorAll('p')) {
    if (p.closest('nav, footer, header, aside')) continue;
    const words = countWords(p.textContent || '');
    if (words >= 8) paragraphWords += words;
  }
  const headingLinks = document.querySelectorAll('h2 a[href], h3 a[href], h4 a[href]').length;
  return {
    title: document.title || '',
    h1: Array.from(document.querySelectorAll('h1')).map((h) => normalizeSpace(h.textContent)).join(' '),
    wordCount,
    passwords: passwords.length,
    textFields: textFields.length,
    fields: fields.length - searchFields.length,
    searchQuery: urlQuery || filledSearch,
    links: links.length,
    linkDensity: bodyText.length ? Math.min(1, linkChars / bodyText.length) : 0,
    paragraphWords,
    headingLinks,
    controls: visibleControls.length,
    charts: document.querySelectorAll('canvas, svg.chart, .chart, [class*="chart"]').length,
    tables: document.querySelectorAll('table').length,
    hasArticle: !!document.querySelector('article'),
  };
}

function classifyPage(s) {
  const heading = `${s.title} ${s.h1}`;
  if (ERROR_RE.test(heading) && s.wordCount < 300 && s.passwords === 0) return 'error_page';
  if (s.passwords === 1 && s.textFields <= 2) return 'login';
  if (s.searchQuery && (s.headingLinks >= 3 || s.links >= 10)) return 'search_results';
  if (s.passwords >= 2) return 'form';
  if (/dashboard/i.test(heading) || (s.charts >= 3 && s.tables >= 1)) return 'dashboard';
  if (s.fields >= 4 && s.paragraphWords < 200) return 'form';
  if (s.paragraphWords >= 250 && s.linkDensity < 0.5) return 'article';
  if (s.links >= 30 && s.linkDensity > 0.4) return 'link_list';
  if (s.controls >= 40 && s.paragraphWords < 100) return 'app';
  return 'generic';
}
