"""The scoring engine every ruleset shares.

``Ruleset.score(sheet)`` is a pure function of the sheet: it resolves the log (corrections
replace their target, voids cancel it), feeds the effective entries one by one to the
ruleset's handlers, and returns a frozen ``Score``: one ``Line`` per effective entry with the
points it gave and why, the running totals, the status (who deals, gspannt, games left, ...)
and the sheet's result for the tournament.

A ruleset subclasses ``Ruleset`` and provides:

- ``Options``: a frozen pydantic model of its house rules, with defaults;
- ``entry_models``: for each entry kind it accepts, the pydantic model of its ``data``;
- ``start(ctx)`` returning its own mutable state for one scoring run;
- ``on_<kind>(state, data, ctx)`` per entry kind, returning an ``Outcome``;
- ``status(state, ctx)`` and ``result(state, ctx)``.

A handler refuses an entry by raising ``RuleViolation`` with the rule it breaks; the engine
adds the entry number. Checking a new entry is scoring the sheet with it appended, so no
rule is written twice.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, Field, SerializeAsAny, ValidationError

from .limits import MAX_ENTRIES
from .messages import validation_message
from .model import CLOSE, CORRECTION, VOID, Entry, Frozen, Participant, RulesetRef, Sheet, SheetContext

Points = dict[str, int]


PAPER = "papier"
"""Entry kind of a paper Tischliste typed at the desk from its totals alone (every ruleset family has
one, checked where its rules allow; see ``paper_totals``)."""


class RuleViolation(ValueError):
    """An entry or sheet the rules do not allow. ``str()`` is a German message naming the rule."""

    def __init__(self, rule: str, message: str, *, entry: int | None = None) -> None:
        self.rule = rule
        self.message = message
        self.entry = entry
        self.where: str | None = None
        """The entry as the players name it ("7. Spiel"), once the ruleset has named it (``named``)."""
        super().__init__(self._text())

    def _text(self) -> str:
        where = self.where or (f"Eintrag {self.entry}" if self.entry is not None else "")
        return f"{where}: {self.rule}: {self.message}" if where else f"{self.rule}: {self.message}"

    def at_entry(self, number: int) -> RuleViolation:
        if self.entry is None:
            self.entry = number
            self.args = (self._text(),)
        return self

    def named(self, where: str | None) -> RuleViolation:
        """The violation with its entry named as the players count the games (``scoring.numbering``)."""
        if where is not None and self.where is None:
            self.where = where
            self.args = (self._text(),)
        return self


class UnknownRuleset(ValueError):
    """No ruleset is registered under that id."""


class Explanation(Frozen):
    """One reason on a line: which rule gave whom how many points (or just a remark)."""

    rule: str
    text: str
    points: dict[str, int] = Field(default_factory=dict)


class Line(Frozen):
    """What one effective entry of the log did."""

    entry: int
    """Number of the entry in the log (1-based). A corrected entry keeps its number."""
    kind: str
    corrected_by: tuple[int, ...] = ()
    points: dict[str, int]
    explanation: tuple[Explanation, ...]
    totals: dict[str, int]
    """Running totals: the sum of ``points`` of this and every earlier line."""
    stand: dict[str, int] | None = None
    """The ruleset's running count where it restarts (the open Bummerl), if it has one."""


class Status(Frozen):
    """Where the sheet stands now, as the table needs to see it."""

    finished: bool = False
    """No further game can be entered (the round is complete, ended by time, or closed)."""
    closed: bool = False
    """The sheet was closed and signed."""
    dealer: str | None = None
    """Participant id who deals (or is Rufer / Vorhand, as the ruleset says) next."""
    messages: tuple[str, ...] = ()
    """German lines for the table ("Team A ist gspannt", "Pflichtsolo offen: Anna")."""
    details: dict[str, Any] = Field(default_factory=dict)


class Score(Frozen):
    """The full evaluation of a sheet."""

    ruleset: RulesetRef
    lines: tuple[Line, ...]
    totals: dict[str, int]
    status: Status
    result: SerializeAsAny[BaseModel]

    def json_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"ruleset"})


class Outcome(NamedTuple):
    """What a handler returns: points per participant and the reasons for them.

    A named tuple, not a frozen dataclass: as immutable, and made once per game of every sheet scored
    in a quarter of the time (a frozen dataclass sets each field through ``object.__setattr__``):
    2.6 % of scoring a Watten sheet's instructions (``python bench/host.py --per-sheet --instructions``,
    issue 24)."""

    points: Mapping[str, int]
    explanation: Sequence[Explanation]
    stand: Mapping[str, int] | None = None


