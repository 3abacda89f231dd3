// Provenance (doc_ids) is the sorted union of what is stored and what this document brings.
UNWIND $rows AS r
MATCH (e:Entity {id: r.entity_id})
MERGE (a:Alias {normalized: r.normalized})
ON CREATE SET a.name = r.name
MERGE (a)-[x:ALIAS_OF]->(e)
ON CREATE SET x.method = r.method
SET x.confidence = r.confidence,
    x.doc_ids = COLLECT {
      UNWIND coalesce(x.doc_ids, []) + r.doc_ids AS d
      RETURN DISTINCT d ORDER BY d
    }
