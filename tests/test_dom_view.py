"""The dom view: the page's HTML without scripts, styles, handlers or field values, cut at
an element boundary."""

from __future__ import annotations

import re

import pagelens
from pagelens.actions import Session
from pagelens.engine.models import DomView

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures

FORM = """<html><head><script>window.secret = 1</script><style>b { color: red }</style></head>
<body><form><input name=q value="typed by the user" onclick="steal()">
<input type=password value=hunter2><input type=hidden name=csrf value=t0k3n>
<input type=submit value="Search"><textarea>my draft</textarea></form><div contenteditable>my note <b>bold</b></div>
<!-- a comment --><p style="color: red" title="a &quot;quoted&quot; title">Fish &amp; <b>chips</b></p></body></html>"""


async def test_the_dom_is_sanitised(page: pagelens.Page) -> None:
    await page.set_content(FORM)
    view = await page.snapshot("dom")
    assert isinstance(view, DomView) and view.truncated is False
    html = view.html
    for gone in ("window.secret", "color: red", "steal()", "typed by the user", "hunter2", "t0k3n", "my draft",
                 "a comment", "<script", "<style", "my note"):  # fmt: skip
        assert gone not in html, gone
    assert 'value="Search"' in html  # a button's caption is not the user's
    assert '<p title="a &quot;quoted&quot; title">Fish &amp; <b>chips</b></p>' in html
    assert re.search(r'<input name="q" data-llm-id="\d+">', html)  # controls keep their ids


async def test_a_long_page_is_cut_at_an_element_boundary(page: pagelens.Page) -> None:
    await page.set_content("<main>" + "".join(f"<p>Paragraph {i} <em>here</em></p>" for i in range(3000)) + "</main>")
    whole = await page.snapshot("dom", request={"maxDomChars": 200_000})
    assert isinstance(whole, DomView) and whole.truncated is False and len(whole.html) > 50_000
    default = await page.snapshot("dom")
    short = await page.snapshot("dom", request={"maxDomChars": 1_000})
    for view, limit in ((default, 50_000), (short, 1_000)):
        assert isinstance(view, DomView) and view.truncated is True and limit - 200 < len(view.html) <= limit
        assert view.html.endswith("</main></body></html>")
        assert view.html.count("<p>") == view.html.count("</p>")  # no element cut in half
        assert view.html.count("<em>") == view.html.count("</em>")


async def test_analyze_reads_the_dom_with_its_hash(session: Session, site: str) -> None:
    await session.interact({"action": "navigate", "url": f"{site}form.html", "summary": False})
    first = (await session.analyze({"what": "dom"})).data
    assert first["html"].startswith("<html") and first["truncated"] is False and first["hash"]
    again = (await session.analyze({"what": "dom", "if_changed_since": first["hash"]})).data
    assert again == {"unchanged": True, "hash": first["hash"]}
