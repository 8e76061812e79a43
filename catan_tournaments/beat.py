"""Celery beat's scheduler, with a heartbeat file for the container's health check.

Beat answers no remote control (`celery inspect ping` reaches workers only), and its schedule file is
written only every few minutes, so neither tells a hung beat from a live one. Each pass of beat's loop
touches `<schedule file>.heartbeat`; a pass comes at least every `beat_max_loop_interval` seconds (60 in
settings), so a heartbeat older than a few minutes means the start-time notices have stopped going out.
"""
from pathlib import Path

from celery.beat import PersistentScheduler


def heartbeat_path(schedule_filename: str) -> Path:
    return Path(f"{schedule_filename}.heartbeat")


class HeartbeatScheduler(PersistentScheduler):
    schedule_filename: str  # set by PersistentScheduler.__init__ (its stubs leave it out)

    def tick(self, *args, **kwargs):
        heartbeat_path(self.schedule_filename).touch()
        return super().tick(*args, **kwargs)
