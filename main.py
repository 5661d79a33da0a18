"""Tischblock, the app: ``ft.run(main)``. Routing lives here and only here.

``tischblock app`` (or ``./dev app``) serves it in the browser; ``flet build`` packages it.
"""

from __future__ import annotations

import os
from pathlib import Path

import flet as ft

from screens.example_sheet import ExampleSheet
from screens.ruleset_list import RulesetList
from screens.state import ExampleState, ruleset_infos

ASSETS = Path(__file__).resolve().parent / "assets"
"""App icon and favicon; found wherever the app is started from."""


@ft.component
def App() -> list[ft.View]:
    example, _ = ft.use_state(ExampleState())
    route, set_route = ft.use_state("/")
    rulesets, _ = ft.use_state(ruleset_infos())

    def open_example(ruleset_id: str) -> None:
        example.open(ruleset_id)
        set_route("/beispiel")

    def back(_: ft.Event[ft.View] | None = None) -> None:
        set_route("/")

    views = [RulesetList(rulesets, open_example)]
    if route == "/beispiel":
        views.append(ExampleSheet(example))
    ft.context.page.on_view_pop = back
    return views


def main(page: ft.Page) -> None:
    page.title = "Tischblock"
    page.theme_mode = ft.ThemeMode.LIGHT
    page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN_800)
    page.render_views(App)


def serve(port: int = 8550, host: str = "127.0.0.1") -> None:
    """Serve the app in the browser view and print its URL (works offline: no CDN)."""
    print(f"Tischblock läuft: http://{host}:{port}/", flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True, assets_dir=str(ASSETS))


if __name__ == "__main__":
    serve(port=int(os.environ.get("TISCHBLOCK_PORT", "8550")))
