UNWIND $ids AS id
MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk {id: id})
RETURN c.id, d.id, d.title, c.text, c.idx
