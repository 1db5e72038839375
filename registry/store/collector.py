"""The cycle collector while records load: paused, and what was loaded frozen out of it in one-shot commands.

Kept apart from the loader so that the command line can set its policy without importing the
loader (and with it Pydantic and every model), which ``registry --help`` must not pay for.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Whether what a load makes is frozen out of the collector's later scans (``gc.freeze``). The command
#: line turns it on: it loads one registry and exits, and unfrozen, the first collection after a load
#: rescans every object just made (half a second per 10,000 results). A long-running process leaves it
#: off, so that nothing one load made (cyclic garbage included) outlives it.
FREEZE_AFTER_LOAD = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector while many long-lived objects are made (records hold no cycles).

    Python's collector rescans every object made so far each time enough new ones appear; over
    hundreds of thousands of records that costs a third of the load, and again in every pass
    that follows (so ``checks.validate`` keeps it paused through the checks too). Reference
    counting still frees everything as usual. See ``FREEZE_AFTER_LOAD`` for what happens after.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if FREEZE_AFTER_LOAD:
                gc.freeze()
            gc.enable()
