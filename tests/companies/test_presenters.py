"""Placing the company's own value in the service's buckets (the marked bar on the chart)."""

from companies.presenters import bucket_of
from portal.service.companies import Bucket

BUCKETS = [Bucket.from_json(bucket) for bucket in [
    {"bucket_id": -1, "bucket_name": "null", "bucket_lower_bound": None, "bucket_upper_bound": None},
    {"bucket_id": 0, "bucket_name": "underflow", "bucket_lower_bound": None, "bucket_upper_bound": 0.0},
    {"bucket_id": 1, "bucket_name": "1", "bucket_lower_bound": 0.0, "bucket_upper_bound": 0.5},
    {"bucket_id": 2, "bucket_name": "2", "bucket_lower_bound": 0.5, "bucket_upper_bound": 1.0},
    {"bucket_id": 3, "bucket_name": "overflow", "bucket_lower_bound": 1.0, "bucket_upper_bound": None},
]]


def test_it_puts_edge_values_in_the_bucket_above_except_the_last_edge():
    assert bucket_of(-0.1, BUCKETS) == 0
    assert bucket_of(0.0, BUCKETS) == 1
    assert bucket_of(0.5, BUCKETS) == 2
    assert bucket_of(1.0, BUCKETS) == 2  # the last edge closes the last numbered bucket
    assert bucket_of(1.01, BUCKETS) == 3
    assert bucket_of(None, BUCKETS) == -1
