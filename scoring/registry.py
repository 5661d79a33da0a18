"""The ruleset registry: ``find_ruleset("watten-turnier")`` and the list of all rulesets."""

from __future__ import annotations

from typing import Any

from .engine import Ruleset, UnknownRuleset

_RULESETS: dict[str, Ruleset[Any, Any]] = {}


def register(cls: type[Ruleset[Any, Any]]) -> type[Ruleset[Any, Any]]:
    """Class decorator: register one instance of the ruleset under its ``id``."""
    if cls.id in _RULESETS:
        raise ValueError(f"ruleset id registered twice: {cls.id}")
    _RULESETS[cls.id] = cls()
    return cls


def find_ruleset(name: str) -> Ruleset[Any, Any]:
    """The ruleset registered as ``name``; ``UnknownRuleset`` (a ``ValueError``) if there is none."""
    try:
        return _RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(_RULESETS))
        raise UnknownRuleset(f"Unbekanntes Regelwerk '{name}' (bekannt: {known})") from None


def all_rulesets() -> list[Ruleset[Any, Any]]:
    """Every registered ruleset, ordered by id."""
    return [_RULESETS[key] for key in sorted(_RULESETS)]
