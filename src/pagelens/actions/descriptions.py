"""Descriptions of the two tools and their parameters, as agents read them in the tool
list (the MCP server's and the agent's alike). Types, enums and defaults come from the
models (see schemas.py);
a description the model itself carries (pydantic `Field(description=...)`) wins over the
one here, so these are only the wording an agent needs on top of the typed contract."""

from __future__ import annotations

from pagelens.actions.models import ENGINE_VIEWS
from pagelens.engine.models import VIEW_SPECS
from pagelens.engine.roles import FILE_INPUT_SHORT, ROLE_SHORT, SEMANTIC_STATES
from pagelens.extraction.summarize import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S

INTERACT = (
    "Navigate and act in the browser. navigate, refresh, back, forward and new_tab return "
    "the loaded page's compact summary (type, title, H1s, top actions with selectors, "
    "forms, content preview), so no analyze call is needed to orient after navigating. "
    "The result is one JSON object: success, action, url, title, message; error and "
    "message when success is false; observations of what the action changed."
)

ANALYZE = (
    "Read the current page (or another tab) when the navigation summary is not enough: "
    "controls with their stable ids to act on, the semantic tree, the skeleton HTML, the "
    "full summary, the main content as Markdown, a screenshot (returned as an image), the "
    "open tabs, or a background "
    "command's status."
)

INTERACT_PARAMETERS: dict[str, str] = {
    "action": "What to do; see the tool description for the parameters each action reads.",
    "url": (
        "navigate/new_tab: the address to load; a path (/docs/a.html, ./a.html, ?page=2) is relative to "
        "the current page. wait_for: a URL substring or * glob."
    ),
    "tab_id": "The tab to act in (ids from list_tabs or analyze tabs); default: the active tab.",
    "new_tab": "navigate: open the URL in a new tab instead of the current one.",
    "element_id": (
        "The target's stable id from any view (summary, interaction `id`, semantic `i`, "
        'skeleton `data-llm-id`); "12.5" is control 5 inside frame 12.'
    ),
    "selector": (
        'The target as CSS, or text=..., role=button[name="Save"], aria-label=..., label=..., '
        "placeholder=... (the forms the summary's actions carry)."
    ),
    "x": "Viewport x in CSS pixels, inside the viewport, for a coordinate click/double_click/hover (with y).",
    "y": "Viewport y in CSS pixels, inside the viewport, for a coordinate click/double_click/hover (with x).",
    "text": "type: text to append. wait_for: text to wait for. handle_dialog: a prompt's answer.",
    "key": 'press: a key or chord, e.g. "Enter", "Escape", "Control+A".',
    "value": (
        "set_value: the new value. select: an option's value or label (a list for several). "
        'scroll: "down", "up", "top", "bottom" or pixels. upload_file: a path (or list). '
        'wait_for: milliseconds. handle_dialog: "accept" or "dismiss". scroll_to_load: how many '
        "new items to load (default 100)."
    ),
    "summary": (
        "Return the compact page summary after navigate/refresh/back/forward/new_tab, and after an action "
        "whose click loaded another page (default true; never in the background)."
    ),
    "background": (
        "Queue the action and return {queued, command_id} at once; action result fetches its result. "
        "A navigation then comes without the summary: read the page with analyze."
    ),
    "command_id": "result: the id of a background command; waits up to 15 s for it.",
    "frame": "Scopes selector to the frame whose element has this id.",
}

