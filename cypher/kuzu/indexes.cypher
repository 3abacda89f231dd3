// Vector indexes, created once by init_schema when SHOW_INDEXES does not list them yet.
CALL CREATE_VECTOR_INDEX('Chunk', 'chunk_emb', 'embedding', metric := 'cosine');
CALL CREATE_VECTOR_INDEX('Entity', 'entity_emb', 'embedding', metric := 'cosine');
