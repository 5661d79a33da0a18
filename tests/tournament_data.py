"""Whole tournaments written as real sheets, with the standings worked out by hand (issue 13).

Each builder returns the plan, the roster, the sheets (with the rulesets' real entry kinds) and
the expected standings rows ``(rank, start_number, values, decided_by)``, so the pure tests
(tests/test_standings.py) and the host's end-to-end test can use the same tournament.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring import Entry, Participant, Sheet, SheetContext, find_ruleset
from scoring.plan import TournamentPlan, plan_for
from scoring.roster import Entrant, Roster

Expected = tuple[int, int, tuple[str | int, ...], str]


@dataclass(frozen=True)
class Tournament:
    plan: TournamentPlan
    roster: Roster
    sheets: tuple[Sheet, ...]
    expected: tuple[Expected, ...]
    """(rank, start number, values, decided_by) per row, best first."""


def make_sheet(
    plan: TournamentPlan,
    roster: Roster,
    round_: int,
    table: int,
    numbers: Sequence[int],
    entries: Sequence[tuple[str, dict[str, Any]]],
    *,
    written_by: str | None = None,
    tournament: str = "Testturnier",
) -> Sheet:
    """A sheet of ``numbers`` (in seat order) with ``entries`` (kind, data), as a phone writes it."""
    ids = "AB" if plan.unit == "team" else [f"p{i}" for i in range(1, 6)]
    participants = []
    for seat, (pid, number) in enumerate(zip(ids, numbers, strict=False), start=1):
        entrant = roster.by_number(number)
        participants.append(Participant(id=pid, name=entrant.name, seat=seat, start_number=number, members=entrant.members))
    context = SheetContext(tournament=tournament, round_label=plan.round_label, round=round_, table=table, written_by=written_by)
    sheet = Sheet(
        id=uuid.uuid5(uuid.NAMESPACE_URL, f"test:{plan.ruleset_id}:{round_}:{table}:{written_by}"),
        ruleset=find_ruleset(plan.ruleset_id).ref(plan.options),
        participants=tuple(participants),
        context=context,
    )
    for kind, data in entries:
        sheet = sheet.with_entry(Entry(kind=kind, data=data))
    find_ruleset(plan.ruleset_id).score(sheet)  # every sheet here is valid
    return sheet


# -- Watten ------------------------------------------------------------------------------------------


def _parts(points: int) -> list[int]:
    """Games of 2 and 3 that make ``points`` (0 or 2..12: the loser of a Bummerl, never gspannt)."""
    assert points == 0 or 2 <= points <= 12
    games = []
    while points > 3:
        games.append(2)
        points -= 2
    if points:
        games.append(points)
    return games


def watten_entries(bummerl: str) -> list[tuple[str, dict[str, Any]]]:
    """Entries from a short form, seen from team A: ``W7`` A wins the Bummerl 15:7 (B first writes
    its 7 in games of 2 and 3, then A makes one game of 15), ``L0`` B wins 15:0, ``Z`` the time
    limit ends the Durchgang (Regel 11)."""
    entries: list[tuple[str, dict[str, Any]]] = []
    for token in bummerl.split():
        if token == "Z":
            entries.append(("zeitlimit", {}))
            continue
        winner, loser = ("A", "B") if token[0] == "W" else ("B", "A")
        for value in _parts(int(token[1:])):
            entries.append(("game", {"winner": loser, "value": value}))
        entries.append(("game", {"winner": winner, "value": 15}))
    return entries


WATTEN_TABLES: tuple[tuple[int, int, int, int, str], ...] = (
    # Durchgang, Tisch, team A, team B, the Bummerl from A's view
    (1, 1, 6, 7, "W0 W0 L0"),
    (1, 2, 8, 2, "W0 L0 L0"),
    (1, 3, 9, 3, "W0 L0 L0"),
    (1, 4, 1, 4, "W0 W0 L0"),
    (1, 5, 5, 10, "W7 W7 Z"),
    (2, 1, 6, 2, "W0 L0 L0"),
    (2, 2, 8, 3, "W0 L0 L0"),
    (2, 3, 9, 5, "W0 L0 L0"),
    (2, 4, 1, 10, "W0 W0 W0"),
    (2, 5, 7, 4, "W3 L0 L0"),
    (3, 1, 6, 3, "W3 L0 L0"),
    (3, 2, 8, 4, "W0 L0 L0"),
    (3, 3, 9, 2, "W0 L0 L0"),
    (3, 4, 1, 5, "W0 W0 L0"),
    (3, 5, 7, 10, "W0 W0 L0"),
)
"""Ten teams, three Durchgänge, built so that every level of Regel 13 decides once.

