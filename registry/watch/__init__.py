"""``registry watch``: a process that keeps a records folder's listing current from the kernel's journal of changes
and answers ``registry validate`` from what it keeps in memory (``listing``, ``server``, ``client``)."""
