"""The plan (agent/plan.py) and the history kept under its token budget (agent/history.py):
pure logic, no browser."""

from __future__ import annotations

import pytest

from pagelens.agent.history import KEEP_RECENT_RESULTS, History
from pagelens.agent.llm.messages import Message, ToolCall, ToolDefinition
from pagelens.agent.plan import Plan, PlanParams
from pagelens.tokens import count_tokens


def params(*steps: str | tuple[str, str]) -> PlanParams:
    return PlanParams.model_validate(
        {"steps": [{"description": s} if isinstance(s, str) else {"description": s[0], "status": s[1]} for s in steps]}
    )


def test_a_new_plan_has_ids_indexes_and_starts_at_the_first_step() -> None:
    plan = Plan()
    plan.set(params("Search", "Open a result", "Ask"))
    assert [(s.id, s.index, s.status) for s in plan.steps] == [
        ("step_0", 0, "pending"),
        ("step_1", 1, "pending"),
        ("step_2", 2, "pending"),
    ]
    assert plan.currentStepIndex == 0 and plan.createdAt.endswith("Z")


def test_an_update_keeps_known_statuses_and_follows_the_step_under_way() -> None:
    plan = Plan()
    plan.set(params("Search", "Open a result", "Ask"))
    plan.start_step()
    assert plan.steps[0].status == "in_progress"
    plan.set(params(("Search", "completed"), "Open a result", "Ask"))
    assert [s.status for s in plan.steps] == ["completed", "pending", "pending"]
    assert plan.currentStepIndex == 1
    plan.start_step()
    # Listed again without statuses, the steps keep what they had.
    plan.set(params("Search", "Open a result", "Ask"))
    assert [s.status for s in plan.steps] == ["completed", "in_progress", "pending"]
    # "active" is the earlier clients' word for in_progress.
    plan.set(params(("Search", "completed"), ("Open a result", "completed"), ("Ask", "active")))
    assert plan.steps[2].status == "in_progress" and plan.currentStepIndex == 2


def test_a_replaced_step_starts_afresh() -> None:
    plan = Plan()
    plan.set(params(("Search", "completed"), "Open a result"))
    plan.set(params(("Search", "completed"), "Use the menu instead"))
    assert plan.steps[1].status == "pending"


def test_finishing_completes_the_step_under_way_and_skips_the_rest() -> None:
    plan = Plan()
    plan.set(params(("Search", "completed"), ("Open", "in_progress"), "Ask"))
    plan.finish(succeeded=True, outcome="found it")
    assert [s.status for s in plan.steps] == ["completed", "completed", "skipped"]
    assert plan.steps[1].outcome == "found it"


def test_failing_marks_the_step_under_way_and_leaves_the_rest_pending() -> None:
    plan = Plan()
    plan.set(params(("Search", "completed"), "Open", "Ask"))
    plan.finish(succeeded=False, outcome="no results")
    assert [s.status for s in plan.steps] == ["completed", "failed", "pending"]
    assert plan.currentStepIndex == 2
    assert plan.render().splitlines()[1] == "[!] 1. Open"


@pytest.mark.parametrize(
    "bad", [{"steps": []}, {"steps": [{"description": ""}]}, {"steps": [{"description": "x", "status": "done"}]}]
)
def test_a_malformed_plan_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        PlanParams.model_validate(bad)


# ---- the history under its budget

TOOL = ToolDefinition(name="interact", description="acts", parameters={"type": "object"})


def step(history: History, n: int, result_chars: int) -> None:
    call = ToolCall(id=f"c{n}", name="interact", arguments={"action": "click", "element_id": str(n)})
    history.add(Message(role="assistant", content=f"step {n}", tool_calls=[call]))
    history.add(
        Message(role="tool", tool_call_id=call.id, content=f"result {n} " + "word " * (result_chars // 5)),
        stub=f'{{"success":true,"step":{n},"cut":"..."}}',
    )


def well_formed(messages: list[Message]) -> bool:
    """Every tool result answers a call made earlier in the same request."""
    called: set[str] = set()
    for message in messages:
        called |= {call.id for call in message.tool_calls}
        if message.role == "tool" and message.tool_call_id not in called:
            return False
    return True


def test_old_results_are_cut_to_stubs_first_and_the_newest_stay_whole() -> None:
    history = History([TOOL], budget=3_000)
    history.add(Message(role="system", content="system prompt"))
    history.add(Message(role="user", content="Task: buy a kettle"))
    cut: list[int] = []
    for n in range(8):
        step(history, n, 2_000)
        history.entries[-1].on_cut = lambda n=n: cut.append(n)
    messages = history.messages()
    assert history.tokens() <= 3_000
    results = [m for m in messages if m.role == "tool"]
    assert len(results) == 8 and well_formed(messages)
    assert all(r.content.startswith("result") for r in results[-KEEP_RECENT_RESULTS:])
    assert results[0].content.startswith('{"success":true,"step":0')
    assert cut == sorted(cut) and 0 in cut and 7 not in cut
    assert messages[1].content == "Task: buy a kettle"


def test_when_stubs_are_not_enough_old_steps_go_and_the_task_says_so() -> None:
    history = History([TOOL], budget=900)
    history.add(Message(role="system", content="system prompt"))
    history.add(Message(role="user", content="Task: buy a kettle"))
    for n in range(40):
        step(history, n, 400)
    messages = history.messages()
    assert history.tokens() <= 900
    assert well_formed(messages) and messages[2].role == "assistant"
    assert messages[1].content.startswith("Task: buy a kettle\n\n[")
    assert f"[{history.dropped_steps} earlier step(s) were left out" in messages[1].content
    assert messages[-1].content.startswith("result 39")
    assert count_tokens(messages[1].content) < 40
