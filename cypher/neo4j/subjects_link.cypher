// Link each document to its subject, the entity its title names (names compared case- and
// space-insensitively, as retrieval/projection.py does), replacing the earlier links. The walk
// graph weighs a mention of a document's own subject more (gds_project_ppr.cypher).
// TITLE_SUBJECT links an organisation with no ABOUT document of its own to the documents whose
// titles name it, by name or alias, where no longer name in the title holds it ("Acme Widgets
// Board Update" and "About Acme Widgets" are about Acme Widgets), as retrieval/graph_index.py
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
    UNWIND range(0, size(words) - 1) AS i
    UNWIND range(1, size(words) - i) AS n
    WITH i, n, apoc.text.join(words[i..i + n], ' ') AS key WHERE n < size(words)
    // A seek in the unique index, said so: right after an ingest into an empty database the
    // planner's statistics still say the index is empty, and it scanned every alias for
    // every span of every title (400 MuSiQue passages: 7.2 million index entries, 4 s).
    MATCH (a:Alias {normalized: key})-[:ALIAS_OF]->(e:Entity)
    USING INDEX SEEK a:Alias(normalized)
    WHERE toUpper(e.type) = 'ORGANIZATION' AND NOT EXISTS { (e)<-[:ABOUT]-(:Document) }
    WITH d, collect({i: i, n: n, e: e}) AS spans
    UNWIND spans AS s
    WITH d, s, spans
    WHERE none(t IN spans WHERE t.n > s.n AND t.i <= s.i AND s.i + s.n <= t.i + t.n)
    WITH DISTINCT d, s.e AS e
    MERGE (d)-[:TITLE_SUBJECT]->(e)
  }
}
RETURN COUNT { MATCH (:Document)-[:ABOUT]->(:Entity) } AS links
