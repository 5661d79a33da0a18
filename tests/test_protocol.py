"""The shared protocol module: the join line a phone pastes or scans."""

from __future__ import annotations

import pytest

from sync.protocol import InvalidJoinLine, JoinLine, revision_path

FP = ":".join(["AB"] * 32)


def test_join_line_round_trips() -> None:
    line = JoinLine(url="https://192.168.1.20:8443", code="K7P4Q2", fingerprint=FP)
    text = line.format()
    assert text == f"tischblock://join?url=https://192.168.1.20:8443&code=K7P4Q2&fp={FP}"
    assert JoinLine.parse(text) == line


def test_join_line_reads_an_escaped_url_and_lower_case_fingerprint() -> None:
    parsed = JoinLine.parse(f"  tischblock://join?url=https%3A%2F%2F10.0.0.5%3A9000%2F&code=ABC&fp={FP.lower()}\n")
    assert parsed == JoinLine(url="https://10.0.0.5:9000", code="ABC", fingerprint=FP)


def test_a_startkarte_line_carries_the_start_number_and_the_secret() -> None:
    line = JoinLine(url="https://192.168.1.20:8443", code="K7P4Q2", fingerprint=FP, start_number=12, secret="7KQ4-M2XP")
    text = line.format()
    assert text.endswith("&nr=12&key=7KQ4-M2XP")
    assert JoinLine.parse(text) == line
    assert JoinLine.parse(text.replace("key=7KQ4-M2XP", "key=7kq4-m2xp")).secret == "7KQ4-M2XP"


def test_plain_http_needs_no_fingerprint() -> None:
    assert JoinLine.parse("tischblock://join?url=http://127.0.0.1:8000&code=X").fingerprint is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("https://192.168.1.20:8443", "keine Beitritts-Zeile"),
        ("tischblock://join?code=K7", "Adresse"),
        ("tischblock://join?url=ftp://x&code=K7", "Adresse"),
        ("tischblock://join?url=https://x:1", "Beitrittscode"),
        ("tischblock://join?url=http://x:1&code=K7&nr=zwölf", "Startnummer"),
        ("tischblock://join?url=http://x:1&code=K7&nr=0", "Startnummer"),
        ("tischblock://join?url=http://x:1&code=K7&nr=12&key=7K", "Schlüssel"),
        ("tischblock://join?url=http://x:1&code=K7&nr=12&key=7KQ4%20M2XP", "Schlüssel"),
        ("tischblock://join?url=https://x:1&code=K7", "Fingerabdruck"),
        ("tischblock://join?url=https://x:1&code=K7&fp=AB:CD", "Fingerabdruck"),
    ],
)
def test_a_broken_join_line_says_what_is_missing(text: str, reason: str) -> None:
    with pytest.raises(InvalidJoinLine, match=reason):
        JoinLine.parse(text)


def test_revision_path() -> None:
    assert (
        revision_path("3f6c1a52-8d3e-4b7a-9c1e-5a2b7d9e0f11", 4)
        == "/api/v1/sheets/3f6c1a52-8d3e-4b7a-9c1e-5a2b7d9e0f11/revisions/4"
    )
