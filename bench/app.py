"""From a saved entry to the recomputed sheet state in the app, on a sheet's first game and on its last.

    python bench/app.py [--samples 30]

What the app does between the store's acknowledgement of a new entry (``SheetStore.add_game``:
checked by the ruleset, written durably) and the screen being ready to redraw
(``SheetState.show_saved``): score the sheet (totals are never stored: the log is replayed,
from the state after the previous entry, so only the new entry is applied), build the lines,
and reset the entry panel's draft, which asks the ruleset what it may offer next. Measured on the example sheets of
``docs/examples/``: a full Schafkopf Serie (32 games) and a 20-game Doppelkopf Runde at a
5-player table, plus a Watten Durchgang. The baseline is the sheet's first game in the same run;
the figure is the ratio last/first (target: at most 1.5x). A second table adds what comes before:
saving the entry (``SheetStore.add_game``: the ruleset's check of it and the write with its
fsync), so it shows the whole way from the tap to the screen. This is a measurement, not a test.

Then the statistics screen over ``--sheets`` (1000) stored sheets, the example sheets over and over,
beside the time to just read those sheets (``SheetStore.all_stored``) in the same run: opening it
from nothing (every sheet read and scored: ``StatisticsState.load`` after ``scored.forget``), and
opening it as the app does, from the start screen, which has scored every sheet for its glance
already (``AppState.refresh`` first; not timed). The figure is what the statistics add to the
reading (target: under 50%). ``--instructions`` counts the same parts once more in instructions, and
each sheet's first and last game (saved, and shown), in one child process under valgrind's callgrind
(``bench/instructions.py``): CPU seconds of one process move with what else runs on a shared
machine, the instructions of the same work do not (a game's fsync is the kernel's and not counted).

``--texts SECONDS`` samples the scoring of the example sheets with py-spy for that long and splits
its time: the rulesets' handlers, and within them the statements that build a line's explanation
texts (every ``Explanation(...)`` call and f-string of a ruleset module, with what it calls), per
ruleset module. cProfile cannot see these: an f-string is no function call. It then times scoring
the example sheets with a copy of ``scoring/`` whose ruleset modules build no text (every f-string and
``join`` replaced by ``""``: the same points, empty explanations), against an unchanged copy: what
free texts would save.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import gc
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import instructions

from scoring import Sheet, find_ruleset, score_sheet
from scoring.model import CLOSE, CORRECTION, VOID
from scoring.statistics import DatedSheet, figures_of
from screens import scored
from screens.app_state import AppState
from screens.sheet_state import SheetState
from screens.statistics_state import StatisticsState
from storage import SheetStore
from storage.repository import StoredSheet

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
SHEETS = {
    "watten-turnier": "Watten, Durchgang",
    "schafkopf-turnier": "Schafkopf, Serie (32 Spiele)",
    "doppelkopf-haus": "Doppelkopf, Runde am 5er-Tisch (20 Spiele)",
}


def games_of(sheet: Sheet) -> list[tuple[str, dict[str, object]]]:
    """The sheet's entries as a table enters them: games and events, no corrections, voids or close."""
    return [(e.kind, dict(e.data)) for e in sheet.entries if e.kind not in (CORRECTION, VOID, CLOSE)]


def submit_parts(
    store: SheetStore, blank: Sheet, games: list[tuple[str, dict[str, object]]], before: int
) -> tuple[Callable[[], Sheet], Callable[[Sheet], None]]:
    """Game ``before + 1`` on a new sheet already holding ``before`` games (set up here, not measured),
    entered as the app does it, in two parts: saving it (``SheetStore.add_game``: the ruleset's check,
    the durable write), and from the saved sheet to the state ready to redraw (``SheetState.show_saved``).
    As at the table, the game before it was entered on the same screen (saved and shown): the screen
    holds the sheet saved last, not one read afresh from the file."""
    sheet = blank.model_copy(update={"id": uuid.uuid4()})
    store.create(sheet)
    for kind, data in games[: max(before - 1, 0)]:
        store.add_game(sheet.id, data, kind=kind)
    state = SheetState(store, str(sheet.id))
    state.load()
    if before:
        kind, data = games[before - 1]
        assert state.show_saved(store.add_game(sheet.id, dict(data), kind=kind), "gespeichert"), state.error
    kind, data = games[before]

    def save() -> Sheet:
        return store.add_game(sheet.id, dict(data), kind=kind)

    def show(saved: Sheet) -> None:
        ok = state.show_saved(saved, "gespeichert")
        assert ok, state.error

    return save, show


