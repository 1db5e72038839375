"""Files generated from declarations, with the code that writes them and that tests compare:
the kinds' one-line summaries, the options of ``registry new KIND`` (``kindoptions.json``)
and the tables of docs/records.md (``fields``; ``registry.cli.docs`` writes every generated part of docs/).
"""