Bummerl score (Regel 12): the winner 30 minus the loser's points, the loser its points; a
Durchgang ended by the time limit after two Bummerl has only those two. Per team, Bummerl won
and points : points against (from each of its three sheets):

- 1: 2 (60:30) + 3 (90:0) + 2 (60:30)            = 7 Bummerl, 210:60
- 3: 2 (60:30) + 2 (60:30) + 2 (63:27)           = 6 Bummerl, 183:87  ratio 2.103
- 2: 2 (60:30) + 2 (60:30) + 2 (60:30)           = 6 Bummerl, 180:90  ratio 2.000 -> Punkteverhältnis
- 4: 1 (30:60) + 2 (63:27) + 2 (60:30)           = 5 Bummerl, 153:117 ratio 17/13
- 5: 2 (46:14) + 2 (60:30) + 1 (30:60)           = 5 Bummerl, 136:104 ratio 17/13 -> Punkte (153 > 136)
- 6: 2 (60:30) + 1 (30:60) + 1 (27:63)           = 4 Bummerl, 117:153
- 7: 1 (30:60) + 1 (27:63) + 2 (60:30)           = 4 Bummerl, 117:153 -> equal; they met in Durchgang 1,
  6 won 2 Bummerl to 7's 1: direkter Vergleich
- 8, 9: 1 (30:60) three times                     = 3 Bummerl, 90:180 each, never met -> Entscheidungsbummerl
- 10: 0 (14:46) + 0 (0:90) + 1 (30:60)            = 1 Bummerl, 44:196
"""

WATTEN_EXPECTED: tuple[Expected, ...] = (
    (1, 1, (7, 210, 60, "3,500"), "Bummerl"),
    (2, 3, (6, 183, 87, "2,103"), "Punkteverhältnis"),
    (3, 2, (6, 180, 90, "2,000"), "Punkteverhältnis"),
    (4, 4, (5, 153, 117, "1,308"), "Punkte"),
    (5, 5, (5, 136, 104, "1,308"), "Punkte"),
    (6, 6, (4, 117, 153, "0,765"), "direkter Vergleich (2 Bummerl)"),
    (7, 7, (4, 117, 153, "0,765"), "direkter Vergleich (1 Bummerl)"),
    (8, 8, (3, 90, 180, "0,500"), "Entscheidungsbummerl nötig (kein direkter Vergleich)"),
    (8, 9, (3, 90, 180, "0,500"), "Entscheidungsbummerl nötig (kein direkter Vergleich)"),
    (10, 10, (1, 44, 196, "0,224"), "Bummerl"),
)

WATTEN_TEAMS = (
    "Die Sautreiber",
    "Kreuzbuben",
    "Weli-Buam",
    "Rechte Haube",
    "Gspannt & Gwunna",
    "Spitz-Gang",
    "Schellen-Sieben",
    "Eichel-Ober",
    "Herz-Kini",
    "Laab-Sau",
)


def watten_roster() -> Roster:
    return Roster(
        entrants=tuple(
            Entrant(start_number=n, name=name, members=(f"Spieler {n}a", f"Spieler {n}b"))
            for n, name in enumerate(WATTEN_TEAMS, start=1)
        )
    )


def watten_tournament(*, both_teams_write: bool = True) -> Tournament:
    """The ten-team Watten tournament above; each team writes its own sheet (Regel 5), both signed."""
    plan = plan_for("watten-turnier")
    roster = watten_roster()
    sheets = []
    for round_, table, a, b, bummerl in WATTEN_TABLES:
        entries = watten_entries(bummerl)
        for writer in ("A", "B") if both_teams_write else ("A",):
            signer = roster.by_number(a if writer == "A" else b).name
            sheets.append(
                make_sheet(plan, roster, round_, table, (a, b), [*entries, ("close", {"signed_by": signer})], written_by=writer)
            )
    return Tournament(plan, roster, tuple(sheets), WATTEN_EXPECTED)


# -- Schafkopf ---------------------------------------------------------------------------------------


def rufspiel(spieler: str, partner: str, gewonnen: bool = True, stufe: str = "einfach") -> tuple[str, dict[str, Any]]:
    return ("game", {"spiel": "rufspiel", "spieler": spieler, "partner": partner, "gewonnen": gewonnen, "stufe": stufe})


def solo(
    spiel: str, spieler: str, gewonnen: bool = True, stufe: str = "einfach", farbe: str | None = None
) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {"spiel": spiel, "spieler": spieler, "gewonnen": gewonnen, "stufe": stufe}
    if farbe:
        data["farbe"] = farbe
    return ("game", data)


SCHAFKOPF_TABLES: tuple[tuple[int, int, tuple[int, int, int, int], list[tuple[str, dict[str, Any]]]], ...] = (
    # Serie 1, Tisch 1 (seats p1..p4 = Nr. 1, 2, 3, 4)
    (
        1,
        1,
        (1, 2, 3, 4),
        [
            rufspiel("p1", "p2"),  # p1 +1 p2 +1 p3 -1 p4 -1
            solo("solo", "p3", farbe="eichel"),  # p3 +6, the others -2
            rufspiel("p4", "p1", gewonnen=False),  # p4 -1 p1 -1 p2 +1 p3 +1; Reuegeld p4 0,50
            solo("wenz", "p2", gewonnen=False),  # p2 -6, the others +2; Reuegeld p2 1,00
        ],
    ),
    # Serie 1, Tisch 2 (Nr. 5, 6, 7, 8)
    (
        1,
        2,
        (5, 6, 7, 8),
        [
            rufspiel("p1", "p2", stufe="schneider"),  # p1 +2 p2 +2 p3 -2 p4 -2
            rufspiel("p3", "p4"),
            rufspiel("p1", "p3"),
            rufspiel("p2", "p4"),
        ],
    ),
    # Serie 2, Tisch 1 (Nr. 1, 6, 3, 8)
    (
        2,
        1,
        (1, 6, 3, 8),
        [
            solo("solo", "p1", stufe="schneider", farbe="gras"),  # p1 +9, the others -3
            rufspiel("p2", "p4"),
            rufspiel("p3", "p1", gewonnen=False),  # Reuegeld p3 0,50
            rufspiel("p4", "p2"),
        ],
    ),
    # Serie 2, Tisch 2 (Nr. 2, 5, 4, 7): everyone ends at 0
    (2, 2, (2, 5, 4, 7), [rufspiel("p1", "p2"), rufspiel("p3", "p4"), rufspiel("p1", "p3"), rufspiel("p2", "p4")]),
)
"""Eight players, two Serien of four games (option ``spiele`` 4). Spielpunkte, Tischpunkte
(40/30/20/10; tied places share: 35+35, 25+25, 15+15, all 25), Ergebnis = Tisch + Spiel:

