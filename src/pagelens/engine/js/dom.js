// DOM traversal that pierces open shadow roots. Closed roots cannot be reached from
// script; they are counted by the browser layer through CDP.

function parentOf(node) {
  if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
  if (node.assignedSlot) return node.assignedSlot;
  return node.parentElement;
}

// Light-tree parent, crossing shadow boundaries (but not into slots): used for
// landmarks and hiding ancestors, which follow the composed tree in Chromium.
function composedParent(el) {
  if (el.assignedSlot) return el.assignedSlot;
  const parent = el.parentNode;
  if (parent instanceof ShadowRoot) return parent.host;
  return parent && parent.nodeType === 1 ? parent : null;
}

function closestComposed(el, predicate) {
  for (let cur = el; cur; cur = composedParent(cur)) {
    if (predicate(cur)) return cur;
  }
  return null;
}

function isComposedDescendant(el, ancestor) {
  for (let cur = el; cur; cur = composedParent(cur)) {
    if (cur === ancestor) return true;
  }
  return false;
}

// Visit every element in document order, descending into open shadow roots right
// after their host. `visit` returning false skips the element's subtree.
function walkElements(root, visit, shadowRoots) {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    if (node.nodeType === 1) {
      if (visit(node) === false) continue;
      if (node.shadowRoot) {
        if (shadowRoots) shadowRoots.push(node.shadowRoot);
        pushChildren(stack, node.shadowRoot);
      }
    }
    pushChildren(stack, node);
  }
}

function pushChildren(stack, node) {
  for (let child = node.lastElementChild; child; child = child.previousElementSibling) {
    stack.push(child);
  }
}

// Child nodes as the accessibility tree sees them: a shadow host's shadow tree,
// a slot's assigned nodes (or its fallback content), else the ordinary children.
function accessibleChildren(el) {
  if (el.shadowRoot) return Array.from(el.shadowRoot.childNodes);
  if (el.localName === 'slot') {
    const assigned = el.assignedNodes();
    if (assigned.length) return assigned;
  }
  return Array.from(el.childNodes);
}

function getElementByIdInScope(el, id) {
  const root = el.getRootNode();
  return root.getElementById ? root.getElementById(id) : document.getElementById(id);
}

function idRefs(el, attr) {
  const value = el.getAttribute(attr);
  if (!value) return [];
  const out = [];
  for (const id of value.split(/\s+/)) {
    if (!id) continue;
    const ref = getElementByIdInScope(el, id);
    if (ref) out.push(ref);
  }
  return out;
}
