"""Users in the admin, with the moderators' actions on them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import UserAdmin
from accounts.http import signed_in_user
from accounts.models import User
from moderation import services
from moderation.admin.common import require
from moderation.forms import UserActionForm
from moderation.models import ModerationAction, Report, Restriction

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
        require(request, services.PERM_USERS)
        target = get_object_or_404(User, pk=user_id)
        form = UserActionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            who, reason, until = signed_in_user(request), data["reason"], data["until"]
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
