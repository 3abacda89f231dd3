// Kùzu 0.11.3 keeps full-text indexes wrong after transactional deletes and re-inserts
// (reproduced: wrong rows, tied scores), so they are rebuilt after each write run.
CALL DROP_FTS_INDEX('Chunk', 'chunk_fts');
CALL CREATE_FTS_INDEX('Chunk', 'chunk_fts', ['text']);
CALL DROP_FTS_INDEX('Alias', 'alias_fts');
CALL CREATE_FTS_INDEX('Alias', 'alias_fts', ['name']);
