"""The fast path for reading a record file: yaml-rs (compiled), giving exactly PyYAML's safe-loader data, or nothing.

PyYAML reads YAML 1.1; yaml-rs reads YAML 1.2 about ten times faster. The two agree on the plain
block YAML that record files use, except in how plain scalars are typed: PyYAML reads ``yes``,
``2026-03-09``, ``1:20`` and ``010`` as a flag, a date, 80 and 8; yaml-rs as text, text, text
and 10. ``read_plain`` hands yaml-rs only what both read alike, gives the plain scalars PyYAML
types otherwise PyYAML's own types, and answers None for everything else (anchors, tags, flow
mappings, escapes, odd number forms, anything yaml-rs rejects), which PyYAML then reads, with
its error messages and lines. Key lines are not worked out here: only a file with a problem
needs them, and PyYAML gives them then (``registry.store.yamlio.LoadedYaml``).

``tests/test_db_yaml_fast_path.py`` checks the equality on every record and test file, the
writer's output, edge cases and thousands of random mutations of real records.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:  # a compiled wheel; where it cannot be installed, PyYAML reads every file
    import yaml_rs
except ImportError:  # pragma: no cover - exercised only where the wheel is missing
    yaml_rs = None  # type: ignore[assignment]

__all__ = ["available", "read_plain", "version"]


class _NotPlain(Exception):
    """The text uses YAML the two readers might read differently (or is invalid): PyYAML reads it."""


def available() -> bool:
    """Whether the fast path can be taken at all (yaml-rs installed)."""
    return yaml_rs is not None


def version() -> str:
    """yaml-rs's version, or 'none': what it reads is part of what the parse cache depends on."""
    return str(yaml_rs.__version__) if yaml_rs is not None else "none"


# -- what PyYAML types, and how ----------------------------------------------------------------

_RESOLVERS = yaml.SafeLoader.yaml_implicit_resolvers
_CONSTRUCTORS = yaml.SafeLoader.yaml_constructors
_CONSTRUCTED_TAGS = frozenset("tag:yaml.org,2002:" + name for name in ("null", "bool", "int", "float", "timestamp"))
_CONSTRUCTOR = yaml.SafeLoader("")
#: First characters of a plain scalar that PyYAML may read as other than text.
_TYPED_FIRST = frozenset(first for first in _RESOLVERS if first)
#: Of those, the letters: they begin only flags and nulls ('yes', 'False', 'null', ...), of at most 5 letters.
_WORD_FIRST = frozenset(first for first in _TYPED_FIRST if first.isalpha())
_PYYAML_TYPED = "(?:" + "|".join(dict.fromkeys(
    f"(?x:{regexp.pattern[1:-1]})" for resolvers in _RESOLVERS.values() for _, regexp in resolvers)) + ")"
#: A plain decimal that yaml-rs reads as the number PyYAML reads (no leading zero, no exponent, at most 18 digits).
_CANONICAL = r"[-+]?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]+)?"
#: Text that yaml-rs reads as a number, flag or null when it is plain: found as text, it was quoted.
_YAML_RS_TYPED = rf"(?:{_CANONICAL}|true|True|TRUE|false|False|FALSE|null|Null|NULL|~)"
#: Text PyYAML reads as other than text when plain, and yaml-rs as text: only how it was written tells.
_AMBIGUOUS = re.compile(rf"(?!{_YAML_RS_TYPED}\Z){_PYYAML_TYPED}\Z")


def _pyyaml_value(text: str) -> Any:
    """A plain scalar typed the way PyYAML's safe loader types it (resolver, then constructor)."""
    tag = next((tag for tag, pattern in _RESOLVERS.get(text[:1], ()) if pattern.match(text)), None)
    if tag is None:
        return text
    if tag not in _CONSTRUCTED_TAGS:
        raise _NotPlain  # '<<', '=': PyYAML refuses them, with a message
    try:
        return _CONSTRUCTORS[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, text))
    except Exception as exc:  # '2026-02-30': PyYAML's own reading gives the error, with its line
        raise _NotPlain from exc


# -- what the text may hold ----------------------------------------------------------------------

