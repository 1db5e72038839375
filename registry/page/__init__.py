"""A record's page, for the terminal and the site alike: its neutral structure (``blocks``), what each kind's
page holds (``kinds``, with the sections several kinds share: ``findings``, ``runs``, ``evidence``,
``metadata``, ``history``), every result side by side (``overview``), how stored values read on it
(``display``), how a source is cited (``citation``), and its rendering in a terminal (``show``, with Rich);
the site renders it as HTML (``registry.site.html``)."""
