"""Files generated from declarations, with the code that writes them and that tests compare:
the kinds' one-line summaries, the options of ``registry new KIND`` (``kindoptions.json``)
and README's generated sections.
"""
