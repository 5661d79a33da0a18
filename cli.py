"""The ``tischblock`` command line.

    tischblock score SHEET.json     score a sheet, print lines, totals, status and result as JSON
                                    (--text: as a Tischliste, every reason on its own line)
    tischblock standings SHEET...   rank the participants over several sheets (the rules' tie-breaks)
    tischblock rulesets             list the rulesets with their options and entry kinds
    tischblock app [--port N]       serve the app in the browser and print its URL
    tischblock export FILE [--csv DIR]   back up every stored sheet to one JSON file (and CSVs)
    tischblock import FILE          restore a backup; never replaces a newer stored sheet
    tischblock host                 serve the organizer's host: collects every table's sheets (HTTPS)
    tischblock host import-into URL copy an evening's SQLite into the league's PostgreSQL (idempotent)

``--data-dir DIR`` (before or after the command) chooses the store; default: ``TISCHBLOCK_DATA_DIR``,
the packaged app's data directory, or the platform's user data directory (see ``storage/paths.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from scoring import Score, Sheet, all_rulesets, find_ruleset, score_sheet
from scoring.limits import MAX_SHEET_BYTES
from scoring.messages import explain, one_line
from scoring.sheetfile import parse_sheet

if TYPE_CHECKING:
    from storage import SheetStore


def _print_json(data: object) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


class CliError(Exception):
    """A failure the user caused or can fix: printed as ``Fehler: ...``, exit with ``code``."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def load_sheet(name: str) -> Sheet:
    """Read a sheet file; a missing file exits 2, a file that is no valid sheet exits 1 (``messages.parse_sheet``)."""
    path = Path(name)
    try:
        size = path.stat().st_size
        if size > MAX_SHEET_BYTES:  # never read a huge file only to refuse it
            raise CliError(f"{path} ist zu groß ({size // 1024} KB; höchstens {MAX_SHEET_BYTES // 1024} KB)")
        data = path.read_bytes()
    except OSError as error:
        raise CliError(f"{path} kann nicht gelesen werden: {error.strerror or error}", code=2) from None
    try:
        return parse_sheet(data, source=str(path))
    except ValueError as error:
        raise CliError(explain(error, source=str(path))) from None


def scored(sheet: Sheet, source: str) -> Score:
    """The sheet's score; a sheet its ruleset refuses exits 1 with the file, the entry and the rule."""
    try:
        return score_sheet(sheet)
    except ValueError as error:  # RuleViolation, UnknownRuleset
        raise CliError(explain(error, source=source)) from None


def cmd_score(args: argparse.Namespace) -> int:
    """Score a sheet file; exit 1 with a message naming entry and rule if it is invalid."""
    sheet = load_sheet(args.sheet)
    score = scored(sheet, args.sheet)
    if args.text:
        print(score_text(sheet, score))
    else:
        _print_json(score.json_dict())
    return 0


def score_text(sheet: Sheet, score: Score) -> str:
    """The score as a Tischliste: one block per entry with the stand after it, each reason on its own line.

    The stand is the open Bummerl where the ruleset has one, else the running totals.
    """
    names = {p.id: p.name for p in sheet.participants}
    out = [f"{sheet.ruleset.id}: " + " | ".join(names.values())]
    for line in score.lines:
        shown = line.stand if line.stand is not None else line.totals
        totals = "  ".join(f"{names[pid]} {value}" for pid, value in shown.items())
        corrected = f" (korrigiert durch {', '.join(map(str, line.corrected_by))})" if line.corrected_by else ""
        out.append(f"{line.entry:>3} {line.kind}{corrected}  ->  {totals}")
        for reason in line.explanation:
            out.append(f"      {reason.rule}: {reason.text}")
    out.extend(f"* {message}" for message in score.status.messages)
    return "\n".join(out)


_LABELS = {
    "bummerl_won": "Bummerl",
    "points": "Punkte",
    "points_against": "Gegenpunkte",
    "bummerl_lost": "Bummerl verloren",
    "sheets": "Blätter",
    "punkte": "Punkte",
    "runden": "Runden",
    "spiele": "Spiele",
    "strafen": "Strafen",
}


