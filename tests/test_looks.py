"""Issue 22: where a choice's label goes on the narrowest phone (``screens.looks.choice_fit``), and that
every choice label of the Schnapsen panel goes somewhere whole at every text size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Participant, find_ruleset
from screens.looks import SMALL, choice_fit, lines_of, room_of, rows_alike
from screens.schnapsen_draft import SchnapsenDraft
from screens.schnapsen_panel import _together
from screens.settings_state import TEXT_SCALE


def test_a_word_longer_than_the_line_is_never_broken_inside() -> None:
    assert lines_of("Talonschnapsen", 11) > 2
    assert lines_of("Normales Spiel 1–\u20603", 15) == 2  # the joined "1–3" goes to the second line whole
    assert lines_of("Bettler 4", 9) == 1
    assert lines_of("ohne Stich: 3", 8) == 2


@pytest.mark.parametrize(
    ("label", "scale", "fit"),
    [
        ("Bettler 4", 1.0, (6, False)),  # half a row, one line
        ("Bauernschnapser 12", 1.0, (6, True)),  # was "Bauernschnapser …" at 360 px: two lines of the smaller font
        ("Kontrabauernschnapser 24", 1.0, (12, False)),  # broke as "Kontrabauernschnap|ser 24" in half a row
        ("Kontrabauernschnapser 24", 1.4, (12, True)),
        ("Bettler 4", 1.4, (6, False)),
        ("Schnapser 6", 1.4, (6, True)),
        ("Farbenringerl 18", 1.4, (12, False)),
    ],
)
def test_a_choice_takes_the_narrowest_share_that_holds_it_whole(label: str, scale: float, fit: tuple[int, bool]) -> None:
    assert choice_fit([label], scale) == fit


def test_choices_side_by_side_share_one_layout() -> None:
    augen = ["ab 33: 1", "unter 33: 2", "ohne Stich: 3"]
    assert choice_fit(augen, 1.0, (4, 6, 12)) == (4, True)  # "ohne Stich…" was cut in a third at 18 px
    assert choice_fit(augen, 1.4, (4, 6, 12)) == (6, True)


def _draft(ruleset: str) -> SchnapsenDraft:
    names = ["Maximilian Oberhuber", "Gerti Stadler", "Hansjörg Pichler"]
    if ruleset == "bauernschnapsen":
        people = [
            Participant(id="A", name="Die Innviertler Kartenrunde", members=("Resi Gruber", "Poldl Gruber")),
            Participant(id="B", name="Schnapsbrüder vom Hausruck", members=("Gusti Wimmer", "Hansi Wimmer")),
        ]
    else:
        people = [Participant(id=f"p{i}", name=n) for i, n in enumerate(names)]
    rules = find_ruleset(ruleset)
    sheet = rules.new_sheet(people, None, {"herzrunde": True} if ruleset == "bauernschnapsen" else None)
    draft = SchnapsenDraft()
    draft.reset(sheet, rules.score(sheet))
    return draft


@pytest.mark.parametrize("ruleset", ["bauernschnapsen", "talonschnapsen"])
@pytest.mark.parametrize("size", sorted(TEXT_SCALE))
def test_every_schnapsen_label_fits_a_whole_row_at_every_text_size(ruleset: str, size: str) -> None:
    """No game, Augen class or Rufer of the panel falls back to "…" on a 360 px phone."""
    draft = _draft(ruleset)
    scale = TEXT_SCALE[size]  # type: ignore[index]
    whole = room_of(12, scale) * SMALL
    labels = [o.short for o in (*draft.game_options(), *draft.augen_options(), *draft.rufer_options())]
    assert labels
    assert [label for label in labels if lines_of(label, whole) > 2] == []


@given(
    st.lists(st.text(alphabet="abcdefghij ", min_size=1, max_size=40), min_size=1, max_size=4), st.sampled_from([1.0, 1.2, 1.4])
)
def test_what_fits_a_share_fits_the_wider_ones(texts: list[str], scale: float) -> None:
    """The share found is the narrowest: every narrower one fails on one line and on two."""
    share, two = choice_fit(texts, scale, (4, 6, 12))
    for narrower in (s for s in (4, 6, 12) if s < share):
        room = room_of(narrower, scale)
        assert not all(len(t) <= room for t in texts)
        assert not all(lines_of(t, room * SMALL) <= 2 for t in texts)
    room = room_of(share, scale)
    if not two:
        assert all(len(t) <= room for t in texts)


def test_choices_sharing_a_row_take_as_many_lines() -> None:
    assert rows_alike([(6, False), (6, True), (12, False), (6, False)]) == [(6, True), (6, True), (12, False), (6, False)]
    assert rows_alike([(4, False), (4, False), (4, True), (4, False)]) == [(4, True)] * 3 + [(4, False)]


@given(st.lists(st.tuples(st.sampled_from([3, 4, 6, 12]), st.booleans()), max_size=12))
def test_rows_alike_keeps_every_share_and_only_adds_lines(fits: list[tuple[int, bool]]) -> None:
    alike = rows_alike(fits)
    assert [share for share, _ in alike] == [share for share, _ in fits]
    assert all(tall or not was for (_, tall), (_, was) in zip(alike, fits, strict=True))


@pytest.mark.parametrize(("size", "shares"), [("normal", [4, 4, 4]), ("sehr-gross", [6, 6, 12])])
def test_a_last_row_of_augen_classes_leaves_no_gap(size: str, shares: list[int]) -> None:
    """At "Sehr groß" two Augen classes fill a row and "ohne Stich: 3" takes the next whole, not its half."""
    fits = _together(_draft("bauernschnapsen").augen_options(), TEXT_SCALE[size], (4, 6, 12))  # type: ignore[index]
    assert [share for _, (share, _) in fits] == shares
