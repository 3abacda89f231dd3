// The given aliases that no entity link holds any more (see KuzuWriteMixin._cleanup).
MATCH (a:Alias)
WHERE a.normalized IN $names AND NOT EXISTS { MATCH (a)-[:ALIAS_OF]->(:Entity) }
DELETE a
