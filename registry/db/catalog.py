"""The views a build makes, by name, with what each shows: the one list that help text and docs read.

Light on purpose (no SQLAlchemy): ``registry db build --help`` names the views from here, and
``registry.db.views`` gives each its SELECT under the same name, in this order (a test checks both hold the
same names).
"""

from __future__ import annotations

#: View name -> what it shows. Created in this order.
VIEWS: dict[str, str] = {
    "record_review_status": (
        "Every record's review status: the strongest status any review grants it, or 'not-reviewed'; "
        "artifact_pinned is 1 where a review granting it names the SHA-256 of the file it checked; "
        "review_label words both as the pages do ('source checked (no artifact hash)')."
    ),
    "record_status": (
        "Where every record stands in its chain of versions: 'current', 'superseded' (a correction replaced "
        "it: superseded_by names the replacement, correction_id the correction) or 'retracted' (retraction_id "
        "withdrew it)."
    ),
    "results_flat": (
        "One row per current result (neither superseded nor retracted), with its evaluation, configuration, "
        "model family, protocol, dataset, source and review status."
    ),
    "results_all": (
        "Every result, current or not, as results_flat shows it, with its status ('current', 'superseded', "
        "'retracted') and, for a superseded one, the result that replaced it."
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