def cmd_standings(args: argparse.Namespace) -> int:
    """Rank the participants over several sheets of one tournament (the ruleset's tie-breaks)."""
    sheets = [load_sheet(name) for name in args.sheets]
    ids = {sheet.ruleset.id for sheet in sheets}
    if len(ids) != 1:
        raise CliError(f"die Blätter gehören zu verschiedenen Regelwerken: {', '.join(sorted(ids))}")
    for name, sheet in zip(args.sheets, sheets, strict=True):
        scored(sheet, name)  # a broken sheet is named by its file
    ruleset = find_ruleset(ids.pop())
    standings = getattr(ruleset, "standings", None)
    if standings is None:
        raise CliError(f"{ruleset.title} hat noch keine Rangliste")
    rows = standings(sheets)
    if args.json:
        _print_json([row.model_dump(mode="json") for row in rows])
    else:
        for row in rows:
            fields = row.model_dump(exclude={"rank", "key", "name", "decided_by"})
            numbers = "  ".join(f"{_LABELS.get(key, key)} {value}" for key, value in fields.items())
            print(f"{row.rank:>3}. {row.name} ({row.key})  {numbers}  [{row.decided_by}]")
    return 0


def cmd_rulesets(args: argparse.Namespace) -> int:
    """List every registered ruleset with its options."""
    described = [r.describe() for r in all_rulesets()]
    if args.json:
        _print_json(described)
        return 0
    for info in described:
        counts = " oder ".join(str(n) for n in info["participants"]["counts"])
        who = "Mannschaften" if info["participants"]["kind"] == "team" else "Spieler"
        print(f"{info['id']}  (Version {info['version']}): {info['title']}, {counts} {who}, Quelle {info['source']}")
        for option in info["options"]:
            print(f"    {option['name']} = {json.dumps(option['default'], ensure_ascii=False)}  {option['description']}")
        print(f"    Einträge: {', '.join(info['entry_kinds'])}")
    return 0


def cmd_app(args: argparse.Namespace) -> int:
    """Serve the app in the browser (the Flet web view)."""
    import main as app_main

    if getattr(args, "data_dir", None):
        os.environ["TISCHBLOCK_DATA_DIR"] = str(args.data_dir)  # the app's SheetStore() finds it there
    app_main.serve(port=args.port, host=args.host)
    return 0


def _store(args: argparse.Namespace) -> SheetStore:
    """The store chosen by ``--data-dir`` (imported lazily: ``score`` and ``rulesets`` need no storage)."""
    from storage import SheetStore

    return SheetStore(getattr(args, "data_dir", None))


def cmd_export(args: argparse.Namespace) -> int:
    """Back up every stored sheet into one JSON file, optionally each sheet as CSV too."""
    from storage import StorageError, export_backup, export_csv

    try:
        store = _store(args)
        count = export_backup(store, Path(args.file))
        print(f"{count} Blätter aus {store.root} gesichert nach {args.file}")
        if args.csv:
            files = export_csv(store, Path(args.csv))
            print(f"{len(files)} CSV-Dateien geschrieben nach {args.csv}")
        for warning in store.warnings:
            print(f"Warnung: {warning}", file=sys.stderr)
    except StorageError as error:
        print(f"Fehler: {error}", file=sys.stderr)
        return 1
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Restore a backup file; a damaged file changes nothing."""
    from storage import ImportOutcome, StorageError, import_backup

    try:
        store = _store(args)
        report = import_backup(store, Path(args.file))
    except StorageError as error:
        print(f"Fehler: {explain(error)}", file=sys.stderr)
        return 1
    print(f"{args.file} eingelesen nach {store.root}: {report.summary()}")
    for item in report.items:
        if item.outcome in (ImportOutcome.CONFLICT, ImportOutcome.INVALID, ImportOutcome.OLDER):
            detail = f" ({item.detail})" if item.detail else ""
            print(f"  {item.sheet_id}: {item.outcome.value}{detail}")
    if report.count(ImportOutcome.CONFLICT):
        print(f"  Die abweichenden Fassungen liegen unter {store.root / 'conflicts'}")
    for warning in store.warnings:
        print(f"Warnung: {warning}", file=sys.stderr)
    return 0


def cmd_host(args: argparse.Namespace) -> int:
    """Start the organizer's host: print URL, join code, fingerprint and QR code, then serve."""
    import getpass

    from storage.paths import data_dir
    from sync.host.files import private_umask
    from sync.host.run import LISTEN_BACKLOG, HostSetupError, banner, prepare, serve
    from sync.listen import listen_socket

    def ask_password() -> str | None:
        if not sys.stdin.isatty():
            return None
        first = getpass.getpass("Neues Veranstalter-Passwort: ")
        if getpass.getpass("Noch einmal: ") != first:
            raise CliError("Die beiden Passwörter stimmen nicht überein")
        return first

    explicit = getattr(args, "data_dir", None)
    folder = Path(explicit) if explicit else data_dir() / "host"
    private_umask()  # the host process creates its files 0600 and folders 0700 (sync/host/files.py)
    # The port first: one taken by another program is refused before the store is opened or a banner and
    # a QR code point the phones at it (sync/listen.py).
    listener = None if args.print_join else listen_socket(args.host, args.port)
    try:
        setup = prepare(
            folder,
            database_url=args.database_url,
            host=args.host,
            port=args.port,
            organizer_password=args.organizer_password,
            tournament=args.tournament,
            join_code=args.join_code,
            insecure_http=args.insecure_http,
            ask_password=ask_password,
        )
    except BaseException as error:
        if listener is not None:
            listener.close()
        if isinstance(error, HostSetupError):
            raise CliError(str(error)) from None
        raise
    print(banner(setup, qr=not args.no_qr), end="", flush=True)
    if listener is None:  # --print-join
        setup.store.close()
        return 0
    listener.listen(LISTEN_BACKLOG)  # a phone that connects from this line on waits in the queue until served
    print("Der Host läuft; beenden mit Strg-C.", flush=True)
    # Ctrl-C ends it also when it was started with Ctrl-C ignored (a background job of a shell script
    # inherits that): ``serve`` takes SIGINT over with a handler of its own (``CtrlC``).
    serve(
        setup,
        listener,
        wrong_codes_per_minute=args.wrong_codes_per_minute,
        wrong_passwords_per_minute=args.wrong_passwords_per_minute,
        check_processes=args.check_processes,
    )
    print("Host beendet.", flush=True)
    return 0


