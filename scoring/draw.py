"""The draw of a tournament round: who sits at which table, in which seat.

Every document wants the tables drawn anew for each round ("Nach jedem Durchgang werden die
Tische und Gegner neu ausgelost", Watten Regel 2; "Jede Serie wird neu ausgelost. Die Lose sind
auf den Spielerausweis zu kleben", Schafkopf). ``draw_round`` is a pure function of the plan,
the entrants, the earlier rounds' draws and a seed the organizer can read out: the same inputs
give the same draw on every machine, and the only randomness is ``random.Random(seed)``.

How the draw works:

1. Table sizes. Watten and Bauernschnapsen seat two teams at a table, Schafkopf four players,
   Talonschnapsen three, Doppelkopf four or five (Regel 1: a count not divisible by 4 fills
   ``n mod 4`` tables of five, e.g. 66 players: 14 tables of 4 and 2 of 5). A count that
   does not fill the tables is a ``DrawError`` before the round starts, unless the plan allows
   byes (``TournamentPlan.byes``): then the fewest entrants who sat out least often sit out.
2. Tables. The cost of a draw is the sum, over every pair of entrants at the same table, of
   1000 x (times they met before)² (opponents and table-mates alike: everyone at a table
   meets everyone there), plus, for Doppelkopf, the times a player already sat at a 5-player
   table when he sits at one again (so the 16-of-20 games rotate). A greedy pass seats the
   shuffled entrants table by table, each time taking the first entrant who met nobody at
   the table yet (or the one who met the fewest). Where pairs still meet again, a local
   search swaps two entrants of different tables (min-conflicts: a random entrant with a
   repeat, the best swap, sideways moves allowed) and the whole is restarted with a new
   shuffle, all from the same seeded RNG, keeping the cheapest draw.
3. Seats. Inside a table the seats are a random permutation (Schafkopf: the Los on the
   Spielerausweis, Doppelkopf: the order of dealing; Watten: who is listed first).

"As far as the numbers allow": a draw with no pair meeting twice exists only when there are
enough entrants (each round an entrant meets ``table size - 1`` new ones). The search is a
heuristic, not a proof: it finds a repeat-free draw for the counts the tests sweep (e.g. every
even number of Watten teams from 8 for 3 Durchgänge, Schafkopf from 16 players for 3 Serien,
Doppelkopf from 20 players for 3 Runden); where none exists, or it finds none within its
budget, it returns the draw with the fewest and least repeated meetings it found.
"""

from __future__ import annotations

import random
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import Field

from .limits import MAX_NUMBER
from .model import Frozen, Participant, Sheet, SheetContext
from .plan import TournamentPlan
from .registry import find_ruleset
from .roster import Roster


class DrawError(ValueError):
    """A round that cannot be drawn as asked (German message, before the round starts)."""


class Seat(Frozen):
    """One entrant's place: ``seat`` 1-based, clockwise (Schafkopf: the Los on the Spielerausweis)."""

    start_number: int = Field(ge=1, le=MAX_NUMBER)
    seat: int = Field(ge=1, le=8)


class TableDraw(Frozen):
    """One table of a round and who sits where, ordered by seat."""

    table: int = Field(ge=1, le=MAX_NUMBER)
    seats: tuple[Seat, ...]

    @property
    def start_numbers(self) -> tuple[int, ...]:
        return tuple(s.start_number for s in self.seats)


class RoundDraw(Frozen):
    """The draw of one round: its tables, and who sits out (only where the plan allows byes)."""

    round: int = Field(ge=1, le=MAX_NUMBER)
    seed: int
    tables: tuple[TableDraw, ...]
    bye: tuple[int, ...] = ()

    def table_of(self, start_number: int) -> TableDraw | None:
        """The table where ``start_number`` sits this round, ``None`` if not drawn (bye, withdrawn)."""
        for table in self.tables:
            if start_number in table.start_numbers:
                return table
        return None

    def table(self, number: int) -> TableDraw:
        for table in self.tables:
            if table.table == number:
                return table
        raise DrawError(f"Tisch {number} gibt es in {self.round}. Runde nicht (Tische 1 bis {len(self.tables)})")


def meetings(draws: Iterable[RoundDraw]) -> dict[frozenset[int], int]:
    """Who met whom how often: every pair of entrants at one table, over the given draws."""
    met: Counter[frozenset[int]] = Counter()
    for draw in draws:
        for table in draw.tables:
            numbers = table.start_numbers
            for i, a in enumerate(numbers):
                for b in numbers[i + 1 :]:
                    met[frozenset((a, b))] += 1
    return dict(met)


