"""A test run stopped with SIGTERM (``kill PID``, a CI's cancel) leaves no process of its own behind: the
hosts, apps and phone processes its tests started end with it (``conftest.pytest_configure``).

The run here is a real ``pytest -n 0`` (one process, as a module is run alone; ``./dev test``'s xdist
workers are interrupted by execnet when the run's process goes, and ended theirs before) of a probe
module written for it, whose one test starts a host, the app and a phone process, says so, and waits.
Every process of that run carries a mark in its environment (children inherit it); after the SIGTERM,
the test waits until no process with that mark is left. Without the handler, the host, the app, the
phone process and multiprocessing's resource tracker were left running.

A test process that dies without its ``finally`` blocks (pytest-timeout's thread method ends a hung
test's process with ``os._exit(1)``; a SIGKILL) has what it started ended by its reaper
(``tests/reaper.py``): the same probe, ended those two ways, leaves nothing either. Without the reaper
the host, the app and the phone process ran on. The probe also forks a child without exec, as the
storage kill tests fork their writers: before the reaper heard of such children from the children
themselves (``reaper._forked``), the child kept the reaper's pipe open and ran on, holding the run's
output, so the run never ended for the test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from . import reaper
from .conftest import ROOT, checkout_env, wait_for

MARK = "TISCHBLOCK_STOPPED_RUN"

PROBE = """
import multiprocessing, os, threading, time
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
            writer = os.fork()  # as the storage kill tests fork their writers: no exec, so no mark
            if writer == 0:  # pragma: no cover - the child never returns
                try:
                    time.sleep(600)
                finally:
                    os._exit(0)
            try:
                ready = Path(os.environ["TISCHBLOCK_STOPPED_RUN"])
                ready.with_name("writer").write_text(str(writer))
                ready.write_text("ready")
                while not ready.with_name("exit").exists():  # until the run is stopped or killed
                    time.sleep(0.05)
                # as pytest-timeout's thread method ends a hung test's process: from a thread, no finally runs
                threading.Thread(target=os._exit, args=(1,)).start()
                time.sleep(600)
            finally:
                os.kill(writer, 9)
                os.waitpid(writer, 0)
    finally:
        host.stop()
"""


def marked(mark: str) -> dict[int, str]:
    """The processes (pid: command line) whose environment holds ``MARK=mark``."""
    return reaper.marked(mark, MARK)


@pytest.mark.parametrize("ending", ["sigterm", "os._exit", "sigkill"])
def test_a_run_stopped_or_killed_leaves_no_host_app_or_phone_process_behind(tmp_path: Path, ending: str) -> None:
    """``sigterm``: the run's own ``finally`` blocks stop them (its reaper has nothing to do);
    ``os._exit`` (as pytest-timeout ends a hung test) and ``sigkill``: its reaper ends them."""
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
        start_new_session=True,  # its own group: only the run's own process gets the signal, as with `kill PID`
    )
    try:
        wait_for("the probe's host, app and phone process started", lambda: ready.exists() or run.poll() is not None, 300)
        assert run.poll() is None, run.communicate()[0]
        started = marked(str(ready))
        kinds = " ".join(started.values())
        assert "cli.py" in kinds and "main.py" in kinds and "multiprocessing" in kinds, started
        assert int((tmp_path / "writer").read_text()) in started, started
        if ending == "sigterm":
            run.send_signal(signal.SIGTERM)
        elif ending == "os._exit":
            (tmp_path / "exit").write_text("now")
        else:
            run.kill()
        # until every process holding the run's output has ended: the run, what it started, its reaper
        output = run.communicate(timeout=120)[0]
        wait_for(
            f"no process of the run ended by {ending} left",
            lambda: not marked(str(ready)),
            shows=lambda: f"left behind: {marked(str(ready))}\nThe run printed:\n{output}",
        )
        reaped = "tests/reaper.py: the test process" in output
        assert reaped == (ending != "sigterm"), output
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait(10)
        for pid in marked(str(ready)):
            os.kill(pid, signal.SIGKILL)


def _reaper_told(said: bytes) -> subprocess.CompletedProcess[bytes]:
    """A real reaper (of a mark nothing carries) that reads ``said`` from its pipe and then finds it closed."""
    return subprocess.run(
        [sys.executable, str(Path(reaper.__file__)), f"no-such-mark-{os.getpid()}"],
        input=said,
        capture_output=True,
        timeout=120,
        check=True,
    )


def test_a_forked_child_the_pipe_named_is_ended_only_if_it_is_that_child_and_the_end_was_not_normal() -> None:
    """The reaper ends a child forked without exec that the pipe named, by pid and start time; not a
    process that has the pid but started at another time (the pid used again), and nothing after a
    normal end, even with a child's line written after it (a child forked while the run ended)."""
    child = subprocess.Popen(["sleep", "300"])
    try:
        line = b"%s %d %d\n" % (reaper.FORKED, child.pid, reaper.start_time(child.pid))
        other = b"%s %d %d\n" % (reaper.FORKED, child.pid, reaper.start_time(child.pid) + 1)
        _reaper_told(line + b"\n" + reaper.NORMAL_END + b"\n" + line)
        _reaper_told(other)
        assert child.poll() is None, "the reaper ended a process that was not the one the pipe named"
        told = _reaper_told(line)
        assert child.wait(timeout=60) == -signal.SIGTERM
        assert b"ended 1 of its processes" in told.stderr
    finally:
        child.kill()
        child.wait()
