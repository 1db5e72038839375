"""The comparability key and the leaderboard in SQL: the views ``comparability`` and ``leaderboard``.

The rule is ``registry.comparability``'s (its facets, in ``FACETS``' order) over ``registry.metrics``' declared
metrics, written here as SQL that SQLite and PostgreSQL both run; a test keeps the key, the canonical unit and the
reason a value is not ranked equal to Python's for every result of the test registries. The declared metrics
are a ``VALUES`` list made from ``METRICS`` (no table to keep in step), and units' scales come from the ``unit``
table. SQL's ``canonical_value`` is a double, for ranking and sorting; the exact decimal is Python's
(``registry leaderboard``, the exports).
"""

from __future__ import annotations

from registry.comparability import ANY_HARDWARE, FACETS, HARDWARE_DIMENSIONS, REPEATED_RUNS, UNSTATED
from registry.metrics import METRICS
from registry.models.values import Repeats
from registry.status.value_roles import Role


def _quoted(text: str | None) -> str:
    return "NULL" if text is None else "'" + text.replace("'", "''") + "'"


def _metric_values() -> str:
    """(slug, metric, canonical unit, proportion, direction): one row per name a declared metric goes by."""
    rows = [f"({_quoted(name)}, {_quoted(spec.token)}, {_quoted(spec.canonical_unit)}, {int(spec.proportion)}, "
            f"{_quoted(spec.direction.value if spec.direction else None)})"
            for spec in METRICS.values() for name in (spec.token, *spec.aliases)]
    return "VALUES " + ",\n               ".join(rows)


def _factor() -> str:
    """How many canonical units one of the value's unit holds (NULL: it does not convert)."""
    return """CASE WHEN q.canonical_token = q.unit THEN 1.0
            WHEN u.scale_float IS NULL OR cu.scale_float IS NULL THEN NULL
            WHEN u.dimension = cu.dimension THEN u.scale_float / cu.scale_float
            WHEN q.proportion = 1 AND u.dimension = 'percentage' AND cu.dimension = 'dimensionless'
                 THEN u.scale_float / cu.scale_float / 100
            WHEN q.proportion = 1 AND u.dimension = 'dimensionless' AND cu.dimension = 'percentage'
                 THEN u.scale_float / cu.scale_float * 100
            ELSE NULL END"""


def _aggregate(role: str) -> str:
    """``registry.comparability.aggregate_of`` over the columns of the inner query."""
    singular = "substr(q.over_kind, 1, length(q.over_kind) - 1)"
    assert all(kind.value.endswith("s") for kind in Repeats)  # what 'single fold' drops
    count = "CASE WHEN q.over_count IS NOT NULL THEN ' of ' || CAST(q.over_count AS TEXT) ELSE '' END"
    counted = "CASE WHEN q.over_count IS NOT NULL THEN CAST(q.over_count AS TEXT) || ' ' ELSE '' END"
    return f"""CASE WHEN {role} = '{Role.MEMBER.value}' AND q.over_kind IS NULL THEN 'single run'
            WHEN {role} = '{Role.MEMBER.value}' THEN 'single ' || {singular} || {count}
            WHEN q.over_kind IS NULL THEN 'single value'
            WHEN {role} = '{Role.AGGREGATE.value}' OR lower(ltrim(q.aggregation)) LIKE 'mean%'
                 OR lower(ltrim(q.aggregation)) LIKE 'average%' THEN 'mean over ' || {counted} || q.over_kind
            ELSE 'aggregate over ' || {counted} || q.over_kind END"""


def _hardware() -> str:
    dimensions = ", ".join(_quoted(d.value) for d in sorted(HARDWARE_DIMENSIONS))
    first = ("(SELECT CASE WHEN h.count IS NOT NULL THEN CAST(h.count AS TEXT) || ' × ' || h.accelerator "
             "ELSE h.accelerator END FROM {table} h WHERE h.{owner} = {id} ORDER BY h.position LIMIT 1)")
    return (f"CASE WHEN u.dimension IS NULL OR u.dimension NOT IN ({dimensions}) THEN '{ANY_HARDWARE}'\n"
            f"            ELSE COALESCE({first.format(table='result_hardware', owner='result_id', id='q.result_id')},\n"
            f"                          {first.format(table='config_hardware', owner='config_id', id='q.config_id')},"
            f"\n                          '{UNSTATED}') END")


def _why_not(role: str) -> str:
    """``registry.comparability._why_not``: why a value is not ranked, NULL where it is."""
    return f"""CASE WHEN q.bound IS NOT NULL
                 THEN 'it is a bound (''' || q.bound || ' ' || q.printed_value || '''), not one value'
            WHEN q.range_upper IS NOT NULL
                 THEN 'it is a range (''' || q.printed_value || '\u2013' || q.range_upper || '''), not one value'
            WHEN {role} = '{Role.MEMBER.value}'
                 THEN 'it is one of the values a printed mean is taken over (one fold or seed); the mean is ranked'
            WHEN {role} = '{Role.DERIVED.value}'
                 THEN 'it is derived from other values (a difference, ratio or speed-up), not a score'
            WHEN q.direction IS NULL THEN 'no direction is better for ' || q.metric_slug
            ELSE NULL END"""


