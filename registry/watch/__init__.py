"""``registry watch``'s parts below the validation: the records folder's listing kept current from the kernel's
journal of changes (``inotify``, ``listing``), the folder's identity (``identity``), where the watcher and its clients
meet (``address``) and the side that asks (``client``). The process that answers is ``registry.watcher``, above
``registry.validation``, which it asks."""
