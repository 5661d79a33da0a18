"""The form of "Papierblatt erfassen": a table's paper Tischliste as typed at the desk, read into entries.

Two modes, both a grid of plain form fields in line order, so Tab walks the paper line by line and
the keyboard alone fills it:

- ``spiele``: one line per game, the columns a phone's entry panel asks for (Watten: Sieger, Wert,
  Art; Schafkopf: Spiel, Spieler, Partner, Farbe, Tout, Gewonnen, Stufe, Spritze; Schnapsen: Spiel,
  Ansager, Gewonnen, Augen, Spritze; Doppelkopf: Typ, Re, Augen, Re/Kontra gesagt). Each line becomes
  the ``(kind, data)`` the phone would write; the ruleset checks it (``Desk.enter_paper``).
- ``summen``: only the totals the paper writes (``papier`` entries): Watten and Schnapsen each
  Bummerl's stand, Schafkopf the Spielpunkte and Tischpunkte, Doppelkopf the points.

Nothing here knows a rule: a wrong number or a wrong sum is the ruleset's to refuse. This module only
reads the fields (a number that is no number is refused here, naming its line and column).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import Sheet, find_ruleset
from scoring.schnapsen import CATALOGUE, Bauernschnapsen, SchnapsenOptions, Talonschnapsen

from ..desk import PaperError

MODES = {"spiele": "Spiel für Spiel", "summen": "Nur die Summen"}
YES_NO = (("", "–"), ("ja", "ja"), ("nein", "nein"))
Entries = list[tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Column:
    """One field of a line: its key, the heading, and ``options`` for a choice (else a number/text)."""

    key: str
    label: str
    options: tuple[tuple[str, str], ...] = ()
    number: bool = False
    width: int = 4


@dataclass
class Row:
    """A line of the grid as the template shows it: its label, its cells, and the refusal next to it."""

    label: str
    cells: list[dict[str, Any]]
    error: str | None = None
    extras: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Grid:
    """The whole form of one mode: headings, lines, and a note on what the lines cannot say."""

    columns: tuple[str, ...]
    extra_columns: tuple[str, ...]
    rows: list[Row]
    note: str = ""


def family(ruleset_id: str) -> str:
    for name in ("watten", "schafkopf", "doppelkopf"):
        if ruleset_id.startswith(name):
            return name
    return "schnapsen"


def _choices(pairs: Sequence[tuple[str, str]], blank: str = "–") -> tuple[tuple[str, str], ...]:
    return (("", blank), *pairs)


def _players(sheet: Sheet) -> tuple[tuple[str, str], ...]:
    return tuple((p.id, p.name) for p in sheet.participants)


def game_columns(sheet: Sheet) -> tuple[list[Column], str]:
    """The columns of a game line for the sheet's ruleset, and what the quick line leaves out."""
    kind = family(sheet.ruleset.id)
    players = _players(sheet)
    if kind == "watten":
        arts: tuple[tuple[str, str], ...] = (("game", "Spiel"), ("gehen", "Gehen (gspannt)"), ("ausschaffen", "Selbst ausgeschafft"))
        arts += (("vergeben", "Vergeben"), ("betrug", "Bscheißn"), ("zeitlimit", "Zeitlimit"))
        return [
            Column("team", "Mannschaft (Sieger)", _choices(players)),
            Column("wert", "Wert", number=True, width=3),
            Column("art", "Art", arts),
        ], "Mannschaft: beim Spiel der Sieger, bei Gehen/Ausschaffen die gspannte, bei Vergeben der Geber (leer: wie es reihum geht), bei Bscheißn wer betrog. Wert leer: 2, gegen Gspannte 3."
    if kind == "schafkopf":
        farben = (("eichel", "Eichel"), ("gras", "Gras"), ("herz", "Herz"), ("schellen", "Schellen"))
        spiele = (("rufspiel", "Rufspiel"), ("solo", "Solo"), ("wenz", "Wenz"), ("farbwenz", "Farbwenz"))
        stufen = (("einfach", "einfach"), ("schneider", "Schneider"), ("schwarz", "schwarz"))
        return [
            Column("spiel", "Spiel", _choices(spiele)),
            Column("spieler", "Spieler", _choices(players)),
            Column("partner", "Partner", _choices(players)),
            Column("farbe", "Farbe", _choices(farben)),
            Column("tout", "Tout", (("", "nein"), ("ja", "ja"))),
            Column("gewonnen", "Gewonnen", YES_NO),
            Column("stufe", "Stufe", stufen),
            Column("spritze", "Spritze von", _choices(players)),
        ], "Ein Fehler (falsches Ausspiel) ist keine Spalte: so ein Spiel danach über „Spiel korrigiert“ eintragen."
    if kind == "doppelkopf":
        typen = ("normal", "hochzeit", "stille_hochzeit", "armut", "fleischloser", "bubensolo", "damensolo", "trumpfsolo", "farbsolo")
        return [
            Column("typ", "Typ", _choices(tuple((t, t.replace("_", " ").capitalize()) for t in typen))),
            Column("re1", "Re", _choices(players)),
            Column("re2", "Re (2.)", _choices(players)),
            Column("augen", "Augen Re", number=True),
            Column("re_gesagt", "Re gesagt", (("", "nein"), ("ja", "ja"))),
            Column("kontra_gesagt", "Kontra gesagt", (("", "nein"), ("ja", "ja"))),
        ], "Sonderpunkte (Fuchs, Doppelkopf, Karlchen) und Absagen sind keine Spalte: solche Runden als Summen erfassen."
    ruleset = find_ruleset(sheet.ruleset.id)
    assert isinstance(ruleset, (Bauernschnapsen, Talonschnapsen))
    options = ruleset.options(sheet.ruleset.options)
    assert isinstance(options, SchnapsenOptions)
    games = (("normal", CATALOGUE["normal"].name), *((k, CATALOGUE[k].name) for k in options.games))
    spieler = tuple((p.ref, p.name) for p in ruleset.players(sheet))
    augen = (("ab33", "Verlierer ab 33"), ("unter33", "Verlierer unter 33"), ("kein_stich", "Verlierer ohne Stich"))
    columns = [
        Column("spiel", "Spiel", _choices(games)),
        Column("ansager", "Ansager (leer: Rufer)", _choices(spieler)),
        Column("gewonnen", "Gewonnen", YES_NO),
        Column("augen", "Augen", _choices(augen)),
        Column("spritze", "Spritze", (("0", "keine"), ("1", "×2"), ("2", "×4"), ("3", "×8"))),
    ]
    if options.herzrunde:
        columns.append(Column("herz", "Herzrunde", (("", "nein"), ("ja", "ja"))))
    return columns, "Der Rufer geht reihum; nur wer abweichend rief, ist danach über „Spiel korrigiert“ zu ändern."


