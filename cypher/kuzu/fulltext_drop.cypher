CALL DROP_FTS_INDEX('Chunk', 'chunk_fts');
CALL DROP_FTS_INDEX('Alias', 'alias_fts');
