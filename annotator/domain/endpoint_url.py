"""Endpoint URLs as they may be stored and shown: without the credentials someone wrote into them.

`http://user:secret@host/v1` or `https://host/v1?api_key=sk-...` work for reaching a server behind a proxy,
but a URL is written into the database (trajectories.agent_endpoint, judge_runs.base_url), bundles, exports
and error messages. Everything that stores or shows an endpoint's URL passes it through :func:`safe_url`
first; only the client that connects ever holds the URL as given.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# Query parameters that may carry a credential (api_key, apiKey, key, access_token, sig, password, ...): leaving
# out a harmless one only shortens the URL shown, keeping a key would leak it.
_SECRET_PARAMETER = re.compile(r"key|token|secret|pass|pwd|auth|sig|credential", re.I)


def safe_url(url: str) -> str:
    """`url` without user name and password, query parameters that look like keys and a fragment; a text that
    is not a URL comes back with anything up to its last `@` removed."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
        port = parts.port  # a malformed port raises ValueError here
    except ValueError:
        return url.rpartition("@")[2]
    if not parts.scheme or host is None:
        return url.rpartition("@")[2]
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(name, value) for name, value in query if not _SECRET_PARAMETER.search(name)]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(kept) if kept else "", ""))


def url_secrets(url: str) -> list[str]:
    """The credentials written into `url` (password, user name, key-like parameters' values), to blank out of
    texts that might quote them."""
    try:
        parts = urlsplit(url.strip())
        found = [parts.password or "", parts.username or ""]
    except ValueError:
        return []
    found += [value for name, value in parse_qsl(parts.query) if _SECRET_PARAMETER.search(name)]
    return [secret for secret in found if secret]


_URL_IN_TEXT = re.compile(r"\b[a-zA-Z][\w+.-]*://[^\s\"'<>]+")


def safe_urls_in(text: str) -> str:
    """`text` with every URL in it passed through :func:`safe_url` (for messages and log lines that quote one)."""
    return _URL_IN_TEXT.sub(lambda found: safe_url(found.group()), text)


def safe_optional_url(url: str | None) -> str | None:
    return None if url is None else safe_url(url)