_CONTROL = bytes(range(0x00, 0x0A)) + bytes(range(0x0B, 0x20)) + b"\x7f"
#: Bytes that end the fast path: control characters (tabs and carriage returns included) and
#: backslashes (escapes in double quotes differ between YAML 1.1 and 1.2).
_REFUSED = frozenset(_CONTROL + b"\\")
#: Bytes that call for a closer look: anchors, aliases, tags, flow mappings, merge and complex
#: keys, flow sequences (how deep they nest), directives, and every byte of a non-ASCII character.
_LOOKED_AT = _CONTROL + b"\\&*!{}<?[%" + bytes(range(0x80, 0x100))
_UNREMARKABLE = bytes(b for b in range(256) if b not in _LOOKED_AT)
_NODE = r"(?:^|(?<=[\n\[{,])|(?<=: )|(?<=- )) *"
_INDICATOR = re.compile(_NODE + r"(?:[&*!%]|<<|\?(?: |\n|$))")
#: The one form of flow mapping taken: on one line, plain keys, plain values without indicators
#: ('{section: Section 3.3, page: 6}'); any other '{' or '}' in the text sends it to PyYAML.
_FLOW_VALUE = r"[^:{}\[\],#'\"?&*!|>%@`\n]*?"
_SIMPLE_FLOW_MAPPING = re.compile(
    r"\{(?:(?<=: \{)|(?<=- \{)) *(?:[A-Za-z_][A-Za-z0-9_-]*: +" + _FLOW_VALUE
    + r"(?: *, *[A-Za-z_][A-Za-z0-9_-]*: +" + _FLOW_VALUE + r")*)? *\}(?= *(?:\n| #))")
_NESTED_FLOW = re.compile(r"\[[^\]\n]*\[")
#: A flow sequence holding a character that begins something other than a plain scalar there (to
#: PyYAML), or ends one early: ':' and '?' (mapping indicators in flow), block scalar and other indicators.
_ODD_FLOW = re.compile(r"\[[^\]]*?(?:[:?|>#@`'\"]|- )[^\]]*\]?")
_UNUSUAL_CHARACTERS = re.compile("[\x85\u2028\u2029\ufeff]")
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE
#: Indentation deep enough that nesting could reach PyYAML's depth limit (``yamlio.MAX_DEPTH``).
_DEEP = "\n" + " " * 24
_MAX_DEPTH = 16
#: A word that may begin a plain scalar holding a number (the character before it is matched too).
_NUMBER_CANDIDATE = re.compile(r"[-+._0-9](?<![^ \[{,\n][-+._0-9])[0-9A-Za-z_.+-]*")
#: What yaml-rs may read as a number (a superset: leading and inner underscores, any case of radix
#: prefix, exponents), and the plain decimals that both readers read as the same number.
_YAML_RS_NUMBER = re.compile(r"[-+]?_*(?:0[xXoObB][0-9a-fA-F_]*|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9_]*)?"
                             r"|\.[0-9_]+(?:[eE][-+]?[0-9_]*)?)")
_CANONICAL_NUMBER = re.compile(_CANONICAL)
#: Where a whole plain scalar ends.
_SCALAR_END = re.compile(r" *(?:\n|,|\]|\}| #|:(?: |\n|$)|$)")
_MARKER_BASE = 10**17 + 7


def read_plain(text: str, raw: bytes) -> dict[str, Any] | None:
    """The mapping PyYAML's safe loader reads from ``text`` (``raw``: its UTF-8 bytes), or None.

    None means: read it with PyYAML. It never means the file is wrong, and a mapping returned
    is equal to PyYAML's, type for type (``True`` is not ``1``, a date is not its text).
    """
    if yaml_rs is None:
        return None
    try:
        _refuse_unusual(text, raw)
        data = yaml_rs.loads(text, parse_datetime=False)
        if type(data) is not dict:
            return None
        seen = _Seen()
        _walk_mapping(data, seen, _MAX_DEPTH)
        if seen.numbers and _odd_number(text):
            return None
        if seen.ambiguous:
            data = _typed_as_pyyaml(text, data, seen.ambiguous)
        return data
    except _NotPlain:
        return None
    except Exception:  # noqa: BLE001 - yaml-rs's errors for invalid YAML: PyYAML says what is wrong
        return None


def _refuse_unusual(text: str, raw: bytes) -> None:
    looked_at = raw.translate(None, _UNREMARKABLE)
    if looked_at:
        found = set(looked_at)
        if not found.isdisjoint(_REFUSED):
            raise _NotPlain
        if max(found) >= 0x80 and (_UNUSUAL_CHARACTERS.search(text) or _NON_PRINTABLE.search(text)):
            raise _NotPlain
        if not found.isdisjoint(b"&*!<?%") and _INDICATOR.search(text):
            raise _NotPlain
        if (0x7B in found or 0x7D in found) and not _simple_flow_mappings(text):
            raise _NotPlain
        if 0x5B in found and (_NESTED_FLOW.search(text) or _ODD_FLOW.search(text)):
            raise _NotPlain
    if (not text.endswith("\n") or text.startswith(("---", "...")) or "\n---" in text or "\n..." in text
            or _DEEP in text or "- -" in text or "-  -" in text):
        raise _NotPlain