@dataclass(frozen=True)
class EffectiveEntry:
    """An entry as it counts after corrections and voids."""

    number: int
    kind: str
    data: Mapping[str, Any]
    corrected_by: tuple[int, ...]


_EFFECTIVE_FIELDS = tuple(spec.name for spec in dataclasses.fields(EffectiveEntry))


def effective_entries(entries: Sequence[Entry]) -> list[EffectiveEntry]:
    """Resolve the log: corrections replace their target, voids cancel it.

    Only an entry that came earlier and is itself a game, event or close can be targeted;
    the latest correction of an entry wins; a void cancels the entry whatever corrections it had.
    """
    if not any(entry.kind in (CORRECTION, VOID) for entry in entries):
        # The usual log, never corrected: every entry counts as written.
        return [_effective(number, entry.kind, entry.data, ()) for number, entry in enumerate(entries, start=1)]
    current: dict[int, tuple[str, Mapping[str, Any], tuple[int, ...]]] = {}
    voided: set[int] = set()
    for number, entry in enumerate(entries, start=1):
        if entry.kind in (CORRECTION, VOID):
            target = entry.target
            assert target is not None  # guaranteed by Entry's validator
            if target >= number or target not in current:
                raise RuleViolation(
                    "Korrekturen",
                    f"Eintrag {target} gibt es nicht oder er ist selbst eine Korrektur/Streichung",
                    entry=number,
                )
            if target in voided:
                raise RuleViolation("Korrekturen", f"Eintrag {target} ist bereits gestrichen", entry=number)
            if entry.kind == VOID:
                voided.add(target)
            else:
                assert entry.replacement is not None
                _, _, trail = current[target]
                current[target] = (entry.replacement.kind, entry.replacement.data, (*trail, number))
        else:
            current[number] = (entry.kind, entry.data, ())
    return [
        _effective(number, kind, data, trail) for number, (kind, data, trail) in sorted(current.items()) if number not in voided
    ]


def _effective(number: int, kind: str, data: Mapping[str, Any], corrected_by: tuple[int, ...]) -> EffectiveEntry:
    """``EffectiveEntry(number, kind, data, corrected_by)``, set in one step instead of the frozen
    dataclass's four guarded ones: made for every entry of every sheet scored (issue 24)."""
    assert _EFFECTIVE_FIELDS == ("number", "kind", "data", "corrected_by")
    effective = object.__new__(EffectiveEntry)
    object.__setattr__(effective, "__dict__", {"number": number, "kind": kind, "data": data, "corrected_by": corrected_by})
    return effective


def german_validation_message(error: ValidationError) -> str:
    """A German summary of a pydantic error: which field, what is wrong with it (see ``messages.py``)."""
    return validation_message(error)


class NoResult(Frozen):
    """Result of a ruleset that has none beyond its totals."""


StateT = TypeVar("StateT")
OptionsT = TypeVar("OptionsT", bound=Frozen)


@dataclass(frozen=True)
class Lookup:
    """A sheet's participant ids in order and their names: what every handler asks for, made once
    per scoring run instead of searching the participants each time."""

    ids: tuple[str, ...]
    names: Mapping[str, str]

    @classmethod
    def of(cls, sheet: Sheet) -> Lookup:
        return cls(ids=sheet.participant_ids, names={p.id: p.name for p in sheet.participants})


@dataclass(frozen=True)
class Context(Generic[OptionsT]):
    """What a handler may read besides its state: the sheet, its options, the entry number.

    ``closed`` is set for ``status`` and ``result`` when the sheet ends with a close, so a
    ruleset can word its status for a closed sheet (nobody deals any more).
    """

    sheet: Sheet
    options: OptionsT
    entry: int = 0
    closed: bool = False
    lookup: Lookup | None = dataclasses.field(default=None, compare=False, repr=False)
    """The sheet's participant ids and names, made once per scoring run (``None``: read from the sheet)."""

    @property
    def participant_ids(self) -> tuple[str, ...]:
        if self.lookup is not None:
            return self.lookup.ids
        return self.sheet.participant_ids

    def name(self, participant_id: str) -> str:
        if self.lookup is not None:
            try:
                return self.lookup.names[participant_id]
            except KeyError:
                raise KeyError(participant_id) from None
        return self.sheet.participant(participant_id).name

    def require_participant(self, participant_id: str, rule: str, field: str) -> str:
        if participant_id not in self.participant_ids:
            raise RuleViolation(rule, f"'{participant_id}' ({field}) sitzt nicht an diesem Tisch")
        return participant_id


