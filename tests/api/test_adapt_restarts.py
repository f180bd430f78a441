"""Issue 53 item 3: a restart during an adaptation left its job `running`, so new jobs got 409 for 15 minutes, and
left its scratch folder behind. A job whose process is gone no longer blocks: it is failed at start-up, or by the
next job (the lock a running adaptation holds is given back when its process ends, kill -9 included)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy import insert

from fanshot.api.storage.database import adapt_jobs, writing
from fanshot.api.storage.store import now
from tests.api.test_models import app_client, confirm_photos, fake_adapter, finished

ROOT = Path(__file__).resolve().parents[2]


def left_running(client, data: Path) -> str:
    """A job as a process killed mid-way leaves it: its row `running`, its scratch folder on disk."""
    with writing(client.app.state.store.engine) as db:
        db.execute(insert(adapt_jobs).values(id="orphan", created_at=now(), updated_at=now(), state="running",
                                             progress=0.4, message="training"))
    (data / "models" / ".fanshot-adapt-orphan" / "data").mkdir(parents=True)
    return "orphan"


@pytest.mark.storage
def test_a_job_whose_process_is_gone_fails_at_start_up_and_a_new_one_starts_at_once(tmp_path, storage):
    before = app_client(tmp_path, fake_adapter(0.95), storage=storage)
    confirm_photos(before, 2)
    job = left_running(before, tmp_path)
    after = app_client(tmp_path, fake_adapter(0.95), storage=storage)  # the restart
    orphan = after.get(f"/v1/models/adapt/{job}").json()
    assert (orphan["state"], orphan["message"]) == ("failed", "interrupted: its server process ended")
    assert list((tmp_path / "models").glob(".fanshot-adapt-*")) == []
    started = after.post("/v1/models/adapt")
    assert started.status_code == 202, started.text
    assert finished(after, started.json())["state"] == "done"


@pytest.mark.storage
def test_a_job_left_by_a_gone_process_does_not_block_the_next_even_without_a_restart(tmp_path, storage):
    client = app_client(tmp_path, fake_adapter(0.95), storage=storage)
    confirm_photos(client, 2)
    job = left_running(client, tmp_path)  # another instance's, killed; this one never restarted
    started = client.post("/v1/models/adapt")
    assert started.status_code == 202, started.text
    assert client.get(f"/v1/models/adapt/{job}").json()["state"] == "failed"
    assert finished(client, started.json())["state"] == "done"


KILLED_MID_WAY = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from tests.api.test_models import app_client, confirm_photos, fake_adapter
    client = app_client(Path(sys.argv[1]), fake_adapter(0.95, gate=threading.Event()))  # never let through
    confirm_photos(client, 2)
    job = client.post("/v1/models/adapt").json()
    while client.get(f"/v1/models/adapt/{job['id']}").json()["message"] != "halfway":
        time.sleep(0.05)
    print(job["id"], flush=True)
    threading.Event().wait()
""")


@pytest.mark.server
def test_after_kill_9_mid_adaptation_a_new_one_starts_at_once(tmp_path):
    process = subprocess.Popen([sys.executable, "-c", KILLED_MID_WAY, str(tmp_path)], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        job = process.stdout.readline().strip()
        assert list((tmp_path / "models").glob(".fanshot-adapt-*"))  # its scratch folder, mid-way
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    client = app_client(tmp_path, fake_adapter(0.95))
    assert client.get(f"/v1/models/adapt/{job}").json()["state"] == "failed"
    assert list((tmp_path / "models").glob(".fanshot-adapt-*")) == []
    started = client.post("/v1/models/adapt")
    assert started.status_code == 202, started.text
