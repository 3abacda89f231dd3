// Full-text indexes exist only between write runs: see graph_store/kuzu/store.py.
CALL CREATE_FTS_INDEX('Chunk', 'chunk_fts', ['text']);
CALL CREATE_FTS_INDEX('Alias', 'alias_fts', ['name']);
