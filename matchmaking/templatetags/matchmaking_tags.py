"""The matchmaking parts of other apps' pages: the lobby's seeks and follows, a profile's follow and
challenge, a finished game's rematch. Loaded by templates (``{% load matchmaking_tags %}``), so the games
and accounts code never imports ``matchmaking``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.selectors import blocked_ids
from games import kinds
from games.forms import time_control_label
from games.i18n import game_name
from matchmaking import follows, rematch, services
from matchmaking.models import RematchOffer

register = template.Library()


@register.inclusion_tag("matchmaking/_lobby.html", takes_context=True)
def matchmaking_lobby(context: dict[str, Any]) -> dict[str, Any]:
    """The lobby's "Find a game" section: one-button pairing, the user's seeks, others' open seeks.

    One query for the seeks; for a signed-in player one more for whom they
    follow, and the followed players' games only if they follow anyone.
    """
    request = context["request"]
    user = request.user if request.user.is_authenticated else None
    seeks = services.open_seeks(user)
    out: dict[str, Any] = {
        "request": request,
        "user": user,
        "mine": [s for s in seeks if user is not None and s.user_id == user.pk],
        "others": [s for s in seeks if user is None or s.user_id != user.pk],
        "max_open": services.MAX_OPEN_SEEKS,
        "quick_kinds": kinds.all_kinds(),  # a one-button pairing for each installed game
        "follows_any": False,
    }
    if user is not None and follows.followed_ids(user).exists():
        out["follows_any"] = True
        out["followed_running"], out["followed_results"] = follows.followed_games(user)
    return out


@register.inclusion_tag("matchmaking/_profile.html", takes_context=True)
def profile_actions(context: dict[str, Any], owner: Any) -> dict[str, Any]:
    """A profile's "Follow" / "Unfollow" and "Challenge" (the new-game form with the player invited).

    Nothing for visitors, on one's own profile, or (blocks win, quietly)
    between players one of whom blocked the other.
    """
    request = context["request"]
    user = request.user if request.user.is_authenticated else None
    show = user is not None and user.pk != owner.pk and owner.deleted is None
    if show and user is not None:
        show = owner.pk not in blocked_ids(user) and user.pk not in blocked_ids(owner)
    return {
        "request": request,
        "owner": owner,
        "show": show,
        "following": show and follows.is_following(user, owner),
    }


@register.inclusion_tag("matchmaking/_rematch.html", takes_context=True)
def rematch_panel(context: dict[str, Any], game: Any) -> dict[str, Any]:
    """A finished game's "Rematch": offer, accept or decline, who accepted, where the new game is."""
    request = context["request"]
    user = request.user if request.user.is_authenticated else None
    seats = list(game.seats.all())
    mine = user is not None and any(s.user_id == user.pk for s in seats)
    if user is None or not mine or not game.is_finished or any(s.user_id is None for s in seats):
        return {"show": False}
    offer: RematchOffer | None = rematch.offer_of(game, timezone.now())
    accepted = set(offer.accepted) if offer else set()
    return {
        "show": True,
        "request": request,
        "game": game,
        "offer": offer,
        "i_accepted": user.pk in accepted,
        "waiting_for": [s.name for s in seats if s.user_id not in accepted],
        "accepted_names": [s.name for s in seats if s.user_id in accepted],
    }


@register.simple_tag
def seek_summary(seek: Any) -> str:
    """One line for a seek: game, players, rated or casual, time per move, rating range, how long it has waited."""
    if seek.players_min == seek.players_max:
        players = ngettext("%(n)d player", "%(n)d players", seek.players_max) % {"n": seek.players_max}
    else:
        players = _("%(min)d to %(max)d players") % {"min": seek.players_min, "max": seek.players_max}
    if seek.rating_low is not None and seek.rating_high is not None:
        ratings = _("ratings %(low)d to %(high)d") % {"low": seek.rating_low, "high": seek.rating_high}
    elif seek.rating_low is not None:
        ratings = _("ratings from %(low)d") % {"low": seek.rating_low}
    elif seek.rating_high is not None:
        ratings = _("ratings up to %(high)d") % {"high": seek.rating_high}
    else:
        ratings = _("any rating")
    parts = [
        game_name(seek.kind),
        players,
        _("rated") if seek.rated else _("casual"),
        _("%(time)s per move") % {"time": time_control_label(seek.time_per_move)},
        ratings,
        _("waiting for %(time)s") % {"time": timesince(seek.created)},
    ]
    return ", ".join(str(p) for p in parts)


@register.inclusion_tag("matchmaking/_settings.html")
def bans_settings(user: Any) -> dict[str, Any]:
    """The settings page's "Kingdom bans" section: the cards banned now and the link to change them."""
    return {"cards": follows.bans_get(user)}
