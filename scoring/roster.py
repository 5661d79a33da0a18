"""The tournament's roster: the entrants (teams or players) by Startnummer, read from a CSV as a
spreadsheet writes it, with late registrations and withdrawals. Pure: text in, models out."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import Field

from .limits import MAX_NAME, MAX_NUMBER
from .model import Frozen

Unit = Literal["team", "player"]

MAX_ENTRANTS = 10_000
"""More entrants than any hall holds: a roster beyond this is refused, not read."""


class Entrant(Frozen):
    """A team or a player of the tournament, known by its Startnummer."""

    start_number: int = Field(ge=1, le=MAX_NUMBER)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    members: tuple[str, ...] = ()
    """A team's players (Watten, Bauernschnapsen: two)."""
    club: str | None = Field(default=None, max_length=MAX_NAME)
    player_pass: str | None = Field(default=None, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9./-]{0,39}$")
    """The Spielerpass number, if the roster gives one: the player's id across a season's evenings."""


class RosterError(ValueError):
    """A roster that cannot be taken as it is: every problem, each "Zeile 7: ..." (German)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


_COLUMNS: dict[str, str] = {
    "startnummer": "start_number",
    "start number": "start_number",
    "startnr": "start_number",
    "startnr.": "start_number",
    "nr": "start_number",
    "nr.": "start_number",
    "nummer": "start_number",
    "name": "name",
    "mannschaft": "name",
    "team": "name",
    "spieler": "name",
    "spielername": "name",
    "player": "name",
    "spieler 1": "member1",
    "spieler1": "member1",
    "player 1": "member1",
    "member 1": "member1",
    "spieler 2": "member2",
    "spieler2": "member2",
    "player 2": "member2",
    "member 2": "member2",
    "members": "members",
    "mitglieder": "members",
    "verein": "club",
    "club": "club",
    "spielerpass": "player_pass",
    "spielerpass nr": "player_pass",
    "spielerpass nr.": "player_pass",
    "spielerpassnummer": "player_pass",
    "player pass": "player_pass",
}
"""Header names a roster may use (compared case-insensitively, ``_`` read as a space)."""


_EMPTY = "Die Datei ist leer: erwartet wird eine Kopfzeile (z. B. Startnummer;Name) und eine Zeile je Meldung"


def _column(header: str) -> str | None:
    key = " ".join(header.replace("_", " ").split()).casefold()
    return _COLUMNS.get(key)


def _delimiter(header_line: str) -> str:
    """``;`` as German spreadsheets write CSV, else ``,`` or a tab, whichever the header uses most."""
    counts = {d: header_line.count(d) for d in (";", ",", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ";"


class Roster(Frozen):
    """The entrants of a tournament, and who withdrew (their finished rounds still count)."""

    entrants: tuple[Entrant, ...] = ()
    withdrawn: tuple[int, ...] = ()
    """Start numbers that withdrew: not drawn any more."""

    @classmethod
    def parse_csv(cls, text: str, unit: Unit, *, team_size: int = 2) -> Roster:
        """Read a roster from CSV as a spreadsheet exports it.

        The first row names the columns, in German or English: ``Startnummer``/``start_number``
        (or ``Nr.``; without it the rows are numbered from 1), ``Name`` (for teams also
        ``Mannschaft``), ``Spieler 1``/``Spieler 2`` or ``members`` (``|``- or ``/``-separated,
        teams only), ``Verein``/``club``. Separated by ``;`` (as German spreadsheets write it),
        ``,`` or tabs; a byte-order mark and empty lines are ignored. A team without a name is
        called by its players ("Anna / Bert").

        Every problem is collected with its line number and the reason; if there is any, nothing
        is imported (``RosterError`` with all of them).
        """
        if text.startswith("\ufeff"):
            text = text[1:]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise RosterError([_EMPTY])
        delimiter = _delimiter(lines[first])
        problems: list[str] = []
        rows: list[tuple[int, list[str]]] = []
        try:
            reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
            line_before = 0
            for row in reader:
                start = line_before + 1
                line_before = reader.line_num
                if any(cell.strip() for cell in row):
                    rows.append((start, row))
                if len(rows) > MAX_ENTRANTS + 1:
                    raise RosterError([f"Zeile {start}: mehr als {MAX_ENTRANTS} Meldungen, so groß ist kein Turnier"])
        except csv.Error:
            raise RosterError(
                [f"Zeile {line_before + 1}: ein Anführungszeichen ist nicht geschlossen oder steht mitten im Feld"]
            ) from None
        if not rows:
            raise RosterError([_EMPTY])
        header_line, header = rows[0]
        fields: list[str | None] = [_column(h) for h in header]
        for index, (raw, field) in enumerate(zip(header, fields, strict=True)):
            if field is None:
                problems.append(
                    f"Zeile {header_line}: unbekannte Spalte '{_shown(raw.strip())}' (erlaubt: Startnummer, Name, Spieler 1, Spieler 2, Verein, Spielerpass)"
                )
            elif field in fields[:index]:
                problems.append(f"Zeile {header_line}: Spalte '{_shown(raw.strip())}' doppelt")
            elif unit == "player" and field in ("member1", "member2", "members"):
                problems.append(
                    f"Zeile {header_line}: Spalte '{_shown(raw.strip())}' gibt es nur bei Mannschaften, hier melden sich Spieler"
                )
        if "name" not in fields and not (unit == "team" and ("member1" in fields or "members" in fields)):
            problems.append(f"Zeile {header_line}: die Spalte 'Name' fehlt")
        if problems:
            raise RosterError(problems)
        entrants: list[Entrant] = []
        seen: dict[int, int] = {}
        names: dict[str, int] = {}
        for position, (line, cells) in enumerate(rows[1:], start=1):
            if len(cells) > len(fields):
                problems.append(f"Zeile {line}: {len(cells)} Felder, die Kopfzeile hat nur {len(fields)}")
                continue
            values = {f: cells[i].strip() for i, f in enumerate(fields) if f is not None and i < len(cells)}
            entrant, problem = _entrant(values, position, unit, team_size, "start_number" in fields)
            if problem is not None:
                problems.append(f"Zeile {line}: {problem}")
                continue
            assert entrant is not None
            if entrant.start_number in seen:
                problems.append(
                    f"Zeile {line}: Startnummer {entrant.start_number} steht schon in Zeile {seen[entrant.start_number]}"
                )
                continue
            key = entrant.name.casefold()
            if unit == "team" and key in names:
                problems.append(f"Zeile {line}: die Mannschaft '{entrant.name}' steht schon in Zeile {names[key]}")
                continue
            seen[entrant.start_number] = line
            names[key] = line
            entrants.append(entrant)
        if not entrants and not problems:
            problems.append(f"Zeile {header_line}: nur die Kopfzeile, keine Meldung")
        if problems:
            raise RosterError(problems)
        return cls(entrants=tuple(entrants))

    def with_entrant(self, entrant: Entrant) -> Roster:
        """The roster with a late registration; ``RosterError`` for a taken Startnummer or name."""
        problems = []
        if any(e.start_number == entrant.start_number for e in self.entrants):
            problems.append(
                f"Nachmeldung: Startnummer {entrant.start_number} ist schon vergeben (an {self.by_number(entrant.start_number).name})"
            )
        if not entrant.name.strip():
            problems.append("Nachmeldung: der Name fehlt")
        else:
            same = [e for e in self.entrants if e.name.casefold() == entrant.name.strip().casefold()]
            if same and (same[0].members or entrant.members):
                problems.append(f"Nachmeldung: '{same[0].name}' ist schon gemeldet (Startnummer {same[0].start_number})")
        if len(self.entrants) >= MAX_ENTRANTS:
            problems.append(f"Nachmeldung: mehr als {MAX_ENTRANTS} Meldungen gehen nicht")
        if problems:
            raise RosterError(problems)
        clean = entrant.model_copy(update={"name": entrant.name.strip()})
        return self.model_copy(update={"entrants": (*self.entrants, clean)})

    def withdraw(self, start_number: int) -> Roster:
        """The roster with ``start_number`` withdrawn: not drawn any more, finished rounds count."""
        self.by_number(start_number)
        if start_number in self.withdrawn:
            raise RosterError([f"Startnummer {start_number} hat schon zurückgezogen"])
        return self.model_copy(update={"withdrawn": (*self.withdrawn, start_number)})

    def by_number(self, start_number: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.start_number == start_number:
                return entrant
        raise RosterError([f"Startnummer {start_number} ist nicht gemeldet"])

    def active(self) -> tuple[int, ...]:
        """The start numbers to draw: everyone registered who has not withdrawn."""
        gone = set(self.withdrawn)
        return tuple(e.start_number for e in self.entrants if e.start_number not in gone)

    def next_number(self) -> int:
        """The next free Startnummer for a late registration."""
        return max((e.start_number for e in self.entrants), default=0) + 1


def _shown(text: str) -> str:
    """The start of a text for a message, printable whatever it holds."""
    return "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?" for c in text[:20])


def _entrant(
    values: Mapping[str, str], position: int, unit: Unit, team_size: int, numbered: bool
) -> tuple[Entrant | None, str | None]:
    """One roster row as an entrant, or the German reason it is not one."""
    if numbered:
        raw = values.get("start_number", "")
        if not raw:
            return None, "die Startnummer fehlt"
        if not (raw.isascii() and raw.isdigit()):
            return None, f"Startnummer '{_shown(raw)}' ist keine ganze Zahl"
        number = int(raw) if len(raw) <= 12 else MAX_NUMBER + 1
        if number < 1:
            return None, f"Startnummer {number} gibt es nicht, sie beginnen bei 1"
        if number > MAX_NUMBER:
            return None, f"Startnummer {_shown(raw)} ist zu groß (höchstens {MAX_NUMBER})"
    else:
        number = position
    members: list[str] = []
    if values.get("members"):
        sep = "|" if "|" in values["members"] else "/"
        members = [m.strip() for m in values["members"].split(sep)]
    else:
        members = [values[k] for k in ("member1", "member2") if k in values]
        if members and not any(members):
            members = []
    if unit == "team" and members:
        if len(members) != team_size or not all(members):
            return None, f"eine Mannschaft hat {team_size} Spieler, hier stehen {len([m for m in members if m])}"
        if len({m.casefold() for m in members}) != len(members):
            return None, f"zweimal derselbe Spieler '{members[0]}'"
    name = values.get("name", "") or (" / ".join(members) if members else "")
    if not name:
        return None, "der Name fehlt"
    club = values.get("club") or None
    player_pass = values.get("player_pass") or None
    if player_pass is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9./-]{0,39}", player_pass):
        return None, f"Spielerpass '{_shown(player_pass)}' ist keine Spielerpass-Nummer (Buchstaben, Ziffern, . / -)"
    for text in (name, *members, club or ""):
        if len(text) > MAX_NAME:
            return None, f"'{_shown(text)}…' ist länger als {MAX_NAME} Zeichen"
        if any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in text):
            return None, f"'{_shown(text)}' enthält Steuerzeichen oder ungültige Zeichen"
    return Entrant(start_number=number, name=name, members=tuple(members), club=club, player_pass=player_pass), None

