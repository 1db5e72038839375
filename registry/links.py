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


def checked_base_url(base_url: str) -> str:
    """The site's address, ending in '/': an http(s) URL with a host, and no query or fragment."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise RegistryError(f"the base URL {base_url!r} is not the http(s) address of a published site",
                            "give the site's address, for example https://example.org/registry/")
    return base_url if base_url.endswith("/") else base_url + "/"
