// The task header of the open session's run: the task, its status (RUNNING, COMPLETED,
// FAILED, STOPPED, announced politely), why it failed or stopped, Stop while it runs.

import { byId } from "./dom.js";
import { renderPlan } from "./plan.js";

/** @param {any | null} run @param {string} activity */
export const renderRun = (run, activity) => {
  const section = byId("run");
  section.hidden = !run;
  if (!run) return;
  const running = run.status === "RUNNING";
  byId("run-title").textContent = run.task;
  const status = byId("run-status");
  if (status.textContent !== run.status) status.textContent = run.status;
  status.className = `status ${run.status.toLowerCase()}`;
  byId("stop").hidden = !running;
  const reason = byId("run-reason");
  reason.hidden = running || !run.result;
  reason.textContent = run.status === "COMPLETED" ? `Result: ${run.result ?? ""}` : `Reason: ${run.result ?? ""}`;
  reason.className = run.status === "COMPLETED" ? "reason" : "reason error";
  byId("run-activity").textContent = running ? activity : "";
  renderPlan(byId("plan"), run.plan, running);
};
