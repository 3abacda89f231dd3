// Every mention with its count, and whether the entity is the subject of the chunk's
// document (the walk weighs those more): the chunk-entity edges of the topology, as columns
// in batches of $batch (see topology_nodes.cypher).
MATCH (c:Chunk)-[m:MENTIONS]->(e:Entity)
WITH c.id AS chunk, e.id AS entity, coalesce(m.count, 1) AS count,
     EXISTS { (c)<-[:HAS_CHUNK]-(:Document)-[:ABOUT]->(e) } AS subject
WITH collect(chunk) AS chunks, collect(entity) AS entities, collect(count) AS counts,
     collect(subject) AS subjects
UNWIND range(0, size(chunks) - 1, $batch) AS i
RETURN chunks[i..i + $batch], entities[i..i + $batch], counts[i..i + $batch],
       subjects[i..i + $batch]
