"""The host's secrets, made and checked: the organizer's password hash, device tokens, join codes.

The password is kept only as a scrypt hash with a random salt and compared in constant time; a
device token only as its SHA-256. Join codes use letters that survive being read aloud in a hall.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata

PASSWORD_SETTING = "organizer_password"
"""The ``host_settings`` key of the organizer's password hash."""
JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join code letters: no 0/O, 1/I, so a code read aloud in a hall is typed right."""

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def normalized(password: str) -> bytes:
    """The password as hashed: Unicode NFC in UTF-8, so "ö" typed as one or two code points is the same."""
    return unicodedata.normalize("NFC", password).encode("utf-8")


def hash_password(password: str) -> str:
    """A scrypt hash of the organizer's password with a random salt: ``scrypt$n$r$p$salt$hash``."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(normalized(password), salt=salt, dklen=32, **_SCRYPT)
    encode = base64.b64encode
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${encode(salt).decode()}${encode(digest).decode()}"


def verify_password(password: str, stored: str) -> bool:
    """Does ``password`` match the stored hash? (Constant-time comparison of the digests.)"""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.scrypt(
            normalized(password), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p), dklen=len(expected)
        )
    except (ValueError, UnicodeEncodeError):
        return False
    return hmac.compare_digest(actual, expected)


def new_device_token() -> str:
    """A device's token: random, sent by the phone in a header, kept by the host only as its hash."""
    return secrets.token_urlsafe(32)


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_join_code(length: int = 6) -> str:
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(length))


def new_entrant_secret() -> str:
    """An entrant's secret for the Startkarte: 8 join-code letters as ``XXXX-XXXX`` (40 bits, typeable)."""
    letters = new_join_code(8)
    return f"{letters[:4]}-{letters[4:]}"


def same_secret(given: str | None, stored: str | None) -> bool:
    """Does the typed or scanned secret match? Case, spaces and dashes do not matter; constant time."""
    if not given or not stored:
        return False

    def plain(text: str) -> bytes:
        return "".join(c for c in text.upper() if c.isalnum()).encode("utf-8")

    return hmac.compare_digest(plain(given), plain(stored))
