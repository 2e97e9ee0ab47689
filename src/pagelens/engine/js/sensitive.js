// Secret fields (docs/privacy.md#sensitive-fields): passwords, one-time codes, payment
// cards, bank accounts and national identity numbers. Their values, and their lengths,
// never leave the page. A field says what it is by its type, its autocomplete tokens,
// and the words of its name, id, label, placeholder, aria-label and title, in several
// languages; words are matched whole ("cvv" is a card code, "recovery" is not).

import { getElementByIdInScope, labelsOf } from './dom.js';
import { normalizeSpace, runScopedMap } from './core.js';
import sensitiveWords from '../sensitive.json';

// Field types that take typed text: a checkbox named "save_card" holds no card number.
const TEXT_TYPES = new Set(['', 'text', 'tel', 'number', 'email', 'password', 'search', 'url']);

// Password hints (../sensitive.json, shared with Python), matched inside words ("passwd",
// "Passwort", "contraseña"): they are specific enough, and the way sites spell them varies
// most. Read in a hint's words (below): "user_pass" says "pass".
const PASSWORD_HINT_RE = new RegExp(sensitiveWords.passwordHints.join('|'), 'i');

// The other secrets, as whole words of a hint in which identifiers are split into words
// ("cardNumber", "card_number" and "card-number" read "card number") and accents are
// dropped ("número" reads "numero"). A space in a phrase may also be nothing
// ("cardnumber", "kartennummer").
const SECRET_PHRASES = [
  // payment cards
  'credit card', 'debit card', 'card number', 'card num', 'card no', 'cc number', 'cc num', 'cc no',
  'kreditkarte', 'karten nummer', 'kartennr', 'numero de carte', 'numero carte', 'carte bancaire',
  'carte de credit', 'numero de tarjeta', 'numero de la tarjeta', 'tarjeta de credito', 'numero della carta',
  'numero carta', 'carta di credito', 'numero do cartao', 'cartao de credito', 'kaart nummer', 'creditcard',
  'kort nummer', 'numer karty',
  // card security codes
  'cvv', 'cvc', 'cvn', 'csc', 'cvv2', 'cvc2', 'security code', 'card code', 'card verification',
  'verification code', 'pruf nummer', 'prufziffer', 'sicherheitscode', 'cryptogramme', 'code de securite',
  'codigo de seguridad', 'codice di sicurezza', 'codigo de seguranca', 'beveiligingscode', 'sakerhetskod',
  // one-time codes
  'one time code', 'one time password', 'otp',
  // bank accounts
  'iban', 'bank account', 'account number', 'routing number', 'konto nummer', 'rekening nummer',
  'numero de compte', 'numero de cuenta',
  // national identity numbers
  'ssn', 'social security', 'national id', 'national identity', 'national insurance', 'personal number',
  'personal id number', 'personal identity number', 'person nummer', 'fødsels nummer',
  'henkilotunnus', 'burger service nummer', 'bsn', 'pesel', 'dni', 'nif', 'codice fiscale', 'cpf', 'curp',
  'aadhaar', 'sozialversicherungsnummer', 'steuer id', 'steueridentifikationsnummer', 'tax id', 'passport number',
  'securite sociale', 'seguridad social', 'identity number',
];

const SECRET_HINT_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(${SECRET_PHRASES.map((phrase) => phrase.split(' ').join(' ?')).join('|')})(?![\\p{L}\\p{N}])`, 'u');

// Identifiers and labels as lower-case words separated by single spaces: camelCase and
// punctuation split words; digits stay glued to their letters (hence "cvv2" in the list).
function words(text) {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .normalize('NFD').replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// The text of the labels that name a field (its <label>s and aria-labelledby), without
// computing its accessible name: naming asks whether an embedded field is sensitive.
function ownLabel(el) {
  const parts = labelsOf(el).map((label) => label.textContent || '');
  for (const id of (el.getAttribute('aria-labelledby') || '').split(/\s+/)) {
    const ref = id && getElementByIdInScope(el, id);
    if (ref) parts.push(ref.textContent || '');
  }
  return normalizeSpace(parts.join(' ')).slice(0, 200);
}

// Frameworks prefix a field's name and id with its containers ("ctrlRecoverPassword$UserName"):
// only the last segment says what the field itself is.
function lastSegment(value) {
  return (value || '').split(/[$.:[\]]+/).filter(Boolean).pop() || '';
}

// What a field says it is: its label, placeholder, aria-label, title, and the last
// segment of its name, else of its id (ids carry their containers' names joined by
// underscores, "ctrlRecoverPassword_UserName", where no segment can be told apart).
export function fieldHint(el) {
  return [ownLabel(el), el.getAttribute('placeholder'), el.getAttribute('aria-label'), el.getAttribute('title'),
    lastSegment(el.getAttribute('name')) || lastSegment(el.getAttribute('id'))].filter(Boolean).join(' ');
}

function inputType(el) {
  return (el.getAttribute('type') || '').toLowerCase();
}

function autocompleteOf(el) {
  return (el.getAttribute('autocomplete') || '').toLowerCase();
}

const passwordCache = runScopedMap();

// A field a password goes into: type=password, a password autocomplete token, or a
// text field that says it is one (some templates type it "email").
export function isPasswordField(el) {
  if (el.localName !== 'input') return false;
  let answer = passwordCache.get(el);
  if (answer === undefined) {
    const type = inputType(el);
    answer = type === 'password' || /(^|\s)(current|new)-password(\s|$)/.test(autocompleteOf(el)) ||
      (['', 'text', 'email'].includes(type) && PASSWORD_HINT_RE.test(words(fieldHint(el))));
    passwordCache.set(el, answer);
  }
  return answer;
}

const sensitiveCache = runScopedMap();

// Field kinds whose value (or even its length) never leaves the page: passwords, hidden
// inputs, and text fields for one-time codes, payment cards, bank accounts and national
// identity numbers.
export function isSensitiveField(el) {
  if (el.localName !== 'input' && el.localName !== 'textarea') return false;
  let answer = sensitiveCache.get(el);
  if (answer === undefined) {
    answer = sensitiveByKind(el);
    sensitiveCache.set(el, answer);
  }
  return answer;
}

function sensitiveByKind(el) {
  const type = el.localName === 'input' ? inputType(el) : 'text';
  if (type === 'hidden' || isPasswordField(el)) return true;
  if (!TEXT_TYPES.has(type)) return false;
  if (/(^|\s)(one-time-code|cc-[a-z-]+)(\s|$)/.test(autocompleteOf(el))) return true;
  return SECRET_HINT_RE.test(words(fieldHint(el)));
}

// What the document's sensitive fields hold, for the agent alone, to mask wherever it
// shows up (docs/agent.md, "Secrets"). Hidden inputs are left out: they hold tokens and
// ids, not what a person typed.
export function heldSecrets() {
  const held = [];
  for (const el of document.querySelectorAll('input:not([type=hidden i]), textarea')) {
    const field = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (el);
    if (field.value && isSensitiveField(field)) held.push(field.value);
  }
  return held;
}
