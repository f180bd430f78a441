"""Property-based run of every documented operation with schemathesis, from the app's own /openapi.json:
no 5xx, and every answer conforms to the published schema (status codes, content types, bodies).

Schema-valid input may still be refused (422): bytes that are no photo, strings that are no tile notation or
hands that are not winning. So the positive_data_acceptance check is the one left out."""

import os

import pytest
from hypothesis import HealthCheck, given, settings

from fanshot.api.app import create_app
from fanshot.api.security import Security
from tests.api.conftest import fake_recognise

schemathesis = pytest.importorskip("schemathesis", reason="pip install schemathesis")
positive_data_acceptance = pytest.importorskip("schemathesis.specs.openapi.checks").positive_data_acceptance
# Per operation; 30 keeps the default run near 10 s. A long hunt: FANSHOT_SCHEMATHESIS_EXAMPLES=1000 pytest ...
EXAMPLES = int(os.environ.get("FANSHOT_SCHEMATHESIS_EXAMPLES", "30"))


@pytest.mark.slow
def test_every_operation_conforms_and_never_fails(tmp_path):
    # schemathesis calls the app by the name `testserver`: allowed here like a configured --allowed-host.
    app = create_app(tmp_path, recognise=fake_recognise, security=Security(frozenset({"testserver"})))
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        def conforms(case):
            case.call_and_validate(excluded_checks=[positive_data_acceptance])

        conforms()
