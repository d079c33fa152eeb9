"""The moderation trail's admin: reports (the queue), actions, restrictions, hidden messages, notices."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Case, Value, When
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.http import signed_in_user
from games.models import ChatMessage, Game
from moderation import services
from moderation.admin.common import CHAT_CONTEXT, ReadOnlyAdmin, admin_link, require
from moderation.forms import ReportCloseForm
from moderation.models import HiddenMessage, ModerationAction, Notice, Report, Restriction
from moderation.selectors import with_hidden_flag

User = get_user_model()


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
        return admin_link(obj.game)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The report queue: open reports first, oldest first among them."""

    list_display = ("id", "status", "reason", "reporter", "reported", "game", "created")
    list_filter = ("status", "reason", "created")
    search_fields = ("reporter__username", "reported__username", "comment", "=game__id")
    list_select_related = ("reporter", "reported", "game")
    # Expressions are valid admin ordering (Django documents them); django-stubs allow only names.
    ordering = (Case(When(status=Report.Status.OPEN, then=Value(0)), default=Value(1)).asc(), "created")  # type: ignore[assignment]
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

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        """The queue, headed by an alert for games stopped because their moves no longer replay."""
        frozen = Game.objects.filter(status=Game.Status.FROZEN).count()
        if frozen:
            url = reverse("admin:games_game_changelist") + "?status__exact=" + Game.Status.FROZEN
            self.message_user(
                request,
                format_html(
                    '{} <a href="{}">{}</a>',
                    ngettext(
                        "%(n)d game has stopped because its moves no longer replay.",
                        "%(n)d games have stopped because their moves no longer replay.",
                        frozen,
                    )
                    % {"n": frozen},
                    url,
                    _("Adjudicate or cancel them."),
                ),
                messages.WARNING,
            )
        return super().changelist_view(request, extra_context)

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
        return admin_link(obj.reporter)

    @admin.display(description=gettext_lazy("reported player"))
    def reported_link(self, obj: Report) -> str:
        """The reported player's admin page (with the moderation form) and profile."""
        return format_html(
            '{} · <a href="{}">{}</a> · <a href="{}">{}</a>',
            admin_link(obj.reported),
            reverse("admin:accounts_user_moderate", args=[obj.reported_id]),
            _("moderate"),
            obj.reported.get_absolute_url(),
            _("profile"),
        )

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, obj: Report) -> str:
        """The game's page, its admin page and its moderation form."""
        if obj.game is None:
            return "–"
        return format_html(
            '<a href="{}">#{}</a> · {} · <a href="{}">{}</a>',
            obj.game.get_absolute_url(),
            obj.game_id,
            admin_link(obj.game, _("admin")),
            reverse("admin:games_game_moderate", args=[obj.game_id]),
            _("moderate"),
        )

    @admin.display(description=gettext_lazy("chat around the message"))
    def chat_context(self, obj: Report) -> str:
        """The reported message with the lines before and after it; hidden lines marked."""
        msg = obj.message
        if msg is None:
            return "–"
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
                        format_html(" <em>[{}]</em>", _("hidden")) if getattr(m, "is_hidden", False) else "",
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
        require(request, services.PERM_REPORTS)
        report = get_object_or_404(Report, pk=report_id)
        form = ReportCloseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.report_close(moderator=signed_in_user(request), report_id=report.pk, **form.cleaned_data)
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
