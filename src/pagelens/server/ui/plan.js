// The plan stepper: past steps dimmed, the current one highlighted, future ones grey; a
// "Planning…" skeleton while a run has no plan yet. Step statuses are the agent's
// (docs/agent.md): pending, in_progress (or active), completed, failed, skipped.

import { h, fill } from "./dom.js";

const DONE = new Set(["completed", "failed", "skipped"]);
const MARK = { completed: "✓", failed: "✗", skipped: "–" };

/** @param {HTMLElement} container @param {any} plan @param {boolean} running */
export const renderPlan = (container, plan, running) => {
  const steps = plan?.steps ?? [];
  if (!steps.length) {
    fill(container, running ? skeleton() : h("p", { className: "muted" }, "No plan."));
    return;
  }
  const current = plan.currentStepIndex ?? 0;
  fill(container, h("ol", { className: "stepper" }, ...steps.map((step) => stepItem(step, current, running))));
};

const stepItem = (step, current, running) => {
  const isCurrent = running && step.index === current && !DONE.has(step.status);
  const place = isCurrent ? "current" : DONE.has(step.status) || step.index < current ? "past" : "future";
  const status = step.status === "active" ? "in_progress" : step.status;
  return h(
    "li",
    { className: `step ${place} ${status}`, "aria-current": isCurrent ? "step" : false, "data-status": status },
    h("span", { className: "step-mark", "aria-hidden": "true" }, MARK[status] ?? String(step.index + 1)),
    h("span", { className: "step-text" }, step.description),
    h("span", { className: "visually-hidden" }, ` (${status.replace("_", " ")})`),
  );
};

const skeleton = () =>
  h(
    "div",
    { className: "skeleton", role: "status" },
    h("p", {}, "Planning…"),
    h("span", { className: "bar", "aria-hidden": "true" }),
    h("span", { className: "bar", "aria-hidden": "true" }),
    h("span", { className: "bar short", "aria-hidden": "true" }),
  );
