"""What a path is when it is neither a regular file nor a folder, in the words messages use.

Commands that read a file the user names (a table to import, a record to format) or write where the
user says (``--out``) never open a named pipe (reading one waits for a writer that may never come)
or a device (``/dev/zero`` never ends); they name what they found instead.
"""

from __future__ import annotations

import stat

#: The names of record files (a leaf here, so that a walk needing only names imports no models).
RECORD_SUFFIXES = (".yaml", ".yml")

SPECIAL = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
           (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def special_kind(mode: int) -> str | None:
    """'a named pipe (FIFO)', 'a character device', ... for a special file's mode; None for any other file."""
    return next((what for test, what in SPECIAL if test(mode)), None)
