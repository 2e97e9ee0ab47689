// Main content: the landmark or block that holds the page's reading text, its text
// (navigation, chrome and hidden text left out), and the page's word count.

const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript',
  'template', 'svg', 'button', 'select', 'form', 'dialog']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search',
  'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);
const CONTENT_HINT = /(^|[-_ ])(content|article|post|story|entry|main|body|text|blog)([-_ ]|$)/i;
const CHROME_HINT = /(^|[-_ ])(nav|menu|sidebar|footer|header|comment|cookie|banner|share|social|related|promo|ad|ads)([-_ ]|$)/i;

function textLength(el) {
  return (el.textContent || '').length;
}

function findMainNode() {
  const body = document.body;
  if (!body) return document.documentElement;
  const main = document.querySelector('main, [role="main"]');
  if (main && isRendered(main) && textLength(main) > 200) return main;
  const articles = Array.from(document.querySelectorAll('article')).filter((a) => isRendered(a));
  if (articles.length) {
    const best = articles.reduce((a, b) => (textLength(b) > textLength(a) ? b : a));
    if (textLength(best) > 500) return best;
  }
  // A block whose id/class says "content" and holds most of the page's paragraph text.
  let best = null, bestScore = 0;
  const bodyText = textLength(body) || 1;
  for (const el of body.querySelectorAll('div[id], div[class], section[id], section[class], td[id], td[class]')) {
    const hint = `${el.id} ${el.className}`;
    if (!CONTENT_HINT.test(hint) || CHROME_HINT.test(hint)) continue;
    const len = textLength(el);
    if (len < 0.3 * bodyText || len < 400) continue;
    const score = el.getElementsByTagName('p').length * 100 + len / 10;
    if (score > bestScore) { best = el; bestScore = score; }
  }
  if (best && isRendered(best)) return best;
  return main && isRendered(main) ? main : body;
}

function isChrome(el) {
  if (CHROME_TAGS.has(el.localName)) return true;
  const role = el.getAttribute('role');
  return !!role && CHROME_ROLES.has(role);
}

// Visible text of `root`, in reading order, leaving out navigation and page chrome,
// up to maxChars characters (Infinity for all of it).
function readableText(root, maxChars, skipChrome = true) {
  const parts = [];
  let length = 0;
  const visibleCache = new Map();
  const visit = (node) => {
    for (let child = node.firstChild; child && length < maxChars; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const text = child.data;
        if (!text.trim()) continue;
        let shown = visibleCache.get(node);
        if (shown === undefined) {
          shown = node.checkVisibility({ checkVisibilityCSS: true });
          visibleCache.set(node, shown);
        }
        if (!shown) continue;
        parts.push(text);
        length += text.length;
      } else if (child.nodeType === 1) {
        if (SKIP_TAGS.has(child.localName)) continue;
        if (skipChrome && child !== root && isChrome(child)) continue;
        if (child.localName === 'br' || !isInlineTag(child.localName)) parts.push(' ');
        visit(child.shadowRoot || child);
      }
    }
  };
  visit(root);
  return normalizeSpace(parts.join(''));
}

const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em',
  'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u',
  'var', 'font', 'label']);

function isInlineTag(tag) {
  return INLINE_TAGS.has(tag);
}

function countWords(text) {
  const matches = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu);
  return matches ? matches.length : 0;
}