def time_submit(store: SheetStore, blank: Sheet, games: list[tuple[str, dict[str, object]]], before: int) -> tuple[float, float]:
    """Seconds for game ``before + 1`` on a sheet already holding ``before`` games (``submit_parts``):
    saving it, and from the saved sheet to the state ready to redraw."""
    save, show = submit_parts(store, blank, games, before)
    start = time.perf_counter()
    saved = save()
    saving = time.perf_counter() - start
    start = time.perf_counter()
    show(saved)
    showing = time.perf_counter() - start
    return saving, showing


def example_game(ruleset_id: str) -> tuple[Sheet, list[tuple[str, dict[str, object]]]]:
    """The example sheet of ``ruleset_id`` without its entries, and the games it was entered with."""
    example = Sheet.from_json((EXAMPLES / f"{ruleset_id}.json").read_bytes())
    return example.model_copy(update={"entries": ()}), games_of(example)


def count_submits(folder: Path, ruleset_ids: list[str]) -> None:
    """(The child ``count_submit_instructions`` runs under callgrind.) Per ruleset the first and the
    last game of its example sheet, each saved and shown between marks (``submit_parts``; the set-up
    not counted), after one uncounted pass of both (what a first run does once: lazy set-ups)."""
    store = SheetStore(folder, device="bench")
    for ruleset_id in ruleset_ids:
        blank, games = example_game(ruleset_id)
        for counted in (False, True):
            for before in (0, len(games) - 1):
                save, show = submit_parts(store, blank, games, before)
                gc.collect()
                if counted:
                    instructions.mark()
                saved = save()
                if counted:
                    instructions.mark()
                    instructions.mark()
                show(saved)
                if counted:
                    instructions.mark()


def example_sheets() -> list[Sheet]:
    """The example sheets of every ruleset (``docs/examples/``)."""
    return [Sheet.from_json(path.read_bytes()) for path in sorted(EXAMPLES.glob("*.json")) if ".score." not in path.name]


def fill(store: SheetStore, count: int) -> None:
    """``count`` sheets in the store: the example sheets of every ruleset, each time with a new id."""
    examples = example_sheets()
    for number in range(count):
        sheet = examples[number % len(examples)].model_copy(update={"id": uuid.uuid4()})
        now = datetime.now(UTC)
        store.put(StoredSheet(sheet=sheet, created_at=now, updated_at=now, device="bench"))


STATISTICS_PARTS = ("nur lesen", "lesen und werten", "aus dem Nichts", "nach der Startseite")
"""The parts of opening the statistics the bench measures (``statistics_parts``), in order."""


def statistics_parts(store: SheetStore) -> list[tuple[Callable[[], object], Callable[[], object]]]:
    """Per part of ``STATISTICS_PARTS`` its set-up (not measured) and the part itself: read every sheet
    (the baseline); read and score every sheet, nothing else (what the statistics cannot do without);
    open the statistics from nothing (every sheet read and scored: ``StatisticsState.load`` after
    ``scored.forget``); open them as the app does, after the start screen listed (and so scored) the
    sheets (``AppState.refresh``, in the set-up)."""
    count = len(store.list_sheets())
    shown: list[StatisticsState] = []

    def read() -> None:
        assert len(store.all_stored()) == count

    def read_and_score() -> None:
        with store.locked():
            for info in store.list_sheets():
                sheet = store.open(info.id)
                find_ruleset(sheet.ruleset.id).score(sheet)

    def from_nothing() -> None:
        shown.clear()
        scored.forget()
        shown.append(StatisticsState(store))

    def after_start_screen() -> None:
        shown.clear()
        scored.forget()
        AppState(store).refresh()
        shown.append(StatisticsState(store))

    def load() -> None:
        state = shown[0]
        state.load()
        assert state.result is not None and state.result.sheets == count, state.result

    def nothing() -> None:
        shown.clear()

    return [(nothing, read), (nothing, read_and_score), (from_nothing, load), (after_start_screen, load)]


def statistics_titles(sheets: int) -> tuple[str, str, str]:
    """The printed names of the parts of ``STATISTICS_PARTS`` after the baseline, over ``sheets`` sheets."""
    return (
        f"{sheets} Blätter lesen und werten, sonst nichts",
        f"{sheets} Blätter, aus dem Nichts",
        f"{sheets} Blätter, nach der Startseite",
    )


