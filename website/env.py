"""Typed readers of the environment for ``website.settings``: each stops start-up with a message naming the variable.

``NAME_FILE`` may hold a path whose contents are used instead of ``NAME``
(for secrets mounted as files).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import overload
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


@overload
def envstr(name: str, default: str) -> str: ...
@overload
def envstr(name: str, default: None = None) -> str | None: ...
def envstr(name: str, default: str | None = None) -> str | None:
    """Return ``$NAME``, or the contents of the file named by ``$NAME_FILE``.

    Returns ``default`` when neither is set. Raises ImproperlyConfigured when
    ``NAME_FILE`` names a file that cannot be read.
    """
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={path!r} cannot be read: {exc}") from exc
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    """Return ``$NAME`` as a boolean (1/0, true/false, yes/no, on/off)."""
    value = envstr(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def envint(name: str, default: int) -> int:
    """Return ``$NAME`` as an integer."""
    value = envstr(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """Return ``$NAME`` split on commas, blanks dropped."""
    value = envstr(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def redis_with_db(url: str, db: int) -> str:
    """Return the Redis URL ``url`` pointing at database ``db`` instead (same server, same credentials)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{db}"))


def redis_other_db(url: str) -> str:
    """Return the Redis URL ``url`` with the next database number (``/1`` -> ``/2``, none -> ``/1``)."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    return urlunsplit(parts._replace(path=f"/{int(path) + 1 if path.isdigit() else 1}"))


#: Database engines' default ports, so a URL with the port and one without name one site.
DEFAULT_PORTS = {"postgresql": "5432", "mysql": "3306"}
#: Names of this machine, so "localhost" and "127.0.0.1" name one site.
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]", ""}


def site_key(database: Mapping[str, object]) -> str:
    """Return a short name (8 hex digits) for the site whose default database is ``database``.

    ``database`` is the ``DATABASES["default"]`` dict (``ENGINE``, ``NAME``, ``HOST``, ``PORT``).
    A site is its database: two checkouts on one machine have two (each its own SQLite file in
    ``var/``, or two PostgreSQL databases) and so two names, while every process of one site
    (web, worker, beat) computes the same one, however its ``DATABASE_URL`` spells the same
    database here (a default port left out, "localhost" for 127.0.0.1). Processes on several
    machines that reach the database by different host names must be given one ``HERALD_SITE_KEY``.
    Settings prefix the site's Redis keys with it.
    """
    engine = str(database.get("ENGINE") or "").rsplit(".", 1)[-1]
    host = str(database.get("HOST") or "").lower()
    host = "127.0.0.1" if host in LOOPBACK else host
    port = str(database.get("PORT") or DEFAULT_PORTS.get(engine, ""))
    name = str(database.get("NAME") or "")
    if engine == "sqlite3" and name:
        name = str(Path(name).resolve())
    return hashlib.sha256("|".join((engine, host, port, name)).encode()).hexdigest()[:8]


def email_config(url: str) -> dict[str, object]:
    """Turn an ``EMAIL_URL`` into Django ``EMAIL_*`` settings.

    Schemes: ``console:``, ``locmem:``, ``dummy:``, ``file:///path``,
    ``smtp://user:password@host:port`` (STARTTLS with ``?tls=1``),
    ``smtp+tls://`` and ``smtp+ssl://``. Raises ImproperlyConfigured for others.
    """
    parts = urlsplit(url)
    backends = {
        "console": "django.core.mail.backends.console.EmailBackend",
        "locmem": "django.core.mail.backends.locmem.EmailBackend",
        "dummy": "django.core.mail.backends.dummy.EmailBackend",
        "file": "django.core.mail.backends.filebased.EmailBackend",
    }
    if parts.scheme in backends:
        config: dict[str, object] = {"EMAIL_BACKEND": backends[parts.scheme]}
        if parts.scheme == "file":
            config["EMAIL_FILE_PATH"] = parts.path
        return config
    if parts.scheme in {"smtp", "smtp+tls", "smtp+ssl"}:
        query = parse_qs(parts.query)
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtp+ssl" else 587),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_TLS": parts.scheme == "smtp+tls" or query.get("tls") == ["1"],
            "EMAIL_USE_SSL": parts.scheme == "smtp+ssl",
        }
    raise ImproperlyConfigured(f"EMAIL_URL has an unknown scheme {parts.scheme!r}")
