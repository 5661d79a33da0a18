"""The new-sheet form: ruleset, its house rules, round and table, the teams or players, who writes.

Every field keeps the text the player typed; ``submit`` checks each field, marks a bad one with a
German message under its key in ``errors`` (the screen shows it next to that field) and creates
nothing until all are right. What the ruleset refuses (two teams with one Startnummer, an option out
of range) is shown under ``errors["teilnehmer"]`` or ``errors["option.<name>"]``.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, field
from typing import Any

import flet as ft
from pydantic.fields import FieldInfo

from scoring import Participant, RuleViolation, Sheet, SheetContext, UnknownRuleset, all_rulesets, explain, find_ruleset
from storage import SheetStore, StorageError

from .habits import names_used, suggest, usual_options

NAME_LIMIT = 80
TEXT_LIMIT = 80
FORM = "teilnehmer"
"""The errors key of what the ruleset says about the participants as a whole."""


@dataclass(frozen=True)
class OptionField:
    """One house rule as the form shows it."""

    name: str
    label: str
    kind: str
    """``bool``, ``int``, ``optional_int`` or ``choices``."""
    choices: tuple[tuple[str, str], ...] = ()


def _kind(info: FieldInfo) -> str:
    annotation = info.annotation
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType) and int in args and type(None) in args:
        return "optional_int"
    if origin is tuple:
        return "choices"
    return "text"


def option_fields(ruleset_id: str) -> list[OptionField]:
    """The ruleset's house rules, each with its German description and how it is entered."""
    ruleset = find_ruleset(ruleset_id)
    choices = ruleset.option_choices()
    fields = []
    for name, info in ruleset.Options.model_fields.items():
        kind = _kind(info)
        options = tuple(choices.get(name, {}).items())
        fields.append(OptionField(name=name, label=info.description or name, kind=kind, choices=options))
    return fields


