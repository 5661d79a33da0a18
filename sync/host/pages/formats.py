"""How the organizer's pages write things: euros, local times and dates, the words for a unit and a seat."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote
from zoneinfo import ZoneInfo

LOCAL = ZoneInfo("Europe/Vienna")

UNIT_PLURAL = {"team": "Mannschaften", "player": "Spieler"}
SEAT_WORD = {"team": "Mannschaft", "player": "Platz"}


def euro(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def local_time(moment: datetime | None) -> str:
    if moment is None:
        return ""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(LOCAL).strftime("%d.%m.%Y %H:%M")


def state_css(state: str) -> str:
    return state.replace("ä", "ae").replace(" ", "-")


def german_date(iso: str | None) -> str:
    if not iso:
        return ""
    year, month, day = iso.split("-")
    return f"{int(day)}.{int(month)}.{year}"


def quoted(text: str) -> str:
    """``text`` as one query parameter's value."""
    return quote(text, safe="")
