"""The moderators' tools, on Django's admin.

Staff who are not in the Moderators group (nor superusers) cannot reach
any of it: the views check the ``moderation.*`` permissions, and the
services check them again. Every action goes through ``moderation.services``,
which writes the audit row; the audit trail itself is read-only for
everyone, superusers included.

The games', chat's and users' admin classes are extended here (and
registered again in their place) rather than edited, so the moderation
tools stay in one app.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Case, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import UserAdmin
from games.admin import ChatMessageAdmin, GameAdmin
from games.models import ChatMessage, Game
from moderation import services
from moderation.forms import GameActionForm, ReasonForm, ReportCloseForm, UserActionForm
from moderation.models import HiddenMessage, ModerationAction, Notice, Report, Restriction
from moderation.selectors import with_hidden_flag

User = get_user_model()

#: Chat lines shown before and after a reported message.
CHAT_CONTEXT = 5


def _admin_link(obj: Any, label: str | None = None) -> str:
    """An HTML link to ``obj``'s admin page (empty for None)."""
    if obj is None:
        return "–"
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, label or str(obj))


def _require(request: HttpRequest, perm: str) -> None:
    if not request.user.has_perm(perm):
        raise PermissionDenied


class ReadOnlyAdmin(admin.ModelAdmin):
    """Browse only: rows change through ``moderation.services``."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Nobody adds rows by hand."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Nobody edits rows by hand."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Nobody deletes rows by hand."""
        return False


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    """The audit trail: who did what to whom, when and why. Nobody can edit or delete it."""

    list_display = ("created", "moderator", "action", "user", "game_link", "reason")
    list_filter = ("action", "created")
    search_fields = ("moderator__username", "user__username", "reason", "=game__id")
    date_hierarchy = "created"
    list_select_related = ("moderator", "user", "game")

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        """No bulk actions at all (Django's "delete selected" included)."""
        return {}

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, obj: ModerationAction) -> str:
        """The game, linked."""
        return _admin_link(obj.game)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The report queue: open reports first, oldest first among them."""

    list_display = ("id", "status", "reason", "reporter", "reported", "game", "created")
    list_filter = ("status", "reason", "created")
    search_fields = ("reporter__username", "reported__username", "comment", "=game__id")
    list_select_related = ("reporter", "reported", "game")
    ordering = (Case(When(status=Report.Status.OPEN, then=Value(0)), default=Value(1)).asc(), "created")
    readonly_fields = (
        "reporter_link",
        "reported_link",
        "game_link",
        "reason",
        "comment",
        "created",
        "chat_context",
        "status",
        "handled_by",
        "handled_at",
        "note",
    )
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Reports come from users' pages only."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Reports are kept, handled or not."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """No editing by hand: reports are closed with the form under them (``close_view``)."""
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        """No bulk deletion."""
        return {}

    @admin.display(description=gettext_lazy("reporter"))
    def reporter_link(self, obj: Report) -> str:
        """The reporter's admin page."""
        return _admin_link(obj.reporter)

    @admin.display(description=gettext_lazy("reported player"))
    def reported_link(self, obj: Report) -> str:
        """The reported player's admin page (with the moderation form) and profile."""
        return format_html(
            '{} · <a href="{}">{}</a> · <a href="{}">{}</a>',
            _admin_link(obj.reported),
            reverse("admin:accounts_user_moderate", args=[obj.reported_id]),
            _("moderate"),
            obj.reported.get_absolute_url(),
            _("profile"),
        )

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, obj: Report) -> str:
        """The game's page, its admin page and its moderation form."""
        if obj.game_id is None:
            return "–"
        return format_html(
            '<a href="{}">#{}</a> · {} · <a href="{}">{}</a>',
            obj.game.get_absolute_url(),
            obj.game_id,
            _admin_link(obj.game, _("admin")),
            reverse("admin:games_game_moderate", args=[obj.game_id]),
            _("moderate"),
        )

    @admin.display(description=gettext_lazy("chat around the message"))
    def chat_context(self, obj: Report) -> str:
        """The reported message with the lines before and after it; hidden lines marked."""
        if obj.message_id is None:
            return "–"
        msg = obj.message
        base = with_hidden_flag(ChatMessage.objects.filter(game_id=msg.game_id).select_related("user"))
        before = list(
            base.filter(created__lte=msg.created).exclude(pk=msg.pk).order_by("-created", "-pk")[:CHAT_CONTEXT]
        )
        after = list(base.filter(created__gte=msg.created).exclude(pk=msg.pk).order_by("created", "pk")[:CHAT_CONTEXT])
        lines = [
            *reversed(before),
            *with_hidden_flag(ChatMessage.objects.filter(pk=msg.pk)).select_related("user"),
            *after,
        ]
        return format_html(
            '<ol class="chat-context">{}</ol>',
            format_html_join(
                "",
                "<li>{}<b>{}</b> {}: {}{}</li>",
                (
                    (
                        format_html("<mark>{}</mark> ", _("reported")) if m.pk == msg.pk else "",
                        m.created.strftime("%Y-%m-%d %H:%M"),
                        m.user.username,
                        m.text,
                        format_html(" <em>[{}]</em>", _("hidden")) if m.is_hidden else "",
                    )
                    for m in lines
                ),
            ),
        )

    def get_urls(self) -> list[Any]:
        """Add the close-report form."""
        return [
            path("<int:report_id>/close/", self.admin_site.admin_view(self.close_view), name="moderation_report_close"),
            *super().get_urls(),
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        """The report with the close form under it while it is open."""
        extra_context = extra_context or {}
        report = self.get_object(request, object_id)
        if report is not None and report.status == Report.Status.OPEN and request.user.has_perm(services.PERM_REPORTS):
            extra_context["close_form"] = ReportCloseForm()
            extra_context["close_url"] = reverse("admin:moderation_report_close", args=[report.pk])
        return super().change_view(request, object_id, form_url, extra_context)

    def close_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        """POST: close the report as resolved or dismissed with a note."""
        _require(request, services.PERM_REPORTS)
        report = get_object_or_404(Report, pk=report_id)
        form = ReportCloseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.report_close(moderator=request.user, report_id=report.pk, **form.cleaned_data)
            except services.ModerationError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("Report closed."))
                return HttpResponseRedirect(reverse("admin:moderation_report_changelist"))
        return HttpResponseRedirect(reverse("admin:moderation_report_change", args=[report.pk]))

    change_form_template = "admin/moderation/report_change.html"


