"""The action layer: tabs, navigation, actions with verification, background commands.

    async with await Session.start() as session:
        result = await session.interact({"action": "navigate", "url": "https://example.com"})
        result["summary"]                      # the compact summary of where it landed
        view = await session.analyze({"what": "semantic"})
        button = view.data["interactive_tree"][0]["i"]
        done = await session.interact({"action": "click", "element_id": button})
        done["observations"]                   # what the click visibly did

Modules: models (the contracts), session (the entry point), tabs, navigation, settle,
targets, perform (element actions, actionability, dialogs held for the agent), healing,
observe, dialogs, commands (background mode), runtime (the browser and its restarts),
analyze (the views), bridge (calls into engine/js/act_*.js).
"""

from pagelens.actions.errors import ActionError, InvalidParameterError
from pagelens.actions.models import (
    ActionResult,
    AnalyzeRequest,
    AnalyzeResult,
    InteractRequest,
    Observations,
    TabInfo,
)
from pagelens.actions.session import Session

__all__ = [
    "ActionError",
    "ActionResult",
    "AnalyzeRequest",
    "AnalyzeResult",
    "InteractRequest",
    "InvalidParameterError",
    "Observations",
    "Session",
    "TabInfo",
]
