// Link each document to its subject, the entity its title names (names compared case- and
// space-insensitively, as retrieval/projection.py does), replacing the earlier links. The walk
// graph weighs a mention of a document's own subject more (gds_project_ppr.cypher).
// TITLE_SUBJECT links a document to the entity whose name or alias its title begins with, the
// longest such ("Acme Widgets Board Update" is about Acme Widgets), as retrieval/graph_index.py
// does: read by subject (read_subject_chunks.cypher), not by the walk. Titles are normalised as
// core/names.py normalize_name does (lower case, "'s" and punctuation dropped, a leading
// article dropped; accents are kept here), to meet the aliases' normalised keys.
CALL () {
  MATCH (:Document)-[r:ABOUT|TITLE_SUBJECT]->(:Entity)
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
CALL () {
  MATCH (d:Document)
  WITH d, replace(replace(toLower(coalesce(d.title, '')), '’', "'"), "'s ", ' ') AS text
  WITH d, [w IN split(apoc.text.replace(text, '(?U)[^\\w\\s&]+|_|\\s+', ' '), ' ') WHERE w <> '']
          AS words
  WITH d, CASE WHEN size(words) > 0 AND words[0] IN ['the', 'a', 'an'] THEN tail(words)
               ELSE words END AS words
  WHERE size(words) > 1
  CALL (d, words) {
    UNWIND range(size(words) - 1, 1, -1) AS n
    MATCH (:Alias {normalized: apoc.text.join(words[0..n], ' ')})-[:ALIAS_OF]->(e:Entity)
    WITH n, collect(DISTINCT e) AS found
    ORDER BY n DESC
    LIMIT 1
    UNWIND found AS e
    MERGE (d)-[:TITLE_SUBJECT]->(e)
  }
}
RETURN COUNT { MATCH (:Document)-[:ABOUT]->(:Entity) } AS links