def time_statistics(store: SheetStore, samples: int) -> list[float]:
    """Per part of ``STATISTICS_PARTS`` the median CPU seconds (of this process: the figures of a
    machine other work keeps busy). Each timed part starts after its set-up and a full garbage
    collection and keeps nothing of the others alive (an earlier version held the baseline's 1000
    parsed sheets while timing the statistics, and every full collection traced them)."""
    took: list[list[float]] = [[] for _ in STATISTICS_PARTS]
    for _ in range(samples):
        for times, (setup, part) in zip(took, statistics_parts(store), strict=True):
            setup()
            gc.collect()
            start = time.process_time()
            part()
            times.append(time.process_time() - start)
    return [statistics.median(times) for times in took]


def count_statistics(many: Path, few: Path) -> None:
    """(The child ``count_statistics_instructions`` runs under callgrind.) Each part of
    ``STATISTICS_PARTS`` once over the store in ``few`` (what a first run does once: lazy set-ups,
    caches), then over the store in ``many`` between two marks, its set-up and a full garbage
    collection before the first."""
    for setup, part in statistics_parts(SheetStore(few, device="bench")):
        setup()
        part()
    for setup, part in statistics_parts(SheetStore(many, device="bench")):
        setup()
        gc.collect()
        instructions.mark()
        part()
        instructions.mark()


def count_instructions(
    submits: tuple[Path, list[str]] | None, stores: tuple[Path, Path] | None
) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """In one child process under valgrind's callgrind (``bench/instructions.py``; its start, uncounted
    until the first mark, paid once): per ruleset of ``submits`` (a store's folder and the ruleset
    ids) the instructions of saving and of showing its first game, and of its last game
    (``count_submits``), and the instructions of each part of ``STATISTICS_PARTS`` over the store
    in ``stores``' first folder (``count_statistics``). The same on every run, whatever else runs.
    The write's fsync is the kernel's work and not counted: a tap's CPU, not its wall time."""
    argv, parts = [sys.executable, __file__], 0
    if submits is not None:
        argv += ["--count-submits", str(submits[0]), *submits[1]]
        parts += 4 * len(submits[1])
    if stores is not None:
        argv += ["--count-statistics", str(stores[0]), str(stores[1])]
        parts += len(STATISTICS_PARTS)
    counts = instructions.measured(instructions.counted(argv), parts)
    taps = 4 * len(submits[1]) if submits is not None else 0
    return [(counts[i], counts[i + 1], counts[i + 2], counts[i + 3]) for i in range(0, taps, 4)], counts[taps:]


def profile_statistics(store: SheetStore) -> list[tuple[str, float]]:
    """Where opening the statistics from nothing spends its time (cProfile, one run): the shares of
    reading the sheets, of each part of scoring them, and of the statistics' own figures."""
    scored.forget()
    state = StatisticsState(store)
    gc.collect()
    profiler = cProfile.Profile()
    profiler.enable()
    state.load()
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]

    def cumulative(file: str, name: str, caller: tuple[str, str] | None = None) -> float:
        total = 0.0
        for (path, _, function), (_, _, _, ct, callers) in stats.items():
            if not path.endswith(file) or function != name:
                continue
            if caller is None:
                total += ct
            else:
                total += sum(
                    c[3] for (cpath, _, cfunction), c in callers.items() if cpath.endswith(caller[0]) and cfunction == caller[1]
                )
        return total

    whole = cumulative("statistics_state.py", "load")
    read = cumulative("repository.py", "open")
    score = cumulative("engine.py", "score")
    validate = cumulative("main.py", "model_validate", ("engine.py", "_apply"))
    apply = cumulative("engine.py", "_apply")
    replay = cumulative("engine.py", "_replay")
    figures = cumulative("statistics.py", "figures_of")
    combine = cumulative("statistics.py", "combine")
    parts = [
        ("reading the sheets (TinyDB, JSON, pydantic, the input limits)", read),
        ("scoring: the rulesets' handlers (the rules applied to each game)", apply - validate),
        ("scoring: each entry's data validated by its ruleset's model", validate),
        ("scoring: replay around the handlers (lines, running totals)", replay - apply),
        ("scoring: status and result of the sheet", score - replay),
        ("the statistics' figures per sheet (figures_of)", figures),
        ("the statistics over all sheets (combine)", combine),
    ]
    parts.append(("the rest (listing, the cache of scores)", whole - sum(t for _, t in parts)))
    return [(name, took / whole) for name, took in parts]


