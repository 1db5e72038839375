"""The registry as a static site (``registry site build``): see ``registry.site.build``."""
