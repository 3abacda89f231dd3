// The chunks of the documents each entity is the subject of: the one its title names (ABOUT,
// set with authority) and, when $titled, those whose titles name an organisation that has no
// such document (TITLE_SUBJECT, subjects_link.cypher).
UNWIND $ids AS id
MATCH (e:Entity {id: id})<-[r:ABOUT|TITLE_SUBJECT]-(d:Document)-[:HAS_CHUNK]->(c:Chunk)
WHERE $titled OR type(r) = 'ABOUT'
WITH DISTINCT e, c
RETURN e.id, c.id
ORDER BY e.id, c.index
