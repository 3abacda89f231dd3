// An existing entity keeps its name, description and embedding: its id derives from the
// normalised name, so a later document brings nothing that should overwrite it.
UNWIND $rows AS r
MERGE (e:Entity {id: r.id})
ON CREATE SET e.name = r.name, e.type = r.type, e.description = r.description,
              e.embedding = vecf32(r.embedding), e.mentions = 0, e.pagerank = 0.0
