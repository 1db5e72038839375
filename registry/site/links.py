"""Where a record's page lies on the published site, and the address a base URL gives it.

The site writes each record's page at ``<kind>/<id>.html``; the exports (CSV's page_url, PROV's
identifiers) and the Datasette metadata link there when the user says where the site is published.
Without a base URL no address is made up: the relative path is all that is known.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from registry.errors import RegistryError


def page_path(kind: str, record_id: str) -> str:
    """'result/<id>.html': a record's page, relative to the site's root (an id holds no '/', '.' or '..')."""
    return f"{kind}/{record_id}.html"


def page_url(base_url: str, kind: str, record_id: str) -> str:
    return f"{base_url}{page_path(kind, record_id)}"


#: The ``registry_meta`` key under which a database built with a base URL keeps it: its views' ``*_page``
#: columns read it, so a row's id leads to its page (Datasette shows an http(s) value as a link).
SITE_URL_KEY = "site_url"


def page_url_sql(kind: str, record_id: str) -> str:
    """The SQL for a record's page address from two SQL expressions (its kind and its id): the base URL the
    build kept (``SITE_URL_KEY``) followed by ``page_path``, or NULL where no base URL was given."""
    head, middle, tail = page_path("\x00", "\x00").split("\x00")
    parts = [f"'{text}'" for text in (head, middle, tail)]
    site = f"(SELECT m.value FROM registry_meta m WHERE m.key = '{SITE_URL_KEY}')"
    return " || ".join(p for p in (site, parts[0], kind, parts[1], record_id, parts[2]) if p != "''")


def checked_base_url(base_url: str) -> str:
    """The site's address, ending in '/': an http(s) URL with a host, and no query or fragment."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise RegistryError(f"the base URL {base_url!r} is not the http(s) address of a published site",
                            "give the site's address, for example https://example.org/registry/")
    return base_url if base_url.endswith("/") else base_url + "/"
