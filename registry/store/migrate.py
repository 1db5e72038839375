"""Old record shapes, and what to write instead.

Records written before locators, uncertainty and hardware were typed hold them as text
(``source_locator: "Section 3.3 (page 6): '...'"``, ``uncertainty: '± 0.019 (s.d. over 10
folds)'``, ``hardware: {description: ...}``). Such a record no longer loads; the validation
message then gives the new value, worked out here from the old one, as one line of YAML the
curator can paste (``suggestion``). Nothing is rewritten behind the curator's back: a value
read from free text is a guess until someone checks it against the source.
"""

from __future__ import annotations

import json
import re
from typing import Any

from registry.models.uncertainty_kinds import REPEAT_WORDS, kinds_in
from registry.models.values import UncertaintyKind
from registry.numbers import MINUS_SIGNS, normalize_printed

#: '(page N): '<quote>'' as old free-text locators cite a place (the grammar review/ used to read).
_CITATION = re.compile(
    r"\((?:page|p\.)\s*(?P<page>\d+)\)\s*:\s*(?:['\u2018](?P<single>.+?)['\u2019]|[\"\u201c](?P<double>.+?)[\"\u201d])"
    r"(?=[\s;,.:)]|$)", re.IGNORECASE | re.DOTALL)
_PAGE_ONLY = re.compile(r"\s*\((?:page|p\.)\s*(?P<page>\d+)\)", re.IGNORECASE)
_TABLE = re.compile(r"^(?P<label>(?:Table|Tab\.|Figure|Fig\.)\s*\w+)$", re.IGNORECASE)


def locator_from_text(text: str) -> dict[str, Any]:
    """An old free-text locator as a typed one: what comes before the page is the section (or the table or
    figure), the quote after it, and what follows a ';' the note."""
    text = " ".join(text.split())
    found = _CITATION.search(text)
    new: dict[str, Any] = {}
    if found is not None:
        head, tail = text[: found.start()].strip(), text[found.end():].strip()
        new.update(_where(head))
        new["page"] = int(found["page"])
        new["quote"] = " ".join((found["single"] or found["double"]).split())
    else:
        page = _PAGE_ONLY.search(text)
        head, tail = (text[: page.start()].strip(), text[page.end():].strip()) if page else (text, "")
        new.update(_where(head))
        if page:
            new["page"] = int(page["page"])
    tail = tail.lstrip(";:, ").strip()
    if tail:
        new["note"] = tail
    return new


def _where(head: str) -> dict[str, Any]:
    if not head:
        return {}
    label = _TABLE.match(head)
    if label:
        key = "figure" if label["label"].lower().startswith("fig") else "table"
        return {key: label["label"]}
    return {"section": head}


_PLUS_MINUS = re.compile(r"(?:±|\+/-|\+-)\s*(?P<value>[0-9.,]+)")
_SIGNED = rf"[-{MINUS_SIGNS}]?[0-9.]+"
_INTERVAL = re.compile(rf"[\[(]\s*(?P<lower>{_SIGNED})\s*[,;–-]\s*(?P<upper>{_SIGNED})\s*[\])]")
#: A count and what it is taken over ('10 folds', '5 random seeds'), in the words of ``REPEAT_WORDS``.
_REPEAT_WORD = {word.lower(): repeats for repeats, words in REPEAT_WORDS.items() for word in words}
_OVER = re.compile(r"(?P<count>\d+)\s+(?P<what>" + "|".join(map(re.escape, sorted(_REPEAT_WORD, key=len, reverse=True)))
                   + r")(?![a-z])", re.IGNORECASE)


def uncertainty_from_text(text: str) -> dict[str, Any]:
    """An old free-text uncertainty ('± 0.019 (standard deviation over 10 folds)') as a typed one."""
    kind = next(iter(kinds_in(text)), UncertaintyKind.OTHER).value  # the first kind the text names
    new: dict[str, Any] = {"kind": kind}
    plus_minus, interval = _PLUS_MINUS.search(text), _INTERVAL.search(text)
    if plus_minus:
        new["printed"] = plus_minus.group(0)
        new["half_width"] = plus_minus["value"].replace(",", "")
    elif interval:
        new["printed"] = interval.group(0)
        new["lower"], new["upper"] = (normalize_printed(interval[part]) for part in ("lower", "upper"))
    else:
        new["printed"] = text
    level = re.search(r"(\d{2}(?:\.\d+)?)\s*%", text)
    if kind == UncertaintyKind.CONFIDENCE_INTERVAL:  # a level the text does not print is not guessed
        new["level"] = level.group(1) if level else "<the level the source gives, in percent>"
    over = _OVER.search(text)
    if over:
        new["over"] = {"kind": _REPEAT_WORD[over["what"].lower()].value, "count": int(over["count"])}
    if kind == "other":
        new["note"] = text
    return new


#: Old free texts that say the source gives no value: a gap to list under missing_metadata, not a value.
_NONE_GIVEN = re.compile(r"^\W*(?:(?:not|never|no)\s+(?:reported|stated|given|printed|available|provided)|"
                         r"unreported|unknown|n/?a|none|no uncertainty)(?![a-z])[^0-9]*$", re.IGNORECASE)


def gives_none(text: str) -> bool:
    """Whether an old free-text value says the source gives none ('not reported', 'N/A', 'unreported')."""
    return text.strip() in ("-", "\u2013", "\u2014") or bool(_NONE_GIVEN.match(text.strip()))


def missing_instead(field: str, value: Any) -> str | None:
    """For an old free text that says the source gives no value of ``field``, the ``missing_metadata`` line to
    write instead of the field (a typed value would claim the source printed one), else None."""
    if not isinstance(value, str) or field not in ("uncertainty", "hardware") or not gives_none(value):
        return None
    return "missing_metadata: " + _flow([{"field": field, "reason": "unreported", "note": value.strip()}])


def hardware_from_text(text: str) -> list[dict[str, Any]]:
    """An old hardware description ("NVIDIA H100 (section 2.4); 'H100 94GB GPUs' (section 4)") as entries."""
    entries = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        where = re.search(r"\s*\(([^()]*)\)\s*$", part)
        stated = part[: where.start()].strip() if where else part
        verbatim = len(stated) > 1 and stated[0] in "'\u2018\"\u201c" and stated[-1] in "'\u2019\"\u201d"
        entry: dict[str, Any] = {"accelerator": "<the device, as its maker names it>",
                                 "stated": stated[1:-1] if verbatim else stated}
        if verbatim:
            entry["verbatim"] = True
        if where:
            entry["location"] = where.group(1)
        entries.append(entry)
    return entries


def suggestion(kind: str, field: str, value: Any) -> str | None:
    """What to write instead of the old-shape ``value`` of ``kind``'s ``field``, as one line of YAML, or None."""
    new: Any
    if field == "source_locator" and isinstance(value, str):
        new = locator_from_text(value)
    elif field == "uncertainty" and isinstance(value, str):
        new = uncertainty_from_text(value)
    elif field == "hardware" and isinstance(value, dict) and isinstance(value.get("description"), str):
        new = hardware_from_text(value["description"])
    elif field == "hardware" and isinstance(value, str):
        new = hardware_from_text(value)
    else:
        return None
    return f"{field}: {_flow(new)}"


def _flow(value: Any) -> str:
    """A value as YAML flow style on one line (JSON is YAML; keys unquoted where they can be)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)
