"""What the moderation admin's pages share: links, the permission check, read-only lists, the reason form."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from moderation import services
from moderation.forms import ReasonForm

User = get_user_model()

#: Chat lines shown before and after a reported message.
CHAT_CONTEXT = 5


def admin_link(obj: Any, label: str | None = None) -> str:
    """An HTML link to ``obj``'s admin page (empty for None)."""
    if obj is None:
        return "–"
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, label or str(obj))


def require(request: HttpRequest, perm: str) -> None:
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


def reason_action(
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
