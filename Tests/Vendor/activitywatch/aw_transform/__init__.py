from .filter_keyvals import filter_keyvals, filter_keyvals_regex
from .filter_period_intersect import filter_period_intersect, period_union, union
from .heartbeats import heartbeat_merge, heartbeat_reduce
from .merge_events_by_keys import merge_events_by_keys
from .chunk_events_by_key import chunk_events_by_key
from .sort_by import (
    sort_by_timestamp,
    sort_by_duration,
    sum_durations,
    concat,
    limit_events,
)
from .split_url_events import split_url_events
from .simplify import simplify_string
from .flood import flood
from .classify import categorize, tag, Rule
from .union_no_overlap import union_no_overlap

__all__ = [
    "flood",
    "concat",
    "categorize",
    "tag",
    "Rule",
    "period_union",
    "filter_period_intersect",
    "union",
    "union_no_overlap",
    "concat",
    "sum_durations",
    "sort_by_timestamp",
    "sort_by_duration",
    "heartbeat_reduce",
    "heartbeat_merge",
    "merge_events_by_keys",
    "chunk_events_by_key",
    "limit_events",
    "filter_keyvals",
    "filter_keyvals_regex",
    "split_url_events",
    "simplify_string",
]
