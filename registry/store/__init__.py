"""The registry in memory and on disk: loading a records folder, reading and parsing its files
(the YAML fast path, the parse cache), writing records, files written whole or not at all,
old record shapes, and the names of what is read and written.
"""
