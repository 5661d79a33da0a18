"""What a player types or taps is what the app keeps, even while the screen is redrawn in between.

The browser sends a field's new value and then its change event; a redraw between the two set the
control back to what was drawn before, and a handler reading the control (``e.control.value``) stored
that old text: in CI a joining player's typed name was lost that way (27 Nov). The handlers take what
the event carries (``screens.looks.entered``). Here the real settings screen is redrawn as often as the
app can (``busy_settings_app.py``) while names are typed and a radio button is tapped; each must reach
the settings file. With ``e.control.value`` the very first name was lost (two runs of two); redrawn
every 2 ms instead, one in thirty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from screens.settings_state import load_settings

from .browser import Taps, open_page, running_app, type_into, wait_until

pytestmark = pytest.mark.browser

BUSY = Path(__file__).resolve().parent / "busy_settings_app.py"
TYPINGS = 30
"""Values typed, each waited for in the settings file."""


def test_typed_names_and_tapped_choices_survive_redraws_in_between(browser: Any, tmp_path: Path) -> None:
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path)}, script=BUSY) as url:
        page = open_page(browser, url)
        taps = Taps(page)
        for n in range(TYPINGS):
            name = f"Loisl {n}"
            type_into(page, "Eigener Name", name, timeout=30_000)
            wait_until(page, lambda name=name: load_settings(tmp_path).own_name == name, f"{name!r} saved as the own name")
        for theme, label in (("dunkel", "Dunkel"), ("hell", "Hell")) * 3:
            taps.tap("radio", label)
            wait_until(page, lambda theme=theme: load_settings(tmp_path).theme == theme, f"the theme {label!r} saved")
        page.close()
