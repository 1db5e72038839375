"""The result a row of a results table files: its values read off the cells, and how it meets the registry's.

A result that exists with the same values is left alone, one that exists with other values is superseded
by a correction and a replacement (never edited), one that was retracted is not filed again
(``registry.curate.importer`` says how a table becomes records; ``registry.curate.filing`` holds what
an import has planned so far).
"""

from __future__ import annotations

import re
from typing import Any

from registry.curate.fields import field_columns
from registry.curate.filing import Filing, column_of, norm
from registry.curate.plan import Action
from registry.curate.table import COLUMNS, Row
from registry.curate.values import read_unit, split_printed
from registry.ids import slugify, split_id
from registry.models import KIND_MODELS, Result
from registry.models.fields import field_plan
from registry.models.records import Direction
from registry.models.uncertainty_kinds import INTERVALS
from registry.models.values import Repeats, UncertaintyKind
from registry.numbers import parse_printed, why_not_a_number
from registry.numbers_in_text import numbers_in
from registry.status.versions import changes, same_values

#: The columns copied into a result's locator as written: every column that fills one of its fields, but the page
#: (a number) and the caption (yes or no), which are read.
LOCATOR_TEXT_COLUMNS = tuple(c.name for c in COLUMNS if c.fills[0].startswith("result.source_locator.")
                             and c.name not in ("page", "caption"))


