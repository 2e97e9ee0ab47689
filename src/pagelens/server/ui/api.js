// The daemon's HTTP API as the page calls it: every request carries the token kept in this
// tab's session storage (docs/server.md, "The web UI"); failures come back as ApiError with
// the daemon's error code.

const TOKEN_KEY = "pagelens.token";

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const setToken = (value) => sessionStorage.setItem(TOKEN_KEY, value);
export const forgetToken = () => sessionStorage.removeItem(TOKEN_KEY);

/** @param {string} path @param {{method?: string, body?: any}} [options] */
const request = async (path, { method = "GET", body = undefined } = {}) => {
  const headers = { Authorization: `Bearer ${token() ?? ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.ok) return response;
  let error = { error: "http_error", message: `${response.status} ${response.statusText}` };
  try {
    error = await response.json();
  } catch {
    // not the daemon's JSON (a proxy's page): the status says enough
  }
  throw new ApiError(response.status, error.error, error.message);
};

/** The JSON answer of `path`. @param {string} path @param {{method?: string, body?: any}} [options] */
export const api = async (path, options = {}) => (await request(path, options)).json();

/** An image of `path` as a blob: URL (an <img> cannot send the token itself). */
export const imageUrl = async (path) => URL.createObjectURL(await (await request(path)).blob());

export const listSessions = () => api("/api/sessions?limit=50");
export const renameSession = (id, title) =>
  api(`/api/session/${encodeURIComponent(id)}`, { method: "PATCH", body: { title } });
export const sessionMessages = (id) => api(`/api/session/${encodeURIComponent(id)}/messages`);
export const listModels = () => api("/api/models");
export const sessionRuns = (id) => api(`/api/runs?sessionId=${encodeURIComponent(id)}&limit=1`);
export const getRun = (id) => api(`/api/runs/${encodeURIComponent(id)}`);
export const startRun = (task, url, model) => api("/api/runs", { method: "POST", body: { task, url, model } });
export const stopRun = (id) => api(`/api/runs/${encodeURIComponent(id)}/stop`, { method: "POST" });
export const pick = (id, answer) => api(`/api/runs/${encodeURIComponent(id)}/pick`, { method: "POST", body: answer });
export const screenshotUrl = (id) => imageUrl(`/api/runs/${encodeURIComponent(id)}/screenshot`);