#: The facets' columns, as ``registry.comparability.FACETS`` names them (the SQL below writes each out).
FACET_COLUMNS = tuple("canonical_unit" if name == "unit" else name for name in FACETS)
#: The columns of the view ``comparability`` before its key, in order.
COMPARABILITY_COLUMNS = ("result_id", *FACET_COLUMNS, "canonical_value", "direction", "printed_value", "unit",
                         "value_role", "review_status", "review_label", "not_ranked_because")


def _facets_read() -> str:
    """Each current result's values and what its facets are made from, as ``results_flat`` and the records it names
    give them (the inner query of ``comparability_select``)."""
    repeated = ", ".join(_quoted(kind.value) for kind in sorted(REPEATED_RUNS))
    return f"""
SELECT f.result_id,
       f.printed_value,
       f.numeric_value_float,
       f.unit,
       f.bound,
       f.range_upper_printed_value AS range_upper,
       f.metric AS metric_slug,
       f.value_role,
       f.review_status,
       f.review_label,
       f.configuration_id AS config_id,
       COALESCE(d.benchmark, f.dataset_id) AS benchmark,
       e.split AS split_raw,
       e.setting AS setting_raw,
       e.shots,
       e.input_length AS input_length_raw,
       e.aggregation,
       CASE WHEN e.aggregated_over_kind IS NOT NULL THEN e.aggregated_over_kind
            WHEN f.uncertainty_over_kind IN ({repeated}) THEN f.uncertainty_over_kind END AS over_kind,
       CASE WHEN e.aggregated_over_kind IS NOT NULL THEN e.aggregated_over_count
            WHEN f.uncertainty_over_kind IN ({repeated}) THEN f.uncertainty_over_count END AS over_count,
       COALESCE(m.column2, f.metric) AS metric,
       m.column4 AS proportion,
       CASE WHEN m.column1 IS NOT NULL THEN m.column5 ELSE f.metric_direction END AS direction,
       COALESCE(m.column3,
                CASE WHEN fu.scale IS NULL THEN f.unit
                     ELSE COALESCE((SELECT MIN(b.token) FROM unit b WHERE b.dimension = fu.dimension
                                    AND b.scale_float = 1), f.unit) END) AS canonical_token
FROM results_flat f
JOIN evaluation e ON e.id = f.evaluation_id
JOIN dataset d ON d.id = f.dataset_id
LEFT JOIN unit fu ON fu.token = f.unit
LEFT JOIN ({_metric_values()}) m ON m.column1 = f.metric"""


def comparability_select() -> str:
    """One row per current result: its facets, comparability key, canonical value and unit, and why it is not
    ranked (the value role is ``results_flat``'s)."""
    role = "q.value_role"
    listed = ",\n       ".join(f"z.{column}" for column in COMPARABILITY_COLUMNS)
    return f"""
SELECT {listed},
       'benchmark=' || z.benchmark || '; split=' || z.split || '; metric=' || z.metric
       || '; unit=' || z.canonical_unit || '; setting=' || z.setting || '; aggregate=' || z.aggregate
       || '; input_length=' || z.input_length || '; hardware=' || z.hardware AS comparability_key
FROM (SELECT q.result_id,
       q.benchmark,
       COALESCE(lower(trim(q.split_raw)), '{UNSTATED}') AS split,
       q.metric,
       CASE WHEN {_factor()} IS NULL THEN q.unit ELSE q.canonical_token END AS canonical_unit,
       CASE WHEN q.setting_raw IS NULL THEN '{UNSTATED}'
            WHEN q.shots IS NOT NULL THEN q.setting_raw || ' (' || CAST(q.shots AS TEXT) || ' shots)'
            ELSE q.setting_raw END AS setting,
       {_aggregate(role)} AS aggregate,
       COALESCE(trim(q.input_length_raw), '{UNSTATED}') AS input_length,
       {_hardware()} AS hardware,
       q.numeric_value_float * ({_factor()}) AS canonical_value,
       q.direction,
       q.printed_value,
       q.unit,
       q.value_role,
       q.review_status,
       q.review_label,
       {_why_not(role)} AS not_ranked_because
FROM ({_facets_read()}) q
LEFT JOIN unit u ON u.token = q.unit
LEFT JOIN unit cu ON cu.token = q.canonical_token) z"""


def leaderboard_select() -> str:
    """The ranked values: one row per value that may be ranked, its rank within its comparability key (ties
    share one; the better by the metric's direction first)."""
    order = "CASE WHEN k.direction = 'higher' THEN -k.canonical_value ELSE k.canonical_value END"
    return f"""
SELECT k.comparability_key,
       k.benchmark,
       k.metric,
       RANK() OVER (PARTITION BY k.comparability_key ORDER BY {order}) AS rank,
       k.canonical_value,
       k.canonical_unit,
       k.direction,
       k.printed_value,
       k.unit,
       k.review_status,
       k.review_label,
       f.disputed_by,
       f.reported_name,
       f.configuration_name,
       f.model_family_name,
       f.source_id,
       f.source_locator_page,
       k.split,
       k.setting,
       k.aggregate,
       k.input_length,
       k.hardware,
       k.result_id,
       f.result_page
FROM comparability k
JOIN results_flat f ON f.result_id = k.result_id
WHERE k.not_ranked_because IS NULL"""


