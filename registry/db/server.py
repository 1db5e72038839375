"""A database server (PostgreSQL) as the registry reaches it: an engine from a URL, and messages that say what to check.

Every failure to parse a URL, find its driver or connect is a ``RegistryError`` naming the URL with
its password hidden (``shown_url``). ``registry.db.build`` builds into a server, ``registry.db.query``
and ``registry.db.typed`` read from one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from registry.errors import RegistryError


def shown_url(url: str) -> str:
    """The URL with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def server_engine(url: str, *, read_only: bool = False, file_input: str = "out") -> Engine:
    """An engine for a database URL, with failures turned into messages that say what to check.

    ``read_only`` opens every session with ``default_transaction_read_only=on`` (added to any
    ``options`` the URL gives), so that no transaction in it can write, whatever it runs.
    ``file_input`` names the caller's input that takes a SQLite file (``registry.errors.INPUTS``), for the hint.
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise RegistryError(
            f"{url!r} is not a database URL",
            "write it as postgresql+psycopg://USER:PASSWORD@HOST:PORT/DATABASE",
        ) from exc
    if parsed.get_backend_name() != "postgresql":
        raise RegistryError(
            f"{{db}} {shown_url(url)!r}: only PostgreSQL servers are supported",
            "use a postgresql+psycopg:// URL, or {" + file_input + "} FILE for a SQLite file",
        )
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")  # the driver the postgres extra installs
    connect_args: dict[str, Any] = {}
    if read_only:
        given = parsed.query.get("options", "")
        given = " ".join(given) if isinstance(given, tuple) else given
        connect_args["options"] = f"{given} -c default_transaction_read_only=on".strip()
    try:
        return create_engine(parsed, pool_pre_ping=False, connect_args=connect_args)
    except (NoSuchModuleError, ModuleNotFoundError) as exc:
        raise RegistryError(
            f"the database driver for {parsed.drivername!r} is not installed",
            "install it with: pip install 'registry[postgres]' (psycopg), and use postgresql+psycopg:// URLs",
        ) from exc


def connection_error(url: str, exc: Exception) -> RegistryError:
    return RegistryError(
        f"cannot use the database at {shown_url(url)}: {first_line(exc)}",
        "check that the server is running and reachable, and the user, password and database name in the URL",
    )


def first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    message = str(orig if orig is not None else exc).strip()
    return message.splitlines()[0] if message else type(exc).__name__
