// The given alias keys the store has (read before a batch writes; see document_states.cypher).
UNWIND $names AS name
MATCH (a:Alias {normalized: name})
RETURN a.normalized