def game_rows(sheet: Sheet, count: int) -> int:
    """How many empty lines the games grid offers (enough for a whole round)."""
    return max(count, 1)


def _int(raw: str, line: int, label: str) -> int | None:
    text = raw.strip().replace("−", "-")
    if not text:
        return None
    if not re.fullmatch(r"[+-]?\d{1,4}", text):
        raise PaperError(f"Zeile {line}, {label}: '{raw.strip()[:20]}' ist keine ganze Zahl", line)
    return int(text)


def _yes(value: str) -> bool | None:
    return {"ja": True, "nein": False}.get(value)


def _game_entry(kind: str, v: Mapping[str, str], line: int, columns: Mapping[str, Column]) -> tuple[str, dict[str, Any]]:
    """One filled game line as the phone's ``(kind, data)``."""
    if kind == "watten":
        art = v.get("art") or "game"
        team = v.get("team") or None
        value = _int(v.get("wert", ""), line, columns["wert"].label)
        if art == "game":
            return "game", {"winner": team or "", **({"value": value} if value is not None else {})}
        if art in ("gehen", "ausschaffen"):
            return art, {"team": team or ""}
        if art == "betrug":
            return art, {"cheater": team or ""}
        if art == "vergeben":
            return art, {"dealer": team} if team else {}
        return art, {}
    if kind == "schafkopf":
        data: dict[str, Any] = {"spiel": v.get("spiel") or "", "spieler": v.get("spieler") or ""}
        for key in ("partner", "farbe"):
            if v.get(key):
                data[key] = v[key]
        if v.get("tout") == "ja":
            data["tout"] = True
        data["gewonnen"] = _yes(v.get("gewonnen", ""))
        data["stufe"] = v.get("stufe") or "einfach"
        if v.get("spritze"):
            data["spritze"] = {"von": v["spritze"]}
        return "game", data
    if kind == "doppelkopf":
        re_players = [p for p in (v.get("re1"), v.get("re2")) if p]
        augen = _int(v.get("augen", ""), line, columns["augen"].label)
        data = {"typ": v.get("typ") or "normal", "re": re_players, "augen": augen}
        ansagen = {}
        if v.get("re_gesagt") == "ja":
            ansagen["re"] = {"ansage": True}
        if v.get("kontra_gesagt") == "ja":
            ansagen["kontra"] = {"ansage": True}
        if ansagen:
            data["ansagen"] = ansagen
        return "game", data
    data = {"game": v.get("spiel") or "", "won": _yes(v.get("gewonnen", ""))}
    if v.get("ansager"):
        data["announcer"] = v["ansager"]
    if v.get("augen"):
        data["augen"] = v["augen"]
    if v.get("spritze") not in (None, "", "0"):
        data["spritze"] = int(v["spritze"])
    if v.get("herz") == "ja":
        data["herzrunde"] = True
    return "game", data


