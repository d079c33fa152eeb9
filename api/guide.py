"""The API's guide: ``docs/api.md`` and the games' move notation, served as pages at ``/api/v1/guide/``.

The documentation lives in ``docs/`` (a clone has it, and the tests check it
against the engines); these views render the same files with markdown-it-py,
so a reader of the site and a reader of the repository read one text. Links
between the served files point at their pages. Each installed game
(``games.kinds``) whose move notation is written, ``docs/<kind>-moves.md``,
gets a page ``<kind>-moves``; a game without that file has none.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt

from games import kinds

if TYPE_CHECKING:
    from markdown_it.renderer import RendererHTML
    from markdown_it.token import Token


def docs_dir() -> Path:
    """The folder the guide's files are read from (``docs/`` of the checkout)."""
    return Path(settings.BASE_DIR) / "docs"


def pages() -> dict[str, tuple[str, str]]:
    """Page name -> (file in ``docs/``, title in the active language), in the order the guide lists them.

    The index page has the name "" (``api.md``); then each installed game, in
    the games' list order, whose ``docs/<kind>-moves.md`` exists.
    """
    found = {"": ("api.md", _("Herald's API"))}
    for kind in kinds.all_kinds():
        filename = f"{kind.name}-moves.md"
        if (docs_dir() / filename).is_file():
            found[f"{kind.name}-moves"] = (filename, _("%(game)s: moves, views and decisions") % {"game": kind.label})
    return found


def page_url(name: str) -> str:
    """The guide page ``name`` ("" for the index)."""
    return reverse("api_guide_index") if not name else reverse("api_guide", args=[name])


def _link_open(self: RendererHTML, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Point a link at another served file (``<kind>-moves.md``, ``docs/api.md``) to its page."""
    href = tokens[idx].attrGet("href")
    if isinstance(href, str):
        path, _sep, anchor = href.partition("#")
        stem = Path(path).name
        for name, (filename, _title) in pages().items():
            if stem == filename:
                tokens[idx].attrSet("href", page_url(name) + (f"#{anchor}" if anchor else ""))
    return self.renderToken(tokens, idx, options, env)


def _markdown() -> MarkdownIt:
    # Raw HTML off: the files are ours, but a page never needs it, and the CSP stays simple.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("link_open", _link_open)
    return md


@lru_cache(maxsize=8)
def _rendered(filename: str, mtime: float) -> str:
    """The file rendered to HTML (cached per modification time)."""
    return _markdown().render((docs_dir() / filename).read_text(encoding="utf-8"))


def render_doc(filename: str) -> str:
    """Render ``docs/<filename>`` to HTML.

    Raises:
        FileNotFoundError: the file is missing from ``docs/``.
    """
    path = docs_dir() / filename
    return _rendered(filename, path.stat().st_mtime)


def guide(request: HttpRequest, name: str = "") -> HttpResponse:
    """A page of the guide: ``name`` is a key of :func:`pages`; any other is 404."""
    served = pages()
    if name not in served:
        raise Http404
    filename, title = served[name]
    try:
        body = render_doc(filename)
    except FileNotFoundError:
        raise Http404 from None
    links = [(title_, page_url(key)) for key, (_f, title_) in served.items()]
    return render(
        request,
        "api/guide.html",
        {"title": title, "body": mark_safe(body), "pages": links, "schema_url": reverse("api:openapi-json")},
    )
