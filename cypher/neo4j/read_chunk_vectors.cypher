// Each chunk's stored embedding (the agent compares the chunks it admits with one another).
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
RETURN c.id, c.embedding