NEUTRAL = {"art": "game", "spritze": "0", "stufe": "einfach"}
"""Values a line has before anything is typed in it (the first choice of a column without a blank one)."""


def _blank(columns: Sequence[Column], values: Mapping[str, str]) -> bool:
    return all(values.get(c.key, "") in ("", NEUTRAL.get(c.key, "")) for c in columns)


def games_grid(sheet: Sheet, count: int, form: Mapping[str, str] | None = None) -> Grid:
    """The games grid, empty or as sent (filled lines first, in their order)."""
    columns, note = game_columns(sheet)
    lines = _filled_game_lines(columns, form or {})
    rows = []
    for index in range(max(count, len(lines) + 3)):
        values = lines[index] if index < len(lines) else {}
        rows.append(Row(str(index + 1), [_cell(f"g{index + 1}:{c.key}", f"Zeile {index + 1}, {c.label}", c, values.get(c.key, "")) for c in columns]))
    return Grid(tuple(c.label for c in columns), (), rows, note)


def _filled_game_lines(columns: Sequence[Column], form: Mapping[str, str]) -> list[dict[str, str]]:
    numbers = sorted({int(m.group(1)) for key in form for m in [re.fullmatch(r"g(\d{1,4}):\w+", key)] if m})
    lines = []
    for number in numbers:
        values = {c.key: str(form.get(f"g{number}:{c.key}") or "").strip() for c in columns}
        if not _blank(columns, values):
            lines.append(values)
    return lines


def games_from_form(sheet: Sheet, form: Mapping[str, str]) -> Entries:
    """The filled lines of the games grid as entries, in order (blank lines left out)."""
    columns, _ = game_columns(sheet)
    kind = family(sheet.ruleset.id)
    by_key = {c.key: c for c in columns}
    return [_game_entry(kind, values, line, by_key) for line, values in enumerate(_filled_game_lines(columns, form), start=1)]


def _cell(name: str, label: str, column: Column | None, value: str) -> dict[str, Any]:
    return {
        "name": name,
        "label": label,
        "options": column.options if column else (),
        "number": column.number if column else True,
        "width": column.width if column else 4,
        "value": value,
    }


# -- totals ---------------------------------------------------------------------------------------
def _bummerl_rows(sheet: Sheet) -> int:
    options = find_ruleset(sheet.ruleset.id).options(sheet.ruleset.options)
    count = int(getattr(options, "bummerl_count", 0) or 0)
    return count if count else 8


