"""The views a build makes, by name, with what each shows: the one list that help text and docs read.

Light on purpose (no SQLAlchemy): ``registry db build --help`` names the views from here, and
``registry.db.views`` gives each its SELECT under the same name, in this order (a test checks both hold the
same names).
"""

from __future__ import annotations

#: View name -> what it shows. Created in this order.
VIEWS: dict[str, str] = {
    "record_status": (
        "Where every record stands in its chain of versions: 'current', 'superseded' (a correction replaced "
        "it: superseded_by names the replacement, correction_id the correction) or 'retracted' (retraction_id "
        "withdrew it)."
    ),
    "record_review_status": (
        "Every record's review status: that of its current reviews (those no later review of it supersedes), a "
        "failure first, then 'could-not-be-checked', then 'source-checked', or 'not-reviewed'; artifact_pinned is 1 "
        "where a review granting 'source-checked' names the SHA-256 of the file it checked; review_label words the "
        "status as the pages do ('source checked (no artifact hash)', 'review failed'); review_found says what a "
        "failed or not checkable review found, claim by claim; standing lists every fact the registry states about "
        "the value (as registry.status.standing does); confirmed_by and disputed_by name the people who said so."
    ),
    "failed_claims": (
        "Every claim that a record's deciding review did not pass (the record's status is 'review-failed' or "
        "'could-not-be-checked'): what was asserted, the verdict ('fail' or 'cannot-check'), the page, what the "
        "page printed there and why, with the review's reviewer, date and the SHA-256 of the file it checked."
    ),
    "results_flat": (
        "One row per current result (neither superseded nor retracted), with its evaluation, configuration, "
        "model family, protocol, dataset, source and review status; value_role tells a headline value from a "
        "mean over folds ('aggregate'), one fold of it ('member') and a difference or ratio ('derived'); "
        "latest_reviewer and latest_reviewed_at say who checked it last and when; missing_metadata lists "
        "what the source leaves unstated."
    ),
    "results_all": (
        "Every result, current or not, as results_flat shows it, with its status ('current', 'superseded', "
        "'retracted') and, for a superseded one, the result that replaced it."
    ),
    "comparability": (
        "One row per current result: its comparability key (benchmark, split, metric, canonical unit, setting, "
        "aggregate, input length and, for speed and memory, hardware: registry.comparability), each facet in a "
        "column of its own, its value in the metric's canonical unit (canonical_value, a double for ranking), "
        "and not_ranked_because: why it is on no leaderboard (a bound, a range, one fold of a mean, a difference), "
        "empty where it is ranked."
    ),
    "leaderboard": (
        "One row per value that may be ranked: its comparability key, its rank within that key (1 is best by the "
        "metric's direction; ties share a rank), its value in the canonical unit and as printed, its review "
        "status, who disputes it (disputed_by: a dispute is marked, never ranked in its place), model and "
        "source. Values of different keys are never ranked together: filter on "
        "comparability_key (or benchmark and metric) and read rank."
    ),
    "missing_metadata_all": (
        "Every field any record leaves empty on purpose, with the record's kind and file, the reason and the "
        "note."
    ),
    "reproductions_side_by_side": (
        "Every run of ours beside the result it reproduces: the transcribed value and our value, their "
        "difference and ratio (ours / transcribed), in the result's unit. method says whether our value was "
        "measured on hardware or estimated (the column is neutral: an estimate is no measurement). Values, "
        "difference and ratio are exact as filed; the *_float columns are for arithmetic and sorting."
    ),
}

