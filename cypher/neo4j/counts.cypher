RETURN COUNT { MATCH (d:Document) } AS documents,
       COUNT { MATCH (c:Chunk) } AS chunks,
       COUNT { MATCH (e:Entity) } AS entities,
       COUNT { MATCH ()-[r:RELATED]->() } AS relations,
       COUNT { MATCH (a:Alias) } AS aliases,
       COUNT { MATCH ()-[m:MENTIONS]->() } AS mentions
