MATCH (a:Chunk)-[:NEXT]->(b:Chunk) RETURN a.id, b.id
