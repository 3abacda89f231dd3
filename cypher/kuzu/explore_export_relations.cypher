// Every typed relation with its evidence chunk ids and extractor, for an exported graph.
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
RETURN a.id, b.id, r.type, string_split(r.evidence, ' '), r.extractor
