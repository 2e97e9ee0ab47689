// Contact details masked in what views show (docs/privacy.md#contact-details): e-mail
// addresses become `[email]`, phone numbers `[phone]`. Phone shapes are specific (an
// international prefix, a bracketed area code, 3-3-4 groups, a national trunk "0", or a
// "Tel:"-style label) and need 7 to 15 digits, so years, dates, prices, counts and
// version numbers stay as they are.

const EMAIL_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
const PHONE_SHAPES = [
  /\+\d{1,3}[\s.-]?(\(\d{1,4}\)[\s.-]?)?\d{1,4}([\s.-]?\d{2,4}){1,4}(?!\d)/g,
  /(?<![\d.,])\(\d{2,5}\)[\s.-]?\d{2,4}([\s.-]?\d{2,4}){1,3}(?!\d)/g,
  /(?<![\d.,-])\d{3}[-.]\d{3}[-.]\d{4}(?![\d.,-]\d)/g,
  /(?<![\d.,-])0\d{1,4}[\s/-]\d{3,4}([\s-]\d{2,4}){0,2}(?![\d.,]\d)/g,
];
const LABELLED_PHONE_RE = /((?<!\p{L})(tel|phone|telephone|fax|mobile|cell|call|telefon|téléphone|tél|тел|电话)\.?:?\s*)(\+?\d[\d\s()./-]{5,}\d)/giu;
// Neither an address nor seven digits in a row or in groups: nothing to look for.
const MAYBE_CONTACT_RE = /@|\d[\d\s().\/-]{5,}\d/;

function digitCount(text) {
  return text.replace(/\D/g, '').length;
}

function maskPhone(match) {
  const digits = digitCount(match);
  return digits >= 7 && digits <= 15 ? '[phone]' : match;
}

export function maskContactDetails(text) {
  if (!text || !MAYBE_CONTACT_RE.test(text)) return text;
  let out = text.replace(EMAIL_RE, '[email]');
  out = out.replace(LABELLED_PHONE_RE, (match, label, _word, number) => label + maskPhone(number));
  for (const shape of PHONE_SHAPES) out = out.replace(shape, maskPhone);
  return out;
}

export const unmasked = (text) => text;

// The masking a capture asked for: maskContactDetails, or the text as it is.
export function contactMask(on) {
  return on ? maskContactDetails : unmasked;
}

// Attributes that name or locate rather than say something: left as they are, but for
// links that are themselves an address or a number (mailto:, tel:).
const IDENTIFYING_ATTRS = new Set(['id', 'class', 'for', 'name', 'type', 'role', 'style', 'data-llm-id', 'data-testid']);
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'srcset', 'poster', 'cite']);
const CONTACT_URL_RE = /^\s*(mailto|tel|sms|callto):/i;

export function maskAttribute(name, value, mask) {
  if (URL_ATTRS.has(name)) return CONTACT_URL_RE.test(value) ? mask(value) : value;
  return IDENTIFYING_ATTRS.has(name) ? value : mask(value);
}