@admin.register(Restriction)
class RestrictionAdmin(ReadOnlyAdmin):
    """Bans and mutes, past and present (made from a user's moderation page)."""

    list_display = ("user", "kind", "start", "end", "lifted", "moderator", "reason")
    list_filter = ("kind", "start")
    search_fields = ("user__username",)


@admin.register(HiddenMessage)
class HiddenMessageAdmin(ReadOnlyAdmin):
    """Chat messages hidden by moderators."""

    list_display = ("message", "moderator", "created", "reason")


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    """What users were told, and whether they have seen it."""

    list_display = ("user", "created", "seen", "text")
    search_fields = ("user__username",)


# ---------------------------------------------------------------------------
# Games


def _reason_action(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet, title: str, apply: Any
) -> HttpResponse | None:
    """Ask for a reason, then call ``apply(obj, reason)`` for each selected row (Django's action pattern)."""
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                apply(obj, form.cleaned_data["reason"])
                done += 1
            except services.ModerationError as exc:
                modeladmin.message_user(request, f"{obj}: {exc}", messages.WARNING)
        modeladmin.message_user(request, _("%(n)d done.") % {"n": done}, messages.SUCCESS)
        return None
    return TemplateResponse(
        request,
        "admin/moderation/reason_action.html",
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "form": form,
            "queryset": queryset,
            "action": request.POST.get("action"),
            "opts": modeladmin.model._meta,
        },
    )


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
        return _reason_action(
            self,
            request,
            queryset,
            _("Abort games"),
            lambda game, reason: services.game_abort(moderator=request.user, game_id=game.pk, reason=reason),
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
        _require(request, services.PERM_GAMES)
        game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)
        form = GameActionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
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
        who, reason, action = request.user, data["reason"], data["action"]
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
        _require(request, services.PERM_HIDDEN)
        get_object_or_404(Game, pk=game_id)
        try:
            full = services.game_full_log(moderator=request.user, game_id=game_id)
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
        return _reason_action(
            self,
            request,
            queryset,
            _("Hide messages"),
            lambda m, reason: services.chat_hide(moderator=request.user, message_id=m.pk, reason=reason),
        )


# ---------------------------------------------------------------------------
# Users


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(UserAdmin):
    """Users with a link to their moderation page (ban, mute, warn) and record."""

    readonly_fields = ("moderation_links", *UserAdmin.readonly_fields)
    fieldsets = ((gettext_lazy("Moderation"), {"fields": ("moderation_links",)}), *UserAdmin.fieldsets)

    @admin.display(description=gettext_lazy("moderation"))
    def moderation_links(self, obj: User) -> str:
        """Link to the moderation page and the profile."""
        if obj.pk is None:
            return "–"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("admin:accounts_user_moderate", args=[obj.pk]),
            _("moderate (ban, mute, warn)"),
            obj.get_absolute_url(),
            _("profile"),
        )

    def get_urls(self) -> list[Any]:
        """Add the moderation page of a user."""
        return [
            path(
                "<int:user_id>/moderate/", self.admin_site.admin_view(self.moderate_view), name="accounts_user_moderate"
            ),
            *super().get_urls(),
        ]

    def moderate_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        """GET: the user's restrictions, reports and audit rows and the action form; POST: act."""
        _require(request, services.PERM_USERS)
        target = get_object_or_404(User, pk=user_id)
        form = UserActionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            who, reason, until = request.user, data["reason"], data["until"]
            try:
                if data["action"] == "warn":
                    services.user_warn(moderator=who, user=target, reason=reason)
                elif data["action"] == "mute":
                    services.user_mute(moderator=who, user=target, reason=reason, until=until)
                elif data["action"] == "unmute":
                    services.user_unmute(moderator=who, user=target, reason=reason)
                elif data["action"] == "ban":
                    services.user_ban(moderator=who, user=target, reason=reason, until=until)
                elif data["action"] == "unban":
                    services.user_unban(moderator=who, user=target, reason=reason)
            except services.ModerationError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Done."))
                return HttpResponseRedirect(reverse("admin:accounts_user_moderate", args=[target.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Moderate %(name)s") % {"name": target.username},
            "target": target,
            "form": form,
            "restrictions": Restriction.objects.filter(user=target)[:50],
            "reports": Report.objects.filter(reported=target).select_related("reporter")[:50],
            "actions_log": ModerationAction.objects.filter(user=target).select_related("moderator", "game")[:50],
            "opts": User._meta,
        }
        return TemplateResponse(request, "admin/moderation/user_moderate.html", context)
