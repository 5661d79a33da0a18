"""The organizer's pages on the host (issue 13): set-up, roster, draw, round dashboard, disputes,
standings, the projector and the downloads, under ``/veranstalter/`` behind the organizer's password.

Why plain HTML and not a Flet app mounted with ``flet_web.fastapi``:

- The standings, the draw and a round's tables must print as they are (the issue allows plain
  pages "where a page must print well"): the browser prints HTML with ``@media print``; a Flutter
  canvas prints as a screenshot of one screen.
- The projector and the dashboard refresh themselves (``<meta http-equiv="refresh">``), so any
  browser on any laptop behind the beamer shows them without a WebSocket session per tab, and a
  Wi-Fi hiccup costs one refresh, not a dead session.
- Every page is one request behind HTTP Basic, checked with the host's ``verify_password``; the
  Flet web client would need its own login and a WebSocket the password must also guard.
- The pages only show what ``sync/host/desk.py`` (``Desk``) and the pure functions of ``scoring/`` say:
  no ranking, no score, no state is computed here.

The phone app stays Flet; the organizer's laptop gets these pages.
"""
