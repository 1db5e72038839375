"""What the registry says about a value, derived once (``registry.status.standing``), tested against every
combination: the review (none, checked against the PDF, against the source document only, failed, could not check)
x what people said (every subset of an author's confirmation, a reader's confirmation, a dispute, an author's
correction) x the value's version (current, superseded, retracted) x our runs (none, measured, estimated).

One registry holds a result per combination (copies of a bundled result), so the SQL view is checked against the
Python derivation for all of them with one database build.
"""

from __future__ import annotations

import datetime as dt
import itertools
import sqlite3
from pathlib import Path

import pytest

from measure.outcome import Method
from registry.models import Attestation, Correction, Reproduction, Result, Retraction, Review
from registry.models.attestation import Channel, ChannelKind, Relation, Stance
from registry.models.checks import CheckedClaim, ClaimVerdict, Witness, WitnessKind
from registry.models.records import ReviewStatus
from registry.status.standing import Fact, standing_of
from registry.store.loader import Registry
from registry.validate.runner import validate
from tests.conftest import RESULT_11, ROOT

WHEN = dt.datetime(2026, 12, 5, 10, tzinfo=dt.UTC)
REVIEWS = ("none", "pdf", "source-only", "failed", "unchecked")
SAID = ("author-confirms", "reader-confirms", "disputes", "corrects")
VERSIONS = ("current", "superseded", "retracted")
RUNS = ("none", "measured", "estimated")
COMBINATIONS = [(review, said, version, run) for review in REVIEWS
                for said in itertools.chain.from_iterable(itertools.combinations(SAID, n) for n in range(5))
                for version in VERSIONS for run in RUNS]


def expected(review: str, said: tuple[str, ...], version: str, run: str) -> list[Fact]:
    """The facts, written out from the rule's words: one per thing that holds, in ``Fact``'s order."""
    facts = {"none": Fact.TRANSCRIBED, "pdf": Fact.CHECKED_AGAINST_PDF, "source-only": Fact.CHECKED_AGAINST_SOURCE_ONLY,
             "failed": Fact.REVIEW_FAILED, "unchecked": Fact.COULD_NOT_BE_CHECKED}[review]
    found = {facts}
    found |= {Fact.CONFIRMED_BY_AUTHOR} if "author-confirms" in said else set()
    found |= {Fact.CONFIRMED} if "reader-confirms" in said else set()
    found |= {Fact.DISPUTED} if "disputes" in said else set()
    found |= {Fact.CORRECTED} if "corrects" in said or version == "superseded" else set()
    found |= {Fact.RETRACTED} if version == "retracted" else set()
    found |= {Fact.REPRODUCED} if run == "measured" else {Fact.ESTIMATED} if run == "estimated" else set()
    return [fact for fact in Fact if fact in found]


def _claim(verdict: ClaimVerdict, pdf: ClaimVerdict, source: ClaimVerdict | None = None) -> CheckedClaim:
    witnesses = [Witness(witness="pypdf 5", kind=WitnessKind.PDF_TEXT, verdict=pdf)]
    if source is not None:
        witnesses.append(Witness(witness="latex source", kind=WitnessKind.SOURCE_DOCUMENT, verdict=source))
    return CheckedClaim(claim="printed value", asserted="'11.49'", verdict=verdict, page=6,
                        printed="11.94" if verdict is ClaimVerdict.FAIL else "11.49",
                        detail="the page prints 11.94" if verdict is ClaimVerdict.FAIL else None, witnesses=witnesses)


#: Each review kind's status and claim.
REVIEW_OF = {
    "pdf": (ReviewStatus.SOURCE_CHECKED, _claim(ClaimVerdict.PASS, ClaimVerdict.PASS, ClaimVerdict.PASS)),
    "source-only": (ReviewStatus.SOURCE_CHECKED, _claim(ClaimVerdict.PASS, ClaimVerdict.CANNOT_CHECK,
                                                        ClaimVerdict.PASS)),
    "failed": (ReviewStatus.REVIEW_FAILED, _claim(ClaimVerdict.FAIL, ClaimVerdict.FAIL)),
    "unchecked": (ReviewStatus.NOT_CHECKABLE, _claim(ClaimVerdict.CANNOT_CHECK, ClaimVerdict.CANNOT_CHECK)),
}