def time_per_ruleset(repeat: int = 7, number: int = 100) -> list[tuple[str, int, float, float]]:
    """Per example sheet: its entries, and the CPU milliseconds to score it (``score_sheet``) and to
    take the statistics' figures from that score (``figures_of``), each the fastest of ``repeat``
    rounds of ``number``: the two parts of the statistics that grow with the games, per ruleset."""
    out = []
    for path in sorted(EXAMPLES.glob("*.json")):
        if ".score." in path.name:
            continue
        sheet = Sheet.from_json(path.read_bytes())
        dated = DatedSheet(sheet, datetime.now(UTC).date())
        score_ms = figures_ms = float("inf")
        for _ in range(repeat):
            gc.collect()
            start = time.process_time()
            for _ in range(number):
                score = score_sheet(sheet)
            score_ms = min(score_ms, (time.process_time() - start) * 1000 / number)
            start = time.process_time()
            for _ in range(number):
                figures_of(dated, score)
            figures_ms = min(figures_ms, (time.process_time() - start) * 1000 / number)
        out.append((path.stem, len(sheet.entries), score_ms, figures_ms))
    return out


RULESET_MODULES = ("doppelkopf.py", "doppelkopf_games.py", "schafkopf.py", "schnapsen.py", "watten.py")
FRAME = re.compile(r"(\S+) \(scoring/(\w+\.py):(\d+)\)")


def score_examples_for(seconds: float) -> None:
    """Score the example sheets over and over for ``seconds`` of CPU (what ``--texts`` samples)."""
    sheets = example_sheets()
    start = time.process_time()
    while time.process_time() - start < seconds:
        for sheet in sheets:
            score_sheet(sheet)


TEXT_FUNCTIONS = re.compile(r"_text$|^_pkt$|^_liste$|^_je$|^_art_name$|^_describe$|^ansage_name$")


def text_lines(module: Path) -> set[int]:
    """The lines of ``module`` that build explanation texts: its ``Explanation(...)`` calls, f-strings
    and ``join`` calls (the lists of names), and the functions that only make text (``_need_text``,
    ``_pkt``, ``_art_name``, ...)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        called = getattr(node.func, "id", None) or getattr(node.func, "attr", None) if isinstance(node, ast.Call) else None
        text_function = isinstance(node, ast.FunctionDef) and TEXT_FUNCTIONS.search(node.name)
        if called in ("Explanation", "join") or isinstance(node, ast.JoinedStr) or text_function:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def text_shares(seconds: float) -> tuple[int, list[tuple[str, float, float]]]:
    """py-spy's samples of scoring the example sheets: their number, and per ruleset module the share
    of all samples in its handlers and in its statements that build texts (see ``text_lines``)."""
    texts = {name: text_lines(EXAMPLES.parent.parent / "scoring" / name) for name in RULESET_MODULES}
    spy = str(Path(sys.executable).parent / "py-spy")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stacks.txt"
        subprocess.run(
            [
                spy,
                "record",
                "--format",
                "raw",
                "--rate",
                "250",
                "-o",
                str(out),
                "--",
                sys.executable,
                __file__,
                "--score-for",
                str(seconds),
            ],
            check=True,
            capture_output=True,
        )
        stacks = out.read_text(encoding="utf-8").splitlines()
    total = 0
    handlers = dict.fromkeys(RULESET_MODULES, 0)
    building = dict.fromkeys(RULESET_MODULES, 0)
    for line in stacks:
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        frames = [(module, int(number)) for _, module, number in FRAME.findall(stack) if module in texts]
        if frames:
            handlers[frames[0][0]] += int(count)
        hit = next((module for module, number in frames if number in texts[module]), None)
        if hit is not None:
            building[hit] += int(count)
    return total, [(name, handlers[name] / total, building[name] / total) for name in RULESET_MODULES if total]


class _NoTexts(ast.NodeTransformer):
    """Every f-string and ``join`` call of a module replaced by ``""`` (what texts for free would cost)."""

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.copy_location(ast.Constant(""), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(ast.Constant(""), node) if getattr(node.func, "attr", None) == "join" else node


TIME_SCORING = """
import gc, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from scoring import Sheet, score_sheet
assert sys.modules["scoring"].__file__.startswith(sys.argv[1])
sheets = [Sheet.from_json(p.read_bytes()) for p in sorted(Path(sys.argv[2]).glob("*.json")) if ".score." not in p.name]
best = float("inf")
for _ in range(7):
    gc.collect()
    start = time.process_time()
    for _ in range(int(sys.argv[3])):
        for sheet in sheets:
            score_sheet(sheet)
    best = min(best, (time.process_time() - start) / int(sys.argv[3]) / len(sheets))
