"""The phone's side of the sync protocol: ``HostClient`` talks to the organizer's host.

Transport (``sync/protocol.py`` has the API):

- ``requests`` with urllib3's ``Retry``: connect and read errors and the answers 429, 502, 503 and
  504 are retried with exponential backoff (and ``Retry-After``). Only ``GET`` and ``PUT`` are
  retried after the request may have reached the host: both are idempotent (the host stores a
  revision once and answers "already stored" to the same body), so a resend after a lost reply
  stores nothing twice. ``POST /join`` is retried only when the connection never opened.
- Certificate pinning: the host's self-signed certificate is checked against the SHA-256
  fingerprint from the join line with urllib3's ``assert_fingerprint`` (no CA, no internet). A
  host showing another certificate gets nothing, not even the token: ``CertificateMismatch``.
- The device token travels only in the ``X-Tischblock-Token`` header; it is kept in
  ``turnier.json`` in the store's data directory (mode 0600, written atomically) and never
  appears in a log line, a URL or a ``repr``.

Every failure a user can see is a ``SyncError`` whose ``str()`` is a German sentence. The
transient ones (``HostUnreachable``, ``HostFailed``) are retried by the outbox later; the others
need a person (a wrong join code, a sheet the rules refuse, a conflict).
"""

from __future__ import annotations

import json
import os
import ssl
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import requests
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry
from urllib3.util.ssl_ import create_urllib3_context

from scoring import Sheet, SheetContext
from scoring.engine import german_validation_message
from storage.atomic import atomic_write_bytes, parse_json_object
from storage.errors import StorageError

from .protocol import (
    ADOPT_PATH,
    API_PREFIX,
    TOKEN_HEADER,
    AdoptResponse,
    AssignmentResponse,
    HostInfo,
    InvalidJoinLine,
    JoinLine,
    JoinRequest,
    JoinResponse,
    SubmitResponse,
    revision_path,
)

CREDENTIALS_FILE = "turnier.json"
RETRY_STATUS = frozenset({429, 502, 503, 504})
DEFAULT_TIMEOUT = (3.05, 20.0)
"""Seconds to open a connection, and to wait for the host's answer (it answers after an fsync)."""


# -- errors -----------------------------------------------------------------------------------
class SyncError(Exception):
    """A sync failure; ``str()`` is the German message the app shows."""

    transient = False
    """True when trying again later may well succeed (the Wi-Fi, a restarting host)."""


class HostUnreachable(SyncError):
    """No answer from the host (no connection, timeout, connection lost) after the retries."""

    transient = True


class HostFailed(SyncError):
    """The host answered with a server error (5xx) or something that is no protocol answer."""

    transient = True


class CertificateMismatch(SyncError, ValueError):
    """The host shows another certificate than the one pinned at joining: nothing is sent to it."""


class JoinRefused(SyncError, ValueError):
    """Joining failed: wrong join code, too many tries, or an invalid request."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotAuthorized(SyncError, ValueError):
    """The host does not accept this device's token (or its table): join again."""


class NotDrawn(SyncError, ValueError):
    """No table for this Startnummer yet: the round is not drawn (or it sits this one out)."""


class SheetRefused(SyncError, ValueError):
    """The host refuses this revision of the sheet (its ruleset's German message, or its size)."""


class SheetConflict(SyncError, ValueError):
    """The host holds this revision of the sheet with other content; it keeps the first one."""


# -- credentials ------------------------------------------------------------------------------
class Credentials(BaseModel):
    """What a phone keeps after joining: the host, its pinned certificate and the device token."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str
    fingerprint: str | None = None
    """SHA-256 of the host's certificate, colon hex; ``None`` only for a plain-http host (tests)."""
    device_token: SecretStr
    device_id: str
    tournament_id: str
    tournament_name: str
    table: int | None = Field(default=None, ge=1)
    """The table joined for; ``None`` when joined with the Startnummer (the table then comes from each round's draw)."""
    team: str | None = None
    device_name: str
    start_number: int | None = Field(default=None, ge=1)
    joined_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def sheet_context(
        self,
        round: int | None = None,
        round_label: Literal["Durchgang", "Serie", "Runde", "Spielabend"] = "Durchgang",
        written_by: str | None = None,
    ) -> SheetContext:
        """The context of a new sheet for this tournament and table, as the host expects it (joined by table)."""
        return SheetContext(
            tournament=self.tournament_id,
            round_label=round_label,
            round=round,
            table=self.table,
            written_by=written_by if written_by is not None else self.team,
        )

    def to_file(self) -> bytes:
        data = self.model_dump(mode="json")
        data["device_token"] = self.device_token.get_secret_value()
        return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def credentials_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / CREDENTIALS_FILE


