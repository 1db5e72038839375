"""What a record or a value is: its version (current, superseded, withdrawn: ``versions``), its role in its
table (headline, member of an aggregate, derived: ``value_roles``), and what its value is and which reviews back
it (transcribed, source checked, measured, estimated: ``provenance``). Pages, SQL views, exports and validation
read it from here.
"""
