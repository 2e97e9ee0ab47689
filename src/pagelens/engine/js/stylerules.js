// What the page's own style sheets can do, read from their rules. Some questions (which
// elements may have generated content, which may scroll) would otherwise cost a computed
// style per element; the rules answer them for the whole document at once. A survey
// lists the selectors of the rules that bear on one question, and says whether every
// sheet could be read: a cross-origin sheet cannot, nor can rules nested in other rules
// be taken apart here, and then callers ask the style of each element, as without a survey
// (as they do on a page whose rules outnumber its elements: `worthSurveying`).
// Shadow trees have sheets of their own and are never answered from a survey.

import { pushTo } from './selector.js';
import { runScopedMap } from './core.js';

// Selector text split at `isSeparator` characters outside brackets, parentheses and quotes.
export function splitSelector(text, isSeparator) {
  const parts = [];
  let depth = 0, quote = null, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && isSeparator(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export const isComma = (c) => c === ',';
const isCombinator = (c) => c === ' ' || c === '>' || c === '+' || c === '~' || c === '\n' || c === '\t';

// A question asks which rules bear on it: { longhands: the longhand properties a
// bearing rule sets (a shorthand is listed by its longhands; `all`, listed as itself,
// counts for every question), bears(rule) -> bool,
// selectors(selectorText) -> the selectors to keep, maxSelectors?, alwaysSurvey? (surveyed
// even where reading the rules costs more than reading each element's style: a question
// that has no per-element answer to fall back on) }. Every question is
// declared with `ruleQuestion` when the engine loads, so that each sheet is read once for
// all of them: on a style framework's ten thousand rules, every CSSOM read costs, and
// `bears` runs only on rules that set one of its longhands.
const questions = [];
const questionsByLonghand = new Map();

export function ruleQuestion(question) {
  questions.push(question);
  for (const longhand of [...question.longhands, 'all']) pushTo(questionsByLonghand, longhand, question);
  return question;
}

// Each sheet's answers are kept while its number of rules stays the same (scripts that
// add rules insert them: CSS-in-JS libraries, lazy-loaded components).
const sheetSurveys = new WeakMap();

function surveySheets(question) {
  const selectors = [];
  let complete = true;
  for (const sheet of documentSheets()) {
    if (sheet.disabled) continue;
    const found = surveySheet(sheet).get(question);
    if (!found.complete) complete = false;
    for (const selector of found.selectors) selectors.push(selector);
  }
  return { selectors, complete };
}

function documentSheets() {
  return [...document.styleSheets, ...(document.adoptedStyleSheets || [])];
}

// question -> { selectors, complete } for one sheet.
function surveySheet(sheet) {
  let length = -1;
  try { length = sheet.cssRules.length; } catch (e) { /* cross-origin: surveyed (and failing) each time */ }
  let found = sheetSurveys.get(sheet);
  if (!found || found.length !== length) {
    found = { length, answers: readRules(sheet) };
    sheetSurveys.set(sheet, found);
  }
  return found.answers;
}

function readRules(sheet) {
  const answers = new Map(questions.map((question) => [question, { selectors: [], complete: true }]));
  const visit = (rules, nested) => {
    for (const rule of rules) {
      if (rule.styleSheet) { // @import
        try { visit(rule.styleSheet.cssRules, nested); } catch (e) { incomplete(answers); }
        continue;
      }
      if (stylesElements(rule)) {
        for (const question of bearingQuestions(rule)) {
          const answer = answers.get(question);
          // Relative to something else (`&:hover`, `:scope`, declarations in a style rule).
          if (nested) answer.complete = false;
          else answer.selectors.push(...question.selectors(rule.selectorText));
        }
      }
      if (rule.cssRules && rule.cssRules.length) visit(rule.cssRules, nested || !keepsSelectorsAsTheyAre(rule));
    }
  };
  try {
    visit(sheet.cssRules, false);
  } catch (e) {
    incomplete(answers); // a cross-origin sheet
  }
  return answers;
}

// Style rules and the declarations nested in them; not @page, @font-face or keyframes,
// which style no element.
function stylesElements(rule) {
  return rule instanceof CSSStyleRule ||
    (typeof CSSNestedDeclarations !== 'undefined' && rule instanceof CSSNestedDeclarations);
}

function incomplete(answers) {
  for (const answer of answers.values()) answer.complete = false;
}

// The questions `rule` bears on: those with a longhand it sets, then asked themselves.
// Most rules set none: they allocate nothing.
function bearingQuestions(rule) {
  const style = rule.style;
  let asked = null;
  for (let i = 0; i < style.length; i++) {
    const asking = questionsByLonghand.get(style[i]);
    if (asking) for (const question of asking) (asked ||= new Set()).add(question);
  }
  return asked ? [...asked].filter((question) => question.bears(rule)) : NONE;
}
const NONE = Object.freeze([]);

// Group rules whose style rules mean what they say (@media, @supports, @container,
// @layer, @starting-style). Inside any other (a style rule's nested rules, @scope), a
// selector is relative to something the survey does not follow.
function keepsSelectorsAsTheyAre(rule) {
  return rule instanceof CSSConditionRule || rule instanceof CSSLayerBlockRule ||
    (typeof CSSStartingStyleRule !== 'undefined' && rule instanceof CSSStartingStyleRule);
}

// The survey of `question` for this run (the page may change its sheets between runs).
const runSurveys = runScopedMap();

function runSurvey(question) {
  let survey = runSurveys.get(question);
  if (!survey) {
    survey = question.alwaysSurvey || worthSurveying() ? surveySheets(question) : UNANSWERED;
    runSurveys.set(question, survey);
  }
  return survey;
}

const UNANSWERED = Object.freeze({ selectors: [], complete: false });
const surveyWorth = runScopedMap();

// Reading a rule costs microseconds, once per document (the answers are kept per sheet);
// without a survey, callers read the style of each element they ask about. The survey
// pays where elements outnumber rules (a huge page); a page of a thousand elements under
// a framework's ten thousand rules is read several times faster without one.
function worthSurveying() {
  let worth = surveyWorth.get(document);
  if (worth === undefined) {
    let rules = 0;
    for (const sheet of documentSheets()) {
      try { rules += sheet.cssRules.length; } catch (e) { /* cross-origin: the survey says incomplete */ }
    }
    worth = rules <= document.getElementsByTagName('*').length;
    surveyWorth.set(document, worth);
  }
  return worth;
}

// The selectors of a survey filed by the last compound of each (its id, else its first
// class, else its tag, else `any`), so that an element is tested against the few rules
// that could reach it. Selectors through a pseudo-element (`::part(x)`) style shadow
// trees only and are left out. In quirks mode ids and classes match whatever their case,
// so they are filed and looked up in lower case.
class RuleIndex {
  constructor(selectors) {
    this.buckets = { id: new Map(), class: new Map(), tag: new Map(), attribute: new Map() };
    this.any = [];
    this.foldCase = document.compatMode === 'BackCompat' ? (name) => name.toLowerCase() : (name) => name;
    for (const selector of selectors) this.add(selector);
  }

  add(selector) {
    if (selector.includes('::')) return;
    if (!selector || /[>+~]$/.test(selector)) selector += '*';
    const key = compoundKey(splitSelector(selector, isCombinator).pop());
    if (!key) {
      this.any.push(selector);
      return;
    }
    const [bucket, name] = key;
    // Type selectors match HTML elements whatever their case (localName is lower case).
    if (bucket === 'tag') pushTo(this.buckets.tag, name.toLowerCase(), selector);
    else pushTo(this.buckets[bucket], bucket === 'attribute' ? name : this.foldCase(name), selector);
  }

  // Whether some selector matches `el` (an element of the document tree).
  mayMatch(el) {
    const { id, class: byClass, tag, attribute } = this.buckets;
    if (matchesAny(el, this.any) || matchesAny(el, tag.get(el.localName))) return true;
    if (!el.hasAttributes()) return false;
    if (id.size && el.id && matchesAny(el, id.get(this.foldCase(el.id)))) return true;
    if (attribute.size && el.getAttributeNames().some((name) => matchesAny(el, attribute.get(name.toLowerCase())))) {
      return true;
    }
    if (!byClass.size) return false;
    const classes = el.getAttribute('class');
    return !!classes && classes.split(/\s+/).some((cls) => matchesAny(el, byClass.get(this.foldCase(cls))));
  }
}

// ['id' | 'class' | 'tag' | 'attribute', name] of a compound selector (what every element
// it matches has), or null. Arguments of pseudo-classes say nothing certain; a name counts
// only whole (`.café` must not be filed under "caf"); escapes and namespaces are left to
// `any`.
function compoundKey(compound) {
  const bare = compound.replace(/\([^]*\)/g, '');
  if (bare.includes('\\') || bare.includes('|')) return null;
  const outside = bare.replace(/\[[^]*\]/g, '');
  for (const [bucket, re] of [['id', /#([\w-]+)(?=$|[.#:])/], ['class', /\.([\w-]+)(?=$|[.#:])/],
    ['tag', /^([a-z][\w-]*)(?=$|[.#:])/]]) {
    const m = outside.match(re);
    if (m) return [bucket, m[1]];
  }
  const attribute = bare.match(/^\*?\[\s*([a-z][\w-]*)\s*[\]~|^$*=]/i);
  return attribute ? ['attribute', attribute[1].toLowerCase()] : null;
}

function matchesAny(el, selectors) {
  if (!selectors) return false;
  for (const selector of selectors) {
    try {
      if (el.matches(selector)) return true;
    } catch (e) {
      return true; // a selector the engine cannot test: as if it matched
    }
  }
  return false;
}

const ruleIndexes = runScopedMap();

// Whether a rule bearing on `question` (or one of `defaults`, the selectors of what
// Chromium's own style sheet does) may apply to `el`: always true in a shadow tree and
// when the survey is incomplete, so callers then read the style as they would anyway.
export function mayMatchRules(el, question, defaults) {
  let index = ruleIndexes.get(question);
  if (index === undefined) {
    const survey = runSurvey(question);
    index = survey.complete ? new RuleIndex([...defaults, ...survey.selectors]) : null;
    ruleIndexes.set(question, index);
  }
  return !index || el.getRootNode() !== document || index.mayMatch(el);
}

const surveyedSets = runScopedMap();

// The elements of the document tree that a rule bearing on `question` (or one of
// `defaults`) matches, in document order, found by one query per run (the few elements a
// question concerns, such as the scroll containers of a huge page); null when the survey
// is incomplete, finds more than the question's `maxSelectors`, or its selectors cannot
// be queried.
export function surveyedElements(question, defaults) {
  let found = surveyedSets.get(question);
  if (found === undefined) {
    found = null;
    const survey = runSurvey(question);
    const withinLimit = question.maxSelectors === undefined || survey.selectors.length <= question.maxSelectors;
    if (survey.complete && withinLimit) {
      const selectors = [...defaults, ...survey.selectors].filter((s) => !s.includes('::'));
      try {
        found = new Set(document.querySelectorAll(selectors.join(',')));
      } catch (e) { /* a selector the engine cannot query */ }
    }
    surveyedSets.set(question, found);
  }
  return found;
}
