"""The tests' own game, "counter": a plug-in installed from this folder alone (``tests/settings.py``).

It shows that a game needs nothing outside its package: the site, the API,
the statistics and the guide play it through ``games.kinds`` as they play
Dominion and Domaine.
"""
