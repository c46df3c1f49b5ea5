"""The seasons a group's page offers: all time, then each month since the group was made
(docs/rules.md, "Groups"), newest first, at most twelve."""

from __future__ import annotations

from datetime import UTC, datetime

from app.groups.page import seasons_offered


def test_a_group_made_this_month_offers_all_time_and_this_month() -> None:
    now = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    assert seasons_offered(now, datetime(2026, 12, 1, 22, 0)) == ["all", "2026-12"]


def test_the_months_since_the_group_was_made_across_a_new_year() -> None:
    now = datetime(2027, 2, 3, tzinfo=UTC)
    assert seasons_offered(now, datetime(2026, 11, 30, tzinfo=UTC)) == [
        "all", "2027-02", "2027-01", "2026-12", "2026-11"]


def test_at_most_twelve_months_are_offered() -> None:
    now = datetime(2027, 6, 15, tzinfo=UTC)
    offered = seasons_offered(now, datetime(2020, 1, 1, tzinfo=UTC))
    assert offered[:2] == ["all", "2027-06"] and offered[-1] == "2026-07"
    assert len(offered) == 13