def cmd_host_import_into(args: argparse.Namespace) -> int:
    """Copy an evening's SQLite into the league's database; a second run changes nothing."""
    from storage.paths import data_dir
    from sync.host.files import private_umask
    from sync.host.transfer import import_into

    explicit = getattr(args, "data_dir", None)
    folder = Path(explicit) if explicit else data_dir() / "host"
    private_umask()
    try:
        report = import_into(folder, args.url, season=args.season)
    except ValueError as error:  # ImportRefused, LeagueError: German, nothing written
        raise CliError(str(error)) from None
    except Exception as error:  # the database unreachable, a wrong URL
        raise CliError(f"Die Datenbank der Liga ist nicht erreichbar oder lehnt ab: {type(error).__name__}") from None
    names = ", ".join(report.tournaments) or "keine"
    if report.changed:
        print(f"Übernommen nach {_shown_url(args.url)}: Turniere {names}")
    else:
        print(f"Nichts zu tun: alles schon in {_shown_url(args.url)} (Turniere {names})")
    for line in report.lines():
        print(line)
    return 0


def _shown_url(url: str) -> str:
    """A database URL without its password, for the terminal."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(die angegebene Datenbank)"


def build_parser() -> argparse.ArgumentParser:
    data_dir = argparse.ArgumentParser(add_help=False)
    data_dir.add_argument(
        "--data-dir",
        default=argparse.SUPPRESS,
        help="Verzeichnis des Speichers (sonst TISCHBLOCK_DATA_DIR oder das Datenverzeichnis der App)",
    )
    parser = argparse.ArgumentParser(
        prog="tischblock", description="Tischblock: die Tischliste für Kartenturniere", parents=[data_dir]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="ein Blatt (JSON) werten und das Ergebnis als JSON ausgeben")
    score.add_argument("sheet", help="Pfad zur Blatt-Datei (siehe docs/sheet-format.md)")
    score.add_argument("--text", action="store_true", help="als Tischliste mit Begründungen statt als JSON")
    score.set_defaults(func=cmd_score)
    standings = sub.add_parser("standings", help="Rangliste über mehrere Blätter eines Turniers")
    standings.add_argument("sheets", nargs="+", help="die Blätter (JSON), ein Blatt pro Tisch und Runde")
    standings.add_argument("--json", action="store_true", help="als JSON ausgeben")
    standings.set_defaults(func=cmd_standings)
    rulesets = sub.add_parser("rulesets", help="die Regelwerke mit ihren Optionen auflisten")
    rulesets.add_argument("--json", action="store_true", help="als JSON ausgeben")
    rulesets.set_defaults(func=cmd_rulesets)
    app = sub.add_parser("app", parents=[data_dir], help="die App im Browser bereitstellen und die URL ausgeben")
    app.add_argument("--port", type=int, default=8550)
    app.add_argument("--host", default="127.0.0.1")
    app.set_defaults(func=cmd_app)
    export = sub.add_parser("export", parents=[data_dir], help="alle gespeicherten Blätter in eine JSON-Datei sichern")
    export.add_argument("file", help="Ziel-Datei der Sicherung (JSON)")
    export.add_argument("--csv", metavar="DIR", help="zusätzlich jedes Blatt als CSV in dieses Verzeichnis schreiben")
    export.set_defaults(func=cmd_export)
    restore = sub.add_parser("import", parents=[data_dir], help="eine Sicherung einlesen (ältere Stände ersetzen nie neuere)")
    restore.add_argument("file", help="die Sicherungs-Datei (JSON)")
    restore.set_defaults(func=cmd_import)
    host = sub.add_parser("host", parents=[data_dir], help="den Host des Veranstalters starten: sammelt die Blätter aller Tische")
    host.add_argument("--port", type=int, default=8443)
    host.add_argument("--host", default="0.0.0.0", help="Adresse, an der der Host lauscht (Standard: alle)")
    host.add_argument("--database-url", help="statt SQLite im Datenverzeichnis: postgresql+psycopg://BENUTZER@SERVER/DATENBANK")
    host.add_argument("--organizer-password", help="Veranstalter-Passwort (sonst beim ersten Start im Terminal abgefragt)")
    host.add_argument(
        "--tournament", metavar="NAME", help="Name des Turniers (beim ersten Start; ein anderer Name legt ein neues an)"
    )
    host.add_argument("--join-code", help="Beitrittscode selbst wählen (beim Anlegen des Turniers; sonst zufällig)")
    host.add_argument("--insecure-http", action="store_true", help="nur für Tests: HTTP ohne Verschlüsselung und Zertifikat")
    host.add_argument("--print-join", action="store_true", help="nur ausgeben, was der Start ausgibt, und nicht starten")
    host.add_argument("--no-qr", action="store_true", help="keinen QR-Code ausgeben")
    host.add_argument("--wrong-codes-per-minute", type=int, default=5, help=argparse.SUPPRESS)
    host.add_argument("--wrong-passwords-per-minute", type=int, default=10, help=argparse.SUPPRESS)
    host.add_argument(
        "--check-processes",
        type=int,
        metavar="N",
        default=int(os.environ["TISCHBLOCK_CHECK_PROCESSES"])
        if os.environ.get("TISCHBLOCK_CHECK_PROCESSES", "").isdigit()
        else None,
        help="Prozesse, die ankommende Blätter prüfen (Standard: TISCHBLOCK_CHECK_PROCESSES, sonst einer je Kern; 0: der Host prüft selbst)",
    )
    host.set_defaults(func=cmd_host)
    host_sub = host.add_subparsers(dest="host_command", required=False, metavar="import-into")
    into = host_sub.add_parser(
        "import-into",
        parents=[data_dir],
        help="den Abend dieses Datenverzeichnisses (SQLite) in die PostgreSQL-Datenbank der Liga übernehmen",
    )
    into.add_argument("url", help="die Datenbank der Liga: postgresql+psycopg://BENUTZER@SERVER/DATENBANK")
    into.add_argument("--season", help="die Turniere dieser Saison (ihre ID) der Liga zuordnen")
    into.set_defaults(func=cmd_host_import_into)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every refusal is one German line ``Fehler: ...`` on stderr, never a traceback."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CliError as error:
        print(f"Fehler: {one_line(str(error))}", file=sys.stderr)
        return error.code
    except KeyboardInterrupt:  # Strg-C at a question (the organizer's password) or during a long command
        print("Abgebrochen (Strg-C).", file=sys.stderr)
        return 130
    except ValueError as error:  # RuleViolation, UnknownRuleset, a refused value: the message says what and where
        print(f"Fehler: {explain(error)}", file=sys.stderr)
        return 1
    except Exception as error:  # a defect of Tischblock, not of the input: still one line, and nothing was changed
        print(f"Fehler: unerwarteter Fehler ({type(error).__name__}: {explain(error)}); bitte melden", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
