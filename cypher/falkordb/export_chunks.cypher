MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk) RETURN c.id, d.id ORDER BY c.id
