// Vector indexes, created once their tables have rows and SHOW_INDEXES does not list them yet
// (graph_store/kuzu/indexes.py).
CALL CREATE_VECTOR_INDEX('Chunk', 'chunk_emb', 'embedding', metric := 'cosine');
// Entity names are many and short, and retrieval ranks them exactly in memory; this index
// serves resolution's nearest stored names and fallbacks. Sparser than the defaults (mu 30,
// ml 60, efc 200): on MuSiQue's 11.5k entity vectors it builds in 4.5 s instead of 11.0 s,
// recall@10 0.995 against 0.997 (bench/results/ingest.json, README "Measured").
CALL CREATE_VECTOR_INDEX('Entity', 'entity_emb', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 100);