print(best * 1000)
"""


def texts_cost(rounds: int, alternations: int = 3) -> tuple[float, float]:
    """CPU milliseconds per example sheet to score it with the rulesets as they are, and with
    rulesets that build no text (``_NoTexts``): each the fastest of 7 x ``rounds``, over
    ``alternations`` runs of the two in turn, each in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("kept", "stripped"):
            shutil.copytree(EXAMPLES.parent.parent / "scoring", Path(tmp) / variant / "scoring")
        for name in RULESET_MODULES:
            module = Path(tmp) / "stripped" / "scoring" / name
            tree = _NoTexts().visit(ast.parse(module.read_text(encoding="utf-8")))
            module.write_text(ast.unparse(ast.fix_missing_locations(tree)), encoding="utf-8")
        best = {"kept": float("inf"), "stripped": float("inf")}
        for _ in range(alternations):
            for variant in best:
                run = [sys.executable, "-c", TIME_SCORING, str(Path(tmp) / variant), str(EXAMPLES), str(rounds)]
                done = subprocess.run(run, check=True, capture_output=True, text=True)
                best[variant] = min(best[variant], float(done.stdout))
    return best["kept"], best["stripped"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--only", nargs="*", default=list(SHEETS), help="ruleset ids to measure")
    parser.add_argument("--sheets", type=int, default=1000, help="stored sheets for the statistics")
    parser.add_argument("--statistics-samples", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="also profile the statistics from nothing (cProfile)")
    parser.add_argument("--per-ruleset", action="store_true", help="also time scoring and figures per example sheet")
    parser.add_argument("--rounds", type=int, default=100, help="scorings per timing of --per-ruleset")
    parser.add_argument(
        "--texts", type=float, default=0, help="also sample scoring for this many CPU seconds with py-spy: the texts' share"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the taps' and the statistics' parts in instructions (valgrind's callgrind: the same on every run, about 50x as slow)",
    )
    parser.add_argument("--score-for", type=float, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count-submits", nargs="+", metavar="FOLDER RULESET", help=argparse.SUPPRESS)
    parser.add_argument("--count-statistics", nargs=2, type=Path, metavar=("MANY", "FEW"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.score_for:
        score_examples_for(args.score_for)
        return
    if args.count_submits or args.count_statistics:
        if args.count_submits:
            count_submits(Path(args.count_submits[0]), args.count_submits[1:])
        if args.count_statistics:
            count_statistics(*args.count_statistics)
        return
    print(f"{'Blatt':<45} {'erstes Spiel':>13} {'letztes Spiel':>14} {'letztes/erstes':>15}")
    taps: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = SheetStore(Path(tmp) / "store", device="bench")
        for ruleset_id, title in SHEETS.items():
            if ruleset_id not in args.only:
                continue
            blank, games = example_game(ruleset_id)
            first, last = [], []
            for _ in range(args.samples):
                first.append(time_submit(store, blank, games, 0))
                last.append(time_submit(store, blank, games, len(games) - 1))
            f, l_ = statistics.median(t[1] for t in first) * 1000, statistics.median(t[1] for t in last) * 1000
            print(f"{title:<45} {f:>10.1f} ms {l_:>11.1f} ms {l_ / f:>14.2f}x")
            taps.append((title, statistics.median(sum(t) for t in first) * 1000, statistics.median(sum(t) for t in last) * 1000))
        if taps:
            print()
            print("Mit dem Speichern davor (SheetStore.add_game: Regelprüfung, Schreiben mit fsync):")
            for title, f, l_ in taps:
                print(f"{title:<45} {f:>10.1f} ms {l_:>11.1f} ms {l_ / f:>14.2f}x")
        if args.sheets:
            many = SheetStore(Path(tmp) / "many", device="bench")
            fill(many, args.sheets)
            load, read_score, cold, warm = time_statistics(many, args.statistics_samples)
            print()
            print(f"{'Statistik über (CPU-Zeit)':<45} {'nur lesen':>13} {'Statistik':>14} {'Zuschlag':>15}")
            for title, took in zip(statistics_titles(args.sheets), (read_score, cold, warm), strict=True):
                print(f"{title:<45} {load * 1000:>10.0f} ms {took * 1000:>11.0f} ms {(took - load) / load:>+14.0%}")
            if args.profile:
                print()
                print(f"Wohin die Zeit der Statistik aus dem Nichts geht (cProfile, {args.sheets} Blätter):")
                for name, share in profile_statistics(many):
                    print(f"{share:>7.1%}  {name}")
        if args.instructions and (taps or args.sheets):
            chosen = [ruleset_id for ruleset_id in SHEETS if ruleset_id in args.only]
            stores = None
            if args.sheets:
                few = SheetStore(Path(tmp) / "few", device="bench")
                fill(few, len(example_sheets()))
                stores = (Path(tmp) / "many", Path(tmp) / "few")
            tap_counts, counts = count_instructions((Path(tmp) / "counted", chosen) if taps else None, stores)
            if tap_counts:
                print()
                print("Ein Spiel in Instruktionen (callgrind; ohne die Arbeit des Kernels, also ohne das fsync):")
                print(f"{'ab dem gespeicherten Eintrag':<45} {'erstes Spiel':>13} {'letztes Spiel':>14} {'letztes/erstes':>15}")
                for ruleset_id, (_, show_first, _, show_last) in zip(chosen, tap_counts, strict=True):
                    print(
                        f"{SHEETS[ruleset_id]:<45} {show_first / 1e3:>9.0f} Tsd {show_last / 1e3:>10.0f} Tsd "
                        f"{show_last / show_first:>14.2f}x"
                    )
                print("mit dem Speichern davor (SheetStore.add_game):")
                for ruleset_id, (save_first, show_first, save_last, show_last) in zip(chosen, tap_counts, strict=True):
                    first, last = save_first + show_first, save_last + show_last
                    print(f"{SHEETS[ruleset_id]:<45} {first / 1e3:>9.0f} Tsd {last / 1e3:>10.0f} Tsd {last / first:>14.2f}x")
            if counts:
                print()
                print(f"{'Statistik über (Instruktionen, callgrind)':<45} {'nur lesen':>13} {'Statistik':>14} {'Zuschlag':>15}")
                base = counts[0]
                for title, count in zip(statistics_titles(args.sheets), counts[1:], strict=True):
                    print(f"{title:<45} {base / 1e6:>9.0f} Mi {count / 1e6:>10.0f} Mi {(count - base) / base:>+14.1%}")
        if args.per_ruleset:
            print()
            print(
                f"{'Beispielblatt':<22} {'Einträge':>8} {'werten':>10} {'Statistik':>10}  (CPU, das schnellste von 7 x {args.rounds})"
            )
            rows = time_per_ruleset(number=args.rounds)
            for name, entries, score_ms, figures_ms in rows:
                print(f"{name:<22} {entries:>8} {score_ms:>7.3f} ms {figures_ms:>7.3f} ms")
            mean_score = statistics.mean(r[2] for r in rows)
            mean_figures = statistics.mean(r[3] for r in rows)
            print(f"{'im Mittel':<22} {'':>8} {mean_score:>7.3f} ms {mean_figures:>7.3f} ms")
        if args.texts:
            print()
            total, shares = text_shares(args.texts)
            print(f"Scoring the example sheets ({total} samples of py-spy): share in the handlers, and in building texts")
            for name, in_handlers, in_texts in shares:
                print(f"{name:<22} {in_handlers:>7.1%} {in_texts:>7.1%}")
            in_handlers = sum(s[1] for s in shares)
            print(f"{'all rulesets':<22} {in_handlers:>7.1%} {sum(s[2] for s in shares):>7.1%}")
            print(f"{'the engine around them':<22} {1 - in_handlers:>7.1%}  (replay, entry data validated, lines, totals)")
            kept, stripped = texts_cost(args.rounds)
            print(
                f"Scoring an example sheet: {kept:.3f} ms as it is, {stripped:.3f} ms with no text built ({stripped / kept - 1:+.1%})"
            )


if __name__ == "__main__":
    main()