def option_text(value: Any) -> Any:
    """An option's default as the form holds it: bools stay bools, choice lists stay lists, else text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    return "" if value is None else str(value)


def participant_ids(kind: str, count: int) -> list[str]:
    """The short keys entries use: teams A, B; players p1, p2, ..."""
    if kind == "team":
        return [chr(ord("A") + i) for i in range(count)]
    return [f"p{i + 1}" for i in range(count)]


@ft.observable
@dataclass
class NewSheetForm:
    """What the player has typed into the new-sheet form so far."""

    store: SheetStore
    ruleset_id: str = ""
    count: int = 0
    names: list[str] = field(default_factory=list)
    start_numbers: list[str] = field(default_factory=list)
    members: list[list[str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    tournament: str = ""
    round: str = ""
    table: str = ""
    writer: int = 0
    """Index of the team or player this phone writes for (the Listenführer at Schafkopf)."""
    errors: dict[str, str] = field(default_factory=dict)
    recent_teams: list[str] = field(default_factory=list)
    """Teams' names used on this phone before (rulesets played by teams), most used first."""
    recent_players: list[str] = field(default_factory=list)
    """Players' names used on this phone before, most used first."""
    joined: tuple[str, str, int] | None = None
    """The tournament this phone joined (id, name, table), if any: a new sheet belongs to it by default."""
    for_tournament: bool = True
    own_name: str = ""
    """The player's own name (settings): the team or player of that name is the one this phone writes for."""
    usual_house_rules: bool = False
    """Prefill the house rules most often played with the ruleset on this phone (settings)."""
    house_rules_note: str = "Voreingestellt wie im Regelwerk"
    typing: str | None = None
    """The key of the name field the player typed in last (``name.0``, ``member.1.0``): its offers show
    under it. Set as the player types, not on focus: a focus that re-renders the form can lose the field's focus."""

    def __post_init__(self) -> None:
        self.recent_teams, self.recent_players = self._recent_names()
        if not self.ruleset_id:
            self.choose(all_rulesets()[-1].id if all_rulesets() else "")

    # -- what the form shows --------------------------------------------------------------------
    @property
    def ruleset(self) -> Any:
        return find_ruleset(self.ruleset_id)

    @property
    def rulesets(self) -> list[tuple[str, str]]:
        """Every ruleset, as (id, title), in the order the form lists them."""
        return [(r.id, r.title) for r in sorted(all_rulesets(), key=lambda r: r.title)]

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(self.ruleset.participant_counts)

    @property
    def is_team(self) -> bool:
        return bool(self.ruleset.participant_kind == "team")

    @property
    def team_size(self) -> int:
        return int(self.ruleset.team_size)

    @property
    def round_label(self) -> str:
        return str(self.ruleset.round_label)

    def participant_label(self, index: int) -> str:
        """ "Mannschaft 1" / "Spieler 2 (Platz 2)": the seat is the order at the table."""
        if self.is_team:
            return f"Mannschaft {index + 1}"
        return f"Spieler {index + 1} (Platz {index + 1})"

    def option_fields(self) -> list[OptionField]:
        return option_fields(self.ruleset_id)

    def _recent_names(self) -> tuple[list[str], list[str]]:
        """Names used on this phone before, most used first, offered again: the teams' names (of
        rulesets played by teams, Watten) apart from the players' (a Watten team is no Doppelkopf player)."""
        try:
            infos = self.store.list_sheets()
        except StorageError:
            return [], []
        teams = [i for i in infos if _played_by_teams(i.ruleset)]
        players = [i for i in infos if not _played_by_teams(i.ruleset)]
        return names_used(i.participants for i in teams)[:200], names_used(i.participants for i in players)[:200]

    @property
    def recent(self) -> list[str]:
        """The names used before that fit the chosen ruleset's participants: teams' or players'."""
        return self.recent_teams if _played_by_teams(self.ruleset_id) else self.recent_players

    def _usual_sheets(self, ruleset_id: str, limit: int = 100) -> list[Sheet]:
        """The newest sheets of the ruleset on this phone (unreadable ones skipped)."""
        try:
            infos = [i for i in self.store.list_sheets() if i.ruleset == ruleset_id][:limit]
        except StorageError:
            return []
        sheets = []
        for info in infos:
            try:
                sheets.append(self.store.open(info.id))
            except StorageError:
                continue
        return sheets

    def field_value(self, key: str) -> str:
        """What is typed in the name field ``key`` (``name.<i>`` or ``member.<i>.<m>``)."""
        parts = key.split(".")
        try:
            if parts[0] == "name":
                return self.names[int(parts[1])]
            if parts[0] == "member":
                return self.members[int(parts[1])][int(parts[2])]
        except (IndexError, ValueError):
            pass
        return ""

    def offers(self, key: str) -> list[str]:
        """The names used before that fit what is typed in the field ``key``, none typed elsewhere already."""
        typed = self.field_value(key)
        taken = [n for n in self.names if n.strip()] + [m for team in self.members for m in team if m.strip()]
        if typed in taken:
            taken.remove(typed)
        pool = self.recent if key.startswith("name.") else self.recent_players  # a team's members are players
        return suggest(pool, typed, taken)

    @property
    def suggestions(self) -> list[str]:
        """Recent names of the ruleset's participants (teams' or players') not typed in yet: the "Zuletzt:"
        chips under "Mannschaften" offer teams, never a Doppelkopf player as a Watten team. A team's
        members (players) are offered under the member field being typed in (``offers``)."""
        typed = {n.strip() for n in self.names} | {m.strip() for team in self.members for m in team}
        return [n for n in self.recent if n not in typed][:12]

    # -- changing it -----------------------------------------------------------------------------
    def choose(self, ruleset_id: str) -> None:
        """Pick a ruleset: its options with the document's defaults, its number of participants."""
        ruleset = find_ruleset(ruleset_id)
        self.ruleset_id = ruleset_id
        self.options = {name: option_text(value) for name, value in ruleset.options().model_dump().items()}
        self.house_rules_note = "Voreingestellt wie im Regelwerk"
        usual = usual_options(self._usual_sheets(ruleset_id), ruleset_id) if self.usual_house_rules else None
        if usual is not None:
            for name, value in usual.options.items():
                if name in self.options:
                    self.options[name] = option_text(value)
            self.house_rules_note = usual.text
        self.errors = {}
        self.resize(ruleset.participant_counts[0])

    def resize(self, count: int) -> None:
        """Change the number of teams or players (Doppelkopf: 4 or 5), keeping what was typed."""
        if count not in self.counts:
            return
        self.count = count
        self.names = (self.names + [""] * count)[:count]
        self.start_numbers = (self.start_numbers + [""] * count)[:count]
        size = self.team_size
        self.members = [((self.members[i] if i < len(self.members) else []) + [""] * size)[:size] for i in range(count)]
        self.writer = min(self.writer, count - 1)

    def _mine(self, index: int, value: str) -> None:
        """Typing the player's own name makes that team or player the one this phone writes for."""
        own = " ".join(self.own_name.split()).casefold()
        if own and " ".join(value.split()).casefold() == own:
            self.writer = index

    def take_offer(self, key: str, name: str) -> None:
        """A tapped offer goes into the field the player is typing in."""
        parts = key.split(".")
        if parts[0] == "name":
            self.set_name(int(parts[1]), name)
        elif parts[0] == "member":
            self.set_member(int(parts[1]), int(parts[2]), name)

    def set_name(self, index: int, value: str) -> None:
        self.names[index] = value
        self.errors.pop(f"name.{index}", None)
        self.typing = f"name.{index}"
        self._mine(index, value)

    def set_start_number(self, index: int, value: str) -> None:
        self.start_numbers[index] = value
        self.errors.pop(f"start.{index}", None)

    def set_member(self, index: int, member: int, value: str) -> None:
        team = list(self.members[index])
        team[member] = value
        self.members[index] = team
        self.errors.pop(f"member.{index}.{member}", None)
        self.typing = f"member.{index}.{member}"
        self._mine(index, value)

    def set_option(self, name: str, value: Any) -> None:
        self.options[name] = value
        self.errors.pop(f"option.{name}", None)

    def toggle_choice(self, name: str, key: str) -> None:
        chosen = list(self.options.get(name) or [])
        self.set_option(name, [k for k in chosen if k != key] if key in chosen else [*chosen, key])

    def set_context(self, name: str, value: str) -> None:
        setattr(self, name, value)
        self.errors.pop(name, None)

    def set_writer(self, index: int) -> None:
        self.writer = index

    def set_for_tournament(self, value: bool) -> None:
        self.for_tournament = value

    def fill_next(self, name: str) -> None:
        """A tapped suggestion (a team's or a player's name, as the ruleset's participants are) goes
        into the first empty name field."""
        for i in range(self.count):
            if not self.names[i].strip():
                self.set_name(i, name)
                return

    # -- checking and creating -------------------------------------------------------------------
    def _number(self, key: str, text: str, what: str, errors: dict[str, str], *, low: int = 1, high: int = 9999) -> int | None:
        text = text.strip()
        if not text:
            return None
        if not text.isdigit():
            errors[key] = f"{what}: bitte eine ganze Zahl eingeben, nicht „{text[:20]}“."
            return None
        value = int(text)
        if not low <= value <= high:
            errors[key] = f"{what}: erlaubt sind {low} bis {high}."
            return None
        return value

    def _option_values(self, errors: dict[str, str]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for spec in self.option_fields():
            raw = self.options.get(spec.name)
            key = f"option.{spec.name}"
            if spec.kind in ("bool", "choices"):
                values[spec.name] = raw
            elif spec.kind in ("int", "optional_int"):
                text = str(raw or "").strip()
                if not text:
                    if spec.kind == "int":
                        errors[key] = "Bitte eine Zahl eingeben."
                    else:
                        values[spec.name] = None
                    continue
                try:
                    values[spec.name] = int(text)
                except ValueError:
                    errors[key] = f"Bitte eine ganze Zahl eingeben, nicht „{text[:20]}“."
            else:
                values[spec.name] = raw
        for name, value in values.items():
            try:
                self.ruleset.options({name: value})
            except RuleViolation as error:
                errors[f"option.{name}"] = error.message
        return values

    def participants(self, errors: dict[str, str]) -> list[Participant]:
        ids = participant_ids(self.ruleset.participant_kind, self.count)
        people = []
        for i in range(self.count):
            name = self.names[i].strip()
            what = "Name der Mannschaft" if self.is_team else "Name"
            if not name:
                errors[f"name.{i}"] = f"{what} fehlt."
            elif len(name) > NAME_LIMIT:
                errors[f"name.{i}"] = f"{what}: höchstens {NAME_LIMIT} Zeichen."
            start = self._number(f"start.{i}", self.start_numbers[i], "Startnummer", errors)
            members = tuple(m.strip() for m in self.members[i] if m.strip())
            for m, member in enumerate(self.members[i]):
                if len(member.strip()) > NAME_LIMIT:
                    errors[f"member.{i}.{m}"] = f"Höchstens {NAME_LIMIT} Zeichen."
            if members and len(members) != self.team_size:
                missing = next(m for m, member in enumerate(self.members[i]) if not member.strip())
                errors[f"member.{i}.{missing}"] = "Beide Spieler eintragen oder beide leer lassen."
            if name and len(name) <= NAME_LIMIT:
                people.append(
                    Participant(
                        id=ids[i],
                        name=name,
                        seat=None if self.is_team else i + 1,
                        start_number=start,
                        members=members,
                    )
                )
        seen: dict[str, int] = {}
        for i, name in enumerate(self.names):
            key = name.strip().casefold()
            if key and key in seen and not self.start_numbers[i].strip():
                errors[f"name.{i}"] = f"„{name.strip()}“ steht schon bei {self.participant_label(seen[key])}."
            seen.setdefault(key, i)
        return people

    def submit(self) -> str | None:
        """Create the sheet if every field is right; return its id. Otherwise mark the fields, create nothing."""
        errors: dict[str, str] = {}
        options = self._option_values(errors)
        people = self.participants(errors)
        tournament = self.tournament.strip()
        if len(tournament) > TEXT_LIMIT:
            errors["tournament"] = f"Höchstens {TEXT_LIMIT} Zeichen."
        round_number = self._number("round", self.round, self.round_label, errors, high=99)
        table = self._number("table", self.table, "Tisch", errors, high=999)
        if self.joined is not None and self.for_tournament:
            tournament, _, table = self.joined
        if errors:
            self.errors = errors
            return None
        ids = participant_ids(self.ruleset.participant_kind, self.count)
        context = SheetContext(
            tournament=tournament or None,
            round_label=self.round_label,  # type: ignore[arg-type]
            round=round_number,
            table=table,
            written_by=ids[self.writer],
        )
        try:
            sheet = self.store.new_sheet(self.ruleset_id, people, context, options)
        except RuleViolation as error:
            self.errors = {FORM: error.message}
            return None
        except (StorageError, ValueError) as error:
            self.errors = {FORM: explain(error)}
            return None
        self.errors = {}
        return str(sheet.id)


def _played_by_teams(ruleset_id: str) -> bool:
    """Whether the ruleset's participants are teams (``team_size``); an unknown ruleset counts as players."""
    try:
        return bool(find_ruleset(ruleset_id).team_size)
    except UnknownRuleset:
        return False
