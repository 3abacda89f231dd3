// Take the replaced or deleted documents' chunks out of the evidence of the relations of the
// entities they mentioned (evidence holds chunk ids: graph_store/rows.py relation_rows).
UNWIND $entity_ids AS id
MATCH (:Entity {id: id})-[r:RELATED]-(:Entity)
WITH DISTINCT r
WHERE any(x IN r.evidence WHERE x IN $chunk_ids)
SET r.evidence = [x IN r.evidence WHERE NOT x IN $chunk_ids]
