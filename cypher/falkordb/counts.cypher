// One subquery per count, so that empty labels still give 0.
CALL { MATCH (d:Document) RETURN count(d) AS documents }
CALL { MATCH (c:Chunk) RETURN count(c) AS chunks }
CALL { MATCH (e:Entity) RETURN count(e) AS entities }
CALL { MATCH ()-[r:RELATED]->() RETURN count(r) AS relations }
CALL { MATCH (a:Alias) RETURN count(a) AS aliases }
CALL { MATCH ()-[m:MENTIONS]->() RETURN count(m) AS mentions }
RETURN documents, chunks, entities, relations, aliases, mentions
