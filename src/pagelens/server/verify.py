"""Did the client's last action work? Each interact call after the first brings the page
after the action; compared with the page the action was decided on, and with what the
client itself reports, it gives a verdict. The verdict ends the plan step the action was
for, and reaches the model inside the action's tool result (never as the user's words)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pagelens.server.interact_models import InteractBody


class PageMark(BaseModel):
    """The page an action was decided on, kept with the task until the next call."""

    url: str
    fingerprint: str
    stepIndex: int | None = None  # noqa: N815  (the plan step the action was for)


class Verdict(BaseModel):
    """What the model reads in its action's result (the call it answers names the action)."""

    verdict: Literal["completed", "failed"]
    reason: str


def judge(before: PageMark, body: InteractBody, fingerprint: str) -> Verdict:
    """A failure the client reports wins; else any sign of change means the action took;
    else the client's own word; else nothing happened, which is a failure."""
    failures = _failures(body)
    changes = _changes(before, body, fingerprint)
    if failures:
        reason = "; ".join(failures + ([] if changes else [_unchanged(before)]))
        return Verdict(verdict="failed", reason=reason)
    if changes:
        return Verdict(verdict="completed", reason="; ".join(changes))
    result = body.lastActionResult
    if body.lastActionStatus == "success" or (result is not None and result.success):
        reason = f"the client reports success, though {_unchanged(before)}"
        return Verdict(verdict="completed", reason=reason)
    return Verdict(verdict="failed", reason=_unchanged(before))


def _failures(body: InteractBody) -> list[str]:
    found = []
    if body.lastActionError is not None:
        error = body.lastActionError
        found.append(f"the action failed: {error.message} ({error.code})")
    elif body.lastActionStatus == "failure":
        found.append("the client reports that the action failed")
    if body.lastActionResult is not None and not body.lastActionResult.success:
        state = body.lastActionResult.actualState
        found.append("the action's result was a failure" + (f" ({state})" if state else ""))
    verification = body.clientVerification
    if verification is not None and not verification.elementFound:
        found.append(f"the expected element ({verification.selector or 'no selector given'}) is not on the page")
    if body.verification_passed is False:
        found.append(body.verification_message or "the client's verification failed")
    if body.errors_detected:
        found.append("the page shows errors: " + "; ".join(body.errors_detected))
    return found


def _changes(before: PageMark, body: InteractBody, fingerprint: str) -> list[str]:
    seen = body.clientObservations
    found = []
    if body.url != before.url:
        found.append(f"the URL changed from {before.url} to {body.url}")
    elif (seen is not None and seen.didUrlChange) or (body.clientVerification and body.clientVerification.urlChanged):
        found.append("the client saw the URL change")
    if fingerprint != before.fingerprint:
        found.append("the page's controls changed")
    elif seen is not None and seen.didDomMutate:
        found.append("the client saw the page change")
    if seen is not None and seen.didNetworkOccur:
        found.append("the client saw network activity")
    if body.success_messages:
        found.append("the page shows: " + "; ".join(body.success_messages))
    if body.verification_passed:
        found.append(body.verification_message or "the client's verification passed")
    return found


def _unchanged(before: PageMark) -> str:
    return f"nothing changed: the URL is still {before.url} and the page shows the same controls"
