"""Which sub-table under one caption a locator's ``subtable`` ('(b)') names, and what to say when none is.

The table reader (``review.tables.read``) reads sub-tables under one caption ('(a) Sequence models', '(b)
Factorization models', or stacked titles such as 'AUC') each as a table of its own, its subcaption
(``Table.subcaption``) the outer level of its rows. A cited cell whose locator names a sub-table is looked up
in that sub-table only (``review.tables.cited``), so a label printed in two of them is found in the one cited:

- the mark names a sub-table when it is that sub-table's mark, however the curator types it ('(b)', 'b)',
  'b', '(b) Factorization models'), or its whole caption or title ('AUC');
- a mark the reader found no sub-table for cannot be checked, naming the sub-tables it read (the reader may
  have missed a subcaption, so this is never a fail);
- a row that is not in the cited sub-table but in another one is a fail naming where it is printed.

There is no claim of its own: a sub-table is checked by the cell claims that look the row up in it, so it
never passes on its own.
"""

from __future__ import annotations

import re

from review.pdf.words import squeezed
from review.tables.blocks import SUBTABLE_MARK
from review.tables.table import Row, Table, matches

#: A sub-table's mark at the start of its caption or of a locator's ``subtable``: a letter or a roman numeral,
#: in parentheses or before a closing one ('(b)', 'b)', '(iv)').
_MARK = re.compile(rf"^\(?\s*({SUBTABLE_MARK})\s*\)", re.IGNORECASE)


def mark_of(text: str, *, bare: bool = True) -> str | None:
    """The mark a sub-table's caption or a locator's ``subtable`` starts with ('b' of '(b) Factorization models'),
    or (``bare``, as a curator may type it) a letter alone ('b'); none where it starts with none."""
    printed = squeezed(text).strip()
    found = _MARK.match(printed)
    if found is not None:
        return found.group(1).lower()
    return printed.lower() if bare and re.fullmatch(SUBTABLE_MARK, printed, re.IGNORECASE) else None


def _words(text: str) -> str:
    return squeezed(text).strip().lower()


def names(subcaption: str, wanted: str) -> bool:
    """Whether the locator's ``wanted`` names the sub-table captioned ``subcaption``: by its mark, or by its whole
    caption or title (with or without its mark)."""
    mark, asked = mark_of(subcaption), mark_of(wanted)
    if mark is not None and asked is not None:
        return mark == asked
    bare = _MARK.sub("", squeezed(subcaption)).strip().lower()
    return _words(wanted) in (_words(subcaption), bare)


def cited(tables: list[Table], wanted: str) -> list[Table] | str:
    """The readings of the sub-table ``wanted`` names among ``tables`` (one caption's), or why there is none: a
    sentence naming the sub-tables read (the claim cannot be checked then)."""
    found = [t for t in tables if t.subcaption is not None and names(t.subcaption, wanted)]
    if found:
        return found
    read = list(dict.fromkeys(t.subcaption for t in tables if t.subcaption is not None))
    label = tables[0].label if tables else "the table"
    if not read:
        return (f"no sub-table {wanted} is read under the caption of {label}: it is read as one table, with no "
                "sub-table's caption or title over its rows")
    listed = ", ".join(f"'{s}'" for s in read)
    return f"no sub-table {wanted} is read under the caption of {label}; the sub-tables read are {listed}"


def rows_in(tables: list[Table], wanted: str) -> list[Row]:
    """The rows named ``wanted`` in the cited sub-table's readings, its siblings' left out."""
    return [row for table in tables for row in table.rows if matches(row.levels, wanted)]


def printed_elsewhere(tables: list[Table], inside: list[Table], row: str, subtable: str) -> str | None:
    """Where a row that is not in the cited sub-table is printed in another one under the caption: the fail's
    sentence, or none where no other sub-table prints it either."""
    others = [r for t in tables if t not in inside for r in t.rows if matches(r.levels, row)]
    if not others:
        return None
    label = inside[0].label
    shown = ", ".join(f"'{name}'" for name in dict.fromkeys(r.name for r in others))
    return (f"row '{row}' is not printed in sub-table {subtable} of {label} ('{inside[0].subcaption}'); it is "
            f"printed in row {shown}: correct the locator's subtable or row")