- Serie 1, Tisch 1: Spielpunkte Nr.1 0, Nr.2 -6, Nr.3 +8, Nr.4 -2 -> Tisch 30, 10, 40, 20 ->
  Ergebnis 30, 4, 48, 18 = 100; Reuegeld Nr.4 0,50, Nr.2 1,00.
- Serie 1, Tisch 2: Nr.5 +1, Nr.6 +1, Nr.7 -1, Nr.8 -1 -> 35, 35, 15, 15 -> 36, 36, 14, 14 = 100.
- Serie 2, Tisch 1: Nr.1 +6, Nr.6 0, Nr.3 -6, Nr.8 0 -> 40, 25, 10, 25 -> 46, 25, 4, 25 = 100;
  Reuegeld Nr.3 0,50.
- Serie 2, Tisch 2: everyone 0 -> 25 each = 100.

Sums: Nr.1 76 (Tisch 70, Spiel +6), Nr.5 61 (60, +1), Nr.6 61 (60, +1), Nr.3 52 (50, +2),
Nr.4 43 (45, -2), Nr.7 39 (40, -1), Nr.8 39 (40, -1), Nr.2 29 (35, -6)."""

TIED = "punktgleich (die Turnierordnung nennt keine weitere Wertung)"

SCHAFKOPF_EXPECTED: tuple[Expected, ...] = (
    (1, 1, (76, 70, 6, 2, "0,00 €"), "Ergebnis"),
    (2, 5, (61, 60, 1, 2, "0,00 €"), TIED),
    (2, 6, (61, 60, 1, 2, "0,00 €"), TIED),
    (4, 3, (52, 50, 2, 2, "0,50 €"), "Ergebnis"),
    (5, 4, (43, 45, -2, 2, "0,50 €"), "Ergebnis"),
    (6, 7, (39, 40, -1, 2, "0,00 €"), TIED),
    (6, 8, (39, 40, -1, 2, "0,00 €"), TIED),
    (8, 2, (29, 35, -6, 2, "1,00 €"), "Ergebnis"),
)

SCHAFKOPF_HUNDERT = (
    "Serie 1, Tisch 1: Spieler 1 30 + Spieler 2 4 + Spieler 3 48 + Spieler 4 18 = 100 (stimmt)",
    "Serie 1, Tisch 2: Spieler 5 36 + Spieler 6 36 + Spieler 7 14 + Spieler 8 14 = 100 (stimmt)",
    "Serie 2, Tisch 1: Spieler 1 46 + Spieler 6 25 + Spieler 3 4 + Spieler 8 25 = 100 (stimmt)",
    "Serie 2, Tisch 2: Spieler 2 25 + Spieler 5 25 + Spieler 4 25 + Spieler 7 25 = 100 (stimmt)",
)


def players(count: int) -> Roster:
    return Roster(entrants=tuple(Entrant(start_number=n, name=f"Spieler {n}") for n in range(1, count + 1)))


def schafkopf_tournament() -> Tournament:
    plan = plan_for("schafkopf-turnier", {"spiele": 4}, rounds=2)
    roster = players(8)
    sheets = []
    for serie, table, numbers, games in SCHAFKOPF_TABLES:
        keeper = roster.by_number(numbers[0]).name
        entries = [*games, ("close", {"signed_by": keeper})]
        sheets.append(make_sheet(plan, roster, serie, table, numbers, entries, written_by="p1"))
    return Tournament(plan, roster, tuple(sheets), SCHAFKOPF_EXPECTED)


# -- Doppelkopf --------------------------------------------------------------------------------------

EARLY = ("close", {"signed_by": "Turnierleitung", "override": "Testturnier: zwei Spiele je Runde"})

DOPPELKOPF_TABLES: tuple[tuple[int, int, tuple[int, ...], list[tuple[str, dict[str, Any]]]], ...] = (
    # Runde 1, Tisch 1 (4 players: Nr. 1-4 as p1-p4)
    (
        1,
        1,
        (1, 2, 3, 4),
        [
            ("game", {"re": ["p1", "p2"], "augen": 130}),  # Re wins, keine 120: 1 -> p1 p2 +1, p3 p4 -1
            ("game", {"re": ["p1", "p3"], "augen": 100}),  # Kontra wins: 1 + gegen die Alten 1 = 2 -> p1 p3 -2, p2 p4 +2
            EARLY,
        ],
    ),
    # Runde 1, Tisch 2 (5 players: Nr. 5-9 as p1-p5; the dealer sits out, Regel 25)
    (
        1,
        2,
        (5, 6, 7, 8, 9),
        [
            ("game", {"re": ["p2", "p3"], "augen": 130}),  # p1 deals and sits out: p2 p3 +1, p4 p5 -1
            ("game", {"re": ["p1", "p4"], "augen": 130}),  # p2 deals and sits out: p1 p4 +1, p3 p5 -1
            EARLY,
        ],
    ),
    # Runde 2, Tisch 1 (Nr. 5, 1, 9, 3)
    (2, 1, (5, 1, 9, 3), [("game", {"re": ["p1", "p2"], "augen": 130}), EARLY]),  # p1 p2 +1, p3 p4 -1
    # Runde 2, Tisch 2 (Nr. 2, 4, 6, 7, 8)
    (2, 2, (2, 4, 6, 7, 8), [("game", {"re": ["p2", "p3"], "augen": 100}), EARLY]),  # p1 out; p2 p3 -2, p4 p5 +2
)
"""Nine players (a 4- and a 5-player table), two Runden, closed early by the Turnierleitung.

