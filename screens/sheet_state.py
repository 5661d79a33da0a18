"""The open sheet: its score, its lines with their explanations and trail, and what the player does.

Every action goes through ``SheetStore`` (checked by the ruleset before anything is written) and
then reads the sheet back, so what the screen shows is always what is on disk, also when a second
window wrote in between. A refusal keeps the ruleset's German message in ``error`` and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import flet as ft

from scoring import Line, RuleViolation, Score, Sheet, explain, find_ruleset
from scoring.engine import Headline
from scoring.messages import kind_label
from scoring.model import CLOSE, CORRECTION, VOID, Entry
from scoring.numbering import Numbered, line_names, next_label, numbering, refusal_text
from storage import SheetStore, StorageError

from .drafts import DraftIncomplete, EntryDraft, assign, checker, refusal
from .families import draft_for

UNDO_REASON = "Letztes Spiel zurückgenommen"
NO_SIGNATURE = "Bitte mit Namen unterschreiben."


def when(at: datetime | None) -> str:
    """A log time as the table reads it (local time of the phone)."""
    if at is None:
        return "ohne Zeit"
    return at.astimezone().strftime("%d.%m. %H:%M")


def _names(sheet: Sheet, score: Score, struck: bool) -> dict[int, Numbered]:
    """What the sheet calls each log entry (``numbering``). Without a struck game every entry but the
    corrections is a line of ``score``, with its latest kind, and the lines name themselves
    (``line_names``, as the host does) without resolving the log again: after every game (issue 24)."""
    counted = find_ruleset(sheet.ruleset.id).counted_kinds(sheet)
    if not struck and len(score.lines) == sum(1 for e in sheet.entries if e.kind != CORRECTION):
        return {named.entry: named for named in line_names(score.lines, counted)}
    return numbering(sheet.entries, counted)


@dataclass(frozen=True)
class TrailItem:
    """One change of a past entry: a correction or a void, with when, where and why."""

    entry: int
    action: str
    at: str
    device: str
    reason: str
    before: str
    after: str

    def text(self) -> str:
        reason = f", Grund: {self.reason}" if self.reason else ""
        change = f": vorher „{self.before}“, jetzt „{self.after}“" if self.after else f": war „{self.before}“"
        return f"{self.action} am {self.at} auf {self.device}{reason}{change}"


@dataclass(frozen=True)
class LineView:
    """One line of the sheet as the list shows it."""

    entry: int
    title: str
    summary: str
    points: str
    stand: str
    voided: bool
    corrected: bool
    explanation: tuple[str, ...]
    name: str = ""
    """What the players call it: "7. Spiel", "Abschluss", "Gestrichen: Spiel nach dem 6. Spiel"."""
    correctable: bool = False


def _summary(line: Line) -> str:
    texts = [e.text for e in line.explanation if e.text]
    return texts[0] if texts else ""


@ft.observable
@dataclass
class SheetState:
    """A sheet opened on this phone, and the player's actions on it."""

    store: SheetStore
    sheet_id: str
    sheet: Sheet | None = None
    score: Score | None = None
    load_error: str | None = None
    error: str | None = None
    """The last refusal (the ruleset's German message), shown next to the entry panel."""
    notice: str | None = None
    close_error: str | None = None
    """The close screen's refusal (no signature, no note), shown there only."""
    """What the last action did ("Spiel 5 eingetragen"), so a tap is confirmed."""
    expanded: int | None = None
    """The line whose explanation and trail are shown."""
    correcting: int | None = None
    """The entry being corrected in the entry panel."""
    reason: str = ""
    draft: Any = None
    lines: list[LineView] = field(default_factory=list)
    _views: dict[object, tuple[object, LineView]] = field(default_factory=dict, repr=False)
    """Each line's view with the ``Line`` it was made from (see ``_line_views``)."""
    on_saved: Any = None
    """Called with the sheet id and whether it is closed after every change saved (the app sends it on)."""

    # -- reading ---------------------------------------------------------------------------
    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            info = self.store.sheet_path(self.sheet_id).stat()
        except (OSError, ValueError):
            return None
        return (info.st_ino, info.st_mtime_ns, info.st_size)

    def refresh_if_changed(self) -> bool:
        """Read the sheet again if another window (or process) wrote it since; True if it did."""
        if self._file_stamp() == getattr(self, "_stamp", None):
            return False
        self.load()
        return True

    def redraw(self) -> None:
        """Show the sheet as it is now, after the window reconnected (a reloaded page).

        While a window is away its screen is not redrawn (Flet drops the updates), but the follower goes
        on reading the file: a game another window wrote in that time is in this state, not on the
        screen. Reads the file if it changed since, and redraws either way; a draft stays as it is."""
        if not self.refresh_if_changed() and self.sheet is not None:
            assign(self, sheet=self.sheet, score=self.score, lines=self.lines)

    def load(self) -> None:
        """Read the sheet from the store and score it; a damaged or foreign sheet gives a message."""
        self._stamp = self._file_stamp()
        try:
            sheet = self.store.open(self.sheet_id)
            score = checker(sheet).score
        except (StorageError, RuleViolation, ValueError, KeyError) as error:
            self.sheet, self.score, self.load_error = None, None, f"Das Blatt kann nicht geöffnet werden: {explain(error)}"
            return
        self._show(sheet, score)

    def _show(self, sheet: Sheet, score: Score) -> None:
        assign(self, sheet=sheet, score=score)
        assign(self, lines=self._line_views(sheet, score))
        self.load_error = None
        if self.draft is None:
            self.draft = draft_for(sheet.ruleset.id)
        if self.correcting is None:
            self.draft.reset(sheet, score)

    @property
    def title(self) -> str:
        if self.sheet is None:
            return "Blatt"
        return find_ruleset(self.sheet.ruleset.id).title

    @property
    def where(self) -> str:
        """Tournament, round and table of the sheet, as one line."""
        if self.sheet is None:
            return ""
        ctx = self.sheet.context
        parts = [
            ctx.tournament,
            f"{ctx.round_label} {ctx.round}" if ctx.round else (ctx.round_label if ctx.round_label != "Spielabend" else None),
            f"Tisch {ctx.table}" if ctx.table else None,
        ]
        return " · ".join(p for p in parts if p)

    def name(self, participant_id: str) -> str:
        assert self.sheet is not None
        try:
            return self.sheet.participant(participant_id).name
        except KeyError:
            return participant_id

    @property
    def totals(self) -> list[tuple[str, int]]:
        """The running totals (the sum of every line), per participant, in seat order."""
        if self.sheet is None or self.score is None:
            return []
        return [(p.name, self.score.totals[p.id]) for p in self.sheet.participants]

    @property
    def stand(self) -> list[tuple[str, int]] | None:
        """The open count where the ruleset restarts it (the open Bummerl), else ``None``."""
        if self.sheet is None or self.score is None or self.score.status.finished:
            return None
        stand = self.score.status.details.get("stand")
        if not isinstance(stand, dict):
            return None
        return [(p.name, int(stand[p.id])) for p in self.sheet.participants if p.id in stand]

    @property
    def headline(self) -> Headline | None:
        """The labelled numbers on top, as the ruleset names them (``Ruleset.headline``)."""
        if self.sheet is None or self.score is None:
            return None
        return find_ruleset(self.sheet.ruleset.id).headline(self.sheet, self.score)

    @property
    def status_messages(self) -> tuple[str, ...]:
        """Every status line of the sheet (the close screen shows them without a headline)."""
        return self.score.status.messages if self.score is not None else ()

    @property
    def messages(self) -> tuple[str, ...]:
        """The status lines under the headline: what the figures on top do not show already."""
        if self.sheet is None or self.score is None:
            return ()
        return find_ruleset(self.sheet.ruleset.id).status_beside_headline(self.sheet, self.score)

    @property
    def finished(self) -> bool:
        return self.score is not None and self.score.status.finished

    @property
    def needs_note(self) -> bool:
        """Whether signing now needs the Turnierleitung's note: the ruleset refuses a close without one."""
        if self.sheet is None or self.closed:
            return False
        return refusal(self.sheet, CLOSE, {"signed_by": "Unterschrift"}) is not None

    @property
    def closed(self) -> bool:
        return self.score is not None and self.score.status.closed

    @property
    def result_lines(self) -> tuple[str, ...]:
        """The result as the ruleset words it (Bummerl scores, Tischpunkte, Reuegeld, ...)."""
        if self.sheet is None or self.score is None:
            return ()
        return find_ruleset(self.sheet.ruleset.id).result_lines(self.sheet, self.score)

    def _points_text(self, points: dict[str, int]) -> str:
        return "  ".join(f"{self.name(pid)} {value:+d}" for pid, value in points.items() if value)

    def _line_views(self, sheet: Sheet, score: Score) -> list[LineView]:
        """The list's lines, named as the players count the games (``scoring.numbering``). A line the
        ruleset gave as the same object as last time, under the same name (the log is append-only;
        after a new game only it is new) keeps its view, so the list costs little."""
        cache = self._views
        voids = {e.target: i for i, e in enumerate(sheet.entries, start=1) if e.kind == VOID}
        by_entry = {line.entry: line for line in score.lines}
        names = _names(sheet, score, bool(voids))
        views = []
        for number, entry in enumerate(sheet.entries, start=1):
            if entry.kind in (CORRECTION, VOID):
                continue
            line = by_entry.get(number)
            name = names[number]
            key: object = ("gestrichen", number, voids.get(number), name.label) if line is None else (number, name.label)
            cached = cache.get(key)
            if cached is not None and (line is None or cached[0] is line):
                views.append(cached[1])
                continue
            view = self._line_view(sheet, name, line, voids.get(number))
            cache[key] = (line, view)
            views.append(view)
        return views

    def _line_view(self, sheet: Sheet, name: Numbered, line: Line | None, void: int | None) -> LineView:
        """One line as the list shows it; a voided one says what it was."""
        number = name.entry
        if line is None:
            was = self._line_text(find_ruleset(sheet.ruleset.id), void - 1, number, sheet) if void else ""
            return LineView(
                entry=number,
                name=name.label,
                title=name.label,
                summary=f"war: {was}" if was else "gestrichen",
                points="",
                stand="",
                voided=True,
                corrected=False,
                explanation=(),
            )
        shown = line.stand if line.stand is not None else line.totals
        return LineView(
            entry=number,
            name=name.label,
            title=name.label + (" (korrigiert)" if line.corrected_by else ""),
            summary=_summary(line),
            points=self._points_text(line.points),
            stand=" : ".join(str(shown[p.id]) for p in sheet.participants if p.id in shown),
            voided=False,
            corrected=bool(line.corrected_by),
            explanation=tuple(f"{e.rule}: {e.text}" for e in line.explanation),
            correctable=line.kind != CLOSE,
        )

    def label(self, entry: int) -> str:
        """What the sheet calls log entry ``entry`` ("7. Spiel"), as the players count the games."""
        if self.sheet is None:
            return f"Eintrag {entry}"
        named = numbering(self.sheet.entries, find_ruleset(self.sheet.ruleset.id).counted_kinds(self.sheet)).get(entry)
        return named.label if named is not None else f"Eintrag {entry}"

    def _refusal(self, error: BaseException, kind: str | None = None) -> str:
        """A refusal as the player reads it: an entry named by its game number, not its log number."""
        if isinstance(error, RuleViolation) and self.sheet is not None:
            return refusal_text(error, self.sheet.entries, find_ruleset(self.sheet.ruleset.id).counted_kinds(self.sheet), kind)
        return explain(error)

    def trail(self, entry: int) -> list[TrailItem]:
        """Every correction and void of ``entry``: when, on which device, why, and what it changed."""
        if self.sheet is None:
            return []
        ruleset = find_ruleset(self.sheet.ruleset.id)
        items = []
        for number, log in enumerate(self.sheet.entries, start=1):
            if log.kind not in (CORRECTION, VOID) or log.target != entry:
                continue
            before = self._line_text(ruleset, number - 1, entry)
            after = self._line_text(ruleset, number, entry) if log.kind == CORRECTION else ""
            items.append(
                TrailItem(
                    entry=number,
                    action="Korrigiert" if log.kind == CORRECTION else "Gestrichen",
                    at=when(log.at),
                    device=log.device or "unbekanntem Gerät",
                    reason=log.reason or "",
                    before=before,
                    after=after,
                )
            )
        return items

    def _line_text(self, ruleset: Any, length: int, entry: int, sheet: Sheet | None = None) -> str:
        """What line ``entry`` said when the log had ``length`` entries."""
        sheet = sheet or self.sheet
        assert sheet is not None
        partial = sheet.model_copy(update={"entries": sheet.entries[:length]})
        try:
            score = ruleset.score(partial)
        except RuleViolation:
            return "?"
        for line in score.lines:
            if line.entry == entry:
                points = self._points_text(line.points)
                return f"{_summary(line)}{f' ({points})' if points else ''}"
        return "gestrichen"

    # -- actions ---------------------------------------------------------------------------
    def _apply(self, action: Any, notice: str, kind: str | None = None) -> bool:
        """Run a store action; on refusal keep its message (a new entry of ``kind`` named by its game
        number) and change nothing."""
        try:
            sheet = action()
        except (RuleViolation, StorageError, ValueError) as error:
            self.error = self._refusal(error, kind)
            self.notice = None
            return False
        return self.show_saved(sheet, notice)

    def show_saved(self, sheet: Sheet, notice: str) -> bool:
        """Show a sheet just saved: its score (only the new entries replayed), lines and the panel."""
        self._stamp = self._file_stamp()
        try:
            score = checker(sheet).score
        except RuleViolation as error:
            self.error, self.notice = str(error), None
            return False
        self.error = None
        self.notice = notice
        self._show(sheet, score)
        if self.on_saved is not None:
            self.on_saved(self.sheet_id, score.status.closed)
        return True

    def submit(self, kind: str, data: dict[str, Any]) -> bool:
        """Save what the entry panel made: a new game, or the correction of ``correcting``."""
        if self.correcting is not None:
            target, reason = self.correcting, self.reason.strip()
            if not reason:
                self.error = "Bitte einen Grund für die Korrektur angeben."
                return False
            ok = self._apply(
                lambda: self.store.correct(self.sheet_id, target, kind, data, reason=reason),
                f"{self.label(target)} korrigiert",
            )
            if ok:
                self.finish_correction()
                self.expanded = target
            return ok
        what = (
            next_label(self.sheet.entries, find_ruleset(self.sheet.ruleset.id).counted_kinds(self.sheet), kind)
            if self.sheet
            else kind_label(kind)
        )
        return self._apply(lambda: self.store.add_game(self.sheet_id, data, kind=kind), f"{what} eingetragen", kind)

    def submit_draft(self) -> bool:
        """Save the draft's entry; an incomplete draft says what is missing."""
        try:
            kind, data = self.draft.entry()
        except DraftIncomplete as error:
            self.error = str(error)
            return False
        return self.submit(kind, data)

    def toggle(self, entry: int) -> None:
        """Show or hide the explanation and trail of one line."""
        self.expanded = None if self.expanded == entry else entry

    def start_correction(self, entry: int) -> None:
        """Load entry ``entry`` into the entry panel, to correct it."""
        if self.sheet is None or self.score is None:
            return
        line = next((ln for ln in self.score.lines if ln.entry == entry), None)
        if line is None or line.kind == CLOSE:
            self.error = f"{self.label(entry)} kann nicht korrigiert werden."
            return
        kind, data = self._current(entry)
        before = self.sheet.model_copy(update={"entries": self.sheet.entries[: entry - 1]})
        ruleset = find_ruleset(self.sheet.ruleset.id)
        draft: EntryDraft = self.draft
        draft.load(before, ruleset.score(before), kind, data)
        self.correcting, self.reason, self.error, self.notice = entry, "", None, None

    def _current(self, entry: int) -> tuple[str, dict[str, Any]]:
        """The kind and data entry ``entry`` counts with now (its latest correction)."""
        assert self.sheet is not None
        kind, data = self.sheet.entries[entry - 1].kind, dict(self.sheet.entries[entry - 1].data)
        for log in self.sheet.entries:
            if log.kind == CORRECTION and log.target == entry and log.replacement is not None:
                kind, data = log.replacement.kind, dict(log.replacement.data)
        return kind, data

    def cancel_correction(self) -> None:
        """ "Abbrechen": back to entering new games; a refusal of the correction goes with it."""
        self.error, self.notice = None, None
        self.finish_correction()

    def finish_correction(self) -> None:
        """Back to entering new games after the correction was saved (its notice stays)."""
        self.correcting, self.reason = None, ""
        if self.sheet is not None and self.score is not None and self.draft is not None:
            self.draft.reset(self.sheet, self.score)

    def set_reason(self, reason: str) -> None:
        self.reason = reason

    @property
    def last_game(self) -> int | None:
        """The last entry that still counts and can be taken back (not the close)."""
        if self.score is None:
            return None
        for line in reversed(self.score.lines):
            if line.kind != CLOSE:
                return line.entry
            return None
        return None

    def undo_last(self) -> bool:
        """ "Letztes Spiel zurücknehmen": void the last game, with the trail."""
        target = self.last_game
        if target is None:
            self.error = "Es gibt kein Spiel zum Zurücknehmen."
            return False
        what = self.label(target)
        return self._apply(lambda: self.store.void(self.sheet_id, target, reason=UNDO_REASON), f"{what} zurückgenommen")

    def void(self, entry: int, reason: str) -> bool:
        """Strike a past entry out, with a reason."""
        if not reason.strip():
            self.error = "Bitte einen Grund für das Streichen angeben."
            return False
        what = self.label(entry)
        return self._apply(lambda: self.store.void(self.sheet_id, entry, reason=reason.strip()), f"{what} gestrichen")

    def leave_panel(self) -> None:
        """The player leaves the entry panel (to sign, to another screen): its refusal and notice go."""
        self.error, self.notice, self.close_error = None, None, None

    def close(self, signed_by: str, override: str | None = None) -> bool:
        """Close and sign; before the end only with the Turnierleitung's note (the ruleset decides).
        A refusal is the close screen's own (``close_error``), never the entry panel's."""
        if not signed_by.strip():
            self.close_error = NO_SIGNATURE
            return False
        note = (override or "").strip() or None
        self.error = None
        ok = self._apply(lambda: self.store.close(self.sheet_id, signed_by.strip(), override=note), "Blatt abgeschlossen")
        self.close_error, self.error = (None, None) if ok else (self.error, None)
        return ok

    def entry_at(self, number: int) -> Entry | None:
        if self.sheet is None or not 1 <= number <= len(self.sheet.entries):
            return None
        return self.sheet.entries[number - 1]
