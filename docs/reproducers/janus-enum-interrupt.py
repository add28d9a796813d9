"""janus-swi 1.5.3 crashes (SIGSEGV) when getting an Enum's name raises.

janus converts an Enum by its `name`, which runs Python code, and does not check
that getting it failed.  janus.query_once puts an Enum (its truth-value mode) into
every call's inputs, so a Ctrl-C whose KeyboardInterrupt Python raises just there
crashed crossprolog's `compare` 1 time in 30 or so.  Here the name raises always.
"""

import enum

import janus_swi


class Interrupted(enum.Enum):
    WHEN_NAMED = 1

    @property
    def name(self):
        raise KeyboardInterrupt


janus_swi.query_once("true", {"X": Interrupted.WHEN_NAMED})
print("not reached: the process died of SIGSEGV")
