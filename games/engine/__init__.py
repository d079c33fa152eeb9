"""Pure-Python rules engines (no Django). See ``core`` for the interface."""
