// Which (label, property) pairs are indexed, and how: init_schema() creates the missing ones.
CALL db.indexes() YIELD label, properties, types
RETURN label, properties, types
