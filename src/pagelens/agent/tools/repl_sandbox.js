// The repl's globals, set up in the sandbox page before the caller's code runs. Every
// helper that reaches the target page goes through the Python bridge; the sandbox itself
// has no page content and no network.
(() => {
  const bridge = globalThis.__pagelensReplBridge;
  const output = [];
  const files = [];
  const NAVIGATION_REFUSED = "navigation_refused: this code may not navigate; use navigate({url}) instead";

  // JSON where possible, the way a REPL prints values otherwise.
  const render = (value) => {
    if (value === undefined) return "undefined";
    if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value === "symbol" || (typeof value === "number" && !Number.isFinite(value))) return String(value);
    if (value instanceof Error) return value.stack || String(value);
    const seen = new WeakSet();
    try {
      return JSON.stringify(value, (key, item) => {
        if (typeof item === "bigint") return `${item}n`;
        if (typeof item === "function") return `[Function ${item.name || "anonymous"}]`;
        if (item instanceof Error) return String(item);
        if (typeof item === "object" && item !== null) {
          if (seen.has(item)) return "[Circular]";
          seen.add(item);
        }
        return item;
      });
    } catch {
      return String(value);
    }
  };

  const print = (prefix) => (...args) => {
    output.push(prefix + args.map((arg) => (typeof arg === "string" ? arg : render(arg))).join(" "));
  };
  console.log = print("");
  console.info = print("");
  console.debug = print("");
  console.warn = print("warn: ");
  console.error = print("error: ");

  const base64 = (content) => {
    let bytes;
    if (typeof content === "string") bytes = new TextEncoder().encode(content);
    else if (content instanceof ArrayBuffer) bytes = new Uint8Array(content);
    else if (ArrayBuffer.isView(content)) bytes = new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
    else throw new TypeError("returnFile: content must be a string, an ArrayBuffer or a typed array");
    let binary = "";
    for (let start = 0; start < bytes.length; start += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
    }
    return btoa(binary);
  };

  globalThis.returnFile = (nameOrFile, content, mimeType) => {
    const file = typeof nameOrFile === "object" && nameOrFile !== null
      ? nameOrFile
      : { fileName: nameOrFile, content, mimeType };
    if (typeof file.fileName !== "string" || !file.fileName) throw new TypeError("returnFile: a file name is needed");
    files.push({
      fileName: file.fileName,
      mimeType: file.mimeType || "application/octet-stream",
      contentBase64: base64(file.content),
    });
  };

  globalThis.sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  globalThis.browserjs = (fn, ...args) => {
    if (typeof fn !== "function") return Promise.reject(new TypeError("browserjs(fn, ...args) needs a function"));
    return bridge("browserjs", { source: String(fn), args });
  };
  globalThis.navigate = (options) => bridge("navigate", { url: options && options.url });
  globalThis.nativeClick = (selector) => bridge("native", { action: "click", selector });
  globalThis.nativeType = (selector, text) => bridge("native", { action: "type", selector, text });
  globalThis.nativePress = (key) => bridge("native", { action: "press", key });
  globalThis.nativeKeyDown = (key) => bridge("native", { action: "keydown", key });
  globalThis.nativeKeyUp = (key) => bridge("native", { action: "keyup", key });

  // The sandbox stays on its blank page: a navigation would end the code's world.
  const refuse = (what) => {
    bridge("refuse", { what });
    throw new Error(NAVIGATION_REFUSED);
  };
  navigation.addEventListener("navigate", (event) => {
    bridge("refuse", { what: event.destination.url });
    if (event.cancelable) event.preventDefault();
  });
  for (const name of ["pushState", "replaceState", "back", "forward", "go"]) {
    history[name] = () => refuse(`history.${name}`);
  }
  window.open = () => refuse("window.open");

  globalThis.__pagelensRepl = {
    report: (...value) => ({ output, files, value: value.length ? render(value[0]) : null }),
  };
})();
