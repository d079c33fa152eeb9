"""Template helpers for game pages."""

from __future__ import annotations

import functools
import html
import json
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext

from games.eventtext import CARD_MARK, CARD_MARK_RE, card_anchor, card_label
from games.forms import time_control_label
from games.i18n import game_name as _game_name
from games.i18n import game_title as _game_title
from games.i18n import name_list as _name_list
from games.models import Game
from games.presence import seen_recently
from games.selectors import LOG_LIMIT, game_log, row_seats
from games.templatetags.clock_tags import clocks_html
from website import text

register = template.Library()


@register.filter
def one_line(value: Any) -> str:
    """Return users' text without line breaks or invisible control characters (``website.text.one_line``).

    For chat lines saved before the chat form refused them: a bidi override
    must not turn the rest of the line around, nor a line break split it.
    """
    return text.one_line(value)


@register.filter
def move_json(move: Any) -> str:
    """Return a move as compact JSON, for a button's ``value`` (autoescaped by the template)."""
    return json.dumps(move, separators=(",", ":"), ensure_ascii=False)


@register.filter
def move_label(move: Any) -> str:
    """Return a short label for a move button ("buy <card>", "end turn")."""
    if not isinstance(move, dict):
        return str(move)
    words = [str(move.get("act", "")).replace("_", " ")]
    words += [str(v) for k, v in move.items() if k not in ("act", "cards")]
    if move.get("cards") is not None:
        words.append(", ".join(map(str, move["cards"])) or "—")
    return " ".join(w for w in words if w)


@register.filter
def time_control(delta: Any) -> str:
    """Return a game's time per move as "4 hours" / "2 days"."""

    return time_control_label(delta)


@register.filter
def game_name(kind: str) -> str:
    """Return the name of a game kind in the active language (its ``GameKind.label``)."""

    return _game_name(kind)


@register.filter
def game_title(game: Any) -> str:
    """Return a game's title in the active language ("<name> #12")."""

    return _game_title(game)


@register.filter
def name_list(seats: Any) -> str:
    """Return the names of seats (or anything with ``name``) joined with the language's separator."""

    return _name_list(getattr(s, "name", s) for s in seats or [])


@register.simple_tag
def seat_link(seat: Any) -> str:
    """A seat's shown name, linked to the player's profile (not for bots or deleted players).

    A tag rather than an included template: the lobby draws it for every seat
    of up to 160 games.
    """
    from django.urls import get_script_prefix
    from django.utils.html import format_html

    user = seat.user if seat.user_id else None
    if user is None or getattr(user, "deleted", None):
        return format_html("{}", seat.name)
    return format_html('<a href="{}">{}</a>', _profile_url(get_script_prefix(), user.username), seat.name)


@register.simple_tag
def seat_presence(presence: Any, seat: Any) -> str:
    """Whether ``seat``'s player has the game open now, else when they were last seen (``games.presence``).

    ``presence`` is ``presence_of(game)`` (user id -> Presence); empty for bots,
    empty seats and players never seen. Times under a minute read "a moment ago",
    so the text does not change with every second.
    """
    found = (presence or {}).get(seat.user_id) if seat.user_id else None
    if found is None:
        return ""
    if found.here:
        return format_html('<span class="presence here">{}</span>', gettext("here now"))
    if found.last_seen is None:
        return ""
    if seen_recently(found.last_seen):
        text = gettext("last seen a moment ago")
    else:
        text = gettext("last seen %(time)s ago") % {"time": timesince(found.last_seen, depth=1)}
    return format_html('<span class="presence">{}</span>', text)


@functools.lru_cache(maxsize=4096)
def _profile_url(prefix: str, username: str) -> str:
    """``reverse("accounts:profile")`` remembered: a lobby names a player in many rows, and reverse is slow."""
    from django.urls import reverse

    return reverse("accounts:profile", args=[username])


@register.filter
def view_dump(view: Any) -> str:
    """A viewer's view as indented JSON, for the generic board's "raw view" panel.

    A filter, so only the board that shows it pays for it (not every page,
    poll and move of games with their own board).
    """
    return json.dumps(view, indent=1, ensure_ascii=False) if view is not None else ""


