"""The app's page in a browser runs Flutter's skwasm without a worker of its own (``assets/index.html``).

With its worker, skwasm hung a page in its text layout (README: "A test that hangs cannot hold the
run"): a page on ``localhost`` or over HTTPS is cross-origin isolated, and Flet's own page then starts
skwasm's worker, so ``./dev app`` in a browser got it. The app serves Flet's ``index.html`` with one block
of its own that asks for ``forceSingleThreadedSkwasm``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import flet_web
import pytest

from .browser import PHONE, enable_semantics, flutter_config, running_app, wait_for_text
from .conftest import ROOT

OWN_BLOCK = re.compile(r"  <!-- Tischblock -->\n.*?  <!-- /Tischblock -->\n\n", re.DOTALL)
"""The app's one block in its ``index.html``, everything else there being Flet's."""


def test_the_apps_index_html_is_flets_own_with_one_block_more() -> None:
    """A Flet upgrade that changes its ``index.html`` fails here: the app's copy must follow it."""
    ours = (ROOT / "assets" / "index.html").read_text(encoding="utf-8")
    flets = (Path(flet_web.__file__).parent / "web" / "index.html").read_text(encoding="utf-8")
    assert len(OWN_BLOCK.findall(ours)) == 1
    assert OWN_BLOCK.sub("", ours) == flets
    assert "forceSingleThreadedSkwasm = true" in OWN_BLOCK.findall(ours)[0]


def skwasm_workers(page: Any) -> list[str]:
    """The page's dedicated workers: skwasm's is the only one Flet's page starts (from a blob URL)."""
    return [worker.url for worker in page.workers]


@pytest.mark.browser
def test_the_apps_page_draws_without_skwasms_worker_and_a_page_asking_for_it_gets_it(browser: Any, tmp_path: Path) -> None:
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}) as url:
        # The page as a player's browser opens it: none of the tests' scripts (they ask for the same).
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        enable_semantics(page)
        wait_for_text(page, "Noch kein Blatt auf diesem Handy", 30_000)
        # skwasm's worker draws every frame, so it runs before the start screen reads out, and Playwright
        # holds a new worker until it has attached to it: none listed by now is none at all (the control
        # below sees it at the same state)
        assert skwasm_workers(page) == []
        assert page.evaluate("window.crossOriginIsolated") is True, "the page could have had the worker"
        page.close()

        # The control: the same page asking for the worker gets one, so the check above can see it.
        control = browser.new_page(viewport=PHONE)
        control.add_init_script(flutter_config({"forceSingleThreadedSkwasm": False}))
        control.goto(url)
        enable_semantics(control)
        wait_for_text(control, "Noch kein Blatt auf diesem Handy", 30_000)
        assert len(skwasm_workers(control)) == 1, skwasm_workers(control)
        control.close()
