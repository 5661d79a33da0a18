"""Joining in one step from a link (issue 21): a Startkarte's or the Aushang's join line as a web link
(``/beitreten?url=…``) or a deep link (``tischblock://join?…``) fills in "Turnier beitreten"; the phone asks
only for the own name, checks the host's certificate itself, and opens the drawn table."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from main import join_route
from scoring import Participant
from screens.qr_camera import camera_trouble
from screens.tournament_state import TournamentState, _stop_service
from storage import SheetStore
from sync.protocol import JOIN_SCHEME, InvalidJoinLine, JoinLine

from .browser import PHONE, Taps, enable_semantics, go_in_app, running_app, screenshot, wait_for_text, with_editing_probe
from .conftest import ROOT
from .hostproc import HostProcess, running_host, wait_until_at_organizer
from .test_app_drawn_join import ROSTER, organizer
from .test_app_exports_e2e import pick
from .test_scan import photographed, png, qr_image, turned

FP = ":".join(["AB"] * 32)
CARD = JoinLine(url="https://192.168.1.20:8443", code="K7P4Q2", fingerprint=FP, start_number=12, secret="7KQ4-M2XP")
AUSHANG = CARD.for_everyone()


@pytest.mark.parametrize("line", [CARD, AUSHANG, JoinLine(url="http://127.0.0.1:8080", code="WATT2026")])
def test_every_form_of_the_link_carries_the_same_line(line: JoinLine) -> None:
    query = line.query()
    for link in (line.format(), line.web_path(), f"http://192.168.1.5:8550{line.web_path()}", f"/?{query}", f"/join?{query}"):
        assert JoinLine.from_link(link) == line, link


def test_routes_without_a_join_line_are_no_link_and_a_broken_one_says_why() -> None:
    for route in ("/", "/beitreten", "/blatt/123", "/statistik?url=http://x:1&code=A", "/?theme=dark"):
        assert JoinLine.from_link(route) is None, route
    with pytest.raises(InvalidJoinLine, match="Fingerabdruck"):
        JoinLine.from_link("/beitreten?url=https://192.168.1.20:8443&code=K7P4Q2")


def test_a_deep_link_leads_to_the_join_screen_filled_in() -> None:
    """``tischblock://join?…`` reaches the app as ``/?url=…`` (or as the whole line): routed to /beitreten?…."""
    assert join_route(f"/?{CARD.query()}") == CARD.web_path()
    assert join_route(CARD.format()) == CARD.web_path()
    assert join_route(CARD.web_path()) is None  # already there
    assert join_route("/") is None and join_route("/blatt/1") is None
    assert join_route("/?url=https://x:1&code=A") == "/beitreten?url=https://x:1&code=A"  # the screen says what is wrong


def test_the_scheme_is_registered_for_every_flet_build() -> None:
    """flet-cli 1.0.5 reads tool.flet.android.deep_linking for Android and tool.flet.ios.deep_linking for iOS,
    tool.flet.deep_linking for the rest: each must name the join line's scheme and host."""
    flet = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["flet"]
    for table in (flet, flet["android"], flet["ios"]):
        assert table["deep_linking"] == {"scheme": JOIN_SCHEME, "host": "join"}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostProcess]:
    with running_host(tmp_path_factory.mktemp("host")) as process:
        yield process


