// After gds.pageRank.write: scale PageRank to sum to 1 over chunks and entities (as the
// in-memory projection's) and set each document's authority: its subject's PageRank, else
// the mean over its chunks.
CALL () {
  MATCH (n) WHERE (n:Chunk OR n:Entity) AND n.pagerank IS NOT NULL
  RETURN sum(n.pagerank) AS total
}
CALL (total) {
  MATCH (n) WHERE (n:Chunk OR n:Entity) AND n.pagerank IS NOT NULL AND total > 0
  SET n.pagerank = n.pagerank / total
}
CALL () {
  MATCH (d:Document)
  OPTIONAL MATCH (d)-[:ABOUT]->(s:Entity)
  WITH d, max(s.pagerank) AS subject
  OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
  WITH d, subject, avg(c.pagerank) AS mean
  SET d.authority = coalesce(subject, mean, 0.0)
}
RETURN 1
