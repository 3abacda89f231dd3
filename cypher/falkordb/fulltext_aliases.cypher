// Every alias with the entities it names, for the adapter's BM25 (graph_store/falkordb/
// lexical.py says why not db.idx.fulltext.queryNodes): one row per alias, its name first.
MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity)
WITH a, collect([e.id, e.name, e.type]) AS entities
RETURN a.name, entities
ORDER BY a.normalized
