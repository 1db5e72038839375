"""The registry as a static site (``registry site build``: see ``registry.site.build``): its pages, index and
extras, the plots of each protocol's results (``plot``: the groups and a PNG; ``plot_svg``: the SVG the site uses;
``plot_write``: a plot to a file by its suffix), and where each record's page lies (``links``)."""
