"""Sync: sending the phones' sheets to the organizer's host, each revision exactly once.

What runs on a phone is this folder without ``host/``:

- ``protocol.py``: the API v1 models and the join line, shared by host and phone;
- ``client.py``: the phone's ``HostClient`` (requests + urllib3 retries, certificate pinning), joining
  and the device's credentials;
- ``outbox.py``: the ``Outbox`` on the store's sync marks and the background ``SyncService`` for the app.

``host/`` is the organizer's host (``tischblock host``, on the organizer's laptop): never packaged
into the app, and nothing of the phone's side imports it (import-linter, ``pyproject.toml``).
See ``docs/sync-client.md`` for the phone's side.
"""
