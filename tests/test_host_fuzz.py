"""schemathesis against the host's served OpenAPI schema: whatever it sends, no answer is a 5xx.

The running host is real (``tischblock host --insecure-http`` on 127.0.0.1: the fuzz run is about
the API, not TLS); the cases carry a real device token and the organizer's password, so they get
past the doors and reach the validation, the rules and the store. Bounded: at most 50 examples
per operation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from sync.protocol import TOKEN_HEADER

from .host_helpers import PASSWORD, RunningHost, start_host


@pytest.fixture(scope="module")
def fuzz_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHost]:
    running = start_host(Path(tmp_path_factory.mktemp("fuzz")), "--wrong-codes-per-minute", "1000", insecure=True)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def fuzz_token(fuzz_host: RunningHost) -> str:
    return str(fuzz_host.join(table=4)["device_token"])


OPERATIONS = [
    ("GET", "/api/v1/info"),
    ("POST", "/api/v1/join"),
    ("PUT", "/api/v1/sheets/{sheet_id}/revisions/{revision}"),
    ("GET", "/api/v1/sheets/{sheet_id}/revisions/{revision}"),
    ("GET", "/api/v1/tables"),
    ("GET", "/api/v1/conflicts"),
    ("GET", "/api/v1/sheets/{sheet_id}"),
    ("GET", "/api/v1/assignment"),
    ("POST", "/api/v1/sheets/adopt"),
    ("GET", "/api/v1/organizer/tournament"),
    ("POST", "/api/v1/organizer/tournament"),
    ("PUT", "/api/v1/organizer/plan"),
    ("GET", "/api/v1/organizer/roster"),
    ("POST", "/api/v1/organizer/roster/csv"),
    ("POST", "/api/v1/organizer/entrants"),
    ("POST", "/api/v1/organizer/entrants/{start_number}/withdraw"),
    ("POST", "/api/v1/organizer/rounds/{round}/draw"),
    ("GET", "/api/v1/organizer/rounds/{round}/draw"),
    ("POST", "/api/v1/organizer/rounds/{round}/start"),
    ("GET", "/api/v1/organizer/rounds/{round}/tables"),
    ("GET", "/api/v1/organizer/rounds/{round}/tables/{table}/dispute"),
    ("POST", "/api/v1/organizer/rounds/{round}/tables/{table}/decide"),
    ("POST", "/api/v1/organizer/rounds/{round}/tables/{table}/correct"),
    ("POST", "/api/v1/organizer/rounds/{round}/tables/{table}/abort"),
    ("GET", "/api/v1/organizer/decisions"),
    ("GET", "/api/v1/organizer/standings"),
    ("GET", "/api/v1/organizer/exports/standings.csv"),
    ("GET", "/api/v1/organizer/exports/games.csv"),
    ("POST", "/api/v1/organizer/entrants/{start_number}/secret"),
    ("GET", "/api/v1/organizer/devices"),
    ("POST", "/api/v1/organizer/devices/{device_id}/revoke"),
    ("GET", "/api/v1/organizer/seasons"),
    ("GET", "/api/v1/organizer/seasons/{season_id}/standings"),
    ("PUT", "/api/v1/organizer/seasons/{season_id}/tournaments/{tournament_id}"),
]


@pytest.fixture(scope="module")
def api_schema(fuzz_host: RunningHost) -> Any:
    return schemathesis.openapi.from_url(f"{fuzz_host.url}/api/v1/openapi.json")


def test_every_served_operation_is_fuzzed(api_schema: Any) -> None:
    served = sorted((op.ok().method.upper(), op.ok().path) for op in api_schema.get_all_operations())
    assert served == sorted(OPERATIONS)


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_no_request_makes_the_host_fail(method: str, path: str, api_schema: Any, fuzz_host: RunningHost, fuzz_token: str) -> None:
    operation = api_schema[path][method]
    cases = st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))

    @settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=cases)
    def fuzz(case: Any) -> None:
        case.call_and_validate(
            base_url=fuzz_host.url,
            headers={TOKEN_HEADER: fuzz_token},
            auth=("organizer", PASSWORD),
            checks=[not_a_server_error],
            timeout=30,
        )

    fuzz()


def test_the_fuzz_run_left_the_host_answering(fuzz_host: RunningHost) -> None:
    assert fuzz_host.session().get(f"{fuzz_host.url}/api/v1/info", timeout=10).status_code == 200
    assert "Traceback" not in fuzz_host.terminal()
