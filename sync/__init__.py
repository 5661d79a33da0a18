"""Sync: sending completed, signed sheets to the organizer's host, exactly once.

Not built yet. Storage already keeps each sheet's sync marks (queued, delivered, acknowledged per
revision, see ``storage.repository.SheetStore.mark_queued`` and friends); the transport and the
host come with their own issue.
"""
