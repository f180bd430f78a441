"""With --workers 2, killing the supervisor with SIGKILL must not leave its workers serving (and holding the
port, so that a restart fails with "address already in use")."""

import os
import signal
import time
from pathlib import Path

import pytest

from tests.api.conftest import free_port, serve

pytestmark = pytest.mark.server


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_stop_when_their_supervisor_is_killed(tmp_path):
    port = free_port()
    server = serve(tmp_path, port, "--workers", "2")
    workers = children(server.pid)
    try:
        assert len(workers) >= 2
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 20
        while any(alive(worker) for worker in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(worker) for worker in workers), "workers outlived their supervisor"
        restarted = serve(tmp_path, port)  # the port is free again
        restarted.kill()
        restarted.wait()
    finally:
        for worker in workers:
            if alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_a_server_process_keeps_its_app_out_of_the_collectors_passes(tmp_path, monkeypatch):
    # issue 36: gc.freeze() ran before the app was made, so each full pass under load walked the whole app again
    import gc

    from fanshot.api.cli import DATA_DIR_VARIABLE, app_from_environment

    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    try:
        app = app_from_environment()
        assert all(tracked is not app for tracked in gc.get_objects())  # frozen objects are in no generation
    finally:
        gc.unfreeze()
