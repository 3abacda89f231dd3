CALL QUERY_VECTOR_INDEX('Entity', 'entity_emb', $embedding, $k)
RETURN node.id, node.name, node.type, distance
ORDER BY distance
