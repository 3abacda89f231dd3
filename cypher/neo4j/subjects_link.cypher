// Link each document to its subject, the entity its title names (names compared case- and
// space-insensitively, as retrieval/projection.py does), replacing the earlier links. The walk
// graph weighs a mention of a document's own subject more (gds_project_ppr.cypher).
CALL () {
  MATCH (:Document)-[r:ABOUT]->(:Entity)
  DELETE r
}
CALL () {
  MATCH (e:Entity)
  WITH apoc.text.replace(trim(toLower(e.name)), '\\s+', ' ') AS key, collect(e) AS named
  WITH apoc.map.fromPairs(collect([key, named])) AS by_key
  MATCH (d:Document)
  WITH d, by_key[apoc.text.replace(trim(toLower(d.title)), '\\s+', ' ')] AS subjects
  WHERE subjects IS NOT NULL
  UNWIND subjects AS s
  MERGE (d)-[:ABOUT]->(s)
}
RETURN COUNT { MATCH (:Document)-[:ABOUT]->(:Entity) } AS links
