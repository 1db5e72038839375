"""The typed parts of a transcribed number: where it is printed, its uncertainty, the hardware, a derivation.

Each is data a query can use without parsing text, and each keeps the words the source
prints beside the exact values read from them, so that a reviewer can check one against the
other and a page can show them as printed.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Annotated

from pydantic import Field, PositiveInt, model_validator

from registry.models.base import Sql, Strict, Text, ref, refs
from registry.units import Unit

# -- locators -------------------------------------------------------------------------------------


class Locator(Strict):
    """Where in a source something is printed: page, section, table or figure, cell, caption, footnote, quote.

    Every part is optional, but a locator that names neither a page nor a quote cannot be checked
    against the PDF (``registry review`` says so). ``text`` renders it the way the pages read.
    """

    section: Text | None = Field(None, description="The section or paragraph, as the pages cite it (for example "
                                 "\"Section 3.3 'ZeRO offload' paragraph\").")
    table: Text | None = Field(None, description="The table's label as printed (for example 'Table 2').")
    figure: Text | None = Field(None, description="The figure's label as printed (for example 'Figure 3').")
    row: Text | None = Field(
        None, description="The row label of the cell, as printed (for example 'NT 2.5B'); a row under groups as its "
        "path, outermost first, joined by ' / ' ('Zero-shot / ViT-B/16'); where one label names several rows "
        "(printed on each, or set once beside them), the label ends in ' #N', N counting its rows from the top "
        "of the table ('AF #2').")
    column: Text | None = Field(
        None, description="The column header of the cell, as printed; a header over several levels joined by ' / ' "
        "(for example 'Histone marks / H3K4me3').")
    subtable: Text | None = Field(
        None, description="The sub-table or panel's mark as printed, where one caption holds several (for example "
        "'(b)').")
    uncertainty_column: Text | None = Field(
        None, description="The column header the value's uncertainty is printed under, where it has a column of its "
        "own beside the value's (for example 'SE'); a header over several levels joined by ' / '.")
    caption: bool = Field(False, description="Whether the quote is in the caption of the table or figure.")
    footnote: Text | None = Field(None, description="The footnote's mark or number, where the text is a footnote.")
    page: PositiveInt | None = Field(None, description="The page of the pinned PDF, counted from 1.")
    quote: Text | None = Field(None, description="Text printed there, word for word (the sentence or cell).")
    note: Text | None = Field(None, description="What else locates it, in words (for example 'stage + DeepSpeed "
                              "(...) of Figure 3').")

    @model_validator(mode="after")
    def _cell_needs_a_table(self) -> Locator:
        if self.table is not None and self.figure is not None:
            raise ValueError("a locator names a table or a figure, not both; a table inside a figure is the figure's")
        if (self.row is not None or self.column is not None) and self.table is None and self.figure is None:
            raise ValueError("a row or column needs the table (or figure) it belongs to: add 'table: Table N'")
        if self.caption and self.table is None and self.figure is None:
            raise ValueError("a caption belongs to a table or figure: add 'table:' or 'figure:'")
        if self.subtable is not None and self.table is None and self.figure is None:
            raise ValueError(f"a sub-table {self.subtable!r} belongs to a table or figure: add 'table: Table N'")
        if self.uncertainty_column is not None and (self.table is None or self.column is None):
            raise ValueError("an uncertainty's column is beside the value's: give 'table' and the value's 'column' "
                             "too")
        return self

    @property
    def text(self) -> str:
        """The locator as the pages read it: "Section 3.3 ... (page 6): 'quote'; note".

        Parts in a fixed order: where (section; caption of, or table/figure; footnote), the page in
        parentheses, the cell, the quote after a colon, the note after a semicolon.
        """
        where = [part for part in (self.section, self._float_part(), self._footnote_part()) if part]
        head = ", ".join(where)
        if self.page is not None:
            head = f"{head} (page {self.page})" if head else f"page {self.page}"
        cell = ", ".join(part for part in (f"row '{self.row}'" if self.row else "",
                                           f"column '{self.column}'" if self.column else "",
                                           f"uncertainty in column '{self.uncertainty_column}'"
                                           if self.uncertainty_column else "") if part)
        if cell:
            head = f"{head}, {cell}" if head else cell
        if self.quote is not None:
            head = f"{head}: '{self.quote}'" if head else f"'{self.quote}'"
        if self.note:
            head = f"{head}; {self.note}" if head else self.note
        return head

    def _float_part(self) -> str:
        label = self.table or self.figure
        if label is None:
            return ""
        if self.subtable:
            label = f"{label} {self.subtable}"
        return f"caption of {label}" if self.caption else label

    def _footnote_part(self) -> str:
        return f"footnote {self.footnote}" if self.footnote else ""


# -- value shapes ---------------------------------------------------------------------------------


class BoundSign(StrEnum):
    """The sign of a bound a source prints instead of a value ('p < 0.001', '> 99%', '≤ 2 GB')."""

    LESS = "<"
    AT_MOST = "\u2264"
    MORE = ">"
    AT_LEAST = "\u2265"


class RangeUpper(Strict):
    """The upper end of a range a source prints as one result ('12\u201315 GB', '12-15', '12 to 15').

    The range's lower end stays the result's printed_value and numeric_value, so that every reader of
    numeric_value (SQL's NOT NULL float, pages, plots, exports) is given a number the source prints; a
    midpoint would be a value the source never printed. The upper end is kept here, printed and exact, in the
    result's unit; ``Result.as_printed`` shows the two ends together."""

    printed_value: Text = Field(description="The upper end exactly as printed, as text (for example '15').")
    numeric_value: Decimal = Field(description="The upper end as an exact decimal; must equal its printed_value.")


# -- uncertainty ----------------------------------------------------------------------------------


class UncertaintyKind(StrEnum):
    """What an uncertainty is."""

    STANDARD_DEVIATION = "standard-deviation"
    STANDARD_ERROR = "standard-error"
    CONFIDENCE_INTERVAL = "confidence-interval"
    MIN_MAX = "min-max"
    """The range of the values aggregated (lowest to highest)."""
    OTHER = "other"
    """Anything else; the printed text and the note say what."""


class Repeats(StrEnum):
    """What a value or its uncertainty was computed over."""

    SEEDS = "seeds"
    FOLDS = "folds"
    RUNS = "runs"
    SAMPLES = "samples"
    """Examples or items scored (a bootstrap over test items counts as samples)."""
    BOOTSTRAP_RESAMPLES = "bootstrap-resamples"


class Aggregate(Strict):
    """How many runs, seeds, folds or samples a number aggregates."""

    kind: Repeats = Field(description="What was repeated (seeds, folds, runs, samples, bootstrap resamples).")
    count: PositiveInt | None = Field(None, description="How many; empty where the source names the kind only.")


class StatedAt(Strict):
    """Where a source says what an uncertainty is (its kind, level or count) away from the value: a sentence of
    the text, a note on another page, a header such as '[N=1000]'.

    ``registry review`` reads the kind, level and count there as well as in the caption, header, row label and
    table notes of the value, so that a count stated only in the text ('over 10 folds') is found where it is."""

    page: PositiveInt | None = Field(None, description="The page of the pinned PDF, counted from 1; empty: the page "
                                     "the value is printed on.")
    quote: Text = Field(description="The words printed there that say it, word for word (for example 'mean and "
                        "standard deviation over 10 folds' or '[N=1000]').")

    @property
    def text(self) -> str:
        """"'[N=1000]' (page 4)", as the pages read."""
        return f"'{self.quote}'" + (f" (page {self.page})" if self.page is not None else "")


class Uncertainty(Strict):
    """The uncertainty a source prints with a value: its kind, the text as printed, and its exact values."""

    kind: UncertaintyKind = Field(description="Standard deviation, standard error, confidence interval, min-max, ...")
    printed: Text = Field(description="As printed, word for word (for example '± 0.019' or '[0.66, 0.70]').")
    half_width: Decimal | None = Field(None, ge=0, description="The ± value as an exact decimal (for example 0.019).")
    lower: Decimal | None = Field(None, description="The interval's lower bound, for an interval or range.")
    upper: Decimal | None = Field(None, description="The interval's upper bound, for an interval or range.")
    level: Decimal | None = Field(None, gt=0, lt=100, description="A confidence interval's level, in percent (95).")
    over: Aggregate | None = Field(None, description="What the uncertainty was computed over (10 folds, 5 seeds).")
    note: Text | None = Field(None, description="What the source says about it, where the words above do not.")
    stated_at: StatedAt | None = Field(
        None, description="Where the source states its kind, level or count, where that is not beside the value (a "
        "sentence, another page, a header such as '[N=1000]'): the page and the words printed there.")

    @model_validator(mode="after")
    def _one_shape(self) -> Uncertainty:
        bounds = (self.lower, self.upper)
        if self.half_width is not None and any(b is not None for b in bounds):
            raise ValueError("give either half_width (a ± value) or lower and upper (an interval), not both")
        if (self.lower is None) != (self.upper is None):
            raise ValueError("an interval needs both lower and upper")
        if self.lower is not None and self.upper is not None and self.lower > self.upper:
            raise ValueError(f"lower ({self.lower}) exceeds upper ({self.upper})")
        if self.kind is UncertaintyKind.CONFIDENCE_INTERVAL and self.level is None:
            raise ValueError("a confidence interval needs its level (for example level: '95')")
        if self.kind is not UncertaintyKind.CONFIDENCE_INTERVAL and self.level is not None:
            raise ValueError(f"only a confidence interval has a level, not a {self.kind.value}")
        if self.kind is UncertaintyKind.OTHER and self.note is None:
            raise ValueError("an uncertainty of kind 'other' needs a note saying what it is")
        if self.kind is UncertaintyKind.OTHER and self.stated_at is not None:
            raise ValueError("an uncertainty of kind 'other' is checked on its value alone (the registry has no words "
                             "for it to find on the page), so it takes no 'stated_at': give the kind the source names, "
                             "or leave 'stated_at' out and say what it is in the note")
        if self.kind is not UncertaintyKind.OTHER and self.half_width is None and self.lower is None:
            raise ValueError(f"a {self.kind.value} needs its exact value: half_width for a ± value, or lower and "
                             "upper for an interval")
        if self.kind is UncertaintyKind.MIN_MAX and self.half_width is not None:
            raise ValueError("a min-max range is the lowest and highest value: give lower and upper, not half_width")
        if self.kind in (UncertaintyKind.STANDARD_DEVIATION, UncertaintyKind.STANDARD_ERROR) and self.is_interval:
            raise ValueError(f"a {self.kind.value} is one number: give half_width (the ± value), not an interval; "
                             "a mean ± s.d. printed as an interval is kind 'other' with a note")
        return self

    @property
    def is_interval(self) -> bool:
        return self.lower is not None

    @property
    def text(self) -> str:
        """'± 0.021 (standard deviation over 10 folds)', '[0.66, 0.70] (95% confidence interval over 1,000
        bootstrap resamples)', as the pages read."""
        what = "min–max range" if self.kind is UncertaintyKind.MIN_MAX else self.kind.value.replace("-", " ")
        if self.level is not None:
            what = f"{self.level}% {what}"
        if self.kind is UncertaintyKind.OTHER and self.note:
            what = self.note
        if self.over is not None:
            count = f"{self.over.count:,} " if self.over.count is not None else ""
            what += f" over {count}{self.over.kind.value.replace('-', ' ')}"
        if self.stated_at is not None:
            what += f", as stated in {self.stated_at.text}"
        return f"{self.printed} ({what})"


# -- hardware -------------------------------------------------------------------------------------


class Quantity(Strict):
    """An exact value with its unit (for example 94 gigabyte)."""

    value: Decimal = Field(description="The value as an exact decimal.")
    unit: Unit = Field(description="Its unit, from the closed list.")


class HardwareEntry(Strict):
    """One statement of a source about the hardware it ran on: what, how many, how much memory, and where."""

    accelerator: Text = Field(description="The device, named as its maker names it (for example 'NVIDIA H100'); "
                              "an H200 is not an H100.")
    count: PositiveInt | None = Field(None, description="How many devices, where the source says.")
    memory: Quantity | None = Field(None, description="Memory per device, as the source states it.")
    stated: Text = Field(description="The words the source uses (for example 'H100 94GB GPUs').")
    verbatim: bool = Field(False, description="Whether 'stated' quotes the source word for word (shown in quotes).")
    location: Text | None = Field(None, description="Where the source says it (for example 'section 4').")

    @model_validator(mode="after")
    def _memory_is_memory(self) -> HardwareEntry:
        from registry.units import Dimension, dimension

        if self.memory is not None and self.memory.value <= 0:
            raise ValueError(f"memory must be more than 0, not {self.memory.value}")
        if self.memory is not None and dimension(self.memory.unit) is not Dimension.MEMORY:
            raise ValueError(f"memory is in {self.memory.unit}, which is not a unit of memory (gigabyte, gibibyte, "
                             "...)")
        return self

    @property
    def text(self) -> str:
        """"NVIDIA H100 (section 2.4)" or "'H100 94GB GPUs' (section 4)", as the pages read."""
        stated = f"'{self.stated}'" if self.verbatim else self.stated
        return f"{stated} ({self.location})" if self.location else stated


# -- derived values -------------------------------------------------------------------------------


class Operation(StrEnum):
    """How a derived result follows from the results it is computed from."""

    DIFFERENCE = "difference"
    """value - baseline (in the inputs' unit; percentage points for two percentages)."""
    RATIO = "ratio"
    """value / baseline."""
    RELATIVE_CHANGE = "relative-change"
    """(value - baseline) / baseline; in percent where the result's unit is percent."""
    REDUCTION = "reduction"
    """(baseline - value) / baseline: 'a 66% reduction'; in percent where the result's unit is percent."""
    RELATIVE_INCREASE = "relative-increase"
    """(value - baseline) / baseline, where the source names an increase ('a 213% increase'); in percent where the
    result's unit is percent."""
    RELATIVE_DECREASE = "relative-decrease"
    """(baseline - value) / baseline, where the source names a decrease ('a 66% decrease'); in percent where the
    result's unit is percent."""
    PERCENT_OF = "percent-of"
    """value / baseline in percent, always ('34.7 s is 313% of 11.1 s'; what some papers call 'a 310% increase')."""
    SPEED_UP = "speed-up"
    """How many times better value is than baseline: baseline / value where lower is better, else value / baseline."""
    MEAN = "mean"
    """The mean of the inputs (a table's mean over the folds another table lists)."""


#: Operations of two results, ``value`` and ``baseline``; the others take a list of ``inputs``.
BINARY_OPERATIONS = frozenset(op for op in Operation if op is not Operation.MEAN)


class Derivation(Strict):
    """A result computed from others that the source prints too, as the source computed it."""

    operation: Operation = Field(description="difference, ratio, relative-change, reduction, relative-increase, "
                                 "relative-decrease, percent-of, speed-up or mean: the operation the source's words "
                                 "name.")
    value: str | None = ref("result", default=None,
                            description="For an operation of two results: the one the change is of (the LoRA run).")
    baseline: str | None = ref("result", default=None,
                               description="For an operation of two results: the one it is relative to (full "
                               "fine-tuning).")
    inputs: Annotated[list[str], Sql(singular="input")] = refs(
        "result", description="For a mean: the results it is the mean of.")
    note: Text | None = Field(None, description="What the source says about how it was computed.")

    @model_validator(mode="after")
    def _inputs_fit_the_operation(self) -> Derivation:
        if self.operation in BINARY_OPERATIONS:
            if self.value is None or self.baseline is None or self.inputs:
                raise ValueError(f"a {self.operation.value} names its two results as 'value' and 'baseline' (and "
                                 "no 'inputs')")
        elif len(self.inputs) < 2 or self.value is not None or self.baseline is not None:
            raise ValueError(f"a {self.operation.value} names the results it is taken over as 'inputs' (two or "
                             "more; no 'value' or 'baseline')")
        return self

    @property
    def sources(self) -> list[str]:
        """Every result it is computed from."""
        return [r for r in (self.value, self.baseline) if r is not None] + list(self.inputs)