def _odd_number(text: str) -> bool:
    """Whether a whole plain scalar in ``text`` is a number in a form the two readers may read apart (010,
    0o17, 0X1F, 08, 1e3, 1_0e3, .5e3, -.5, ...): any that yaml-rs may read as a number but is no plain decimal."""
    for match in _NUMBER_CANDIDATE.finditer(text):
        token = match.group()
        if (_YAML_RS_NUMBER.fullmatch(token) and not _CANONICAL_NUMBER.fullmatch(token)
                and _SCALAR_END.match(text, match.end()) and _scalar_starts(text, match.start())):
            return True
    return False


def _simple_flow_mappings(text: str) -> bool:
    """Whether every '{' and '}' in ``text`` belongs to a flow mapping of the one simple form taken."""
    count = len(_SIMPLE_FLOW_MAPPING.findall(text))
    return text.count("{") == count == text.count("}")


def _scalar_starts(text: str, at: int) -> bool:
    """Whether a plain scalar may begin at ``at``: at a line's start, after ': ', '- ', '? ', '[' or ','."""
    before = at
    while before and text[before - 1] == " ":
        before -= 1
    if before == 0 or text[before - 1] in "\n[{":
        return True
    if text[before - 1] == ",":
        return "[" in text or "{" in text  # in a flow collection, possibly begun lines above
    return text[before - 1] in ":-?" and before < at


class _Seen:
    """What a walk over yaml-rs's data found: numbers (whose written form must be checked), ambiguous text."""

    __slots__ = ("ambiguous", "numbers")

    def __init__(self) -> None:
        self.numbers = False
        self.ambiguous: set[str] | None = None


def _walk_mapping(mapping: dict[Any, Any], seen: _Seen, room: int) -> None:
    if room < 0:
        raise _NotPlain
    for key, value in mapping.items():
        if type(key) is str:
            if key[:1] in _TYPED_FIRST and _AMBIGUOUS.match(key):
                raise _NotPlain
        elif type(key) is int:
            seen.numbers = True
        else:
            raise _NotPlain
        _walk_value(value, seen, room)


def _walk_value(value: Any, seen: _Seen, room: int) -> None:
    kind = type(value)
    if kind is str:
        if value[:1] == "\n" and not value.strip("\n"):
            raise _NotPlain  # an empty block scalar: yaml-rs keeps a line break PyYAML drops
        first = value[:1]
        if first in _TYPED_FIRST and (len(value) <= 5 or first not in _WORD_FIRST) and _AMBIGUOUS.match(value):
            if seen.ambiguous is None:
                seen.ambiguous = set()
            seen.ambiguous.add(value)
    elif kind is dict:
        _walk_mapping(value, seen, room - 1)
    elif kind is list:
        if room < 1:
            raise _NotPlain
        for item in value:
            _walk_value(item, seen, room - 1)
    elif kind is int:
        if not -10**18 < value < 10**18:
            raise _NotPlain
        seen.numbers = True
    elif kind is float:
        if not -1e300 < value < 1e300:  # infinities, NaN, and numbers near the end of the range
            raise _NotPlain
        seen.numbers = True
    elif kind is not bool and value is not None:
        raise _NotPlain


def _typed_as_pyyaml(text: str, data: dict[str, Any], ambiguous: set[str]) -> dict[str, Any]:
    """``data`` with the plain scalars among ``ambiguous`` typed as PyYAML types them; quoted ones stay text.

    Whether a scalar was quoted is not in yaml-rs's data, so each ambiguous value is replaced in
    the text by a number (that yaml-rs types as a number only where it is plain) and the text read
    again: where the witness holds the number, the value was plain.
    """
    markers: dict[str, int] = {}
    marked = text
    for index, value in enumerate(sorted(ambiguous, key=len, reverse=True)):
        marker = _MARKER_BASE + index * 1009
        if str(marker) in text:
            raise _NotPlain
        markers[value] = marker
        marked = marked.replace(value, str(marker))
    witness = yaml_rs.loads(marked, parse_datetime=False)
    return _retyped(data, witness, markers)  # type: ignore[no-any-return]


def _retyped(value: Any, witness: Any, markers: dict[str, int]) -> Any:
    kind = type(value)
    if kind is str:
        marker = markers.get(value)
        if marker is None:
            return value
        if type(witness) is int and witness == marker:
            return _pyyaml_value(value)
        if witness != str(marker):
            raise _NotPlain  # written over several lines, or otherwise not found whole in the text
        return value
    if kind is dict:
        if type(witness) is not dict or len(witness) != len(value):
            raise _NotPlain
        return {key: _retyped(item, seen, markers) for (key, item), seen in zip(value.items(), witness.values(),
                                                                                  strict=True)}
    if kind is list:
        if type(witness) is not list or len(witness) != len(value):
            raise _NotPlain
        return [_retyped(item, seen, markers) for item, seen in zip(value, witness, strict=True)]
    return value
