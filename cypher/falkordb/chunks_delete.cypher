UNWIND $ids AS id
MATCH (c:Chunk {id: id})
DETACH DELETE c
