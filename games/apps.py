"""App configuration for games."""

from __future__ import annotations

from django.apps import AppConfig

from accounts import policy as accounts_policy
from games import events, kinds, presentation
from ops import numbers as ops_numbers


class GamesConfig(AppConfig):
    """Games, their move logs, the lobby and the game pages."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """After every committed change: push it to the open pages (``games.live``), queue the bots' turn
        and a waiting forced move (``games.tasks``)."""
        from games import closing, live, selectors, tasks  # they import models, which load only after every app config

        # First: every other app's ready may ask for the installed games.
        kinds.load()

        # First: the open pages hear of a change before the bots' and emails' queueing (games.live).
        live.subscribe()
        events.subscribe(events.ChangesCommitted, tasks.bots_on_commit)
        events.subscribe(events.ChangesCommitted, tasks.grace_on_commit)
        # The staff page's numbers of games and moves (ops sits below games, so games tells it).
        ops_numbers.register(selectors.ops_numbers)
        # Deleting an account, making a bot account, the settings' standing answers: accounts asks games
        # (it sits below games).
        accounts_policy.register_deletion(closing.account_deleting)
        accounts_policy.register_played_check(closing.has_played)
        accounts_policy.register_standing_form(presentation.account_standing_form)

    def warm_up(self) -> list[str]:
        """Import every installed game's engine in this process and return its board's templates to compile.

        Called by ``website.warmup.warm_process`` (gunicorn's master, before it forks the workers).
        """
        templates = []
        for kind in kinds.all_kinds():
            kind.engine()
            # The board the page draws first for the game (its page part's, games.presentation), if it has one.
            if kind.part("page") is not None:
                templates.append(presentation.board_templates(kind.name)[0])
        return templates
