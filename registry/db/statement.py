"""The one statement a query may run: split by the rules of the database's own SQL, and read-only.

``check_read_only`` takes a single SELECT or WITH, and refuses anything else (a second statement, a
write, a session change) naming what it found, before the database sees it; ``split_statements``
splits SQL text into statements the way SQLite or PostgreSQL does (strings, quoted names, comments,
PostgreSQL's dollar quotes and nested comments).
"""

from __future__ import annotations

import re

from registry.errors import RegistryError

ALLOWED_FIRST_WORDS = ("select", "with")
#: Statements that change a database or a session; named as such when refused.
WRITE_WORDS = frozenset({
    "insert", "update", "delete", "replace", "upsert", "merge", "create", "drop", "alter", "truncate", "attach",
    "detach", "pragma", "vacuum", "reindex", "analyze", "begin", "commit", "end", "rollback", "savepoint",
    "release", "grant", "revoke", "copy", "set", "reset", "call", "do", "lock", "listen", "notify", "load",
    "cluster", "refresh", "comment", "security", "discard", "prepare", "execute", "deallocate", "import",
})



class QueryError(RegistryError):
    """A query that cannot run, or was stopped; the message says why and the hint what to try."""


WRITE_HINT = "only SELECT (or WITH ... SELECT) queries run here; to change data, edit the records and rebuild"


#: An identifier or keyword; both SQLite and PostgreSQL allow ``$`` after its first character.
_WORD = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9$\u0080-\U0010ffff]*")
#: A PostgreSQL dollar quote's opening (and closing) tag: ``$$`` or ``$tag$`` (``$1`` is a parameter).
_DOLLAR_TAG = re.compile(r"\$(?:[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*)?\$")
DIALECTS = ("sqlite", "postgresql")


def split_statements(sql: str, dialect: str = "sqlite") -> list[str]:
    """The statements in ``sql``, split at semicolons outside quotes and comments, comments removed.

    Quotes and comments follow the rules of ``dialect``, so that the statements found are the ones
    that database would see: SQLite also quotes names with `backticks` and [brackets]; PostgreSQL
    has dollar quotes ($$...$$, $tag$...$tag$), escape strings (E'it\\'s', where a backslash
    escapes a quote) and nested block comments. A quote left open is an error.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    postgres = dialect == "postgresql"
    statements: list[str] = []
    current: list[str] = []
    i, n = 0, len(sql)
    closers = {"'": "'", '"': '"'} if postgres else {"'": "'", '"': '"', "`": "`", "[": "]"}
    while i < n:
        char = sql[i]
        word = _WORD.match(sql, i)
        if word is not None:
            # A whole name at once: a $ inside one (a$$b) opens no quote, and E'...' is told from name'...'.
            i = word.end()
            if postgres and word.group() in ("E", "e") and sql.startswith("'", i):
                end = _escape_string_end(sql, i)
                current.append(sql[word.start():end + 1])
                i = end + 1
            else:
                current.append(word.group())
        elif char in closers:
            end = sql.find(closers[char], i + 1)
            while end != -1 and char in "'\"`" and sql[end + 1:end + 2] == char:  # doubled quote inside
                end = sql.find(char, end + 2)
            if end == -1:
                raise _unclosed(char)
            current.append(sql[i:end + 1])
            i = end + 1
        elif postgres and char == "$" and (tag := _DOLLAR_TAG.match(sql, i)) is not None:
            end = sql.find(tag.group(), tag.end())
            if end == -1:
                raise QueryError(
                    f"the query has an unclosed {tag.group()} quote",
                    f"end the quoted text with a second {tag.group()}, for example: SELECT $$it's$$",
                )
            i = end + len(tag.group())
            current.append(sql[tag.start():i])
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            i = n if end == -1 else end
            current.append(" ")
        elif sql.startswith("/*", i):
            i = _block_comment_end(sql, i, nested=postgres)
            current.append(" ")
        elif char == ";":
            statements.append("".join(current).strip())
            current = []
            i += 1
        else:
            current.append(char)
            i += 1
    statements.append("".join(current).strip())
    return [statement for statement in statements if statement]


def _unclosed(char: str) -> QueryError:
    return QueryError(
        f"the query has an unclosed {char} quote",
        "close the quote; in SQL, text is written in single quotes: WHERE unit = 'gigabyte'",
    )


def _escape_string_end(sql: str, start: int) -> int:
    """The closing quote of the PostgreSQL escape string whose opening quote is at ``start``."""
    i, n = start + 1, len(sql)
    while i < n:
        if sql[i] == "\\":
            i += 2  # a backslash escapes the next character, a quote included
        elif sql[i] == "'":
            if sql.startswith("'", i + 1):  # a doubled quote inside
                i += 2
            else:
                return i
        else:
            i += 1
    raise _unclosed("'")


def _block_comment_end(sql: str, start: int, *, nested: bool) -> int:
    """Just past the block comment opened at ``start``; PostgreSQL's nest (/* /* */ */), SQLite's do not."""
    if not nested:
        end = sql.find("*/", start + 2)
        return len(sql) if end == -1 else end + 2
    depth, i, n = 1, start + 2, len(sql)
    while i < n and depth:
        if sql.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif sql.startswith("*/", i):
            depth, i = depth - 1, i + 2
        else:
            i += 1
    return i


def check_read_only(sql: str, dialect: str = "sqlite") -> str:
    """The single SELECT/WITH statement in ``sql`` (comments removed), or a QueryError saying what is wrong."""
    statements = split_statements(sql, dialect)
    if not statements:
        raise QueryError("the query is empty",
                         "write a SELECT, for example: registry query \"SELECT * FROM results_flat\"")
    if len(statements) > 1:
        raise QueryError(
            f"the query holds {len(statements)} statements; only one runs at a time",
            "remove the semicolons between statements and run them one by one",
        )
    statement = statements[0]
    match = re.match(r"[(\s]*([A-Za-z_]+)", statement)
    first = match.group(1).lower() if match else ""
    if first in ALLOWED_FIRST_WORDS:
        return statement
    if first in WRITE_WORDS:
        raise QueryError(f"{first.upper()} statements are not allowed: the database is read-only", WRITE_HINT)
    raise QueryError(
        f"a query must start with SELECT or WITH, but this one starts with {statement.split()[0]!r}",
        "check the spelling, for example: SELECT result_id, printed_value, unit FROM results_flat",
    )


