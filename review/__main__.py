"""``python -m review ID [--pdf FILE] [--write] ...``: the same command as ``registry review``."""

from registry.cli.review import main

main()
