// Control states: only what is true (or meaningfully false, like expanded) is reported.

function ariaBool(el, attr) {
  const value = el.getAttribute(attr);
  if (value === null || value === 'undefined' || value === '') return undefined;
  return value === 'mixed' ? 'mixed' : value === 'true';
}

function isDisabled(el) {
  if (ariaBool(el, 'aria-disabled') === true) return true;
  if (!('disabled' in el)) return false;
  if (el.disabled) return true;
  // Form controls inside a disabled fieldset (outside its first legend) are disabled.
  const fieldset = el.closest('fieldset[disabled]');
  if (!fieldset) return false;
  const legend = fieldset.querySelector(':scope > legend');
  return !(legend && legend.contains(el));
}

function controlStates(el, role) {
  const states = {};
  if (role === 'checkbox' || role === 'radio' || role === 'switch' ||
      role === 'menuitemcheckbox' || role === 'menuitemradio') {
    const checked = el.localName === 'input'
      ? (el.indeterminate ? 'mixed' : el.checked)
      : ariaBool(el, 'aria-checked');
    if (checked) states.checked = checked;
  } else {
    const checked = ariaBool(el, 'aria-checked');
    if (checked) states.checked = checked;
  }
  if (isDisabled(el)) states.disabled = true;
  const expanded = ariaBool(el, 'aria-expanded');
  if (expanded !== undefined) states.expanded = expanded;
  else if (el.localName === 'summary' && el.parentElement && el.parentElement.localName === 'details') {
    states.expanded = el.parentElement.open;
  }
  const selected = el.localName === 'option' ? el.selected : ariaBool(el, 'aria-selected');
  if (selected) states.selected = true;
  const pressed = ariaBool(el, 'aria-pressed');
  if (pressed !== undefined) states.pressed = pressed;
  if (el.required || ariaBool(el, 'aria-required') === true) states.required = true;
  const invalid = el.getAttribute('aria-invalid');
  if ((invalid && invalid !== 'false') || (el.willValidate && el.validity && !el.validity.valid &&
      el.matches(':user-invalid'))) states.invalid = true;
  if (el.readOnly || ariaBool(el, 'aria-readonly') === true) states.readonly = true;
  if (isFocused(el)) states.focused = true;
  return states;
}

function isFocused(el) {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  return active === el;
}

// Field kinds whose value (or even its length) never leaves the page.
function isSensitiveField(el) {
  if (el.localName !== 'input' && el.localName !== 'textarea') return false;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (type === 'password' || type === 'hidden') return true;
  const autocomplete = (el.getAttribute('autocomplete') || '').toLowerCase();
  return /one-time-code|cc-|current-password|new-password/.test(autocomplete);
}

function fieldValue(el, role) {
  if (el.localName === 'input') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file'].includes(type)) return null;
    return el.value;
  }
  if (el.localName === 'textarea') return el.value;
  if (el.localName === 'select') {
    return Array.from(el.selectedOptions).map((o) => normalizeSpace(o.label || o.text)).join(', ');
  }
  if (role === 'textbox' && el.isContentEditable) return el.innerText;
  return null;
}
