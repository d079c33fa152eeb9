"""The rules pages and card references of both games, and the first-game hints on the board.

Its own app so that the long translated texts live in its own catalogue
(``guide/locale/``), not in the site's shared one.
"""
