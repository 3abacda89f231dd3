// Vector indexes, created once their tables have rows and SHOW_INDEXES does not list them yet
// (graph_store/kuzu_indexes.py).
CALL CREATE_VECTOR_INDEX('Chunk', 'chunk_emb', 'embedding', metric := 'cosine');
CALL CREATE_VECTOR_INDEX('Entity', 'entity_emb', 'embedding', metric := 'cosine');
