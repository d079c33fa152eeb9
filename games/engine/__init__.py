"""Pure-Python rules engines (no Django). See ``core`` for the interface.

Rules versions: every engine keeps every version of its rules that a
stored game may use. A rule change is a new version, with the old
behaviour kept behind a check of the state's version; never an edit that
changes games already played. ``registry.get_engine(kind, version)`` gives
the engine for a version; the policy in full is "Versions" in ``core``.
"""