def _context(sheet: Sheet, options: OptionsT, entry: int, lookup: Lookup | None) -> Context[OptionsT]:
    """``Context(sheet, options, entry, lookup=lookup)``, set in one step instead of the frozen
    dataclass's five guarded ones: made for every entry of every sheet scored (issue 24)."""
    assert _CONTEXT_FIELDS == ("sheet", "options", "entry", "closed", "lookup")
    ctx: Context[OptionsT] = object.__new__(Context)
    object.__setattr__(ctx, "__dict__", {"sheet": sheet, "options": options, "entry": entry, "closed": False, "lookup": lookup})
    return ctx


_CONTEXT_FIELDS = tuple(spec.name for spec in dataclasses.fields(Context))


@dataclass(frozen=True)
class ChartMarks:
    """What a ruleset marks on the course chart of a sheet besides the running counts
    (``Ruleset.chart_marks``; ``course.py`` draws them)."""

    levels: tuple[tuple[int, str], ...] = ()
    """Lines across the chart, ``(value, label)``: "Bummerl bei 15", "Schneider bei 0"."""
    bands: tuple[tuple[int, int, str], ...] = ()
    """Zones across the chart, ``(low, high, label)``: "gspannt (13/14)"."""
    games: tuple[tuple[int, str, str], ...] = ()
    """Games picked out, ``(entry, participant id, what)``: ``(7, "p2", "Pflichtsolo")``."""


class Figure(Frozen):
    """One labelled row of headline numbers: a value per participant, in seat order."""

    label: str
    """What the numbers are, as the table says it ("Stand im Bummerl", "Wertung (Punkte)")."""
    values: tuple[tuple[str, str], ...]
    """``(participant name, value as shown)``, in seat order."""


class Headline(Frozen):
    """The numbers on top of the sheet: the first figure is the one that counts now (shown big),
    the others beside it. Each ruleset says what they are (``Ruleset.headline``)."""

    figures: tuple[Figure, ...]

    @property
    def main(self) -> Figure:
        return self.figures[0]


def figure(label: str, sheet: Sheet, values: Mapping[str, int], *, signed: bool = False) -> Figure:
    """A figure of ``values`` per participant id, in the sheet's seat order."""
    shown = [
        (p.name, f"{values[p.id]:+d}" if signed and values[p.id] else str(values[p.id]))
        for p in sheet.participants
        if p.id in values
    ]
    return Figure(label=label, values=tuple(shown))


class CloseData(Frozen):
    """Data of a ``close`` entry: who signed the sheet, and an override the organizer recorded."""

    signed_by: str = Field(min_length=1, max_length=80)
    override: str | None = Field(default=None, max_length=500)


