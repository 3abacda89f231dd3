// Every chunk with its document, for the adapter's BM25 (graph_store/falkordb/lexical.py says
// why not db.idx.fulltext.queryNodes): the columns of a chunk hit, text 4th.
MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, d.title, c.text, c.idx
ORDER BY c.id
