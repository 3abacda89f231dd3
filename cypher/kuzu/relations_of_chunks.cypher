// Relations holding evidence from the given chunks (the stored chunks of the documents a
// batch rewrites or deletes). The list parameter is bound by WITH first: Kùzu 0.11.3 cannot
// read a parameter inside a list predicate. Evidence is never SET in place (Kùzu 0.11.3 hit an
// internal assertion in csr_node_group.cpp updating the list it was), so the writer deletes
// and re-creates relations. It is stored as one space-joined string (see schema.cypher).
WITH $chunk_ids AS ids
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE (a.id IN $entity_ids OR b.id IN $entity_ids) AND any(x IN string_split(r.evidence, ' ') WHERE list_contains(ids, x))
RETURN a.id, b.id, r.type, r.weight, string_split(r.evidence, ' '), r.extractor
