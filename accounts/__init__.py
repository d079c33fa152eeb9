"""Users, their settings, and (later) ratings and ladders."""
