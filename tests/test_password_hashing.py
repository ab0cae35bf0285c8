"""The suite hashes with MD5 (tests/conftest.py) to save 0.37 s a user; production must not."""

from __future__ import annotations

import importlib

from django.conf import global_settings


def test_production_settings_keep_djangos_default_hashers() -> None:
    config_settings = importlib.import_module("config.settings")
    assert getattr(config_settings, "PASSWORD_HASHERS", None) in (
        None,
        global_settings.PASSWORD_HASHERS,
    )
    assert global_settings.PASSWORD_HASHERS[0].endswith("PBKDF2PasswordHasher")