@register.simple_tag
def game_row(game: Any) -> str:
    """One game as a lobby or profile list item: title link, players, time control, clocks while running.

    Built in Python, like ``seat_link`` and ``clocks_html``: the lobby of a
    player with many games draws dozens of rows, and an included template
    per row cost several milliseconds each. Same texts (and catalogue
    entries) as the template it replaced. Expects seats prefetched with
    their users.
    """
    from django.utils.html import format_html, format_html_join
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    seats = list(game.seats.all())
    finished = game.status == Game.Status.FINISHED
    if finished:
        # Who won, and everyone's score beside their name: what a results list is read for.
        players = format_html_join(
            ", ", "{} ({})", ((seat_link(s), "–" if s.score is None else s.score) for s in seats)
        )
    else:
        players = format_html_join(", ", "{}", ((seat_link(s),) for s in seats))
    meta = [
        _("%(time)s per move") % {"time": time_control_label(game.time_per_move)},
        _("rated") if game.rated else _("casual"),
    ]
    if game.private:
        meta.append(_("invite only"))
    winners = [s for s in seats if s.rank == 1] if finished else []
    if winners:
        meta.insert(0, _("won by %(names)s") % {"names": _name_list(s.name for s in winners)})
    if game.is_open:
        free = game.seats_free
        meta.append(ngettext("%(free)s seat free", "%(free)s seats free", free) % {"free": free})
    if game.is_frozen:
        meta.append(_("stopped: a moderator will settle it"))
    return format_html(
        '<li class="game-row"><a href="{}">{}</a> <span class="players">{}</span> <span class="meta">{}</span>{}</li>',
        game.get_absolute_url(),
        _game_title(game),
        players,
        format_html_join(" · ", "{}", ((m,) for m in meta)),
        clocks_html(game) if game.is_active else "",
    )


#: How long a viewer's drawn log lines wait for the game's next position to reuse them (rewritten at each one).
LOG_TAIL_SECONDS = 2 * 24 * 3600
#: Part of the key of drawn log lines: change it when the log's wording or markup changes, so a deploy
#: draws every log afresh instead of extending lines drawn by the old code.
LOG_TAIL_VERSION = 3


def _log_tail_key(game: Any, viewer: int | None) -> str:
    """What a game's drawn log lines depend on besides the position: the log's own key without the seq.

    The game's creation time, because ids restart with a recreated database
    while the cache keeps old entries; the engine version, whose events the
    lines describe; the viewer (a player's lines show their own draws), the
    language, whether everything is revealed (the game is over), and the
    names shown. Hashed: names may hold anything.
    """
    import hashlib

    from django.utils.translation import get_language

    names = "\x1f".join(str(s.name) for s in game.seats.all())
    # A resignation adds a line without a move (selectors.resignation_lines): lines drawn before it are not reused.
    resigned = ".".join(str(s.position) for s in game.seats.all() if s.resigned)
    parts = (
        f"{game.pk}:{game.created.timestamp()}:{game.engine_version}:{LOG_TAIL_VERSION}:"
        f"{viewer}:{get_language()}:{game.status}:{names}:{resigned}"
    )
    return "herald:logtail:" + hashlib.sha256(parts.encode()).hexdigest()


def _log_line(title: str, entry: Any, first: bool = True, kind: str = "") -> str:
    """One log line (a ``selectors.LogEntry``) as its ``<li>``; ``title`` names the move number.

    ``first``: the move's first line drawn (the top one, newest first), the
    only one that shows the move's number; the others leave it blank, so a
    move that did many things reads as one block. Lines inside other plays
    (``eventtext.read_plays``) carry their depth (``data-depth``), which the stylesheet indents. ``kind``: the
    game's kind, whose card reference the line's cards link to (:func:`log_text`).
    """
    from django.utils.html import format_html

    depth = format_html(' data-depth="{}"', entry.depth) if getattr(entry, "depth", 0) else ""
    if first:
        return format_html(
            '<li class="move-start"{}><span class="seq" title="{}">{}</span> {}</li>',
            depth,
            title,
            entry.seq,
            log_text(entry.text, kind),
        )
    return format_html('<li{}><span class="seq"></span> {}</li>', depth, log_text(entry.text, kind))


def _drawn(title: str, newest_first: list[Any], kind: str = "") -> list[str]:
    """The ``<li>`` of each entry, newest first, the move number on each move's first (top) line only.

    A line of the site's own (``LogEntry.aside``: "X resigned") has no number
    and does not count as its move's top line.
    """
    from django.utils.html import format_html

    lines: list[str] = []
    above = None  # the seq of the move line drawn just above
    for e in newest_first:
        if getattr(e, "aside", False):
            lines.append(format_html('<li class="log-aside"><span class="seq"></span> {}</li>', log_text(e.text, kind)))
            continue
        lines.append(_log_line(title, e, first=above != e.seq, kind=kind))
        above = e.seq
    return lines


@register.filter
def log_text(text: str, kind: str = "") -> str:
    """A log sentence as HTML: escaped, each marked card (``eventtext.CARD_MARK``) a link to its entry in
    the game's card reference, named in the active language. An id that is no card stays plain text."""
    from django.urls import reverse
    from django.utils.html import conditional_escape, format_html
    from django.utils.safestring import mark_safe

    escaped = str(conditional_escape(text))
    if CARD_MARK[0] not in escaped:
        return mark_safe(escaped)  # noqa: S308 - escaped just above
    base = ""

    def link(match: Any) -> str:
        nonlocal base
        card_id = html.unescape(match.group(1))
        # The game's eventtext part names its cards (games.eventtext.card_label); an id it does not know stays text.
        label = card_label(kind, card_id) if kind else None
        if label is None:
            return str(conditional_escape(card_id))
        base = base or reverse("guide:cards", args=[kind])
        return format_html('<a class="card-link" href="{}#{}">{}</a>', base, card_anchor(kind, card_id), label)

    return mark_safe(CARD_MARK_RE.sub(link, escaped))  # noqa: S308 - the parts are escaped or format_html's


