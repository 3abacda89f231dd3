// Rows of the tables with vector indexes: an index is built once its table has rows.
RETURN COUNT { MATCH (c:Chunk) } AS chunks, COUNT { MATCH (e:Entity) } AS entities
