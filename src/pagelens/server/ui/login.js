// The sign-in form: the token is checked against the daemon, then kept in this tab's
// session storage (gone when the tab closes).

import { ApiError, listSessions, setToken, forgetToken } from "./api.js";
import { byId } from "./dom.js";

const NOTE_KEY = "pagelens.signInNote"; // why the page signed out, shown on the form after the reload

/** Say on the next sign-in form why it is there (the page reloads in between). */
export const explainSignIn = (note) => sessionStorage.setItem(NOTE_KEY, note);

/** Show the form until a token works; resolves then. */
export const signIn = () =>
  new Promise((resolve) => {
    const form = /** @type {HTMLFormElement} */ (byId("login-form"));
    const input = /** @type {HTMLInputElement} */ (byId("token"));
    const error = byId("login-error");
    byId("login-view").hidden = false;
    error.textContent = sessionStorage.getItem(NOTE_KEY) ?? "";
    sessionStorage.removeItem(NOTE_KEY);
    input.focus();
    form.onsubmit = async (event) => {
      event.preventDefault();
      error.textContent = "";
      setToken(input.value.trim());
      try {
        await listSessions();
      } catch (problem) {
        forgetToken();
        error.textContent =
          problem instanceof ApiError && problem.status === 401 ? "That token is not this daemon's." : `The daemon did not answer: ${problem.message}`;
        input.focus();
        return;
      }
      input.value = "";
      byId("login-view").hidden = true;
      resolve(undefined);
    };
  });
