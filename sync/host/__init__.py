"""The organizer's host (``tischblock host``): runs on the organizer's laptop, never on a phone.

The phone app's side of sync is the rest of ``sync/`` (``client.py``, ``outbox.py``, ``protocol.py``);
this package is left out of the packaged app (``[tool.flet.app] exclude``), and import-linter checks
that nothing on the phone's side imports it. From the bottom up:

- ``schema.py`` (tables, named migrations), ``records.py`` (the values a row is read into),
  ``store.py`` (``HostStore``: SQLAlchemy Core over SQLite or PostgreSQL, with group commit);
- ``scored.py`` (stored revisions parsed and scored once), ``desk.py`` (``Desk``: every action of
  the Turnierleitung, and starting a tournament);
- ``credentials.py`` (password hashes, device tokens, join codes), ``state.py`` (``HostState``: what
  one running host shares between its requests), ``log.py``, ``http.py`` (errors, the body limit);
- ``bodies.py`` (a body parsed as a model) and ``check_work.py`` (what a check process runs: a sheet
  parsed and checked, without the web framework), ``checking.py`` (``SheetChecker``: the check
  processes, or the host's own thread);
- ``auth.py`` (who is asking: a device by its token, the organizer by the password);
- ``phone_api.py`` (the phones' endpoints), ``organizer_api.py`` (the organizer's JSON endpoints),
  ``pages/`` (the organizer's HTML pages);
- ``app.py`` (``create_app``: the one module that knows every part), ``tls.py`` (the certificate),
  ``run.py`` (starting it: ``prepare``, ``banner``, ``serve``).
"""
