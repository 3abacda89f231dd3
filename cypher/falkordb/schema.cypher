// FalkorDB schema for graph schema version 1, run statement by statement by init_schema().
// FalkorDB has no IF NOT EXISTS: the adapter skips a statement whose index db.indexes() lists.
// MERGE on these range indexes is what keeps ids unique: one writer (the adapter's write lock,
// FalkorDB's own graph write lock) runs the MERGEs one at a time.
CREATE INDEX FOR (d:Document) ON (d.id, d.uri, d.title);
CREATE INDEX FOR (c:Chunk) ON (c.id);
CREATE INDEX FOR (e:Entity) ON (e.id, e.name);
CREATE INDEX FOR (a:Alias) ON (a.normalized);
CREATE INDEX FOR (m:Meta) ON (m.key);
// Numeric facts are replaced and deleted by their document's id, and merged by their own.
CREATE INDEX FOR (f:NumericFact) ON (f.id, f.doc_id);
CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) OPTIONS {dimension: $dim, similarityFunction: 'cosine'};
CREATE VECTOR INDEX FOR (e:Entity) ON (e.embedding) OPTIONS {dimension: $dim, similarityFunction: 'cosine'};
// No full-text index: RediSearch's TF-IDF is the only scorer FalkorDB's queryNodes offers, and
// the adapter ranks full-text reads with BM25 itself (graph_store/falkordb/lexical.py).
