"""Games and chat in the admin, with the moderators' actions and the full log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.http import signed_in_user
from games.admin import ChatMessageAdmin, GameAdmin
from games.models import ChatMessage, Game
from moderation import services
from moderation.admin.common import reason_action, require
from moderation.forms import GameActionForm
from moderation.models import ModerationAction
from moderation.selectors import with_hidden_flag

User = get_user_model()


admin.site.unregister(Game)


@admin.register(Game)
class ModeratedGameAdmin(GameAdmin):
    """Games with search, filters and the moderators' actions and full log."""

    list_display = ("id", "kind", "status", "players", "rated", "created", "finished", "last_seq")
    list_filter = ("status", "kind", "rated", "private", "created", "finished")
    search_fields = ("=id", "seats__user__username", "seats__user__display_name")
    date_hierarchy = "created"
    readonly_fields = ("moderation_links", *GameAdmin.readonly_fields)
    actions = ["abort_games"]

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """Refuse: a game is aborted through the moderators' action (audited, ratings reversed), never deleted."""
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        """Prefetch the seats for the players column."""
        return super().get_queryset(request).prefetch_related("seats__user")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        """Search; "#12" finds game 12."""
        return super().get_search_results(request, queryset, search_term.lstrip("#"))

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj: Game) -> str:
        """Seated players and bots."""
        return ", ".join(str(s.name) for s in obj.seats.all())

    @admin.display(description=gettext_lazy("moderation"))
    def moderation_links(self, obj: Game) -> str:
        """Links to the game page, the moderation form and the full log."""
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
            obj.get_absolute_url(),
            _("game page"),
            reverse("admin:games_game_moderate", args=[obj.pk]),
            _("moderate"),
            reverse("admin:games_game_full_log", args=[obj.pk]),
            _("full log (hidden information; logged)"),
        )

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        """Moderators (and superusers) only."""
        return request.user.has_perm(services.PERM_GAMES)

    @admin.action(description=gettext_lazy("Abort the selected games"), permissions=["moderate"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        """Abort each selected game (asks for a reason first)."""
        return reason_action(
            self,
            request,
            queryset,
            _("Abort games"),
            lambda game, reason: services.game_abort(moderator=signed_in_user(request), game_id=game.pk, reason=reason),
        )

    def get_urls(self) -> list[Any]:
        """Add the moderation form and the full log of a game."""
        return [
            path("<int:game_id>/moderate/", self.admin_site.admin_view(self.moderate_view), name="games_game_moderate"),
            path("<int:game_id>/full-log/", self.admin_site.admin_view(self.full_log_view), name="games_game_full_log"),
            *super().get_urls(),
        ]

    def moderate_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """GET: the game's seats and the action form; POST: do the action (one audit row)."""
        require(request, services.PERM_GAMES)
        game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
        form = GameActionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            if form.needs_confirmation():
                # Asked again on a page of its own, which works without JavaScript; a single post never aborts.
                return TemplateResponse(
                    request,
                    "admin/moderation/game_abort_confirm.html",
                    {
                        **self.admin_site.each_context(request),
                        "title": _("Abort game #%(id)s?") % {"id": game.pk},
                        "game": game,
                        "seats": list(game.seats.all()),
                        "reason": form.cleaned_data["reason"],
                        "opts": Game._meta,
                    },
                )
            try:
                self._game_action(request, game, form.cleaned_data)
            except services.ModerationError as exc:
                form.add_error(None, str(exc))
            except (Game.DoesNotExist, KeyError, ValueError) as exc:
                form.add_error(None, str(exc) or _("That seat does not exist."))
            else:
                messages.success(request, _("Done."))
                return HttpResponseRedirect(reverse("admin:games_game_moderate", args=[game.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Moderate game #%(id)s") % {"id": game.pk},
            "game": game,
            "seats": list(game.seats.all()),
            "form": form,
            "actions_log": ModerationAction.objects.filter(game=game).select_related("moderator", "user")[:50],
            "opts": Game._meta,
        }
        return TemplateResponse(request, "admin/moderation/game_moderate.html", context)

    def _game_action(self, request: HttpRequest, game: Game, data: dict[str, Any]) -> None:
        """Call the service the form chose."""
        who, reason, action = signed_in_user(request), data["reason"], data["action"]
        if action == "abort":
            services.game_abort(moderator=who, game_id=game.pk, reason=reason)
        elif action == "adjudicate":
            services.game_adjudicate(
                moderator=who, game_id=game.pk, ranks=dict(enumerate(data["ranks"])), reason=reason
            )
        elif action == "forfeit":
            services.seat_forfeit(moderator=who, game_id=game.pk, position=data["position"], reason=reason)
        elif action == "extend":
            services.deadline_extend(
                moderator=who,
                game_id=game.pk,
                by=timedelta(hours=data["hours"]),
                position=data["position"],
                reason=reason,
            )
        elif action == "pause":
            services.clocks_pause(moderator=who, game_id=game.pk, until=data["until"], reason=reason)
        elif action == "refund":
            seat = game.seats.get(position=data["position"])
            if seat.user is None:
                raise services.ModerationError(_("That seat is a bot's."))
            services.rating_refund(moderator=who, game_id=game.pk, offender=seat.user, reason=reason)

    def full_log_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """Every move with its raw events and the position with nothing hidden (opening it is logged)."""
        require(request, services.PERM_HIDDEN)
        get_object_or_404(Game, pk=game_id)
        try:
            full = services.game_full_log(moderator=signed_in_user(request), game_id=game_id)
        except services.ModerationError as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game_id]))
        import json

        context = {
            **self.admin_site.each_context(request),
            "title": _("Full log of game #%(id)s") % {"id": game_id},
            "game": full.game,
            "seats": list(full.game.seats.select_related("user")),
            "moves": [
                {**m, "json": json.dumps({"move": m["move"], "events": m["events"]}, ensure_ascii=False)}
                for m in full.moves
            ],
            "views": {k: json.dumps(v, indent=1, ensure_ascii=False, default=str) for k, v in full.views.items()},
            "opts": Game._meta,
        }
        return TemplateResponse(request, "admin/moderation/full_log.html", context)


admin.site.unregister(ChatMessage)


@admin.register(ChatMessage)
class ModeratedChatMessageAdmin(ChatMessageAdmin):
    """Chat lines with their hidden mark, searchable, and the hide action."""

    list_display = ("created", "game", "user", "text", "hidden")
    list_filter = ("created",)
    search_fields = ("text", "user__username", "=game__id")
    actions = ["hide_messages"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        """Annotate the hidden mark."""
        return with_hidden_flag(super().get_queryset(request).select_related("user", "game"))

    @admin.display(description=gettext_lazy("hidden"), boolean=True)
    def hidden(self, obj: ChatMessage) -> bool:
        """True once a moderator hid the line."""
        return bool(getattr(obj, "is_hidden", False))

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        """Moderators (and superusers) only."""
        return request.user.has_perm(services.PERM_CHAT)

    @admin.action(description=gettext_lazy("Hide the selected messages"), permissions=["moderate"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> HttpResponse | None:
        """Hide each selected line (asks for a reason first)."""
        return reason_action(
            self,
            request,
            queryset,
            _("Hide messages"),
            lambda m, reason: services.chat_hide(moderator=signed_in_user(request), message_id=m.pk, reason=reason),
        )