def save_credentials(root: str | os.PathLike[str], credentials: Credentials) -> Path:
    """Keep the credentials in the store's data directory: atomic, readable by the owner only."""
    path = credentials_path(root)
    atomic_write_bytes(path, credentials.to_file(), mode=0o600)
    return path


def load_credentials(root: str | os.PathLike[str]) -> Credentials | None:
    """The saved credentials, or ``None`` if this device has not joined a tournament."""
    path = credentials_path(root)
    try:
        raw = parse_json_object(path.read_bytes())
        return Credentials.model_validate(raw)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, ValidationError) as error:
        raise StorageError(
            f"Die Anmeldung beim Turnier ({path}) kann nicht gelesen werden: {error}. Bitte neu beitreten."
        ) from None


def forget_credentials(root: str | os.PathLike[str]) -> None:
    """Leave the tournament on this device (the sheets stay)."""
    credentials_path(root).unlink(missing_ok=True)


# -- transport --------------------------------------------------------------------------------
def default_retry(attempts: int = 4, backoff: float = 0.25, backoff_max: float = 4.0) -> Retry:
    """urllib3's retry with backoff for the sync requests (see the module docstring)."""
    return Retry(
        total=attempts,
        connect=attempts,
        read=attempts,
        status=attempts,
        other=0,  # a TLS failure such as a wrong certificate is never retried
        backoff_factor=backoff,
        backoff_max=backoff_max,
        backoff_jitter=backoff / 2,
        status_forcelist=RETRY_STATUS,
        allowed_methods=frozenset({"GET", "PUT"}),
        respect_retry_after_header=True,
        raise_on_status=False,
        raise_on_redirect=False,
        redirect=0,
    )


class PinnedAdapter(HTTPAdapter):
    """An ``HTTPAdapter`` whose connections check the host's certificate against one SHA-256 fingerprint.

    urllib3's ``assert_fingerprint`` replaces the CA check: the certificate is accepted if and
    only if its fingerprint is the pinned one, before any byte of the request is sent.
    """

    def __init__(self, fingerprint: str, **kwargs: Any) -> None:
        self.fingerprint = fingerprint.replace(":", "").lower()
        # One TLS context for all connections, without a CA store: the pin is the check, and loading
        # the system's CAs for every new connection cost about 30 ms of CPU each time.
        self._tls = create_urllib3_context(cert_reqs=ssl.CERT_NONE)
        self._tls.check_hostname = False
        super().__init__(**kwargs)

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False, **pool_kwargs: Any) -> None:
        pool_kwargs["assert_fingerprint"] = self.fingerprint
        pool_kwargs["ssl_context"] = self._tls
        super().init_poolmanager(connections, maxsize, block, **pool_kwargs)

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        # Never a CA check, whatever the session's ``verify`` (or REQUESTS_CA_BUNDLE) says: the
        # certificate is self-signed and the fingerprint is the check.
        kwargs["verify"] = False
        return super().send(request, *args, **kwargs)


