"""What one running host shares between its requests: the store, the desk, the caches and limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from limits import RateLimitItemPerMinute
from limits.strategies import MovingWindowRateLimiter

from .checking import SheetChecker
from .desk import Desk
from .records import Tournament
from .scored import ScoredSheets
from .store import HostStore


@dataclass
class HostState:
    store: HostStore
    started_with: Tournament
    """The current tournament when the host started; ``tournament`` follows the store."""
    password_hash: str
    join_limit: RateLimitItemPerMinute
    limiter: MovingWindowRateLimiter
    login_limit: RateLimitItemPerMinute
    """Wrong organizer passwords per client address."""
    login_limit_all: RateLimitItemPerMinute
    """Wrong organizer passwords from all addresses together."""
    desk: Desk
    scored: ScoredSheets = field(default_factory=ScoredSheets)
    checker: SheetChecker = field(default_factory=SheetChecker)
    """Where arriving sheets are parsed and checked: worker processes for ``tischblock host``."""
    verified: bytes | None = None
    """HMAC (with a key that lives only in this process) of the password last verified, so a
    dashboard that polls does not pay for scrypt on every request."""
    process_key: bytes = b""
    address: tuple[str, str | None] | None = None
    """The URL and certificate fingerprint the phones join at (as the banner prints them), for the
    Startkarten's join lines; ``None``: the address the organizer's browser used, no fingerprint."""

    @property
    def tournament(self) -> Tournament:
        """The host's current tournament, as the store says now: the organizer may have made a new one
        (``Desk.create_tournament``, from an endpoint or a page); phones join that one from then on."""
        return self.store.current_tournament() or self.started_with
