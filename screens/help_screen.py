"""Hilfe: the user guide ``docs/anleitung.md`` in the app, one chapter per "## " heading.

The guide's screenshots live in ``docs/screenshots/`` (the browser tests make them); the app works
offline and serves only ``assets/``, so in the app each picture is named in a line of text instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import flet as ft

from .looks import LOOKS, scaling, text_scale

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "anleitung.md"
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def offline(markdown: str) -> str:
    """Pictures as a line of text ("Bild: …"), links as their text: nothing in the app needs the network."""
    text = IMAGE.sub(lambda m: f"*(Bild: {m.group(1)})*", markdown)
    return LINK.sub(lambda m: m.group(1), text)


def sections(markdown: str) -> tuple[str, list[tuple[str, str]]]:
    """The guide's introduction and its chapters as (heading, text)."""
    parts = re.split(r"^## +(.+)$", markdown, flags=re.M)
    intro, rest = parts[0], parts[1:]
    return intro.strip(), [(rest[i].strip(), rest[i + 1].strip()) for i in range(0, len(rest), 2)]


def _markdown(text: str, factor: float) -> ft.Control:
    def style(size: float, bold: bool = False) -> ft.TextStyle:
        return ft.TextStyle(size=size * factor, weight=ft.FontWeight.BOLD if bold else None)

    return ft.Markdown(
        value=offline(text),
        extension_set=ft.MarkdownExtensionSet.GITHUB_WEB,
        md_style_sheet=ft.MarkdownStyleSheet(
            p_text_style=style(15),
            h1_text_style=style(22, True),
            h2_text_style=style(19, True),
            h3_text_style=style(17, True),
            list_bullet_text_style=style(15),
            table_body_text_style=style(14),
            table_head_text_style=style(14, True),
        ),
    )


@scaling
@ft.component
def HelpScreen() -> ft.View:
    factor = text_scale(ft.use_context(LOOKS))
    try:
        intro, chapters = sections(GUIDE.read_text(encoding="utf-8"))
    except OSError as error:
        intro, chapters = f"Die Anleitung ist in dieser Ausgabe nicht dabei ({error}).", []
    controls: list[ft.BaseControl] = [_markdown(intro, factor)]
    controls.extend(
        ft.ExpansionTile(
            title=ft.Text(title, size=16, weight=ft.FontWeight.W_600),
            controls=[ft.Container(padding=ft.Padding.only(left=12, right=12, bottom=12), content=_markdown(text, factor))],
        )
        for title, text in chapters
    )
    return ft.View(
        route="/hilfe",
        appbar=ft.AppBar(title=ft.Text("Hilfe")),
        scroll=ft.ScrollMode.AUTO,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        padding=12,
        controls=controls,
    )
