// Node labels with their property names and types, as Neo4j samples them.
CALL db.schema.nodeTypeProperties()
YIELD nodeLabels, propertyName, propertyTypes
RETURN nodeLabels, propertyName, propertyTypes
