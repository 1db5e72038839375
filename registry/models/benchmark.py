"""The ``benchmark`` kind: a benchmark shared across papers, with the identifiers others know it by.

Each paper's ``dataset`` record is that paper's account of the data it evaluated on (its splits and sizes as it
prints them); a benchmark record is the registry's one record of the benchmark itself (a data set, a split and a
task), named by the identifiers outside the registry (a Hugging Face dataset id, a Papers with Code slug, a DOI or
URL, a version). A dataset record points to it (``Dataset.benchmark``) or says why it cannot in its
``missing_metadata`` (a private split); the comparability key (``registry.comparability``) then puts two papers'
values on the benchmark on one leaderboard. A benchmark is read off no single source: it is registry-wide, like a
unit record.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from registry.models.base import Doi, HttpsUrl, Record, Sql, Text

#: A Hugging Face dataset id: 'org/name' (or a legacy single name), as the Hub shows it.
HfDatasetId = Annotated[str, StringConstraints(pattern=r"^(?:[A-Za-z0-9][A-Za-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$",
                                               max_length=200)]
#: A Papers with Code dataset slug, as its address ends ('cub-200-2011').
PwcSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=200)]

#: The fields that identify a benchmark outside the registry: two records with one of these equal are one benchmark.
EXTERNAL_IDS = ("hf_dataset", "paperswithcode", "doi", "url")


class Benchmark(Record):
    """A benchmark shared across papers: its name, task and split, and the identifiers others know it by."""

    kind: Literal["benchmark"]
    name: Text = Field(description="The benchmark's usual name (for example 'CUB-200-2011').")
    aliases: Annotated[list[Text], Sql(singular="alias")] = Field(
        default_factory=list, description="Other names papers print for it (for example 'Birds-200', 'CUB'): "
        "'registry validate' offers this benchmark to a dataset record named by one of them.")
    task: Text | None = Field(None, description="The task its values score (for example 'fine-grained image "
                              "classification').")
    split: Text | None = Field(None, description="The split results on it are reported on, where the benchmark "
                               "fixes one (for example 'test').")
    version: Text | None = Field(None, description="The benchmark's version or revision (for example 'v2' or a "
                                 "dataset revision hash).")
    hf_dataset: HfDatasetId | None = Field(None, description="Its Hugging Face dataset id ('org/name').")
    paperswithcode: PwcSlug | None = Field(None, description="Its Papers with Code dataset slug.")
    doi: Doi | None = Field(None, description="The DOI of the benchmark or of the paper that defines it.")
    url: HttpsUrl | None = Field(None, description="Where the benchmark is published.")
    note: Text | None = Field(None, description="Anything else a reader should know (how versions differ).")

    def external_ids(self) -> list[tuple[str, str]]:
        """(field, value) of every external identifier it gives."""
        return [(name, str(value)) for name in EXTERNAL_IDS if (value := getattr(self, name)) is not None]

    def names(self) -> list[str]:
        return [self.name, *self.aliases]