@pytest.fixture(scope="module")
def drawn(host: HostProcess) -> dict[str, Any]:
    """A Watten tournament with four teams, Durchgang 1 drawn."""
    organizer(host, "PUT", "/plan", {"ruleset_id": "watten-turnier", "date": "2026-11-23"})
    organizer(host, "POST", "/roster/csv", {"csv": ROSTER})
    organizer(host, "POST", "/rounds/1/draw", {"seed": 2026})
    return dict(organizer(host, "GET", "/rounds/1/draw"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SheetStore]:
    store = SheetStore(tmp_path / "handy", device="Handy")
    yield store
    _stop_service(store)


def startkarte(host: HostProcess, number: int) -> JoinLine:
    """The line of the entrant's Startkarte on the test host: Startnummer and its secret from the roster."""
    return JoinLine.parse(host.card_line(number))


def test_a_startkarte_link_asks_only_the_name_and_opens_the_drawn_table(
    host: HostProcess, drawn: dict[str, Any], store: SheetStore
) -> None:
    state = TournamentState(store)
    line = startkarte(host, 3)
    assert state.take_link(line.web_path(), named=False)
    assert (state.link, state.start_number, state.device_name, state.code, state.fingerprint) == (line, "3", "", "", "")
    assert not state.join()
    assert state.errors == {"device_name": "Bitte deinen Namen eingeben."}
    assert not state.joined
    state.set_field("device_name", "Loisl")
    assert state.join(), state.errors
    assert state.summary == "Kathreinwatten Söll 2026 · Startnummer 3 · Stanglwirt-Buam"
    assert state.credentials is not None and state.credentials.fingerprint == host.fingerprint
    assert "key=" not in state.remembered and "nr=" not in state.remembered
    assert JoinLine.parse(state.remembered) == line.for_everyone()
    sheet_id = state.open_assigned()
    assert sheet_id is not None, state.errors
    (mine,) = [t for t in drawn["tables"] if 3 in [s["start_number"] for s in t["seats"]]]
    sheet = store.open(sheet_id)
    assert (sheet.context.round, sheet.context.table) == (1, mine["table"])


def test_a_link_to_another_host_is_refused_at_its_field_and_joins_nothing(host: HostProcess, store: SheetStore) -> None:
    """The fingerprint in the link is the check: a host with another certificate gets nothing."""
    state = TournamentState(store)
    forged = startkarte(host, 3).model_copy(update={"fingerprint": FP})
    assert state.take_link(forged.format())
    assert not state.join()
    assert "anderes Zertifikat" in state.errors["target"]
    assert not state.joined and not (store.root / "turnier.json").exists()


def test_a_text_that_is_no_join_line_changes_nothing(store: SheetStore) -> None:
    state = TournamentState(store)
    state.set_field("target", "https://192.168.1.20:8443")
    assert not state.take_link("https://example.org/?q=1")
    assert "keine Beitrittszeile" in state.errors["target"]
    assert state.link is None and state.target == "https://192.168.1.20:8443"
    assert not state.take_link("/beitreten?url=https://192.168.1.20:8443&code=K7")
    assert "Fingerabdruck" in state.errors["target"] and state.link is None


def test_a_photo_of_the_startkarte_fills_in_the_form_and_a_foreign_qr_code_is_named(store: SheetStore) -> None:
    state = TournamentState(store)
    assert not state.take_photo(png(qr_image("https://www.watten.at/turniere")), named=True)
    assert state.errors["scan"].startswith("Dieser QR-Code ist nicht von Tischblock")
    assert state.link is None
    assert not state.take_photo(None)
    assert "Kein Bild" in state.errors["scan"]
    assert state.take_photo(png(turned(qr_image(CARD.format()))), named=True)
    assert (state.link, state.start_number, state.errors) == (CARD, "12", {})


def opponent_of(drawn: dict[str, Any], number: int) -> str:
    names = {int(line.split(";")[0]): line.split(";")[1] for line in ROSTER.splitlines()[1:]}
    (table,) = [t for t in drawn["tables"] if number in [s["start_number"] for s in t["seats"]]]
    return next(names[s["start_number"]] for s in table["seats"] if s["start_number"] != number)


def begin(store: SheetStore, ruleset: str, names: list[str], games: int) -> str:
    """A sheet begun before joining: no tournament, the names as the table typed them, ``games`` games."""
    ids = [f"t{n}" for n in range(1, len(names) + 1)]
    sheet = store.new_sheet(ruleset, [Participant(id=i, name=name) for i, name in zip(ids, names, strict=True)])
    for n in range(games):
        store.add_game(sheet.id, {"winner": ids[n % 2], "value": 2})
    return str(sheet.id)


def test_a_sheet_begun_before_joining_is_sent_as_the_drawn_tables_sheet(
    host: HostProcess, drawn: dict[str, Any], store: SheetStore
) -> None:
    """Four games written before the phone joined reach the host as the drawn table's sheet of Startnummer 4;
    a Schafkopf sheet and one of other teams are refused with the reason, and change nothing."""
    opponent = opponent_of(drawn, 4)
    watten = begin(store, "watten-turnier", [" hopfgartner  ASSE", opponent], games=4)
    others = begin(store, "watten-turnier", ["Die Sautreiber", "Kartlbrüder Wörgl"], games=1)
    schafkopf = store.new_sheet(
        "schafkopf-turnier", [Participant(id=f"p{n}", name=name) for n, name in enumerate("Resi Wastl Sepp Toni".split(), 1)]
    )
    before = {path.name: path.read_bytes() for path in (store.root / "sheets").glob("*.json")}

    state = TournamentState(store)
    assert state.stray(None, None) is None  # not joined: nothing is promised, nothing marked
    assert state.take_link(startkarte(host, 4).web_path()) and state.join(), state.errors
    assert state.stray(None, None) == "geht nicht an den Veranstalter: gehört zu keinem Turnier"
    assert state.can_hand_over(None, closed=False) and not state.can_hand_over(None, closed=True)

    assert state.hand_over(str(schafkopf.id)) is None
    assert "Anderes Regelwerk: das Blatt ist Schafkopf" in state.errors[f"hand_over:{schafkopf.id}"]
    assert "wird Watten" in state.errors[f"hand_over:{schafkopf.id}"]
    assert state.hand_over(others) is None
    assert "Andere Mannschaften" in state.errors[f"hand_over:{others}"]
    assert {path.name: path.read_bytes() for path in (store.root / "sheets").glob("*.json")} == before

    sheet_id = state.hand_over(watten)
    assert sheet_id is not None, state.errors
    (mine,) = [t for t in drawn["tables"] if 4 in [s["start_number"] for s in t["seats"]]]
    assert state.assigned == f"Durchgang 1 · Tisch {mine['table']}"
    adopted = store.open(sheet_id)
    assert (adopted.context.tournament, adopted.context.round, adopted.context.table) == (
        state.credentials.tournament_id,
        1,
        mine["table"],
    )  # type: ignore[union-attr]
    assert {p.start_number for p in adopted.participants} == {s["start_number"] for s in mine["seats"]}
    assert adopted.participant(adopted.context.written_by or "").name == "Hopfgartner Asse"
    assert len(adopted.entries) == 4
    assert watten not in {str(info.id) for info in store.list_sheets()}
    assert (store.root / "uebergeben" / f"{watten}.json").exists()  # kept aside, not lost

    wait_until_at_organizer(state, sheet_id)
    (table,) = [t for t in organizer(host, "GET", "/rounds/1/tables") if t["draw"]["table"] == mine["table"]]
    (held,) = table["sheets"]
    assert held["sheet"]["id"] == sheet_id and len(held["sheet"]["entries"]) == 4
    # The opening of the drawn table on this phone is the same sheet, with its four games.
    assert state.open_assigned() == sheet_id and len(store.open(sheet_id).entries) == 4

    # A second begun sheet for the same round: the organizer has this entrant's sheet with games already.
    again = begin(store, "watten-turnier", ["Hopfgartner Asse", opponent], games=2)
    assert state.hand_over(again) is None
    assert "schon ein Blatt mit Spielen" in state.errors[f"hand_over:{again}"]


def test_the_adopt_endpoint_refuses_strangers_and_garbage_and_never_answers_5xx(
    host: HostProcess, drawn: dict[str, Any], tmp_path: Path
) -> None:
    from sync.client import HostClient, join

    url = f"{host.url}/api/v1/sheets/adopt"
    with HostClient(host.url, fingerprint=host.fingerprint) as anonymous:
        assert anonymous.session.post(url, data=b"{}", timeout=30).status_code == 401
        assert anonymous.session.post(url, data=b"{}", headers={"X-Tischblock-Token": "x" * 40}, timeout=30).status_code == 401
    creds = join(startkarte(host, 2).format(), None, None, "Vroni")
    with HostClient.for_credentials(creds) as client:
        token = {"X-Tischblock-Token": creds.device_token.get_secret_value(), "Content-Type": "application/json"}
        for body in (b"", b"null", b"[]", b'{"id": 1}', b"\xff" * 100, b'{"format": "tischblock-sheet"}' + b" " * 2_000_000):
            answer = client.session.post(url, data=body, headers=token, timeout=30)
            assert answer.status_code in (400, 413, 422), (body[:30], answer.status_code, answer.text)
            assert isinstance(answer.json()["detail"], str | list)
        answer = client.session.post(url + "?round=7", data=b"{}", headers=token, timeout=30)
        assert answer.status_code == 422


# -- in the browser ------------------------------------------------------------------------------------


def y4m(path: Path, text: str) -> Path:
    """A video file for Chromium's fake camera: the QR code of ``text`` on a grey card, as YUV 4:2:0 frames."""
    code = qr_image(text, scale=5)
    frame = Image.new("L", (640, 480), 225)
    frame.paste(code, ((640 - code.width) // 2, (480 - code.height) // 2))
    y, cb, cr = frame.convert("YCbCr").split()
    chroma = b"".join(plane.resize((320, 240)).tobytes() for plane in (cb, cr))
    with path.open("wb") as out:
        out.write(b"YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg\n")
        for _ in range(10):
            out.write(b"FRAME\n" + y.tobytes() + chroma)
    return path


@pytest.fixture(scope="module")
def browser(host: HostProcess, drawn: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium whose camera shows the Startkarte of Startnummer 2 (a fake video device): its secret
    is in the roster ``drawn`` loads (asked for here, not left to an earlier test: ``-m browser``
    runs these tests alone)."""
    from .browser import require_chromium, watched_chromium

    require_chromium()
    from playwright.sync_api import sync_playwright

    video = y4m(tmp_path_factory.mktemp("kamera") / "startkarte-2.y4m", startkarte(host, 2).format())
    camera = [
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    with sync_playwright() as playwright, watched_chromium(playwright, tuple(camera)) as launched:
        yield launched


def phone(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport=PHONE, permissions=["camera"])
    page = with_editing_probe(context.new_page())
    page.goto(url)
    enable_semantics(page)
    return page


def drawn_sheet_shown(page: Any, drawn: dict[str, Any], number: int) -> None:
    wait_for_text(page, "Bummerl 1 von 3, Stand 0:0", 30_000)
    wait_for_text(page, opponent_of(drawn, number))


@pytest.mark.browser
def test_a_startkarte_link_lands_on_the_drawn_sheet_with_only_the_name_typed(
    browser: Any, host: HostProcess, drawn: dict[str, Any], tmp_path: Path
) -> None:
    line = startkarte(host, 1)
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path / "handy")}) as url:
        page = phone(browser, url.rstrip("/") + line.web_path())
        taps = Taps(page)
        text = wait_for_text(page, "Startkarte: Startnummer 1", 30_000)
        assert "Fingerabdruck" not in text and "Beitrittscode" not in text  # checked by the app, never typed
        screenshot(page, "beitreten-startkarte.png")
        taps.type("Dein Name", "Sepp")
        taps.tap("button", "Beitreten")
        drawn_sheet_shown(page, drawn, 1)
        screenshot(page, "beitreten-startkarte-blatt.png")
        assert taps.count == 2  # the name, and one tap
        (info,) = SheetStore(tmp_path / "handy").list_sheets()
        sheet = SheetStore(tmp_path / "handy").open(info.id)
        assert sheet.context.round == 1 and sheet.participant(sheet.context.written_by or "").start_number == 1
        page.context.close()


@pytest.mark.browser
def test_the_camera_scans_the_startkarte(browser: Any, host: HostProcess, drawn: dict[str, Any], tmp_path: Path) -> None:
    """The web client carries flet-camera's control: Chromium's fake camera shows Startnummer 2's card."""
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path / "handy")}) as url:
        page = phone(browser, url + "beitreten")
        wait_for_text(page, "Startkarte scannen", 30_000)
        screenshot(page, "beitreten-scannen.png")
        Taps(page).tap("button", "QR-Code scannen")
        wait_for_text(page, "Startkarte: Startnummer 2", 60_000)
        Taps(page).type("Dein Name", "Vroni")
        Taps(page).tap("button", "Beitreten")
        drawn_sheet_shown(page, drawn, 2)
        page.context.close()


@pytest.mark.browser
def test_a_photo_of_the_qr_code_joins_and_a_sheet_begun_before_goes_to_the_drawn_table(
    browser: Any, host: HostProcess, drawn: dict[str, Any], tmp_path: Path
) -> None:
    data = tmp_path / "handy"
    # The same four games as the other team's sheet of that table (if it was sent): the host compares them.
    begun = begin(SheetStore(data), "watten-turnier", [opponent_of(drawn, 3), "Stanglwirt-Buam"], games=4)
    foreign, card = tmp_path / "gasthaus.png", tmp_path / "startkarte-3.jpg"
    foreign.write_bytes(png(qr_image("https://www.gasthof-post.at/speisekarte")))
    card.write_bytes(png(photographed(qr_image(startkarte(host, 3).format())), "JPEG"))
    with running_app(env={"TISCHBLOCK_DATA_DIR": str(data)}) as url:
        page = phone(browser, url)
        wait_for_text(page, "Blätter auf diesem Handy", 30_000)
        Taps(page).tap("button", "Turnier beitreten")
        pick(page, "Foto vom QR-Code wählen", foreign)
        wait_for_text(page, "Dieser QR-Code ist nicht von Tischblock (https://www.gasthof-post.at/speisekarte)")
        screenshot(page, "beitreten-fremder-qr.png")
        pick(page, "Foto vom QR-Code wählen", card)
        wait_for_text(page, "Startkarte: Startnummer 3", 30_000)
        Taps(page).type("Dein Name", "Loisl")
        Taps(page).tap("button", "Beitreten")
        drawn_sheet_shown(page, drawn, 3)

        # The sheet begun before joining says on itself that it will not reach the organizer ...
        go_in_app(page, f"{url}blatt/{begun}")
        wait_for_text(page, "Geht nicht an den Veranstalter: gehört zu keinem Turnier – auf der Startseite", 30_000)
        # ... and on the start screen it is marked, and goes to the drawn table.
        go_in_app(page, url)
        wait_for_text(page, "Geht nicht an den Veranstalter: gehört zu keinem Turnier", 30_000)
        screenshot(page, "start-blatt-vor-dem-beitritt.png")
        Taps(page).tap("button", "An das Turnier senden")
        wait_for_text(page, re.compile(r"Bummerl 1 von 3, Stand \d+:\d+"), 30_000)
        wait_for_text(page, "beim Veranstalter", 30_000)
        screenshot(page, "blatt-vor-dem-beitritt-gesendet.png")
        sheets = SheetStore(data).list_sheets()
        assert begun not in {str(s.id) for s in sheets}
        (adopted,) = [s for s in sheets if s.revision == 4]
        assert adopted.context.round == 1 and adopted.context.tournament is not None
        page.context.close()


@pytest.mark.parametrize(
    ("error", "said"),
    [
        ("CameraException(cameraNotFound, No camera found for the given camera options.)", "Keine Kamera gefunden."),
        ("CameraException(CameraAccessDenied, Permission denied)", "nicht erlaubt"),
        ("CameraException(cameraNotSupported, The camera is not supported on this device.)", "nur über https"),
        ("something else", "Die Kamera lässt sich nicht öffnen."),
    ],
)
def test_a_camera_that_does_not_open_is_explained_in_a_players_words(error: str, said: str) -> None:
    assert said in camera_trouble(RuntimeError(error))
    assert "Exception" not in camera_trouble(RuntimeError(error))
