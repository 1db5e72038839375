"""A benchmark's leaderboard as a page: one table per comparability key, then what is not comparable and why.

Built from ``registry.comparability`` as the neutral page structure (``registry.page.blocks``), so that the
terminal (``registry leaderboard``) and the site show the same tables. Every value is shown as printed, with its
tag (transcribed or source checked); the value in the metric's canonical unit stands beside it, since that is
what the rank is taken over.
"""

from __future__ import annotations

from registry.comparability import FACETS, Board, Facets, Leaderboard, Placed, leaderboard, placed
from registry.errors import RegistryError
from registry.models import Configuration, Evaluation, Source
from registry.page.blocks import Block, Column, Content, Items, Page, Paragraph, Piece, Section, Style, Table, plain
from registry.page.display import metric_label, record_name, record_tag, result_link, where_in_source
from registry.store.loader import Registry
from registry.units import with_unit


def resolve_benchmark(registry: Registry, written: str) -> str:
    """The benchmark ``written`` names: an id as it is, else the one benchmark whose id or name holds it."""
    benchmarks = {p.facets.benchmark for p in placed(registry)}
    if written in benchmarks:
        return written
    needle = written.strip().lower()
    found = sorted(b for b in benchmarks
                   if needle in b.lower() or needle in record_name(registry.get(b)).lower())
    if len(found) == 1:
        return found[0]
    listed = ", ".join(sorted(benchmarks)) or "none"
    if found:
        raise RegistryError(f"{written!r} names several benchmarks: {', '.join(found)}", "give one of them whole",
                            found=written)
    raise RegistryError(f"no benchmark {written!r}", f"the benchmarks with values are: {listed}", found=written)


def leaderboard_page(registry: Registry, benchmark: str, metric: str | None = None) -> Page:
    """The leaderboard of ``benchmark`` as a page of its own (``registry leaderboard``)."""
    title = f"Leaderboard: {record_name(registry.get(benchmark))}"
    return Page(benchmark, "leaderboard", title, leaderboard_blocks(registry, benchmark, metric))


def leaderboard_blocks(registry: Registry, benchmark: str, metric: str | None = None) -> tuple[Block, ...]:
    """What a leaderboard shows: how it ranks, one section per comparability key, then what is not comparable."""
    board = leaderboard(registry, benchmark, metric)
    if not board.boards and not board.not_comparable:
        return (Paragraph(plain("No current value is recorded on this benchmark."), Style.NOTE),)
    intro = Paragraph(plain(
        "Values are ranked only within a comparability key: the same benchmark, split, metric (converted exactly "
        "to one unit), setting, aggregate, input length and, for speed and memory, hardware. Each value is shown "
        "as printed; the rank is taken over its value in the canonical unit."))
    sections = [Section(_board_title(b), (_board_table(registry, b),)) for b in board.boards]
    return (intro, *sections, *_apart(registry, board))


def _board_title(board: Board) -> str:
    f = board.facets
    better = "higher" if board.direction.value == "higher" else "lower"
    return (f"{metric_label(f.metric)} in {f.unit} ({better} is better) \u2014 split {f.split}, setting {f.setting}, "
            f"{f.aggregate}, input length {f.input_length}" + ("" if f.hardware == "any" else f", on {f.hardware}"))


def _board_table(registry: Registry, board: Board) -> Table:
    columns = (Column("Rank", right=True, no_wrap=True), Column("Model", ratio=3), Column("As printed", no_wrap=True),
               Column(f"In {board.facets.unit}", right=True), Column("Review status"), Column("Source", ratio=3))
    rows = tuple((plain(str(entry.rank)), _model(registry, entry.placed), _printed(registry, entry.placed),
                  plain(_plain_number(entry.placed)), plain(entry.status), _where(registry, entry.placed))
                 for entry in board.entries)
    return Table(columns, rows, caption=f"Comparability key: {board.facets.key}")


def _apart(registry: Registry, board: Leaderboard) -> list[Section]:
    """The values of the benchmark on no board, each with why."""
    if not board.not_comparable:
        return []
    items = tuple((*_model(registry, p), Piece(": "), *_printed(registry, p),
                   Piece(f" {metric_label(p.facets.metric)}"), Piece(f", {_facet_words(p.facets)}"),
                   Piece(f" \u2014 {why}", style=Style.NOTE))
                  for p, why in board.not_comparable)
    return [Section(f"Not comparable because \u2026 ({len(items)})", (Items(items),))]


def _facet_words(facets: Facets) -> str:
    return ", ".join(f"{FACETS[name]} {getattr(facets, name)}" for name in ("split", "setting", "aggregate"))


def _model(registry: Registry, value: Placed) -> Content:
    evaluation = registry.get_as(value.result.evaluation, Evaluation)
    configuration = registry.get_as(evaluation.configuration, Configuration)
    return (result_link(registry, value.result, record_name(configuration)),)


def _printed(registry: Registry, value: Placed) -> Content:
    """The value as printed, and 'disputed' beside it where someone disputes it (the value stays the one ranked)."""
    from registry.status.standing import Fact, standing_of

    result = value.result
    shown = Piece(with_unit(result.as_printed, result.unit), style=Style.TRANSCRIBED,
                  tag=record_tag(registry, result), exact=str(result.numeric_value))
    if Fact.DISPUTED in standing_of(registry, result).facts:
        return (shown, Piece(" (disputed)", style=Style.NOTE))
    return (shown,)


def _plain_number(value: Placed) -> str:
    return format(value.canonical.value, "f")


def _where(registry: Registry, value: Placed) -> Content:
    """'Saadat and Fellay 2026, Table 1, row 'NT 2.5B', page 2': the source and where in it, without the quote."""
    source = registry.get_as(value.result.source, Source)
    where = where_in_source(value.result.source_locator)
    return (Piece(f"{source.authors_label} {source.year}", link=source.id), Piece(f", {where}" if where else ""))