#: Columns of the views that hold no model field of their own (computed, or named apart from the field they
#: show), with what each holds: the metadata, the CSV export's descriptor and the docs read them from here. A
#: test fails on any view column that neither a model field nor this list describes.
VIEW_COLUMNS: dict[str, str] = {
    "record_id": "The record's id.",
    "result_id": "The result's id.",
    "result_rowid": "The result's rowid in the result table (SQLite only): the full-text search table's key, so "
                    "that ?_search= finds results here.",
    "reproduction_id": "The reproduction's (our run's) id.",
    "recipe_id": "The recipe our run followed.",
    "kind": "The record's kind (result, config, review, ...).",
    "path": "The record's file, relative to the records folder.",
    "field": "The field left empty on purpose.",
    "reason": "Why it is empty (unreported, not-applicable, not-separately-documented, ...).",
    "note": "What exactly is missing and what is known instead.",
    "status": "Where the record stands in its chain of versions: 'current', 'superseded' or 'retracted'.",
    "superseded_by": "For a superseded record, the record that replaced it (empty otherwise).",
    "correction_id": "The correction that superseded the record (empty otherwise).",
    "retraction_id": "The retraction that withdrew the record (empty otherwise).",
    "review_status": "The status of the record's current reviews: 'review-failed', 'could-not-be-checked' or "
                     "'source-checked' (in that order where they differ), or 'not-reviewed'.",
    "review_found": "What the review that failed (or could not check) found, claim by claim: what was asserted, on "
                    "which page, and what the page printed; empty for a record that passed or has no review.",
    "standing": "Every fact the registry states about the value, in words of registry.status.standing.Fact "
                "('checked-against-pdf, confirmed-by-author, disputed'): never merged into one.",
    "confirmed_by": "The people who confirmed the value, each with how they relate to its source.",
    "disputed_by": "The people who dispute the value, each with the value they believe (never the result's value).",
    "artifact_pinned": "1 where a review granting the status names the SHA-256 of the file it checked, else 0.",
    "review_artifact_pinned": "1 where a review granting the status names the SHA-256 of the file it checked, "
                              "else 0.",
    "review_label": "The review status as the pages word it ('source checked (no artifact hash)').",
    "review_count": "How many reviews check the record.",
    "review_id": "The review that checked the claim.",
    "claim_position": "The claim's place in the review's list of claims (from 0).",
    "record_printed_value": "The result's value as transcribed (what the review asserted), for a result.",
    "record_unit": "The result's unit, for a result.",
    "source_id": "The source the result cites.",
    "value_role": "What the value is in its table: 'headline' (as printed), 'aggregate' (a mean over values the "
                  "source prints too, such as folds), 'member' (one fold or seed of such a mean) or 'derived' (a "
                  "difference, ratio, relative change, reduction or speed-up of two printed values).",
    "unit_dimension": "What the unit measures (memory, time, percentage, dimensionless, ...); never average "
                      "across two.",
    "unit_symbol": "How the pages write the unit after a value ('GB', '%', '' for none).",
    "hardware_accelerator": "The first accelerator the source names for the value (hardware_entries says how "
                            "many statements there are).",
    "hardware_entries": "How many statements of the source about the hardware the value was measured on.",
    "latest_review_id": "The latest review that lists the result among its subjects (undated reviews last).",
    "latest_reviewer": "Who did that review: a person, an agent or a script with its version.",
    "latest_reviewed_at": "When that review was done (UTC).",
    "missing_metadata_count": "How many fields the result leaves empty on purpose.",
    "missing_metadata": "The result's empty fields with their reasons, 'field: reason; ...'.",
    "independence": "Whether the evaluators developed the model ('developer') or not ('independent-external').",
    "split": "The data split evaluated.",
    "adaptation": "What the model did during the evaluation (for example 'Training step').",
    "update_mode": "Whether a training step updates all weights ('full') or a LoRA adapter ('lora').",
    "aggregated_over_kind": "What each result of the evaluation aggregates over (folds, seeds, runs, samples).",
    "aggregated_over_count": "How many folds, seeds, runs or samples each result of the evaluation aggregates.",
    "reported_name": "The model's name as the source prints it.",
    "checkpoint": "The checkpoint the configuration used, where the source names it.",
    "transcribed_value": "The result's exact value as transcribed from the source.",
    "our_value": "Our run's exact value, in the result's unit.",
    "our_value_gib": "Our run's value in GiB, for a memory value.",
    "difference": "Our value minus the transcribed value, exact.",
    "ratio": "Our value divided by the transcribed value, exact.",
    "our_value_float": "Our value as a double, for arithmetic and sorting.",
    "difference_float": "The difference as a double, for arithmetic and sorting.",
    "ratio_float": "The ratio as a double, for arithmetic and sorting.",
    "benchmark": "The benchmark the value is on: the benchmark record its dataset points to, shared across "
                 "papers, else the dataset record's id.",
    "canonical_unit": "The unit values of the metric are compared in (registry.metrics): the metric's declared "
                      "unit, else its dimension's base unit; a value no scale converts keeps its own.",
    "canonical_value": "The value in the canonical unit, as a double (for ranking and sorting; the printed "
                       "value is printed_value).",
    "aggregate": "What the value is computed over: 'single value', 'mean over 10 folds', 'aggregate over 5 "
                 "seeds', 'single fold of 10' (one fold of a printed mean).",
    "setting": "How the model met the task ('zero-shot', 'few-shot (5 shots)', 'fine-tuned', ...; 'unstated' "
               "where the evaluation does not say).",
    "input_length": "The input length the evaluation states ('400 bp'), or 'unstated'.",
    "hardware": "For speed and memory, the hardware the value was measured on ('8 × NVIDIA H100', 'unstated'); "
                "'any' for metrics that do not depend on it.",
    "comparability_key": "Every facet of the comparability key, 'benchmark=...; split=...; metric=...; unit=...; "
                         "setting=...; aggregate=...; input_length=...; hardware=...': values with equal keys "
                         "may be ranked together, others never.",
    "direction": "Which way is better for the metric ('higher' or 'lower'): the declared metric's, else the "
                 "result's metric_direction.",
    "not_ranked_because": "Why the value is on no leaderboard (a bound, a range, one fold of a printed mean, a "
                          "difference, no direction); empty where it is ranked.",
    "rank": "The value's rank within its comparability key: 1 is best by the metric's direction; ties share one.",
    "result_page": "The result's page on the published site (a link), where the database was built with "
                   "--base-url; empty otherwise.",
    "record_page": "The record's page on the published site (a link), where the database was built with "
                   "--base-url; empty otherwise.",
    "reproduction_page": "Our run's page on the published site (a link), where the database was built with "
                         "--base-url; empty otherwise.",
}
