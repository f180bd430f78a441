"""Storage faults an operator must fix (issue 36): a full or read-only disk, a database that cannot answer. The
request was fine, so the answer is 503 with a code and Retry-After, never a 500; routes that need no storage keep
answering."""

from __future__ import annotations

import errno

import pytest
from sqlalchemy.exc import OperationalError

from fanshot.api.app import create_app
from tests.api.conftest import fake_load_models, fake_name_tile, fake_recognize, jpeg, local_client
from tests.api.test_score import REQUEST


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path, recognize=fake_recognize, name_tile=fake_name_tile, load_models=fake_load_models)


@pytest.mark.parametrize(("fault", "code"), [
    (OSError(errno.ENOSPC, "No space left on device"), "storage_unavailable"),
    (OSError(errno.EROFS, "Read-only file system"), "storage_unavailable"),
    (OperationalError("INSERT ...", {}, Exception("attempt to write a readonly database")), "database_unavailable"),
])
def test_a_storage_fault_answers_503_with_retry_after_and_scoring_goes_on(app, fault, code):
    def failing_put(name: str, data: bytes) -> None:
        raise fault

    app.state.store.images.put = failing_put
    client = local_client(app, raise_server_exceptions=False)
    response = client.post("/v1/recognitions", files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 503, response.text
    assert [e["code"] for e in response.json()["errors"]] == [code] and response.headers["Retry-After"] == "30"
    assert "readonly" not in response.text and "No space" not in response.text  # details stay in the log
    assert client.post("/v1/score", json=REQUEST).status_code == 200


def test_any_other_os_error_is_still_a_500(app):
    def failing_put(name: str, data: bytes) -> None:
        raise FileNotFoundError(errno.ENOENT, "a bug of ours")

    app.state.store.images.put = failing_put
    response = local_client(app, raise_server_exceptions=False).post("/v1/recognitions",
                                                                      files={"photo": ("x.jpg", jpeg())})
    assert response.status_code == 500 and response.json()["errors"][0]["code"] == "internal"