@pytest.fixture(scope="module")
def combined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Registry, dict[str, tuple]]:
    bundled, _ = validate(ROOT / "records")
    template = bundled.get_as(RESULT_11, Result)
    run = next(iter(bundled.of_kind(Reproduction)))
    records = dict(bundled.records)
    made: dict[str, tuple] = {}
    # An author's correction of a value no correction supersedes cannot validate; the SQL mirror still needs the
    # correction it names to exist: one of another record.
    dummy = "saadat-fellay-20261205-correction-other"
    records["other"] = template.model_copy(update={"id": "saadat-fellay-20261015-result-other"})
    records["other-v2"] = template.model_copy(update={"id": "saadat-fellay-20261015-result-other-v2"})
    records[dummy] = Correction(kind="correction", id=dummy, supersedes="saadat-fellay-20261015-result-other",
                                replacement="saadat-fellay-20261015-result-other-v2", reason="a test",
                                corrected_by="a test", corrected_at=WHEN)
    for number, (review, said, version, ran) in enumerate(COMBINATIONS):
        rid = f"saadat-fellay-20261015-result-combination-{number}"
        records[rid] = template.model_copy(update={"id": rid})
        made[rid] = (review, said, version, ran)
        if review != "none":
            status, claim = REVIEW_OF[review]
            records[f"{rid}-r"] = Review(kind="review", id=f"saadat-fellay-20261205-review-c{number}", subjects=[rid],
                                         source=template.source, status=status, reviewer="a test", reviewed_at=WHEN,
                                         artifact_sha256=bundled.records[template.source].sha256,  # type: ignore[attr-defined]
                                         claims=[claim])
        if version == "superseded":
            records[f"{rid}-v2"] = template.model_copy(update={"id": f"{rid}-v2"})
            records[f"{rid}-c"] = Correction(kind="correction", id=f"saadat-fellay-20261205-correction-c{number}",
                                             supersedes=rid, replacement=f"{rid}-v2", reason="a test",
                                             corrected_by="a test", corrected_at=WHEN)
        elif version == "retracted":
            records[f"{rid}-x"] = Retraction(kind="retraction", id=f"saadat-fellay-20261205-retraction-c{number}",
                                             retracts=rid, reason="a test", retracted_by="a test", retracted_at=WHEN)
        for stance in said:
            fields = {"author-confirms": dict(relation=Relation.AUTHOR, stance=Stance.CONFIRMS),
                      "reader-confirms": dict(relation=Relation.READER, stance=Stance.CONFIRMS),
                      "disputes": dict(relation=Relation.READER, stance=Stance.DISPUTES, believed_value="11.94",
                                       reason="the page prints 11.94"),
                      "corrects": dict(relation=Relation.AUTHOR, stance=Stance.CORRECTS, erratum="Erratum 1",
                                       correction=f"saadat-fellay-20261205-correction-c{number}"
                                       if version == "superseded" else dummy)}[stance]
            records[f"{rid}-{stance}"] = Attestation(
                kind="attestation", id=f"saadat-fellay-20261205-attestation-c{number}-{stance}", subject=rid,
                person="A. Person", stated_at=WHEN, channel=Channel(kind=ChannelKind.LINK, reference="https://x.org/1"),
                **fields)
        if ran != "none":
            records[f"{rid}-run"] = run.model_copy(update={"id": f"saadat-fellay-20261205-reproduction-c{number}",
                                                           "result": rid, "method": Method(ran)})
    by_id = {record.id: record for record in records.values()}
    root = tmp_path_factory.mktemp("combined")
    registry = Registry(root=root, records=by_id, paths={i: root / r.kind_token / f"{i}.yaml" for i, r in by_id.items()})
    return registry, made


def test_every_combination_of_review_attestations_version_and_runs(combined: tuple[Registry, dict]) -> None:
    registry, made = combined
    assert len(made) == len(COMBINATIONS) == 5 * 16 * 3 * 3
    for rid, combination in made.items():
        standing = standing_of(registry, registry.records[rid])
        assert standing.facts == expected(*combination), (rid, combination)
        words = standing.summary
        review, said, version, _ = combination
        if review == "failed":
            assert words.startswith("review failed: printed value '11.49' on page 6 failed: 11.94; the page prints 11.94")
        assert standing.review_label == {"none": "not reviewed", "pdf": "source checked", "failed": "review failed",
                                         "source-only": "checked against the source only",
                                         "unchecked": "could not be checked"}[review]
        if "disputes" in said:
            assert "disputed by a reader (A. Person, 2026-12-05, link https://x.org/1), who believes 11.94" in words
        if version == "superseded":
            assert f"superseded by {rid}-v2" in words


def test_sql_derives_the_same_standing_for_every_combination(combined: tuple[Registry, dict], tmp_path: Path) -> None:
    from registry.db.build import build_sqlite

    registry, made = combined
    database = tmp_path / "combined.db"
    build_sqlite(registry, database, full=True)
    with sqlite3.connect(database) as connection:
        found = {row[0]: row[1:] for row in connection.execute(
            "SELECT record_id, standing, review_label FROM record_review_status").fetchall()}
    for rid in made:
        standing = standing_of(registry, registry.records[rid])
        assert found[rid] == (", ".join(standing.facts), standing.review_label), (rid, made[rid])
