"""The player's settings: theme, text size, the house rules for new sheets, their own name, the host
last joined. Kept with the app, beside the sheets in the store's data directory
(``einstellungen.json``, written atomically like the sheets), so the player never has to find a file
and a packaged app, the browser view and a second window all read the same settings.

``ft.SharedPreferences`` would keep them in the browser's local storage instead: per browser, not per
phone's store, and only readable asynchronously after the page has connected, so every screen would
first show the defaults. The store's directory is where the app already keeps the tournament login.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import flet as ft
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from storage import SheetStore, StorageError
from storage.atomic import atomic_write_bytes, dump_json, parse_json_object
from storage.repository import ENV_DEVICE

SETTINGS_FILE = "einstellungen.json"

Theme = Literal["system", "hell", "dunkel"]
TextSize = Literal["normal", "gross", "sehr-gross"]
HouseRules = Literal["regelwerk", "meist"]

THEMES: tuple[tuple[Theme, str], ...] = (("system", "Wie das System"), ("hell", "Hell"), ("dunkel", "Dunkel"))
TEXT_SIZES: tuple[tuple[TextSize, str], ...] = (("normal", "Normal"), ("gross", "Groß"), ("sehr-gross", "Sehr groß"))
TEXT_SCALE: dict[TextSize, float] = {"normal": 1.0, "gross": 1.2, "sehr-gross": 1.4}
HOUSE_RULES: tuple[tuple[HouseRules, str], ...] = (
    ("regelwerk", "Wie im Regelwerk"),
    ("meist", "Wie meist auf diesem Handy gespielt"),
)
NAME_LIMIT = 80
PHONE_NAME = "Mein Handy"
"""The name offered for this phone when the player's own name is not known yet: never the computer's
host name ("vm", "DESKTOP-4F2K"), which a player does not recognise in the trail."""


class Settings(BaseModel):
    """The stored settings; unknown keys (from a newer app) are ignored, a bad value falls back."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    theme: Theme = "system"
    text_size: TextSize = "normal"
    house_rules: HouseRules = "meist"
    own_name: str = Field(default="", max_length=NAME_LIMIT)
    device_name: str = Field(default="", max_length=NAME_LIMIT)
    """The name of this phone in every entry's trail ("Handy Sepp"); empty: the own name."""
    device_asked: bool = False
    """The start screen asked for ``device_name`` once and the player answered: it is not asked again
    (an emptied name in Einstellungen then means the own name)."""
    last_host: str = Field(default="", max_length=2000)
    """The join line or address of the tournament host this phone joined last."""


def settings_path(root: Path) -> Path:
    return Path(root) / SETTINGS_FILE


def load_settings(root: Path) -> Settings:
    """The saved settings; the defaults if there are none. A damaged file raises ``StorageError``."""
    path = settings_path(root)
    try:
        return Settings.model_validate(parse_json_object(path.read_bytes()))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError, ValidationError) as error:
        raise StorageError(f"Die Einstellungen ({path}) können nicht gelesen werden: {error}") from None


def save_settings(root: Path, settings: Settings) -> None:
    atomic_write_bytes(settings_path(root), dump_json(settings.model_dump(mode="json")))


@ft.observable
@dataclass
class SettingsState:
    """The settings screen's state: each change is checked, saved at once and applied by the app."""

    store: SheetStore
    settings: Settings = field(default_factory=Settings)
    own_name: str = ""
    """The name field as typed (saved when valid)."""
    device_name: str = ""
    """The device name field as typed (saved when valid)."""
    error: str | None = None
    saved: bool = False

    def __post_init__(self) -> None:
        try:
            self.settings = load_settings(self.store.root)
        except StorageError as error:
            self.error = f"{error} Es gelten die Voreinstellungen; Speichern überschreibt die Datei."
        self.own_name = self.settings.own_name
        self.device_name = self.settings.device_name
        self.apply_device()

    @property
    def device(self) -> str | None:
        """The name stamped on this phone's entries: the device name from the settings, else the own
        name; ``None`` while neither is set (then ``proposed_device_name``)."""
        return self.settings.device_name or self.settings.own_name or None

    @property
    def proposed_device_name(self) -> str:
        """What the first start offers as this phone's name: the player's own name if known, else
        ``PHONE_NAME``."""
        return self.settings.own_name or PHONE_NAME

    @property
    def asks_device_name(self) -> bool:
        """Whether the start screen asks for this phone's name: once, on the first start, until the player
        answers (not where ``TISCHBLOCK_DEVICE`` names it, nor when one is set in Einstellungen)."""
        return not (self.settings.device_asked or self.settings.device_name or os.environ.get(ENV_DEVICE))

    def confirm_device_name(self, name: str) -> bool:
        """The answer to the first start's question: saved as this phone's name, never asked again.
        An empty or too long name is refused with a message and changes nothing."""
        text = " ".join(name.split())
        if not text:
            self.error = "Name dieses Handys: bitte einen Namen eingeben."
            return False
        if len(text) > NAME_LIMIT:
            self.error = f"Name dieses Handys: höchstens {NAME_LIMIT} Zeichen."
            return False
        if not self._change(device_name=text, device_asked=True):
            return False
        self.device_name = text
        return True

    def apply_device(self) -> None:
        """Stamp new entries with ``device``, else ``proposed_device_name`` (never the computer's host
        name). ``TISCHBLOCK_DEVICE``, set for a kiosk or a test, wins."""
        if os.environ.get(ENV_DEVICE):
            return
        self.store.device = (self.device or self.proposed_device_name)[:NAME_LIMIT]

    @property
    def text_scale(self) -> float:
        return TEXT_SCALE[self.settings.text_size]

    @property
    def theme_mode(self) -> ft.ThemeMode:
        return {"system": ft.ThemeMode.SYSTEM, "hell": ft.ThemeMode.LIGHT, "dunkel": ft.ThemeMode.DARK}[self.settings.theme]

    def _change(self, **values: object) -> bool:
        try:
            changed = Settings.model_validate({**self.settings.model_dump(), **values})
        except ValidationError:
            return False
        try:
            save_settings(self.store.root, changed)
        except (OSError, StorageError) as error:
            self.error = f"Die Einstellungen konnten nicht gespeichert werden: {error}"
            return False
        self.settings, self.error, self.saved = changed, None, True
        self.apply_device()
        return True

    def set_theme(self, theme: str) -> None:
        if theme in dict(THEMES):
            self._change(theme=theme)

    def set_text_size(self, size: str) -> None:
        if size in dict(TEXT_SIZES):
            self._change(text_size=size)

    def set_house_rules(self, rules: str) -> None:
        if rules in dict(HOUSE_RULES):
            self._change(house_rules=rules)

    def set_own_name(self, name: str) -> None:
        """Keep what was typed; save it once it is a name (not too long)."""
        self.own_name = name
        text = " ".join(name.split())
        if len(text) > NAME_LIMIT:
            self.error = f"Eigener Name: höchstens {NAME_LIMIT} Zeichen."
            return
        self._change(own_name=text)

    def set_device_name(self, name: str) -> None:
        """Keep what was typed; save it once it is a name (not too long). It names this phone in the trail."""
        self.device_name = name
        text = " ".join(name.split())
        if len(text) > NAME_LIMIT:
            self.error = f"Name dieses Handys: höchstens {NAME_LIMIT} Zeichen."
            return
        self._change(device_name=text)

    def remember_host(self, target: str) -> None:
        """After joining: the join line or address, offered again next time."""
        self._change(last_host=target.strip()[:2000])
