"""A sheet begun before the phone joined becomes the drawn table's sheet (issue 21).

``adopt(begun, prepared)`` takes the open sheet a table started on its own (no tournament) and the sheet
the draw prepared for that table, and gives the drawn table's sheet with the begun sheet's games: the
prepared sheet's id and context (tournament, round, table, who writes it), ruleset and options, and its
participants (names, Startnummern, members) matched to the begun sheet's by name or members. The begun
sheet's participant ids stay (its games name them), and so do its seats where it has them all (the order
in which the table actually dealt). Every refusal is ``AdoptionRefused`` with a German reason: another
ruleset or house rules, other teams or players, or a sheet that belongs to a tournament already.
"""

from __future__ import annotations

from .model import Participant, Sheet
from .registry import find_ruleset


class AdoptionRefused(ValueError):
    """The begun sheet cannot become the drawn table's sheet; ``str()`` says why, in German."""


def _norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def _same(begun: Participant, drawn: Participant) -> bool:
    """The same team or player: by Startnummer, by name, or by the same members."""
    if begun.start_number is not None and begun.start_number == drawn.start_number:
        return True
    if _norm(begun.name) == _norm(drawn.name):
        return True
    return bool(begun.members) and sorted(map(_norm, begun.members)) == sorted(map(_norm, drawn.members))


def _names(participants: tuple[Participant, ...]) -> str:
    names = [p.name for p in participants]
    return " und ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _title(ruleset_id: str) -> str:
    try:
        return find_ruleset(ruleset_id).title
    except ValueError:
        return ruleset_id


def adopt(begun: Sheet, prepared: Sheet) -> Sheet:
    """The drawn table's sheet (``prepared``'s id and header) with ``begun``'s games; ``AdoptionRefused`` if it cannot be."""
    where = f"{prepared.context.round_label} {prepared.context.round} an Tisch {prepared.context.table}"
    if begun.context.tournament is not None:
        raise AdoptionRefused("Das Blatt gehört schon zu einem Turnier; es wird so gesendet, wie es ist.")
    if begun.ruleset.id != prepared.ruleset.id:
        raise AdoptionRefused(
            f"Anderes Regelwerk: das Blatt ist {_title(begun.ruleset.id)}, in {where} wird "
            f"{_title(prepared.ruleset.id)} gespielt. Bitte ein neues Blatt am ausgelosten Tisch beginnen."
        )
    if begun.ruleset.options != prepared.ruleset.options:
        keys = sorted(
            k
            for k in {*begun.ruleset.options, *prepared.ruleset.options}
            if begun.ruleset.options.get(k) != prepared.ruleset.options.get(k)
        )
        raise AdoptionRefused(
            f"Andere Hausregeln als im Turnier ({', '.join(keys)}): das Blatt zählt so nicht für {where}. "
            "Bitte ein neues Blatt am ausgelosten Tisch beginnen."
        )
    matched: list[tuple[Participant, Participant]] = []
    left = list(begun.participants)
    for drawn in prepared.participants:
        found = next((b for b in left if _same(b, drawn)), None)
        if found is None:
            break
        left.remove(found)
        matched.append((found, drawn))
    if len(matched) != len(prepared.participants) or left:
        raise AdoptionRefused(
            f"Andere Mannschaften: in {where} spielen {_names(prepared.participants)}, auf dem Blatt stehen "
            f"{_names(begun.participants)}. Das Blatt gehört nicht an diesen Tisch."
        )
    own_seats = all(b.seat is not None for b, _ in matched)
    participants = tuple(
        drawn.model_copy(update={"id": b.id, "seat": b.seat if own_seats else drawn.seat}) for b, drawn in matched
    )
    ids = {drawn.id: b.id for b, drawn in matched}
    writer = prepared.context.written_by
    context = prepared.context.model_copy(update={"written_by": ids.get(writer, writer) if writer is not None else None})
    return prepared.model_copy(update={"participants": participants, "context": context, "entries": begun.entries})
