"""A test run stopped with SIGTERM (``kill PID``, a CI's cancel) leaves no process of its own behind: the
hosts, apps and phone processes its tests started end with it (``conftest.pytest_configure``).

The run here is a real ``pytest -n 0`` (one process, as a module is run alone; ``./dev test``'s xdist
workers are interrupted by execnet when the run's process goes, and ended theirs before) of a probe
module written for it, whose one test starts a host, the app and a phone process, says so, and waits.
Every process of that run carries a mark in its environment (children inherit it); after the SIGTERM,
the test waits until no process with that mark is left. Without the handler, the host, the app, the
phone process and multiprocessing's resource tracker were left running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT, checkout_env, wait_for

MARK = "TISCHBLOCK_STOPPED_RUN"

PROBE = """
import multiprocessing, os, time
from pathlib import Path

from tests.browser import running_app
from tests.hostproc import HostProcess


def _phone(ready: str) -> None:
    Path(ready).write_text(str(os.getpid()))
    time.sleep(600)


def test_started_then_stopped(tmp_path: Path) -> None:
    host = HostProcess(tmp_path / "host").start()
    try:
        with running_app(env={"TISCHBLOCK_DATA_DIR": str(tmp_path / "app")}):
            phone = multiprocessing.get_context("spawn").Process(target=_phone, args=(str(tmp_path / "phone"),), daemon=True)
            phone.start()
            while not (tmp_path / "phone").exists():
                time.sleep(0.05)
            Path(os.environ["TISCHBLOCK_STOPPED_RUN"]).write_text("ready")
            time.sleep(600)  # until the run is stopped
    finally:
        host.stop()
"""


def marked(mark: str) -> dict[int, str]:
    """The processes (pid: command line) whose environment holds ``MARK=mark``."""
    found = {}
    needle = f"{MARK}={mark}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if needle in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                found[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile, or not ours to read
            pass
    return found


def test_a_run_stopped_with_sigterm_leaves_no_host_app_or_phone_process_behind(tmp_path: Path) -> None:
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "test_probe.py").write_text(PROBE, encoding="utf-8")
    (probe / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    ready = tmp_path / "ready"
    env = {**checkout_env(), MARK: str(ready)}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-n", "0", "-q", "-p", "no:cacheprovider", str(probe)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own group: only the run's own process gets the SIGTERM, as with `kill PID`
    )
    try:
        wait_for("the probe's host, app and phone process started", lambda: ready.exists() or run.poll() is not None, 300)
        assert run.poll() is None, run.communicate()[0]
        started = marked(str(ready))
        kinds = " ".join(started.values())
        assert "cli.py" in kinds and "main.py" in kinds and "multiprocessing" in kinds, started
        run.send_signal(signal.SIGTERM)
        output = run.communicate(timeout=120)[0]
        try:
            wait_for("no process of the stopped run left", lambda: not marked(str(ready)))
        except AssertionError as error:
            raise AssertionError(f"left behind after the SIGTERM: {marked(str(ready))}\nThe run printed:\n{output}") from error
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(10)
        for pid in marked(str(ready)):
            os.kill(pid, signal.SIGKILL)
