"""Dominion (base set, first edition) as a Herald game: everything of it but its engine (docs/games.md)."""
