"""The browser tests' own waits can fail, and then say what happened: on plain pages made to be wrong."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from . import browser as browser_helpers
from .browser import ScreenAssertionError, stand_still

RUNAWAY = """<body style="margin:0;height:3000px">
<button aria-label="Weg" style="position:fixed;left:10px;top:1200px;width:200px;height:60px">Weg</button>
<script>
  let turns = 0;
  addEventListener("wheel", () => {
    document.querySelector("button").style.top = (1200 + (++turns % 2) * 100) + "px";
  });
</script>
</body>"""
"""A control below the screen that moves elsewhere below it at every turn of the wheel: never reached."""


@pytest.mark.browser
def test_a_control_the_wheel_never_brings_up_is_reported_with_its_turns(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait ends at its deadline with what it saw and how it turned the wheel, not with a report of
    a page that draws no frame (which is what it said once its deadline was all but spent, 28 Nov). The
    screenshot it names is there; it goes to this test's own directory (every run left one in /tmp)."""
    monkeypatch.setattr(browser_helpers, "FAILURES", tmp_path)
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.route("http://waits.check/**", lambda route: route.fulfill(body=RUNAWAY, content_type="text/html"))
    page.goto("http://waits.check/")
    with pytest.raises(ScreenAssertionError) as failure:
        stand_still(page, page.get_by_role("button", name="Weg"), "Weg", 2_000)
    page.close()
    message = str(failure.value)
    assert message.startswith("'Weg' did not stand still"), message
    turns = re.search(r"(\d+) wheel turns", message)
    assert turns is not None and int(turns.group(1)) >= 2, message
    shot = re.search(r"\(screenshot: (\S+\.png);", message)
    assert shot is not None and Path(shot.group(1)).parent == tmp_path and Path(shot.group(1)).stat().st_size > 0, message


@pytest.mark.browser
def test_a_way_in_the_app_that_the_app_never_answers_fails_and_says_so(browser: Any) -> None:
    """``go_in_app`` returns only once the app has answered the new address: on a page with no app
    behind it (no connection to answer over) it fails, naming the address, instead of letting the
    test read the screen it was on for the one it wanted."""
    page = browser_helpers.with_editing_probe(browser.new_page(viewport={"width": 412, "height": 915}))
    page.route("http://waits.check/**", lambda route: route.fulfill(body="<p>Start</p>", content_type="text/html"))
    page.goto("http://waits.check/")
    with pytest.raises(ScreenAssertionError) as failure:
        browser_helpers.go_in_app(page, "http://waits.check/hilfe")
    page.close()
    assert str(failure.value).startswith("the app did not answer the address '/hilfe' (no connection)"), failure.value
