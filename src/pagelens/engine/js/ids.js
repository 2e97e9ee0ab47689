// Stable element ids ("tag & freeze", 004 §6.3): `data-llm-id` is stamped once per
// element and kept across captures; an id is never handed to a second element while
// its first is still in the document. A control that a re-render replaced by an
// identical one (same role, name and target, unique on the page) inherits its id.

const idState = { next: 1, owners: new Map(), bySignature: new Map(), adopted: false };

// Ids stamped by an earlier world (the page navigated within the same document, or the
// browser layer recreated its world) are adopted rather than renumbered.
function adoptExistingIds(shadowRoots) {
  if (idState.adopted) return;
  idState.adopted = true;
  for (const root of [document, ...shadowRoots]) {
    for (const el of root.querySelectorAll(`[${ID_ATTR}]`)) {
      const id = el.getAttribute(ID_ATTR);
      const n = parseInt(id, 10);
      if (Number.isFinite(n) && n >= idState.next) idState.next = n + 1;
      if (!idState.owners.has(id)) idState.owners.set(id, new WeakRef(el));
      else el.removeAttribute(ID_ATTR); // a duplicate; restamped when next seen
    }
  }
}

function ownerOf(id) {
  const ref = idState.owners.get(id);
  return ref ? ref.deref() : undefined;
}

function assignId(el, id) {
  el.setAttribute(ID_ATTR, id);
  idState.owners.set(id, new WeakRef(el));
  return id;
}

function stableId(el, signature) {
  const current = el.getAttribute(ID_ATTR);
  if (current !== null) {
    const owner = ownerOf(current);
    if (owner === el) return current;
    // Copied from an element that is gone (e.g. a cloned template): take it over.
    if (!owner || !owner.isConnected) return assignId(el, current);
    // Otherwise cloneNode copied a live element's id: this element needs its own.
  }
  if (signature) {
    const inherited = idState.bySignature.get(signature);
    if (inherited) {
      const owner = ownerOf(inherited);
      if (!owner || !owner.isConnected) return assignId(el, inherited);
    }
  }
  return assignId(el, String(idState.next++));
}

// Remember which id each uniquely-signed control had, for the next capture.
function rememberSignatures(entries) {
  const seen = new Map();
  for (const [signature, id] of entries) seen.set(signature, seen.has(signature) ? null : id);
  for (const [signature, id] of seen) {
    if (id === null) idState.bySignature.delete(signature);
    else idState.bySignature.set(signature, id);
  }
}

function resolveId(id) {
  const owner = ownerOf(id);
  return owner && owner.isConnected && owner.getAttribute(ID_ATTR) === id ? owner : null;
}