def _log_lines(
    game: Any, viewer: int | None, events: list[tuple[int, Any]], limit: int, settled: bool = False
) -> list[str]:
    """The log's ``<li>`` lines, newest first, at most ``limit``, reusing those drawn for an earlier position.

    Each position's lines are its new moves' lines on top of the previous
    position's (a move only adds to what happened before it), so a player's
    log after a move draws only that move's lines. The lines of the last
    position drawn for this viewer are kept in the cache under
    :func:`_log_tail_key` with their seq; they are reused only when the
    events in hand reach back past that seq, so no move's lines are missing
    (the snapshot keeps its last ``services.RECENT_EVENTS`` events).
    ``settled``: as for ``selectors.game_log``.
    """
    from django.core.cache import cache
    from django.utils.translation import gettext as _

    key = _log_tail_key(game, viewer)
    seq = game.last_seq
    kept = cache.get(key)
    reuse = kept is not None and events and events[0][0] <= kept[0] <= seq
    title = _("Move number")
    new = game_log(game, viewer, events=events, limit=limit, after_seq=kept[0] if reuse else None, settled=settled)
    lines = _drawn(title, list(reversed(new)), game.kind)
    if reuse:
        lines = (lines + kept[1])[:limit]
    if kept is None or kept[0] < seq:
        cache.set(key, (seq, lines), LOG_TAIL_SECONDS)
    return lines


@register.simple_tag
def log_entries(
    log: Any, game: Any = None, viewer: int | None = None, events: Any = None, settled: bool = False
) -> str:
    """A game's log as an ``<ol>``, newest first: from ``events`` when given, else ``log``.

    ``log``: ``selectors.game_log`` lines, oldest first (read only without
    ``events``). ``game``, ``viewer``, ``events``: the game, the reader's
    seat and the snapshot's ``(seq, Event)`` pairs, from which the lines are
    drawn by :func:`_log_lines`, reusing the previous position's.
    ``settled``: the position after ``events`` has its turn's player free
    to move (``viewing.turn_free``; a game's ``eventtext.read_plays`` reads
    the last plays by it).

    Newest first: the move that just happened is what a correspondence
    player looks for. A tag rather than a template loop: a log has up to a
    hundred lines and every first view of a position draws it.
    """
    from django.utils.html import format_html
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext as _

    if events and game is not None:
        lines = _log_lines(game, viewer, list(events), LOG_LIMIT, bool(settled))
    else:
        title = _("Move number")
        lines = _drawn(title, list(reversed(list(log or []))), getattr(game, "kind", ""))
    if not lines:
        return format_html('<p class="empty">{}</p>', _("No moves yet."))
    return format_html('<ol class="log-entries">{}</ol>', mark_safe("".join(lines)))  # noqa: S308 - each line is format_html's


#: How long a drawn lobby row is kept. Its key holds the minute, so a clock's "2 hours, 5 minutes left"
#: is never more than a minute old; the key also changes with every move, forfeit and finish.
ROW_CACHE_SECONDS = 90


@register.simple_tag
def game_rows(games: Any) -> str:
    """``game_row`` for each game of a list, reusing rows drawn within the same minute (the cache).

    A lobby draws up to 55 rows with clocks, the costliest part of the
    site's most visited page; a game's row looks the same to everyone who
    reads the same language in the same time zone, so players sharing games,
    and a player reloading, draw each row once a minute. Running and finished
    games only: an open game's row changes when someone joins, which its key
    cannot see. A row's key is the game's move number, status, turn and
    deadline (what a move, a forfeit or a vacation changes), the language,
    time zone and minute. Seats are read (one query) only for rows missing
    from the cache (one query for the list).
    """
    from django.core.cache import cache
    from django.db.models import prefetch_related_objects
    from django.utils import timezone
    from django.utils.safestring import mark_safe
    from django.utils.translation import get_language

    games = list(games or [])
    if not games:
        return ""
    minute = int(timezone.now().timestamp() // 60)
    where = f"{get_language()}:{timezone.get_current_timezone_name()}:{minute}"
    keys = {
        g.pk: f"herald:row:{g.pk}:{g.last_seq}:{g.status}:{'.'.join(map(str, g.to_act))}:"
        f"{g.deadline.timestamp() if g.deadline else ''}:{where}"
        for g in games
        if g.status in (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.FROZEN)
    }
    drawn = cache.get_many(list(keys.values())) if keys else {}
    missing = [g for g in games if keys.get(g.pk) not in drawn]
    if missing:
        prefetch_related_objects(missing, row_seats())
        new = {g.pk: game_row(g) for g in missing}
        cache.set_many({keys[pk]: html for pk, html in new.items() if pk in keys}, ROW_CACHE_SECONDS)
    else:
        new = {}
    return mark_safe("".join(new[g.pk] if g.pk in new else drawn[keys[g.pk]] for g in games))  # noqa: S308 - rows are format_html output
