"""What the games app connects when Django is ready (``games.apps.GamesConfig.ready``).

A module of its own because what it connects imports the models, which Django loads only after
every app config: ``ready`` imports this one module, once.
"""

from __future__ import annotations

from accounts import policy as accounts_policy
from games import closing, events, kinds, live, presentation, selectors, tasks
from ops import numbers as ops_numbers


def connect() -> None:
    """Load the installed games, subscribe the games app's listeners and answer the apps below it.

    After every committed change: push it to the open pages (``games.live``), then queue the bots'
    turn and a waiting forced move (``games.tasks``).
    """
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
