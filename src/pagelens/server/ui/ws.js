// The session's WebSocket (docs/server.md, "The WebSocket"): every event of the open
// session, reconnecting with a growing pause when the connection drops. `onOpen` runs on
// each (re)connection, so the page refetches what it may have missed meanwhile.

import { token } from "./api.js";

const PING_MS = 25_000; // a browser cannot send WebSocket pings: the daemon's text ping
const RETRY_MS = [500, 1000, 2000, 5000];
const NO_SESSION = 4404; // the daemon's close for a session id no session has: not worth a retry

/**
 * @param {string} sessionId
 * @param {{onEvent: (event: any) => void, onOpen: () => void, onState: (state: string) => void}} handlers
 * @returns {{close: () => void}}
 */
export const watch = (sessionId, { onEvent, onOpen, onState }) => {
  let socket = null;
  let pinger = null;
  let retries = 0;
  let closed = false;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ token: token() ?? "" });
    socket = new WebSocket(`${scheme}://${location.host}/api/session/${encodeURIComponent(sessionId)}/ws?${query}`);
    onState("connecting");
    socket.addEventListener("open", () => {
      retries = 0;
      onState("live");
      pinger = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), PING_MS);
      onOpen();
    });
    socket.addEventListener("message", (message) => {
      const event = JSON.parse(message.data);
      if (event.type !== "pong") onEvent(event);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(pinger);
      if (closed) return;
      if (event.code === NO_SESSION) {
        onState("gone");
        return;
      }
      onState("offline");
      setTimeout(connect, RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)]);
    });
  };

  connect();
  return {
    close() {
      closed = true;
      clearInterval(pinger);
      socket.close();
    },
  };
};