ANALYZE_PARAMETERS: dict[str, str] = {
    "what": (
        "; ".join(f"{name} ({VIEW_SPECS[name].doc})" for name in ENGINE_VIEWS)
        + "; markdown (the main content to read: no navigation, ads, footers or cookie banners; "
        "with title, byline, site_name, published, language, word_count); "
        "screenshot (viewport JPEG, at most 1024 px wide and 8000 px high); tabs; command_result. The earlier "
        "names page_summary and interactive still work."
    ),
    "tab_id": "The tab to read; default: the active tab.",
    "world": (
        '"isolated" (default: the page can neither see nor disturb the reader) or "main" '
        "(the page's own JavaScript world); the tool description says which views take it."
    ),
    "query": (
        "interaction/semantic/skeleton/markdown: keep the controls (elements, blocks) whose text "
        'contains this, or, when none does, those most relevant to it (e.g. "click the Export '
        'report button"; a control\'s heading counts too: "add the Birch mug to the cart").'
    ),
    "command_id": "command_result: the background command to report (default: every kept command).",
    "max_tokens": (
        "interaction/semantic/skeleton/markdown: the most tokens the view may take (default "
        "4000); a bigger view is cut by query relevance, or into pages."
    ),
    "include_offscreen": "semantic: keep controls outside the viewport (pruned by default).",
    "full_page": "screenshot: the whole page instead of the viewport.",
    "element_id": "screenshot: only this element (a stable id from any view), scrolled into view.",
    "selector": "screenshot: only the element this selector finds (CSS, text=, role=..., as interact takes).",
    "marks": (
        "screenshot: draw each visible control's box and id on the image (Set-of-Marks); the ids "
        "are the semantic view's, usable as element_id."
    ),
    "screenshot_hash": (
        "screenshot: the hash of a screenshot you already have; an unchanged screen answers "
        "{unchanged: true, hash} without an image."
    ),
    "include_values": (
        "interaction/semantic: show what the fields hold (value / v); passwords and other sensitive fields never."
    ),
    "include_boxes": "semantic: give each node's box [x, y, width, height].",
    "mask_contact_details": (
        "full/interaction/semantic/skeleton/dom: false shows e-mail addresses and phone numbers "
        "as the page has them (masked as [email] / [phone] by default)."
    ),
    "max_controls": "interaction: the most controls to list (default 400); `truncated` says when more exist.",
    "max_headings": "interaction: the most headings to list (default 30).",
    "max_iframe_depth": "interaction/semantic: how many levels of frames to read (default 1; 0: none).",
    "base_url": (
        "full/interaction/semantic/skeleton/dom: read the page as if loaded from this absolute "
        "http(s) address: relative links resolve against it, and it is the view's url."
    ),
    "max_dom_chars": "dom: where the HTML is cut, 1000 to 200000 characters (default 50000); `truncated` says so.",
    "page": (
        "interaction/semantic/skeleton/markdown: which page of a view too big for max_tokens "
        "(default 1; the result says page and pages)."
    ),
    "if_changed_since": (
        "The hash of a view you already have: when the page still shows the same, the answer "
        "is only {unchanged: true, hash}."
    ),
}

_ROLES = ", ".join(f"{short} {role}" for role, short in ROLE_SHORT.items()) + f", {FILE_INPUT_SHORT} file input"

# The semantic view's short keys, states and role abbreviations, from the one role table.
SEMANTIC_KEYS = (
    "The semantic view's keys: i id, r role, n name, c where another control bears the same name, what tells "
    "it apart (its row, card or item: order number, product, result title), t its text where it shows a number "
    "the name leaves out "
    f"(a count badge), v value, s states ({', '.join(SEMANTIC_STATES)}; "
    "password marks a field for a secret), d its description (a field's error or hint), xy the point a "
    "click lands on, box [x, y, width, height], scr a scroller's position (h: more below), occ covered by "
    "something else, f the frame's number. "
    f"Roles: {_ROLES}."
)

SUMMARIZE = (
    "Read a URL's main content in a tab of its own (the current page is left as it is): with "
    "extractOnly true, the content itself (text, markdown or html) and its metadata; otherwise a "
    "summary written by the configured language model."
)

SUMMARIZE_PARAMETERS: dict[str, str] = {
    "url": "The page to read: an http or https address (a bare host gets https).",
    "extractOnly": "true: return the extracted content; false: a summary (needs a language model).",
    "format": "The content's form: text, markdown or html.",
    "markdownMode": "How Markdown is made: readability (default) or auto.",
    "model": "A summary's model, provider/model (default: the configured one).",
    "length": 'A summary\'s length: short, medium, long, xl, xxl, or characters such as "20k".',
    "language": "A summary's language (\"auto\": the page's).",
    "prompt": "Instructions that replace the default summary prompt.",
    "timeout": f'The whole call\'s limit: seconds, or "90s", "2m" (default {DEFAULT_TIMEOUT_S:g} s, '
    f"at most {MAX_TIMEOUT_S:g} s).",
    "maxOutputTokens": 'A summary\'s most tokens ("2k" or a number).',
    "noCache": "Accepted for compatibility; pagelens keeps no summary cache.",
    "firecrawl": "Accepted for compatibility; pagelens reads pages in its own browser.",
    "preprocess": "Accepted for compatibility.",
    "youtube": "Accepted for compatibility.",
    "videoMode": "Accepted for compatibility.",
    "timestamps": "Accepted for compatibility.",
    "maxCharacters": "Cut the content at this many characters (default 120,000).",
}