class ResultRows:
    """Each row's result, planned into ``filing``."""

    def __init__(self, filing: Filing) -> None:
        self.filing = filing
        self.field_columns = field_columns(COLUMNS)
        self.reportable_fields = set(field_plan(KIND_MODELS["result"]).reportable)

    def result(self, row: Row, evaluation: str) -> None:
        data = self.result_data(row, evaluation)
        if data is None:
            return
        key = ("result", self.filing.source.id, evaluation, data["metric"], norm(data["metric_qualifier"]))
        if key in self.filing.result_rows:
            earlier = self.filing.result_rows[key]
            self.filing.problem(row, None, f"the row repeats the result of row {earlier} (the same model, dataset, "
                                "protocol, split, metric and qualifier); remove one, or tell them apart in 'qualifier'")
            return
        self.filing.result_rows[key] = row.number
        existing = self.filing.existing.get(key)
        if isinstance(existing, Result):
            self.compare(row, existing, data)
        elif key in self.filing.retracted:
            self.filing.plan.withdrawn.append((row.number, self.filing.retracted[key].id))
        else:
            slug = f"{split_id(evaluation).slug}-{data['metric']}"
            record = self.filing.typed(row, "result", {**data, "id": self.filing.new_id("result", slug)})
            if record is not None:
                self.filing.add(record, Action.NEW, [row.number])

    def compare(self, row: Row, existing: Result, data: dict[str, Any]) -> None:
        """Leave a result that holds the row's values; supersede one that holds others."""
        candidate = self.filing.typed(row, "result", {**data, "id": existing.id})
        if candidate is None:
            return
        if same_values(existing, candidate):
            self.filing.plan.unchanged.append((row.number, existing.id))
            self.filing.current_results.setdefault(existing.id, []).append(row.number)
            return
        changed = changes(existing, candidate)
        what = "; ".join(f"{name}: {old} -> {new}" for name, old, new in changed)
        if not self.filing.options.reason or not self.filing.options.curator:
            self.filing.problem(row, column_of("result", changed[0][0]),
                                f"the registry holds this result as {existing.id!r} with other values ({what}); a "
                                "change is filed as a correction, never an edit: give its reason ({reason}) and who "
                                "files it ({curator})")
            return
        replacement_id = self.filing.new_id("result", split_id(existing.id).slug)
        replacement = self.filing.typed(row, "result", {**data, "id": replacement_id})
        correction_id = self.filing.new_id("correction", f"result-{split_id(existing.id).slug}")
        correction = self.filing.typed(row, "correction", {
            "kind": "correction", "id": correction_id, "supersedes": existing.id, "replacement": replacement_id,
            "reason": self.filing.options.reason, "corrected_by": self.filing.options.curator,
            "corrected_at": self.filing.now.isoformat().replace("+00:00", "Z"),
            "note": f"Filed by 'registry import' from {self.filing.table.path.name} row {row.number}, which changes "
                    f"{what}.",
            "derivation": "The id is derived by the batch convention from the superseded record's."})
        if replacement is not None and correction is not None:
            self.filing.add(replacement, Action.REPLACEMENT, [row.number])
            self.filing.add(correction, Action.CORRECTION, [row.number])

    def result_data(self, row: Row, evaluation: str) -> dict[str, Any] | None:
        """The result's fields from the row, or None (with problems) where a cell cannot be read."""
        before = len(self.filing.problems)
        metric = slugify(self.filing.required(row, "metric") or "")
        direction = self.filing.required(row, "direction")
        if direction is not None and direction.lower() not in {d.value for d in Direction}:
            self.filing.problem(row, "direction", f"{direction!r} is not 'higher' or 'lower'")
        printed = self.filing.required(row, "value")
        unit = self.unit(row)
        # '< 0.001': a bound, its sign kept apart; '12–15': a range, its lower end the value and its upper end kept
        # beside it (a unit after it is refused, as a value's is: the table's unit column names it).
        bound, printed, ends = split_printed(printed) if printed is not None else (None, None, None)
        exact = parse_printed(printed) if printed is not None else None
        if printed is not None and exact is None:
            self.filing.problem(row, "value", why_not_a_number(printed, unit))
        locator = self.locator(row)
        qualifier = row.get("qualifier") or self.default_qualifier(row)
        if len(self.filing.problems) > before:
            return None
        data: dict[str, Any] = {
            "kind": "result", "evaluation": evaluation, "metric": metric,
            "metric_direction": (direction or "").lower(), "metric_qualifier": qualifier, "unit": unit,
            "printed_value": printed, "numeric_value": str(exact), "source": self.filing.source.id,
            "source_locator": locator,
        }
        if bound is not None:
            data["bound"] = bound[0]
        if ends is not None:
            data["range_upper"] = {"printed_value": ends[1], "numeric_value": str(parse_printed(ends[1]))}
        for column in ("unit_detail", "scope_note"):
            if row.get(column):
                data[column] = row.get(column)
        self.field_cells(row, data)
        self.uncertainty(row, data)
        hardware = self.filing.reportable(row, "hardware", data, {}, store=False)
        if hardware:
            data["hardware"] = [{"accelerator": hardware, "stated": hardware}]
        data["derivation"] = (f"Filed by 'registry import' from {self.filing.table.path.name} row {row.number}; the id "
                              "is derived by the batch convention.")
        data["missing_metadata"] = data.pop("_missing")
        return None if len(self.filing.problems) > before else data

    def field_cells(self, row: Row, data: dict[str, Any]) -> None:
        """The cells of the columns read off the model (``registry.curate.fields``): each copied into its field as
        text (a list's values separated by ';'), for the model to type; a reportable field left empty is listed."""
        for column in self.field_columns:
            name = column.fills[0].split(".", 1)[1]
            cell: str | None = row.get(column.name)
            if name in self.reportable_fields:
                cell = self.filing.reportable_cell(row, column.name, name, data.setdefault("_missing", []))
            if cell:
                data[name] = [part.strip() for part in cell.split(";") if part.strip()] if column.many else cell

    def default_qualifier(self, row: Row) -> str:
        where = row.get("table") or row.get("figure") or "the source"
        column = row.get("column")
        return f"as printed in {where}" + (f", column '{column}'" if column else "")

    def unit(self, row: Row) -> str | None:
        written = self.filing.required(row, "unit")
        if written is None:
            return None
        unit, problem = read_unit(written)
        if problem is not None:
            self.filing.problem(row, "unit", problem + (" Write that in the cell" if problem.endswith("?") else ""))
        return unit

    def locator(self, row: Row) -> dict[str, Any]:
        locator: dict[str, Any] = {}
        for name in LOCATOR_TEXT_COLUMNS:
            if row.get(name):
                locator[name] = row.get(name)
        page = row.get("page")
        if page:
            if page.isdigit() and int(page) >= 1:
                locator["page"] = int(page)
            else:
                self.filing.problem(row, "page", f"{page!r} is not a page number (1 for the first page of the PDF)")
        caption = row.get("caption").lower()
        if caption in ("yes", "true", "1", "y"):
            locator["caption"] = True
        elif caption not in ("", "no", "false", "0", "n"):
            self.filing.problem(row, "caption", f"{row.get('caption')!r}: write 'yes' for a value in the caption, or "
                                "leave it empty")
        if not locator:
            self.filing.problem(row, None, "the row says nowhere where the value is printed; give at least its page, "
                                "table or quote")
        return locator

    def uncertainty(self, row: Row, data: dict[str, Any]) -> None:
        printed = self.filing.reportable(row, "uncertainty", data, {}, store=False)
        if not printed:
            return
        kind = row.get("uncertainty_kind")
        kinds = [k.value for k in UncertaintyKind]
        if kind not in kinds:
            said = "missing value: an uncertainty needs its kind, " if not kind else f"{kind!r} is not a kind of "
            self.filing.problem(row, "uncertainty_kind", said + ("" if not kind else "uncertainty; ") +
                                f"one of {', '.join(kinds)}")
            return
        value: dict[str, Any] = {"kind": kind, "printed": printed}
        numbers = [parse_printed(n) for n in numbers_in(printed)]
        read = [n for n in numbers if n is not None]
        if kind in INTERVALS and len(read) >= 2 and "±" not in printed:
            value["lower"], value["upper"] = str(read[0]), str(read[1])
        elif read:
            value["half_width"] = str(abs(read[0]))
        if row.get("uncertainty_level"):
            value["level"] = row.get("uncertainty_level").rstrip("% ")
        over = row.get("uncertainty_over")
        if over:
            parsed = _aggregate(over)
            if parsed is None:
                self.filing.problem(row, "uncertainty_over", f"{over!r}: write a count and what was repeated, such "
                                    f"as '10 folds' (one of {', '.join(r.value for r in Repeats)})")
            else:
                value["over"] = parsed
        data["uncertainty"] = value


def _aggregate(text: str) -> dict[str, Any] | None:
    match = re.fullmatch(r"(?:(\d+)\s+)?([a-z-]+)", text.strip().lower())
    kinds = {r.value for r in Repeats}
    if match is None or match.group(2) not in kinds:
        return None
    aggregate: dict[str, Any] = {"kind": match.group(2)}
    if match.group(1):
        aggregate["count"] = int(match.group(1))
    return aggregate
