// The element picker, evaluated in an isolated world of the page: its globals are not the
// page's, and it touches the page only through one host element (a closed shadow root
// holding the banner and the highlight) and capture-phase listeners on window, all
// removed when it ends. The script is a function of the engine's entry object (its
// selectors are the views'), returning the picker object.
((engine) => {
  const BLOCKED = ["pointerdown", "pointerup", "mousedown", "mouseup", "click", "dblclick", "auxclick", "contextmenu"];
  const HINT = "Click an element · ↑ parent · ↓ child · Enter confirm · Esc cancel";
  const RELEASE_WAIT_MS = 2000;
  const DETAILS_CHARS = { text: 500, html: 2000 };

  const sameNameIndex = (node) => {
    let index = 1;
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
      if (sibling.localName === node.localName) index += 1;
    }
    return index;
  };

  const xpathFor = (element) => {
    const steps = [];
    for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
      const name = node.namespaceURI === "http://www.w3.org/1999/xhtml" ? node.localName : `*[local-name()="${node.localName}"]`;
      steps.unshift(node === document.documentElement ? name : `${name}[${sameNameIndex(node)}]`);
    }
    return `/${steps.join("/")}`;
  };

  const cut = (text, limit) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

  const describe = (element) => {
    const box = element.getBoundingClientRect();
    return {
      selector: engine.selectorFor(element),
      xpath: xpathFor(element),
      text: cut((element.innerText ?? element.textContent ?? "").replace(/\s+/g, " ").trim(), DETAILS_CHARS.text),
      tagName: element.localName,
      attributes: Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value])),
      html: cut(element.outerHTML, DETAILS_CHARS.html),
      boundingBox: { x: box.x, y: box.y, width: box.width, height: box.height },
    };
  };

  const overlay = (message) => {
    const host = document.createElement("pagelens-picker");
    host.style.cssText = "all: initial; position: fixed; inset: 0; z-index: 2147483647; pointer-events: none;";
    const root = host.attachShadow({ mode: "closed" });
    root.innerHTML = `
      <style>
        * { box-sizing: border-box; pointer-events: none; }
        .banner { position: fixed; top: 8px; left: 50%; transform: translateX(-50%); max-width: 90vw;
          padding: 8px 14px; border-radius: 6px; background: #1d1d1fe6; color: #fff;
          font: 13px/1.4 system-ui, sans-serif; box-shadow: 0 2px 8px #0006; }
        .hint, .current { opacity: 0.75; font-size: 12px; }
        .box { position: fixed; display: none; border: 2px solid #0a84ff; background: #0a84ff22; }
      </style>
      <div class="banner"><div class="message"></div><div class="hint"></div><div class="current"></div></div>
      <div class="box"></div>`;
    root.querySelector(".message").textContent = message || "Choose an element";
    root.querySelector(".hint").textContent = HINT;
    document.documentElement.append(host);
    return {
      host,
      show(element) {
        const box = root.querySelector(".box");
        const rect = element.getBoundingClientRect();
        Object.assign(box.style, {
          display: "block",
          left: `${rect.left}px`,
          top: `${rect.top}px`,
          width: `${rect.width}px`,
          height: `${rect.height}px`,
        });
        root.querySelector(".current").textContent = engine.selectorFor(element) ?? xpathFor(element);
      },
    };
  };

  // The key that ended the choice is still down: its release is the picker's too.
  const swallowRelease = (key) => {
    const onKeyUp = (event) => {
      if (event.key !== key) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      window.removeEventListener("keyup", onKeyUp, true);
    };
    window.addEventListener("keyup", onKeyUp, true);
    setTimeout(() => window.removeEventListener("keyup", onKeyUp, true), RELEASE_WAIT_MS);
  };

  let active = null;

  return {
    // Resolves to the chosen element's details, or {cancelled: true} on Esc, or
    // {stopped: true} when `stop` ends it.
    pick(message) {
      return new Promise((resolve) => {
        const view = overlay(message);
        let current = null;
        let hovered = null;
        const below = []; // where ↑ came from, for ↓ to go back

        const select = (element) => {
          current = element;
          view.show(element);
        };
        const finish = (result, endingKey) => {
          active = null;
          for (const [type, listener] of listeners) window.removeEventListener(type, listener, true);
          if (endingKey) swallowRelease(endingKey);
          view.host.remove();
          resolve(result);
        };
        const swallow = (event) => {
          event.preventDefault();
          event.stopImmediatePropagation();
        };
        const onMove = (event) => {
          if (!(event.target instanceof Element) || event.target === hovered) return;
          hovered = event.target;
          below.length = 0;
          select(hovered);
        };
        const onPointer = (event) => {
          swallow(event);
          if (event.type !== "click" || !(event.target instanceof Element)) return;
          // After ↑, a click inside the selection confirms the selection itself.
          finish(describe(current && current.contains(event.target) ? current : event.target));
        };
        const onKey = (event) => {
          swallow(event);
          if (event.type !== "keydown") return;
          if (event.key === "Escape") finish({ cancelled: true }, event.key);
          else if (event.key === "Enter" && current) finish(describe(current), event.key);
          else if (event.key === "ArrowUp" && current && current.parentElement) {
            below.push(current);
            select(current.parentElement);
          } else if (event.key === "ArrowDown" && current) {
            const child = below.pop() || current.firstElementChild;
            if (child) select(child);
          }
        };
        const listeners = [
          ["mousemove", onMove],
          ...BLOCKED.map((type) => [type, onPointer]),
          ["keydown", onKey],
          ["keyup", onKey],
          ["keypress", onKey],
        ];
        for (const [type, listener] of listeners) window.addEventListener(type, listener, true);
        active = () => finish({ stopped: true });
      });
    },
    stop() {
      if (active) active();
    },
    // The details of the element at a point of the viewport (CSS pixels), for a person who
    // points on a screenshot instead of the page itself; null when nothing is there.
    describeAt(x, y) {
      const element = document.elementFromPoint(x, y);
      return element ? describe(element) : null;
    },
  };
})