# -- table sizes ---------------------------------------------------------------------------------


def table_sizes_for(plan: TournamentPlan, count: int) -> tuple[tuple[int, ...], int]:
    """The sizes of the tables for ``count`` entrants and how many sit out; ``DrawError`` if none fit.

    Sizes come smallest first (Doppelkopf: the 5-player tables get the last table numbers)."""
    sizes = sorted(set(plan.table_sizes))
    smallest = sizes[0]
    who = "Mannschaften" if plan.unit == "team" else "Spieler"
    if count < smallest:
        raise DrawError(f"{plan.game} braucht mindestens {smallest} {who}: {count} angemeldet")
    for bye in range(count):
        layout = _layout(count - bye, sizes)
        if layout is not None:
            if bye and not plan.byes:
                raise DrawError(_no_fit(plan, count, sizes, who))
            return layout, bye
    raise DrawError(_no_fit(plan, count, sizes, who))


def _layout(count: int, sizes: list[int]) -> tuple[int, ...] | None:
    """``count`` split into tables of the given sizes, as few of the larger ones as possible."""
    if len(sizes) == 1:
        size = sizes[0]
        return (size,) * (count // size) if count % size == 0 and count else None
    small, large = sizes[0], sizes[-1]
    for n_large in range(count // large + 1):
        rest = count - n_large * large
        if rest >= 0 and rest % small == 0 and (rest or n_large):
            return (small,) * (rest // small) + (large,) * n_large
    return None


def _no_fit(plan: TournamentPlan, count: int, sizes: list[int], who: str) -> str:
    if sizes == [2]:
        one = "eine" if plan.unit == "team" else "einer"
        word = "Mannschaften" if plan.unit == "team" else "Spielern"
        return f"{plan.game} braucht eine gerade Zahl von {word}: {count} angemeldet, {one} fehlt oder {one} muss zurückziehen"
    if len(sizes) == 1:
        size = sizes[0]
        missing, extra = (-count) % size, count % size
        word = "Mannschaften" if plan.unit == "team" else "Spielern"
        return (
            f"{plan.game} braucht eine durch {size} teilbare Zahl von {word}: {count} angemeldet, "
            f"{missing} {'fehlt' if missing == 1 else 'fehlen'} oder {extra} {'muss' if extra == 1 else 'müssen'} zurückziehen"
        )
    fits = [n for n in range(count + 1, count + 8) if _layout(n, sizes) is not None]
    tables = "- und ".join(str(s) for s in sizes) + "er-Tische"
    dative = "Mannschaften" if plan.unit == "team" else "Spielern"
    return f"{plan.game} kann {count} {who} nicht an {tables} setzen: mit {fits[0]} {dative} geht es"


# -- the draw --------------------------------------------------------------------------------


_REPEAT = 1000
"""Weight of one repeated meeting (squared per pair) against one more 5-player table."""
_ATTEMPTS = 30
"""Restarts (a new shuffle, greedy, local search) at most; 3 beyond 200 entrants."""
_PATIENCE_ATTEMPTS = 8
"""Restarts in a row that found nothing cheaper end the search."""
_STEPS = 300
"""Local-search steps per restart at most; 60 beyond 200 entrants."""
_PATIENCE_STEPS = 100
"""Steps in a row that found nothing cheaper end the local search."""


class _Costs:
    """The cost of seating entrants together, from the earlier rounds."""

    def __init__(self, previous: Sequence[RoundDraw], large: int | None) -> None:
        self.met: dict[int, Counter[int]] = {}
        self.large_seats: Counter[int] = Counter()
        self.byes: Counter[int] = Counter()
        self.large = large
        for draw in previous:
            self.byes.update(draw.bye)
            for table in draw.tables:
                numbers = table.start_numbers
                if large is not None and len(numbers) == large:
                    self.large_seats.update(numbers)
                for a in numbers:
                    counter = self.met.setdefault(a, Counter())
                    for b in numbers:
                        if a != b:
                            counter[b] += 1

    def pair(self, a: int, b: int) -> int:
        counter = self.met.get(a)
        if not counter:
            return 0
        times = counter.get(b, 0)
        return _REPEAT * times * times

    def at(self, x: int, members: Sequence[int], size: int) -> int:
        """What ``x`` costs at a table of ``size`` with ``members`` (``x`` itself skipped)."""
        counter = self.met.get(x)
        total = self.large_seats.get(x, 0) if size == self.large else 0
        if counter:
            for m in members:
                if m != x:
                    times = counter.get(m, 0)
                    total += _REPEAT * times * times
        return total

    def table(self, members: Sequence[int]) -> int:
        total = 0
        size = len(members)
        for i, a in enumerate(members):
            if size == self.large:
                total += self.large_seats.get(a, 0)
            for b in members[i + 1 :]:
                total += self.pair(a, b)
        return total


def draw_round(
    plan: TournamentPlan,
    start_numbers: Sequence[int],
    previous: Sequence[RoundDraw],
    round: int,
    seed: int,
) -> RoundDraw:
    """Draw round ``round`` for the entrants ``start_numbers`` (withdrawn ones left out by the
    caller, late ones in), avoiding pairs that met in ``previous`` as far as the numbers allow
    (see the module docstring). Seeded by ``random.Random(seed)`` only: the same arguments give
    the same draw (the order of ``start_numbers`` does not matter). ``DrawError`` if the count
    cannot be seated under the plan's rules."""
    if round < 1:
        raise DrawError(f"Die Runde muss mindestens 1 sein, nicht {round}")
    numbers = sorted(start_numbers)
    twice = sorted(n for n, c in Counter(numbers).items() if c > 1)
    if twice:
        raise DrawError(f"Startnummer {', '.join(map(str, twice))} mehrfach angegeben")
    bad = [n for n in numbers if not 1 <= n <= MAX_NUMBER]
    if bad:
        raise DrawError(f"Ungültige Startnummer {bad[0]}")
    sizes, bye_count = table_sizes_for(plan, len(numbers))
    large = max(plan.table_sizes) if len(set(plan.table_sizes)) > 1 else None
    costs = _Costs(previous, large)
    rng = random.Random(seed)
    bye: list[int] = []
    if bye_count:
        order = list(numbers)
        rng.shuffle(order)
        order.sort(key=lambda n: costs.byes.get(n, 0))
        bye = sorted(order[:bye_count])
        numbers = [n for n in numbers if n not in set(bye)]
    tables = _arrange(numbers, list(sizes), costs, rng)
    drawn = []
    for index, members in enumerate(tables, start=1):
        seated = rng.sample(members, len(members))
        drawn.append(TableDraw(table=index, seats=tuple(Seat(start_number=n, seat=i) for i, n in enumerate(seated, start=1))))
    return RoundDraw(round=round, seed=seed, tables=tuple(drawn), bye=tuple(bye))


def _arrange(numbers: list[int], sizes: list[int], costs: _Costs, rng: random.Random) -> list[list[int]]:
    """Tables of the given sizes for ``numbers``: greedy, then local search, with restarts."""
    if not costs.met and not costs.large_seats:
        order = list(numbers)
        rng.shuffle(order)
        return _cut(order, sizes)
    best: list[list[int]] | None = None
    best_cost = -1
    attempts = _ATTEMPTS if len(numbers) <= 200 else 3
    unchanged = 0
    for _ in range(attempts):
        tables = _greedy(numbers, sizes, costs, rng)
        total = sum(costs.table(t) for t in tables)
        if total >= _REPEAT:
            tables, total = _improve(tables, costs, rng, total)
        if best is None or total < best_cost:
            best, best_cost, unchanged = tables, total, 0
        else:
            unchanged += 1
        if best_cost < _REPEAT or unchanged >= _PATIENCE_ATTEMPTS:
            break
    assert best is not None
    return best


def _cut(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def _greedy(numbers: list[int], sizes: list[int], costs: _Costs, rng: random.Random) -> list[list[int]]:
    """Seat the shuffled entrants table by table, each time the first one who met nobody there."""
    pool = list(numbers)
    rng.shuffle(pool)
    if costs.large is not None:
        # Those who sat at 5-player tables most often come first, into the 4-player tables.
        pool.sort(key=lambda n: -costs.large_seats.get(n, 0))
    tables: list[list[int]] = []
    for size in sizes:
        members = [pool.pop(0)]
        while len(members) < size:
            best_index, best_cost = 0, -1
            for index, candidate in enumerate(pool):
                cost = costs.at(candidate, members, size)
                if best_cost < 0 or cost < best_cost:
                    best_index, best_cost = index, cost
                    if cost == 0:
                        break
            members.append(pool.pop(best_index))
        tables.append(members)
    return tables


def _improve(tables: list[list[int]], costs: _Costs, rng: random.Random, total: int) -> tuple[list[list[int]], int]:
    """Min-conflicts local search: swap an entrant with a repeat against the best partner elsewhere."""
    best = [list(t) for t in tables]
    best_total = total
    steps = _STEPS if sum(len(t) for t in tables) <= 200 else 60
    since_better = 0
    for _ in range(steps):
        since_better += 1
        if since_better > _PATIENCE_STEPS:
            break
        conflicted = [
            (t, i)
            for t, members in enumerate(tables)
            for i, x in enumerate(members)
            if costs.at(x, members, len(members)) >= _REPEAT
        ]
        if not conflicted:
            break
        t, i = conflicted[rng.randrange(len(conflicted))]
        x = tables[t][i]
        here = tables[t]
        x_here = costs.at(x, here, len(here))
        moves: list[tuple[int, int, int]] = []
        best_delta: int | None = None
        for u, other in enumerate(tables):
            if u == t:
                continue
            for j, y in enumerate(other):
                y_there = costs.at(y, other, len(other))
                x_there = costs.at(x, other, len(other)) - costs.pair(x, y)
                y_here = costs.at(y, here, len(here)) - costs.pair(y, x)
                delta = x_there + y_here - x_here - y_there
                if best_delta is None or delta < best_delta:
                    best_delta, moves = delta, [(u, j, delta)]
                elif delta == best_delta:
                    moves.append((u, j, delta))
        if best_delta is None or best_delta > 0:
            continue
        u, j, delta = moves[rng.randrange(len(moves))]
        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
        total += delta
        if total < best_total:
            best, best_total, since_better = [list(m) for m in tables], total, 0
            if best_total < _REPEAT:
                break
    return best, best_total


# -- the sheet of a table ------------------------------------------------------------------------

_TEAM_IDS = "ABCDEFGH"


def participant_id(plan: TournamentPlan, seat: int) -> str:
    """The id a drawn sheet gives the entrant on ``seat``: teams ``A``, ``B``; players ``p1`` ... ``p5``."""
    return _TEAM_IDS[seat - 1] if plan.unit == "team" else f"p{seat}"


def sheet_for(
    plan: TournamentPlan,
    roster: Roster,
    draw: RoundDraw,
    table: int,
    *,
    tournament: str,
    written_by: str | None,
    sheet_id: uuid.UUID | None = None,
) -> Sheet:
    """The empty sheet of ``table`` in ``draw``, as a phone opens it: the participants with their
    Startnummer, name, members and drawn seat (ids ``A``/``B`` for teams, ``p1``... for players,
    by seat), the context (tournament, round, table, the plan's round label, who keeps it) and
    the ruleset with the plan's options. The id is derived from tournament, seed, round, table
    and keeper, so the host and a phone that ask twice get the same sheet (``sheet_id`` overrides)."""
    drawn = draw.table(table)
    ruleset = find_ruleset(plan.ruleset_id)
    participants = []
    for seat in drawn.seats:
        entrant = roster.by_number(seat.start_number)
        participants.append(
            Participant(
                id=participant_id(plan, seat.seat),
                name=entrant.name,
                seat=seat.seat,
                start_number=entrant.start_number,
                members=entrant.members,
            )
        )
    context = SheetContext(
        tournament=tournament,
        round_label=plan.round_label,
        round=draw.round,
        table=table,
        written_by=written_by,
    )
    if sheet_id is None:
        sheet_id = uuid.uuid5(uuid.NAMESPACE_URL, f"tischblock:{tournament}:{draw.seed}:{draw.round}:{table}:{written_by or ''}")
    sheet = ruleset.new_sheet(participants, context, plan.options)
    return sheet.model_copy(update={"id": sheet_id})


def draw_table(plan: TournamentPlan, roster: Roster, draw: RoundDraw) -> tuple[tuple[str, ...], list[tuple[str | int, ...]]]:
    """The draw for the notice board: a header and one row per seat (Tisch, Platz, Nr., name,
    Verein), then who sits out; what ``table_pdf`` or a page prints."""
    who = "Mannschaft" if plan.unit == "team" else "Spieler"
    header = ("Tisch", "Platz", "Nr.", who, "Verein")
    rows: list[tuple[str | int, ...]] = []
    for table in draw.tables:
        for seat in table.seats:
            entrant = roster.by_number(seat.start_number)
            rows.append((table.table, seat.seat, entrant.start_number, entrant.name, entrant.club or ""))
    for number in draw.bye:
        entrant = roster.by_number(number)
        rows.append(("spielfrei", "", entrant.start_number, entrant.name, entrant.club or ""))
    return header, rows
