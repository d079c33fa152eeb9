"""Domaine (Klaus Teuber) as a Herald game: everything of it but its engine (docs/games.md)."""
