"""The chain of records a row of a results table needs: a model family, a configuration, a dataset, a protocol and
the evaluation joining them, each shared where one exists (``registry.curate.filing``), then its result.
"""

from __future__ import annotations

import difflib
from typing import Any

from registry.curate.filing import Filing, is_id, norm
from registry.curate.naming import display_slug
from registry.curate.result_rows import ResultRows
from registry.curate.table import Row
from registry.ids import slugify
from registry.models import ModelFamily
from registry.models.records import Independence


class ChainRows:
    """Each row's chain of records and its result, planned into ``filing``."""

    def __init__(self, filing: Filing) -> None:
        self.filing = filing
        self.results = ResultRows(filing)

    def row(self, row: Row) -> None:
        before = len(self.filing.problems)
        family = self.family(row)
        dataset = self.dataset(row)
        protocol = self.protocol(row)
        config = self.config(row, family) if family else None
        if config is None or dataset is None or protocol is None:
            return
        evaluation = self.evaluation(row, config, protocol, dataset)
        if evaluation is not None and len(self.filing.problems) == before:
            self.results.result(row, evaluation)

    def family(self, row: Row) -> str | None:
        name = self.filing.required(row, "family")
        if name is None:
            return None
        if is_id(name):
            return self.filing.named(row, "family", "family")
        key = ("family", norm(name))
        if key not in self.filing.existing and key not in self.filing.made:
            names = [r.name for r in self.filing.registry.records.values() if isinstance(r, ModelFamily)]
            close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
            if close:
                self.filing.plan.notes.append(f"row {row.number}: model family {name!r} is new; the registry has "
                                              f"{close[0]!r} (is it the same family?)")
        return self.filing.shared(row, "family", key, {"name": name}, {}, display_slug(name))

    def config(self, row: Row, family: str) -> str | None:
        model = self.filing.required(row, "model")
        if model is None:
            return None
        if is_id(row.get("configuration")):
            return self.filing.named(row, "configuration", "config")
        name = row.get("configuration") or f"{model} ({self.filing.cite})"
        data: dict[str, Any] = {"name": name, "reported_name": model, "model_family": family,
                                "source": self.filing.source.id}
        attrs = {"model_family": "family"}
        self.filing.reportable(row, "checkpoint", data, attrs)
        key = ("config", self.filing.source.id, norm(model), norm(name))
        return self.filing.shared(row, "config", key, data, attrs, display_slug(name))

    def dataset(self, row: Row) -> str | None:
        name = self.filing.required(row, "dataset")
        if name is None:
            return None
        if is_id(name):
            return self.filing.named(row, "dataset", "dataset")
        full = f"{name} ({self.filing.cite})"
        key = ("dataset", self.filing.source.id, norm(full))
        data = {"name": full, "source": self.filing.source.id}
        return self.filing.shared(row, "dataset", key, data, {}, display_slug(full))

    def protocol(self, row: Row) -> str | None:
        if is_id(row.get("protocol")):
            return self.filing.named(row, "protocol", "protocol")
        metric = slugify(row.get("metric"))
        where = row.get("table") or row.get("figure") or row.get("section") or "the source"
        given = row.get("protocol")
        name = f"{given} ({self.filing.cite})" if given else f"{where}, {metric or 'results'} ({self.filing.cite})"
        key = ("protocol", self.filing.source.id, norm(name))
        data = {"name": name, "source": self.filing.source.id}
        return self.filing.shared(row, "protocol", key, data, {}, display_slug(name))

    def evaluation(self, row: Row, config: str, protocol: str, dataset: str) -> str | None:
        independence = row.get("independence") or self.filing.options.independence
        if not independence:
            self.filing.problem(row, "independence", "missing value: write 'developer' or 'independent-external' (or "
                                "give one for the whole table with {independence})")
            return None
        if independence not in {i.value for i in Independence}:
            self.filing.problem(row, "independence", f"{independence!r} is not one of "
                                f"{', '.join(i.value for i in Independence)}")
            return None
        model, dataset_name = row.get("model"), row.get("dataset")
        data: dict[str, Any] = {"configuration": config, "protocol": protocol, "dataset": dataset,
                                "independence": independence}
        attrs = {"independence": "independence"}
        split = self.filing.reportable(row, "split", data, attrs)
        data["name"] = f"{model} on {dataset_name}" + (f", {split} split" if split else "")
        key = ("evaluation", config, protocol, dataset, norm(split or ""))
        return self.filing.shared(row, "evaluation", key, data, attrs, display_slug(data["name"]))
