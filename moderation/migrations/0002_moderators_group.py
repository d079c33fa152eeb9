"""Create the Moderators group with only the permissions its tools need.

Staff membership (``is_staff``) lets a moderator into the admin; this group
decides what they see there. They may view games, seats, moves, chat,
users, blocks and ratings, handle reports, and use the moderation actions
(the ``moderate_*`` permissions, checked by the moderation admin views and
services). They cannot add, change or delete users, games or ratings by
hand, nor touch the audit trail.
"""

from __future__ import annotations

from django.db import migrations

PERMISSIONS = {
    "moderation": [
        "view_report",
        "change_report",
        "view_moderationaction",
        "view_restriction",
        "view_hiddenmessage",
        "moderate_games",
        "moderate_users",
        "moderate_chat",
        "view_hidden_information",
    ],
    "games": ["view_game", "view_seat", "view_action", "view_chatmessage"],
    "accounts": ["view_user", "view_block"],
    "ratings": ["view_rating", "view_ratingchange"],
}


def create_group(apps, schema_editor):
    """Make sure the permissions exist (normally made after migrating), then the group."""
    from django.contrib.auth.management import create_permissions

    for label in PERMISSIONS:
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, verbosity=0, apps=apps)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name="Moderators")
    for label, codenames in PERMISSIONS.items():
        perms = list(Permission.objects.filter(content_type__app_label=label, codename__in=codenames))
        missing = set(codenames) - {p.codename for p in perms}
        if missing:
            raise RuntimeError(f"missing permissions {label}: {sorted(missing)}")
        group.permissions.add(*perms)


def delete_group(apps, schema_editor):
    """Remove the group (its members stay staff, without its permissions)."""
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0002_clocks"),
        ("accounts", "0002_block_deleted"),
        ("ratings", "0002_ratingchange_reversed"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
