// Chunk order is rebuilt from the new version of the document.
MATCH (:Document {id: $id})-[:HAS_CHUNK]->(:Chunk)-[n:NEXT]->(:Chunk)
DELETE n