Runde 1: Nr.1 +1-2 = -1, Nr.2 +1+2 = +3, Nr.3 -1-2 = -3, Nr.4 -1+2 = +1; Nr.5 0+1 = +1,
Nr.6 +1+0 = +1, Nr.7 +1-1 = 0, Nr.8 -1+1 = 0, Nr.9 -1-1 = -2.
Runde 2: Nr.5 +1, Nr.1 +1, Nr.9 -1, Nr.3 -1; Nr.2 0 (sits out), Nr.4 -2, Nr.6 -2, Nr.7 +2, Nr.8 +2.
Sums: Nr.2 3; Nr.5, Nr.7, Nr.8 2; Nr.1 0; Nr.4, Nr.6 -1; Nr.9 -3; Nr.3 -4."""

DOKO_TIED = "punktgleich (die Turnierordnung nennt keine weitere Wertung)"

DOPPELKOPF_EXPECTED: tuple[Expected, ...] = (
    (1, 2, (3, 3, 0, 2), "Punkte"),
    (2, 5, (2, 1, 1, 2), DOKO_TIED),
    (2, 7, (2, 0, 2, 3), DOKO_TIED),
    (2, 8, (2, 0, 2, 3), DOKO_TIED),
    (5, 1, (0, -1, 1, 3), "Punkte"),
    (6, 4, (-1, 1, -2, 3), DOKO_TIED),
    (6, 6, (-1, 1, -2, 2), DOKO_TIED),
    (8, 9, (-3, -2, -1, 3), "Punkte"),
    (9, 3, (-4, -3, -1, 3), "Punkte"),
)
"""Values: Punkte, Runde 1, Runde 2, games played: 3 at most, fewer for who sat out as dealer
at a 5-player table (Nr.5 and Nr.6 in Runde 1, Nr.2 in Runde 2)."""


def doppelkopf_tournament() -> Tournament:
    plan = plan_for("doppelkopf-turnier", rounds=2)
    roster = players(9)
    sheets = [
        make_sheet(plan, roster, runde, table, numbers, entries, written_by="p1")
        for runde, table, numbers, entries in DOPPELKOPF_TABLES
    ]
    return Tournament(plan, roster, tuple(sheets), DOPPELKOPF_EXPECTED)


# -- Bauernschnapsen ---------------------------------------------------------------------------------


def schnapser(announcer: str, won: bool = True) -> tuple[str, dict[str, Any]]:
    return ("game", {"game": "bauernschnapser", "announcer": announcer, "won": won})


SCHNAPSEN_TABLES: tuple[tuple[int, int, tuple[int, int], list[tuple[str, dict[str, Any]]]], ...] = (
    # One Bummerl per Durchgang (option bummerl_count 1), to 24.
    (1, 1, (1, 2), [schnapser("A1"), ("game", {"game": "normal", "won": True, "augen": "ab33"}), schnapser("A2")]),
    (1, 2, (3, 4), [schnapser("A1"), schnapser("A2")]),
    (2, 1, (1, 3), [schnapser("A1"), schnapser("B1"), schnapser("B2")]),
    (2, 2, (2, 4), [schnapser("A1"), schnapser("A2")]),
)
"""Four teams of two, two Durchgänge of one Bummerl each; the Bauernschnapser is worth 12.

