"""Sync: sending the phones' sheets to the organizer's host, each revision exactly once.

- ``protocol.py``: the API v1 models and the join line, shared by host and phone;
- ``host.py``, ``hoststore.py``, ``hostrun.py``, ``tls.py``: the organizer's host (``tischblock host``);
- ``client.py``: the phone's ``HostClient`` (requests + urllib3 retries, certificate pinning), joining
  and the device's credentials;
- ``outbox.py``: the ``Outbox`` on the store's sync marks and the background ``SyncService`` for the app.

See ``docs/sync-client.md`` for the phone's side.
"""
