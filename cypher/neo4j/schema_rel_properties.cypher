// Relationship types (as ":`TYPE`") with their property names and types.
CALL db.schema.relTypeProperties()
YIELD relType, propertyName, propertyTypes
RETURN relType, propertyName, propertyTypes