def totals_grid(sheet: Sheet, form: Mapping[str, str] | None = None) -> Grid:
    """The totals grid: a column per participant, a line per Bummerl (Watten, Schnapsen) or per sum."""
    form = form or {}
    kind = family(sheet.ruleset.id)
    names = tuple(p.name for p in sheet.participants)

    def cells(prefix: str, label: str) -> list[dict[str, Any]]:
        return [_cell(f"{prefix}:{p.id}", f"{label}, {p.name}", None, str(form.get(f"{prefix}:{p.id}") or "")) for p in sheet.participants]

    if kind == "schafkopf":
        rows = [Row("Spielpunkte", cells("sp", "Spielpunkte")), Row("Tischpunkte", cells("tp", "Tischpunkte"))]
        note = "Die Spielpunkte ergeben zusammen 0, die Tischpunkte 100 (40, 30, 20, 10 nach Platz; Gleichstand teilt)."
        return Grid(names, (), rows, note)
    if kind == "doppelkopf":
        return Grid(names, (), [Row("Punkte", cells("pk", "Punkte"))], "Die Punkte aller Spieler ergeben zusammen 0 (Regel 23).")
    rows = []
    for number in range(1, _bummerl_rows(sheet) + 1):
        row = Row(f"Bummerl {number}", cells(f"t{number}", f"Bummerl {number}"))
        if kind == "watten":
            checked = form.get(f"t{number}:zeitlimit") == "ja"
            row.extras.append({"name": f"t{number}:zeitlimit", "label": f"Bummerl {number}, Zeitlimit", "check": True, "value": checked})
        else:
            row.extras.append(
                {
                    "name": f"t{number}:retour",
                    "label": f"Bummerl {number}, Retourschneider",
                    "options": _choices(_players(sheet), "kein"),
                    "value": str(form.get(f"t{number}:retour") or ""),
                }
            )
            row.extras.append(
                {"name": f"t{number}:offen", "label": f"Bummerl {number}, offen", "check": True, "value": form.get(f"t{number}:offen") == "ja"}
            )
        rows.append(row)
    if kind == "watten":
        note = "Je Bummerl der Endstand (eine Mannschaft hat 15 oder mehr). Zeitlimit: das Bummerl, in dem die Zeit um war (Regel 11)."
        return Grid(names, ("Zeitlimit",), rows, note)
    note = "Je Bummerl der Endstand, wie er auf dem Blatt steht. Offen: das Blatt endete in diesem Bummerl, es zählt für niemanden."
    return Grid(names, ("Retourschneider", "Offen"), rows, note)


def totals_from_form(sheet: Sheet, form: Mapping[str, str]) -> Entries:
    """The totals as ``papier`` entries (Watten and Schnapsen: one per filled Bummerl line)."""
    kind = family(sheet.ruleset.id)
    ids = [p.id for p in sheet.participants]

    def numbers(prefix: str, line: int, what: str) -> dict[str, int] | None:
        values = {pid: _int(str(form.get(f"{prefix}:{pid}") or ""), line, f"{what} {sheet.participant(pid).name}") for pid in ids}
        if all(v is None for v in values.values()):
            return None
        missing = [sheet.participant(pid).name for pid, v in values.items() if v is None]
        if missing:
            raise PaperError(f"Zeile {line}, {what}: es fehlt {', '.join(missing)}", line)
        return {pid: int(v) for pid, v in values.items() if v is not None}

    if kind == "schafkopf":
        spiel = numbers("sp", 1, "Spielpunkte")
        tisch = numbers("tp", 1, "Tischpunkte")
        if spiel is None or tisch is None:
            return [] if spiel is None and tisch is None else _missing_sum(spiel is None)
        return [("papier", {"spielpunkte": spiel, "tischpunkte": tisch})]
    if kind == "doppelkopf":
        punkte = numbers("pk", 1, "Punkte")
        return [] if punkte is None else [("papier", {"punkte": punkte})]
    out: Entries = []
    for number in range(1, _bummerl_rows(sheet) + 1):
        stand = numbers(f"t{number}", len(out) + 1, f"Bummerl {number}")
        if stand is None:
            continue
        data: dict[str, Any] = {"stand": stand}
        if form.get(f"t{number}:zeitlimit") == "ja":
            data["zeitlimit"] = True
        if form.get(f"t{number}:retour"):
            data["retourschneider"] = str(form.get(f"t{number}:retour"))
        if form.get(f"t{number}:offen") == "ja":
            data["offen"] = True
        out.append(("papier", data))
    return out


def _missing_sum(spielpunkte: bool) -> Entries:
    what = "Spielpunkte" if spielpunkte else "Tischpunkte"
    raise PaperError(f"Zeile 1: die {what} fehlen", 1)


READERS: dict[str, Callable[[Sheet, Mapping[str, str]], Entries]] = {"spiele": games_from_form, "summen": totals_from_form}