def _detail(response: requests.Response) -> str:
    """The German ``detail`` of a ``Problem`` answer, or a short description of whatever came."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("detail"), str):
        return str(body["detail"])
    if isinstance(body, dict) and isinstance(body.get("detail"), list):  # FastAPI's validation errors
        parts = [str(item.get("msg", item)) if isinstance(item, dict) else str(item) for item in body["detail"]]
        return "; ".join(parts)
    return f"HTTP {response.status_code} {response.reason or ''}".strip()


class HostClient:
    """The organizer's host, seen from a phone. One per host; thread-safe for one caller at a time.

    ``url`` is the host's base URL (``https://192.168.1.20:8443``); an ``https`` URL needs the
    ``fingerprint`` to pin. ``token`` is the device token once joined.
    """

    def __init__(
        self,
        url: str,
        *,
        fingerprint: str | None = None,
        token: str | SecretStr | None = None,
        timeout: tuple[float, float] = DEFAULT_TIMEOUT,
        retry: Retry | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        if not self.url.startswith(("https://", "http://")):
            raise InvalidJoinLine(f"Die Adresse des Veranstalters muss mit https:// beginnen, nicht {url!r}.")
        if self.url.startswith("https://") and not fingerprint:
            raise InvalidJoinLine("Für eine https-Adresse braucht Tischblock den Fingerabdruck des Zertifikats (fp=...).")
        self.fingerprint = fingerprint.upper() if fingerprint else None
        self._token = token if isinstance(token, SecretStr) or token is None else SecretStr(token)
        self.timeout = timeout
        self.session = requests.Session()
        self.session.trust_env = False  # the hall's host is reached directly, never through a proxy from the environment
        retry = retry if retry is not None else default_retry()
        if self.fingerprint:
            self.session.verify = False  # no CA: the pinned fingerprint is the check (urllib3 counts it as verified)
            self.session.mount("https://", PinnedAdapter(self.fingerprint, max_retries=retry))
        else:
            self.session.mount("https://", HTTPAdapter(max_retries=retry))
        self.session.mount("http://", HTTPAdapter(max_retries=retry))

    @classmethod
    def for_credentials(cls, credentials: Credentials, **kwargs: Any) -> HostClient:
        return cls(credentials.url, fingerprint=credentials.fingerprint, token=credentials.device_token, **kwargs)

    def __repr__(self) -> str:
        return f"HostClient({self.url!r}, fingerprint={self.fingerprint!r}, token={'***' if self._token else None})"

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> HostClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ------------------------------------------------------------------------------
    def _request(self, method: str, path: str, *, body: bytes | None = None, auth: bool = True) -> requests.Response:
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if auth:
            if self._token is None:
                raise NotAuthorized("Dieses Handy ist noch keinem Turnier beigetreten.")
            headers[TOKEN_HEADER] = self._token.get_secret_value()
        try:
            return self.session.request(method, self.url + path, data=body, headers=headers, timeout=self.timeout)
        except requests.exceptions.SSLError as error:
            if "fingerprint" in str(error).lower():
                raise CertificateMismatch(
                    f"Der Rechner unter {self.url} zeigt ein anderes Zertifikat als beim Beitritt "
                    f"(erwartet {self.fingerprint}). Tischblock sendet ihm nichts: Das ist nicht der Rechner des "
                    "Veranstalters, oder er wurde neu eingerichtet; dann bitte dem Turnier neu beitreten."
                ) from None
            raise HostUnreachable(
                f"Die verschlüsselte Verbindung zum Veranstalter ({self.url}) kam nicht zustande. "
                "Das Blatt bleibt gespeichert und wird später gesendet."
            ) from None
        except requests.exceptions.Timeout:
            raise HostUnreachable(
                f"Der Veranstalter ({self.url}) antwortet nicht (Zeitüberschreitung). "
                "Das Blatt bleibt gespeichert und wird später gesendet."
            ) from None
        except requests.exceptions.RequestException:
            raise HostUnreachable(
                f"Der Veranstalter ({self.url}) ist nicht erreichbar. Ist das Handy im WLAN des Turniers? "
                "Das Blatt bleibt gespeichert und wird später gesendet."
            ) from None

    def _server_trouble(self, response: requests.Response) -> HostFailed:
        return HostFailed(
            f"Der Veranstalter ({self.url}) meldet einen Fehler ({_detail(response)}). "
            "Das Blatt bleibt gespeichert; Tischblock versucht es später wieder."
        )

    def _parse(self, model: type[Any], response: requests.Response) -> Any:
        try:
            return model.model_validate_json(response.content)
        except ValidationError:
            raise HostFailed(
                f"Die Antwort von {self.url} ist keine Tischblock-Antwort (HTTP {response.status_code}); "
                "ist das der Rechner des Veranstalters?"
            ) from None

    # -- the API ---------------------------------------------------------------------------------
    def info(self) -> HostInfo:
        """Which tournament the host collects (no token needed)."""
        response = self._request("GET", f"{API_PREFIX}/info", auth=False)
        if response.status_code != 200:
            raise self._server_trouble(response)
        info: HostInfo = self._parse(HostInfo, response)
        return info

    def join(
        self,
        join_code: str,
        table: int | None,
        team: str | None,
        device_name: str,
        *,
        start_number: int | None = None,
        secret: str | None = None,
    ) -> Credentials:
        """Join the tournament for ``table`` (and ``team``), or with the ``start_number`` and its
        ``secret`` (from the Startkarte) when the tournament draws its tables; the credentials carry
        the new device token."""
        try:
            request = JoinRequest(
                join_code=join_code.strip(),
                table=table,
                team=team,
                device_name=device_name,
                start_number=start_number,
                secret=secret.strip().upper() if secret else None,
            )
        except ValidationError as error:
            raise JoinRefused(f"Die Angaben zum Beitritt sind ungültig: {german_validation_message(error)}") from None
        response = self._request("POST", f"{API_PREFIX}/join", body=request.model_dump_json().encode(), auth=False)
        if response.status_code == 201:
            answer: JoinResponse = self._parse(JoinResponse, response)
            self._token = SecretStr(answer.device_token)
            return Credentials(
                url=self.url,
                fingerprint=self.fingerprint,
                device_token=SecretStr(answer.device_token),
                device_id=answer.device_id,
                tournament_id=answer.tournament_id,
                tournament_name=answer.tournament_name,
                table=answer.table,
                team=answer.team,
                device_name=device_name,
                start_number=answer.start_number,
            )
        detail = _detail(response)
        if response.status_code == 429:
            wait = response.headers.get("Retry-After", "")
            seconds = int(wait) if wait.isdigit() else None
            later = f" Bitte in {seconds} s erneut versuchen." if seconds else " Bitte später erneut versuchen."
            raise JoinRefused(f"Zu viele Versuche mit falschem Beitrittscode ({detail}).{later}", retry_after=seconds)
        if response.status_code == 403 and "Schlüssel" in detail:
            raise JoinRefused(f"Der Schlüssel der Startkarte stimmt nicht: {detail}")
        if response.status_code in (401, 403):
            raise JoinRefused(f"Der Beitrittscode stimmt nicht: {detail}")
        if response.status_code == 404:
            raise JoinRefused(f"Der Veranstalter kennt diese Startnummer nicht: {detail}")
        if 400 <= response.status_code < 500:
            raise JoinRefused(f"Der Veranstalter lehnt den Beitritt ab: {detail}")
        raise self._server_trouble(response)

    def assignment(self, round: int | None = None) -> AssignmentResponse:
        """Where this device's Startnummer plays in ``round`` (default: the latest drawn) and its prepared sheet.

        ``NotDrawn`` (German) while the round is not drawn or the Startnummer has no table in it.
        """
        path = f"{API_PREFIX}/assignment" + (f"?round={int(round)}" if round is not None else "")
        response = self._request("GET", path)
        if response.status_code == 200:
            answer: AssignmentResponse = self._parse(AssignmentResponse, response)
            return answer
        detail = _detail(response)
        if response.status_code in (404, 422):
            raise NotDrawn(detail)
        if response.status_code in (401, 403):
            raise NotAuthorized(f"Der Veranstalter nimmt von diesem Handy nichts an: {detail}")
        raise self._server_trouble(response)

    def adopt(self, sheet: Sheet, round: int | None = None) -> AdoptResponse:
        """The drawn table's sheet with the games of ``sheet``, begun before this phone joined (nothing is stored
        by asking). ``NotDrawn`` while the round is not drawn; ``SheetRefused`` (German) for other teams, another
        ruleset, or a round already signed."""
        path = ADOPT_PATH + (f"?round={int(round)}" if round is not None else "")
        response = self._request("POST", path, body=sheet.to_json().encode("utf-8"))
        if response.status_code == 200:
            answer: AdoptResponse = self._parse(AdoptResponse, response)
            return answer
        detail = _detail(response)
        if response.status_code == 404:
            raise NotDrawn(detail)
        if response.status_code in (401, 403):
            raise NotAuthorized(f"Der Veranstalter nimmt von diesem Handy nichts an: {detail}")
        if response.status_code in (409, 413, 422):
            raise SheetRefused(f"Der Veranstalter nimmt das Blatt nicht für das Turnier: {detail}")
        raise self._server_trouble(response)

    def submit(self, sheet: Sheet) -> SubmitResponse:
        """PUT the sheet as it is (its revision = number of log entries); the host's acknowledgement.

        201 and 200 (already stored) both mean: this revision is durably at the organizer's.
        """
        revision = len(sheet.entries)
        response = self._request("PUT", revision_path(sheet.id, revision), body=sheet.to_json().encode("utf-8"))
        if response.status_code in (200, 201):
            return self._acknowledgement(response, sheet.id, revision)
        raise self._refusal(response, sheet.id, revision)

    def stored(self, sheet_id: uuid.UUID | str, revision: int) -> SubmitResponse | None:
        """Whether the host holds ``revision`` of the sheet (after a PUT whose answer was lost)."""
        response = self._request("GET", revision_path(sheet_id, revision))
        if response.status_code == 200:
            return self._acknowledgement(response, uuid.UUID(str(sheet_id)), revision)
        if response.status_code == 404:
            return None
        raise self._refusal(response, uuid.UUID(str(sheet_id)), revision)

    def _acknowledgement(self, response: requests.Response, sheet_id: uuid.UUID, revision: int) -> SubmitResponse:
        answer: SubmitResponse = self._parse(SubmitResponse, response)
        if answer.sheet_id != sheet_id or answer.revision != revision:
            raise HostFailed(
                f"Der Veranstalter bestätigt Stand {answer.revision} von Blatt {answer.sheet_id} statt Stand "
                f"{revision} von Blatt {sheet_id}; das Blatt gilt nicht als angekommen."
            )
        return answer

    def _refusal(self, response: requests.Response, sheet_id: uuid.UUID, revision: int) -> SyncError:
        detail = _detail(response)
        status = response.status_code
        if status == 409:
            return SheetConflict(
                f"Der Veranstalter hat Stand {revision} dieses Blatts schon mit anderem Inhalt ({detail}). "
                "Er behält den ersten; das Blatt hier bleibt unverändert. Bitte mit dem Veranstalter klären."
            )
        if status == 422:
            return SheetRefused(f"Der Veranstalter nimmt das Blatt nicht an: {detail}")
        if status == 413:
            return SheetRefused(f"Das Blatt ist zu groß für den Veranstalter ({detail}).")
        if status in (401, 403):
            return NotAuthorized(f"Der Veranstalter nimmt von diesem Handy nichts an: {detail}")
        if status == 429 or status >= 500:
            return self._server_trouble(response)
        return SheetRefused(f"Der Veranstalter lehnt das Blatt ab (HTTP {status}): {detail}")


def join(
    target: str,
    table: int | None,
    team: str | None,
    device_name: str,
    *,
    code: str | None = None,
    fingerprint: str | None = None,
    start_number: int | None = None,
    secret: str | None = None,
    **client_options: Any,
) -> Credentials:
    """Join a tournament with the join line (``tischblock://join?...``), or with the host's URL and ``code``.
    A Startkarte's line brings its Startnummer and key (``nr``, ``key``) unless they are given.

    A Startkarte's line brings the Startnummer and its secret (given ones win).
    Returns the credentials (save them with ``save_credentials``). ``InvalidJoinLine``,
    ``JoinRefused``, ``CertificateMismatch`` or ``HostUnreachable`` with a German message.
    """
    target = target.strip()
    if target.startswith("tischblock:"):
        line = JoinLine.parse(target)
        url, code, fingerprint = line.url, code or line.code, line.fingerprint
        if start_number is None and line.start_number is not None:
            start_number, table, team = line.start_number, None, None
        secret = secret or line.secret
    else:
        if not code:
            raise InvalidJoinLine("Zum Beitreten fehlt der Beitrittscode.")
        url = target
    with HostClient(url, fingerprint=fingerprint, **client_options) as client:
        return client.join(code, table, team, device_name, start_number=start_number, secret=secret)
