// The given aliases that no entity link holds any more (see KuzuWriteMixin._cleanup). Matched
// with `IN`, not by key (document_states.cypher): looked up by key, an alias whose link this
// transaction deleted and created again read as having none (Kùzu 0.11.3), and the DELETE
// then failed on the new link.
MATCH (a:Alias)
WHERE a.normalized IN $names AND NOT EXISTS { MATCH (a)-[:ALIAS_OF]->(:Entity) }
DELETE a