- Durchgang 1, Tisch 1: Nr.1 12, then Nr.2's Rufer wins a normal game (1, ab 33), Nr.1 12 more:
  24:1, Nr.2 gets a Bummerl.
- Durchgang 1, Tisch 2: Nr.3 24:0, Nr.4 a Schneider (2 Bummerl).
- Durchgang 2, Tisch 1: Nr.1 12, Nr.3 12 and 12: 12:24, Nr.1 gets a Bummerl.
- Durchgang 2, Tisch 2: Nr.2 24:0, Nr.4 a Schneider.

Bummerl won, points, Bummerl lost: Nr.3 2, 48, 0; Nr.1 1, 36, 1; Nr.2 1, 25, 1; Nr.4 0, 0, 4."""

SCHNAPSEN_EXPECTED: tuple[Expected, ...] = (
    (1, 3, (2, 48, 0), "Bummerl gewonnen"),
    (2, 1, (1, 36, 1), "Punkte"),
    (3, 2, (1, 25, 1), "Punkte"),
    (4, 4, (0, 0, 4), "Bummerl gewonnen"),
)


def schnapsen_tournament() -> Tournament:
    plan = plan_for("bauernschnapsen", {"bummerl_count": 1}, rounds=2)
    roster = Roster(
        entrants=tuple(Entrant(start_number=n, name=f"Team {n}", members=(f"Spieler {n}a", f"Spieler {n}b")) for n in range(1, 5))
    )
    sheets = [
        make_sheet(plan, roster, round_, table, numbers, entries, written_by="A")
        for round_, table, numbers, entries in SCHNAPSEN_TABLES
    ]
    return Tournament(plan, roster, tuple(sheets), SCHNAPSEN_EXPECTED)
