"""A record's page, for the terminal and the site alike: its neutral structure (``blocks``), what each kind's
page holds (``kinds``, ``history``), how stored values read on it (``display``), how a source is cited
(``citation``), and its rendering in a terminal (``show``, with Rich); the site renders it as HTML
(``registry.site.html``)."""
