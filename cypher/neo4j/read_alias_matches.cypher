// Entities named by normalised n-grams of a question, with how many chunks mention each and
// the alias's own surface name (the caller keeps matches whose words are the alias's, or its
// unqualified part's). An n-gram finds the alias with its key, and the qualified ones whose
// key starts with it: titles tell namesakes apart ("Harbour (Ann Lee song)"), questions say
// "Harbour". Both are seeks on the unique constraint's index on Alias.normalized.
UNWIND $keys AS key
CALL (key) {
  MATCH (a:Alias {normalized: key})
  RETURN a
  UNION
  MATCH (a:Alias)
  WHERE a.normalized STARTS WITH key + ' ' AND a.name ENDS WITH ')'
  RETURN a
}
MATCH (a)-[r:ALIAS_OF]->(e:Entity)
RETURN key, e.id, e.name, coalesce(r.confidence, 1.0), COUNT { (e)<-[:MENTIONS]-(:Chunk) }, a.name
