// Loading more of a list that grows as it scrolls (virtual lists, infinite
// scroll), one step at a time for Python's scroll_to_load: start, then scroll and count
// until enough is new or nothing more comes, then end.
//
// The items are the children of the element with the most children in the scroller (the
// list), picked at the start. An item is known by its content, and by how many items
// before it in the list look the same, so a virtual list that renders a record again, in
// a new element or a recycled one, does not count it twice, while two alike records are
// two. The new controls are those inside new items.

import { actDescribe } from './act_find.js';
import { actScrollable } from './act_edit.js';
import { elementById } from './capture.js';
import { normalizeSpace } from './core.js';

const LOAD_CONTROLS = 'a[href],button,input,select,textarea,summary,[role=button],[role=link],[role=checkbox],'
  + '[role=menuitem],[role=option],[role=tab],[role=treeitem],[tabindex]:not([tabindex="-1"])';
const loadStates = new Map();
let loadSerial = 0;

function loadIsPage(box) {
  return box === document.scrollingElement || box === document.documentElement;
}

function loadList(box) {
  let best = box;
  for (const el of box.querySelectorAll('*')) {
    if (el.childElementCount > best.childElementCount) best = el;
  }
  return best;
}

function loadSignature(el) {
  const text = normalizeSpace(el.textContent || '').slice(0, 200);
  return `${el.localName}|${el.getAttribute('href') || ''}|${text || el.innerHTML.slice(0, 200)}`;
}

function loadTake(state) {
  if (!state.list.isConnected) state.list = loadList(state.box);
  const alike = new Map();
  for (const el of state.list.children) {
    const signature = loadSignature(el);
    const nth = (alike.get(signature) || 0) + 1;
    alike.set(signature, nth);
    const key = `${nth}#${signature}`;
    if (state.seen.has(key)) continue;
    state.seen.add(key);
    state.items += 1;
    state.controls += el.querySelectorAll(LOAD_CONTROLS).length + (el.matches(LOAD_CONTROLS) ? 1 : 0);
  }
}

function loadReport(state) {
  const box = state.box;
  return {
    items: state.items,
    controls: state.controls,
    height: box.scrollHeight,
    atEnd: box.scrollTop + box.clientHeight >= box.scrollHeight - 2,
  };
}

function loadState(token) {
  const state = loadStates.get(token);
  if (!state) throw new Error(`no scroll_to_load in progress with token ${token}`);
  return state;
}

// id null: the page. An element that does not scroll stands for its nearest scroller.
export function actLoadStart(id) {
  let box = document.scrollingElement || document.documentElement;
  if (id !== null) {
    const el = elementById(id);
    if (!el) return { missing: true };
    box = actScrollable(el);
  }
  const state = { box, list: loadList(box), items: 0, controls: 0, seen: new Set() };
  loadTake(state);
  const token = ++loadSerial;
  loadStates.set(token, state);
  return { token, container: loadIsPage(box) ? 'page' : actDescribe(box), ...loadReport(state) };
}

// Most of a screen at a time: a virtual list renders only what is near its viewport, so
// jumping to the bottom would skip the rows in between.
export function actLoadScroll(token) {
  const box = loadState(token).box;
  const before = box.scrollTop;
  box.scrollTo({ top: before + Math.max(40, box.clientHeight * 0.9), behavior: 'instant' });
  return { moved: box.scrollTop !== before };
}

export function actLoadCount(token) {
  const state = loadState(token);
  loadTake(state);
  return loadReport(state);
}

export function actLoadEnd(token) {
  loadStates.delete(token);
}