class Ruleset(ABC, Generic[StateT, OptionsT]):
    """Base class of every ruleset. Subclasses are registered with ``registry.register``."""

    id: ClassVar[str]
    version: ClassVar[int] = 1
    title: ClassVar[str]
    source: ClassVar[str]
    """The rule document under ``../shared/rules/`` this ruleset implements."""
    participant_kind: ClassVar[Literal["team", "player"]]
    participant_counts: ClassVar[tuple[int, ...]]
    zero_sum: ClassVar[bool] = False
    round_label: ClassVar[Literal["Durchgang", "Serie", "Runde", "Spielabend"]] = "Spielabend"
    """What the document calls the round one sheet covers (a new sheet's ``context.round_label``)."""
    team_size: ClassVar[int] = 0
    """Players per team where the rules name them (the new-sheet form asks for them); 0: not asked."""
    Options: ClassVar[type[Frozen]]
    entry_models: ClassVar[dict[str, type[BaseModel]]]
    """Entry kinds this ruleset accepts besides correction/void/close, with their data models."""
    input_rules: ClassVar[dict[str, str]] = {}
    """The rule to cite when a field of an entry's data is out of its range (else "Eingabe")."""
    game_kinds: ClassVar[frozenset[str]] = frozenset({"game"})
    """Entry kinds the players count as a game ("7. Spiel"); the others are events (``numbering``)."""

    # -- options -------------------------------------------------------------------------
    def options(self, values: Mapping[str, Any] | None = None) -> OptionsT:
        """The options object, defaults filled in; unknown or invalid options are refused."""
        try:
            return self.Options.model_validate(dict(values or {}))  # type: ignore[return-value]
        except ValidationError as error:
            raise RuleViolation("Optionen", validation_message(error, model=self.Options, prefix=("options",))) from None

    def ref(self, options: Mapping[str, Any] | None = None) -> RulesetRef:
        """A ruleset reference with every option snapshotted, for a new sheet."""
        return RulesetRef(id=self.id, version=self.version, options=self.options(options).model_dump(mode="json"))

    def new_sheet(
        self,
        participants: Sequence[Participant],
        context: SheetContext | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Sheet:
        """A fresh, empty sheet under this ruleset (participants checked)."""
        sheet = Sheet(ruleset=self.ref(options), participants=tuple(participants), context=context or SheetContext())
        self.score(sheet)
        return sheet

    # -- scoring -------------------------------------------------------------------------
    def score(self, sheet: Sheet) -> Score:
        """Score the whole sheet from its raw log. Raises ``RuleViolation`` naming entry and rule."""
        return self._score(sheet, self._replay(sheet))

    def _score(self, sheet: Sheet, run: _Replay[StateT, OptionsT]) -> Score:
        """The score of a replayed sheet: its lines and totals, and the status and result of its state."""
        ctx = Context(sheet, run.options, run.last_entry, closed=run.closed, lookup=run.lookup)
        status = self.status(run.state, ctx)
        if run.closed:
            status = status.model_copy(update={"closed": True, "finished": True, "dealer": None})
        return Score(
            ruleset=sheet.ruleset, lines=tuple(run.lines), totals=run.totals, status=status, result=self.result(run.state, ctx)
        )

    def stages(self, sheet: Sheet) -> tuple[int | None, ...]:
        """For each line of ``score(sheet)``: ``stage`` of the state after it (the course chart's
        Bummerl boundaries). Raises ``RuleViolation`` as ``score`` does."""
        stages: list[int | None] = []
        self._replay(sheet, observe=lambda state: stages.append(self.stage(state)))
        return tuple(stages)

    def _replay(self, sheet: Sheet, observe: Callable[[StateT], object] | None = None) -> _Replay[StateT, OptionsT]:
        """Feed the effective log to the handlers: the state after it, the lines, the totals.

        ``observe`` is shown the state after each entry (see ``stages``)."""
        self._check_ref(sheet)
        if len(sheet.entries) > MAX_ENTRIES:
            raise RuleViolation("Blatt voll", f"Ein Blatt hat höchstens {MAX_ENTRIES} Einträge", entry=MAX_ENTRIES + 1)
        options = self.options(sheet.ruleset.options)
        self.check_participants(sheet)
        lookup = Lookup.of(sheet)
        state = self.start(Context(sheet, options, lookup=lookup))
        run: _Replay[StateT, OptionsT] = _Replay(
            state=state,
            options=options,
            lines=[],
            totals={pid: 0 for pid in lookup.ids},
            closed=False,
            last_entry=0,
            lookup=lookup,
        )
        for eff in effective_entries(sheet.entries):
            self._step(run, sheet, eff)
            if observe is not None:
                observe(run.state)
        return run

    def _step(self, run: _Replay[StateT, OptionsT], sheet: Sheet, eff: EffectiveEntry) -> None:
        """Apply one effective entry to the replay: its points, its line, the running totals."""
        ids = run.lookup.ids if run.lookup is not None else sheet.participant_ids
        ctx = _context(sheet, run.options, eff.number, run.lookup)
        try:
            if run.closed:
                raise RuleViolation("Abschluss", "Das Blatt ist abgeschlossen; es kann nur noch korrigiert werden")
            outcome = self._apply(run.state, eff, ctx)
            if eff.kind == CLOSE:
                run.closed = True
            given = outcome.points
            points = {pid: int(given.get(pid, 0)) for pid in ids}
            if not given.keys() <= points.keys():
                raise AssertionError(f"{self.id}: points for unknown participants {set(given) - set(ids)}")
            if self.zero_sum and sum(points.values()) != 0:
                raise AssertionError(f"{self.id}: entry {eff.number} is not zero-sum: {points}")
        except RuleViolation as violation:
            raise violation.at_entry(eff.number) from None
        totals = run.totals
        run.totals = totals = {pid: totals[pid] + points[pid] for pid in ids}
        stand = outcome.stand
        run.lines.append(
            _line(
                {
                    "entry": eff.number,
                    "kind": eff.kind,
                    "corrected_by": eff.corrected_by,
                    "points": points,
                    "explanation": tuple(outcome.explanation),
                    "totals": totals,
                    "stand": dict(stand) if stand is not None else None,
                }
            )
        )
        run.last_entry = eff.number

    def check(self, sheet: Sheet, entry: Entry) -> Score:
        """Check ``entry`` against the sheet as it stands; return the score with it, or raise."""
        return self.score(sheet.with_entry(entry))

    def checker(self, sheet: Sheet, previous: EntryChecker | None = None) -> EntryChecker:
        """Check many candidate entries against one sheet, replaying its log once (what an entry
        panel offers). Gives the same verdict as ``check`` for every new game or event.

        ``previous``, the checker of this sheet before its last games or events were appended,
        saves replaying the whole log: only the new entries are applied to its state, so a
        sheet's last game costs no more than its first. Anything else (a correction or void
        among the new entries, another sheet) is replayed from the start."""
        if previous is not None:
            advanced = previous.advanced(sheet)
            if advanced is not None:
                return advanced
        return EntryChecker(self, sheet)

    def _check_ref(self, sheet: Sheet) -> None:
        if sheet.ruleset.id != self.id:
            raise RuleViolation("Regelwerk", f"Das Blatt gehört zu '{sheet.ruleset.id}', nicht zu '{self.id}'")
        if sheet.ruleset.version > self.version:
            raise RuleViolation(
                "Regelwerk",
                f"Das Blatt braucht '{self.id}' Version {sheet.ruleset.version}; diese App kennt Version {self.version}",
            )

    def check_participants(self, sheet: Sheet) -> None:
        count = len(sheet.participants)
        if count not in self.participant_counts:
            allowed = " oder ".join(str(n) for n in self.participant_counts)
            who = "Mannschaften" if self.participant_kind == "team" else "Spieler"
            raise RuleViolation("Teilnehmer", f"{self.title} braucht {allowed} {who}, das Blatt hat {count}")

    def _apply(self, state: StateT, eff: EffectiveEntry, ctx: Context[OptionsT]) -> Outcome:
        kind = eff.kind
        dispatch = type(self).__dict__.get("_dispatch")
        if dispatch is None:
            dispatch = type(self)._make_dispatch()
        known_kind = dispatch.get(kind)
        if known_kind is None:
            known = ", ".join(sorted([*self.entry_models, CLOSE]))
            raise RuleViolation("Eintragsarten", f"'{kind}' gibt es bei {self.title} nicht (bekannt: {known})")
        model, handler = known_kind
        raw = eff.data
        key = _data_key(raw)
        try:
            data = model.model_validate(raw if type(raw) is dict else dict(raw)) if key is None else _validated(model, key)
        except ValidationError as error:
            fields = [str(p) for item in error.errors() for p in item["loc"] if isinstance(p, str)]
            rule = next((self.input_rules[f] for f in reversed(fields) if f in self.input_rules), "Eingabe")
            raise RuleViolation(rule, validation_message(error, model=model)) from None
        return handler(self, state, data, ctx)

    @classmethod
    def _make_dispatch(cls) -> dict[str, tuple[type[BaseModel], Callable[..., Outcome]]]:
        """Per entry kind its data model and handler (``on_<kind>``), looked up once per ruleset class
        instead of once per entry (issue 24)."""
        models: dict[str, type[BaseModel]] = {**cls.entry_models, CLOSE: CloseData}
        dispatch = {kind: (model, getattr(cls, f"on_{kind.replace('-', '_')}")) for kind, model in models.items()}
        cls._dispatch = dispatch  # type: ignore[attr-defined]
        return dispatch

    def on_close(self, state: StateT, data: CloseData, ctx: Context[OptionsT]) -> Outcome:
        """Close and sign the sheet. Rulesets with closing conditions override this."""
        return Outcome({}, [Explanation(rule="Abschluss", text=f"Abgeschlossen und unterschrieben von {data.signed_by}")])

    # -- to implement ----------------------------------------------------------------------
    @abstractmethod
    def start(self, ctx: Context[OptionsT]) -> StateT:
        """A fresh state for one scoring run of the sheet in ``ctx``."""

    @abstractmethod
    def status(self, state: StateT, ctx: Context[OptionsT]) -> Status:
        """Where the sheet stands after the last entry."""

    def result(self, state: StateT, ctx: Context[OptionsT]) -> BaseModel:
        return NoResult()

    def result_lines(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """The sheet's result in German, as the table reads it when signing (beside ``status.messages``).

        Rulesets whose result holds more than their status says (Bummerl scores, Tischpunkte,
        Reuegeld) override this."""
        return ()

    def headline(self, sheet: Sheet, score: Score) -> Headline:
        """The numbers on top of the sheet, labelled: during play what the table plays for now, at
        the end the result that counts. Default: each participant's points over the sheet; rulesets
        with a Bummerl, a Wertung or Tischpunkte override this."""
        return Headline(figures=(figure("Punkte", sheet, score.totals),))

    def status_beside_headline(self, sheet: Sheet, score: Score) -> tuple[str, ...]:
        """The status messages the sheet shows under its headline: all of them, except those that say
        again what a figure on top shows (a player reading "Bummerl: …" under "Bummerl verloren" asks
        which one counts). The printout, the CLI and the organizer's table show every message, having
        no headline. Rulesets whose status repeats a figure override this."""
        return score.status.messages

    def counted_kinds(self, sheet: Sheet) -> frozenset[str]:
        """The entry kinds the players count as a game on this sheet (``game_kinds``; a ruleset whose
        options make an event a game, as Doppelkopf's Hausregel 2 does a Strafe, overrides this)."""
        return self.game_kinds

    def stage(self, state: StateT) -> int | None:
        """How many parts of the sheet that restart the count (Bummerl) ``state`` has closed;
        ``None`` where the rules have no such parts. Rulesets with Bummerl override this."""
        return None

    def chart_marks(self, options: OptionsT, result: BaseModel) -> ChartMarks:
        """What the course chart of a sheet with these ``options`` and this ``result`` marks: the
        target, zones, games picked out. Nothing where the rules name none; rulesets override this."""
        return ChartMarks()

    def option_choices(self) -> dict[str, dict[str, str]]:
        """For options that take a set of keys: the keys a player may choose, with their German names."""
        return {}

    def paper_totals(self, sheet: Sheet, score: Score) -> tuple[tuple[str, dict[str, int]], ...]:
        """The numbers a paper Tischliste writes at its foot, each labelled ("Bummerl 2", "Spielpunkte"),
        per participant id: what a sheet typed from the paper totals alone (entry kind ``papier``)
        is compared by. Default: each participant's total; rulesets with Bummerl or Tischpunkte override."""
        return (("Punkte", dict(score.totals)),)

    def is_paper_totals(self, score: Score) -> bool:
        """Was the sheet typed from the paper's totals alone (a ``papier`` entry), not game by game?"""
        return any(line.kind == PAPER for line in score.lines)

    # -- description -----------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """What ``tischblock rulesets`` prints: id, title, source, participants, options, entry kinds."""
        options = []
        for name, field in self.Options.model_fields.items():
            options.append(
                {
                    "name": name,
                    "default": field.get_default(call_default_factory=True),
                    "description": field.description or "",
                }
            )
        return {
            "id": self.id,
            "version": self.version,
            "title": self.title,
            "source": self.source,
            "participants": {"kind": self.participant_kind, "counts": list(self.participant_counts)},
            "options": options,
            "entry_kinds": sorted([*self.entry_models, CLOSE, CORRECTION, VOID]),
        }


_SCALARS = frozenset({str, int, bool, type(None)})


def _data_key(raw: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """``raw`` as a key of ``_validated``: each field, its value's type and its value (1 and True are
    equal and hash alike, but may validate differently); ``None`` where a value is not a string, an
    int, a bool or ``None`` (a float, -0.0 and 0.0 alike, is validated each time)."""
    key: list[Any] = []
    for name, value in raw.items():
        kind = type(value)
        if kind not in _SCALARS:
            return None
        key += (name, kind, value)
    return tuple(key)


@functools.lru_cache(maxsize=4096)
def _validated(model: type[BaseModel], key: tuple[Any, ...]) -> BaseModel:
    """The entry data of ``key`` (``_data_key``) validated by ``model``, once per process: a sheet's games
    repeat a few forms of data (a Watten game is its winner and its value), and each was validated
    again (issue 24). The data models are frozen and the values scalars, so one validated value
    serves every entry that holds the same data. Refused data raises and is not kept."""
    return model.model_validate(dict(zip(key[0::3], key[2::3], strict=True)))


_LINE_FIELDS = tuple(Line.model_fields)


def _line(values: dict[str, Any]) -> Line:
    """A ``Line`` of values built with its fields' types (ints, tuples of frozen values, fresh
    dicts), as ``Line.model_construct`` makes it, without its pass over every field's aliases and
    defaults: validating each line again, then constructing it field by field, cost a replay as
    much as the rulesets' handlers (issue 24)."""
    assert tuple(values) == _LINE_FIELDS
    line = Line.__new__(Line)
    object.__setattr__(line, "__dict__", values)
    object.__setattr__(line, "__pydantic_fields_set__", set(_LINE_FIELDS))
    object.__setattr__(line, "__pydantic_extra__", None)
    object.__setattr__(line, "__pydantic_private__", None)
    return line


@dataclass
class _Replay(Generic[StateT, OptionsT]):
    """A ruleset's state after the sheet's effective log, with the lines and totals it gave."""

    state: StateT
    options: OptionsT
    lines: list[Line]
    totals: dict[str, int]
    closed: bool
    last_entry: int
    lookup: Lookup | None = None


def _fork(value: Any) -> Any:
    """A copy of a ruleset's state that a handler may change without touching the original.

    Mutable containers and non-frozen dataclasses are copied; frozen values (pydantic models,
    frozen dataclasses, tuples, strings, numbers) are shared, which makes this much cheaper
    than ``copy.deepcopy`` over a state holding a whole sheet's Bummerl or games. What to do with a
    value is decided once per class (``_fork_plan``): an entry panel forks the state for every
    choice it offers, and asking each value in turn whether it is a dict, a list, a set or a
    dataclass was half of checking a Watten choice (issue 24)."""
    plan = _FORK_PLANS.get(value.__class__)
    if plan is None:
        plan = _FORK_PLANS[value.__class__] = _fork_plan(value.__class__)
    if plan is _SHARE:
        return value
    if plan is _DICT:
        return {key: _fork(item) for key, item in value.items()}
    if plan is _LIST:
        return [_fork(item) for item in value]
    if plan is _SET:
        return set(value)
    twin = copy.copy(value)
    for name in plan:
        object.__setattr__(twin, name, _fork(getattr(value, name)))
    return twin


_SHARE, _DICT, _LIST, _SET = ("share",), ("dict",), ("list",), ("set",)


def _fork_plan(cls: type) -> tuple[str, ...]:
    """How ``_fork`` copies a value of ``cls``: a dict, list or set (or a subclass of one) as such,
    a non-frozen dataclass field by field (the names of its fields), anything else shared."""
    if issubclass(cls, dict):
        return _DICT
    if issubclass(cls, list):
        return _LIST
    if issubclass(cls, set):
        return _SET
    if dataclasses.is_dataclass(cls) and not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return tuple(spec.name for spec in dataclasses.fields(cls))
    return _SHARE


_FORK_PLANS: dict[type, tuple[str, ...]] = {}


_SHEET_FIELDS = ("format", "format_version", "id", "ruleset", "participants", "context", "entries")
"""Every field of a sheet: ``EntryChecker.advanced`` compares them all before it keeps its own sheet."""
assert tuple(Sheet.model_fields) == _SHEET_FIELDS, "a new field of Sheet: compare it in EntryChecker.advanced"


class EntryChecker:
    """Candidate entries checked against one sheet: the log is replayed once, each candidate is
    applied to a copy of the state after it. Corrections and voids are checked the long way."""

    def __init__(self, ruleset: Ruleset[Any, Any], sheet: Sheet, replay: _Replay[Any, Any] | None = None) -> None:
        self.ruleset = ruleset
        self.sheet = sheet
        self._replay: _Replay[Any, Any] | None = replay
        self._error: RuleViolation | None = None
        self._score: Score | None = None
        if replay is None:
            try:
                self._replay = ruleset._replay(sheet)
            except RuleViolation as error:
                self._error = error

    def advanced(self, sheet: Sheet) -> EntryChecker | None:
        """The checker of ``sheet`` = this sheet with new games or events appended, replaying only
        those; ``None`` where that does not hold (then the caller replays the whole log)."""
        old, new = self.sheet.entries, sheet.entries
        if (
            self._replay is None
            or sheet.id != self.sheet.id
            or sheet.ruleset != self.sheet.ruleset
            or sheet.participants != self.sheet.participants
            or sheet.context != self.sheet.context
            or len(new) < len(old)
            # (a tuple's comparison takes the same entry object as equal without asking pydantic)
            or new[: len(old)] != old
            or any(entry.kind in (CORRECTION, VOID) for entry in new[len(old) :])
        ):
            return None
        if len(new) == len(old) and (sheet.format, sheet.format_version) == (self.sheet.format, self.sheet.format_version):
            # The same sheet read again (the store reads its file before each append): this checker,
            # whose sheet equals ``sheet`` in every field and holds the entry objects the caller had
            # before, so that the next comparison of the log (the screen's) goes by identity.
            return self
        run = self._forked()
        try:
            for number, entry in enumerate(new[len(old) :], start=len(old) + 1):
                self.ruleset._step(run, sheet, EffectiveEntry(number, entry.kind, entry.data, ()))
        except RuleViolation:
            return None
        return EntryChecker(self.ruleset, sheet, run)

    def then(self, entry: Entry) -> EntryChecker:
        """The checker of this sheet with ``entry`` (a game, an event or the close) appended: the same
        verdict as ``refusal``, raised as ``RuleViolation``, and the entry stepped once for both the
        check and the replay after it (the store's append checked it and then stepped it again)."""
        refusal = self._refusal_before(entry)
        if refusal is not None:
            raise refusal
        sheet = self.sheet.with_entry(entry)
        run = self._forked()
        number = len(self.sheet.entries) + 1
        self.ruleset._step(run, sheet, EffectiveEntry(number, entry.kind, entry.data, ()))
        return EntryChecker(self.ruleset, sheet, run)

    def _forked(self) -> _Replay[Any, Any]:
        """A copy of this checker's replay that stepping further does not change."""
        assert self._replay is not None
        replay = self._replay
        return _Replay(
            state=_fork(replay.state),
            options=replay.options,
            lines=list(replay.lines),
            totals=dict(replay.totals),
            closed=replay.closed,
            last_entry=replay.last_entry,
            lookup=replay.lookup,
        )

    def _refusal_before(self, entry: Entry) -> RuleViolation | None:
        """What refuses a game or event before its handler is asked: a sheet refused itself, a full
        log, a closed sheet."""
        if self._error is not None:
            return self._error
        assert entry.kind not in (CORRECTION, VOID), "corrections and voids are checked the long way (refusal)"
        assert self._replay is not None
        number = len(self.sheet.entries) + 1
        if number > MAX_ENTRIES:
            return RuleViolation("Blatt voll", f"Ein Blatt hat höchstens {MAX_ENTRIES} Einträge", entry=MAX_ENTRIES + 1)
        if self._replay.closed:
            return RuleViolation("Abschluss", "Das Blatt ist abgeschlossen; es kann nur noch korrigiert werden", entry=number)
        return None

    def refusal(self, entry: Entry) -> RuleViolation | None:
        """The rule ``entry`` breaks if appended to the sheet now, or ``None`` if it is allowed."""
        if self._error is not None:
            return self._error
        if entry.kind in (CORRECTION, VOID):
            try:
                self.ruleset.check(self.sheet, entry)
            except RuleViolation as error:
                return error
            return None
        refusal = self._refusal_before(entry)
        if refusal is not None:
            return refusal
        assert self._replay is not None
        number = len(self.sheet.entries) + 1
        state = _fork(self._replay.state)
        ctx = Context(self.sheet.with_entry(entry), self._replay.options, number, lookup=self._replay.lookup)
        try:
            self.ruleset._apply(state, EffectiveEntry(number, entry.kind, entry.data, ()), ctx)
        except RuleViolation as error:
            return error.at_entry(number)
        return None

    def allows(self, entry: Entry) -> bool:
        return self.refusal(entry) is None

    @property
    def score(self) -> Score:
        """The sheet's score, from the same replay (``RuleViolation`` if the sheet itself is refused)."""
        if self._error is not None:
            raise self._error
        assert self._replay is not None
        if self._score is None:
            self._score = self.ruleset._score(self.sheet, self._replay)
        return self._score


RowT = TypeVar("RowT", bound=Frozen)


def rank_by_sum(rows: Sequence[RowT], total: Callable[[RowT], int], criterion: str) -> tuple[RowT, ...]:
    """Rank standing rows by one sum, highest first; equal sums share the rank (1, 2, 2, 4).

    For the documents that rank by a single sum and name no further tie-break (Schafkopf's
    Ergebnis, Doppelkopf's Punkte): ``decided_by`` is ``criterion`` or says the tie stands."""
    ordered = sorted(rows, key=total, reverse=True)
    counts: dict[int, int] = {}
    for row in ordered:
        counts[total(row)] = counts.get(total(row), 0) + 1
    ranked: list[RowT] = []
    for index, row in enumerate(ordered):
        rank = ranked[-1].rank if ranked and total(ranked[-1]) == total(row) else index + 1  # type: ignore[attr-defined]
        decided = criterion if counts[total(row)] == 1 else "punktgleich (die Turnierordnung nennt keine weitere Wertung)"
        ranked.append(row.model_copy(update={"rank": rank, "decided_by": decided}))
    return tuple(ranked)
