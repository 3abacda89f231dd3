// Each chunk and the one after it in its document, as columns in batches of $batch (see
// topology_nodes.cypher).
MATCH (a:Chunk)-[:NEXT]->(b:Chunk)
WITH collect(a.id) AS firsts, collect(b.id) AS afters
UNWIND range(0, size(firsts) - 1, $batch) AS i
RETURN firsts[i..i + $batch], afters[i..i + $batch]
