"""schemathesis generates requests from the app's OpenAPI schema: no request gets a 5xx."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error

from app.main import create_app

pytestmark = pytest.mark.one_backend


def test_no_request_from_the_schema_gets_a_server_error(settings) -> None:
    generous = settings.model_copy(update={"rate_limit_rooms": "100000/minute",
                                           "rate_limit_joins": "100000/minute",
                                           "rate_limit_misses": "100000/minute"})
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(generous))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 5
    calls: dict[str, int] = {}
    for operation in operations:

        @given(case=operation.as_strategy())
        @hypothesis_settings(max_examples=25, deadline=None, database=None,
                             suppress_health_check=list(HealthCheck))
        def run(case) -> None:
            case.call_and_validate(checks=[not_a_server_error])
            calls[case.operation.label] = calls.get(case.operation.label, 0) + 1

        run()
    # every operation was really called (none ended before its first request), and in all
    # at least half the examples asked for were sent
    assert set(calls) == {operation.label for operation in operations}
    assert sum(calls.values()) >= 25 * len(operations) // 2, calls
