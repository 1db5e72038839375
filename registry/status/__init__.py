"""What a record or a value is: its version (current, superseded, withdrawn: ``versions``), its role
in its table (headline, member of an aggregate, derived: ``value_roles``), and how far it is
backed (transcribed, source checked, reproduced, estimated). Pages, SQL views and exports
read it from here.
"""
