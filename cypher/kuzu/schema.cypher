// Kùzu DDL for the embedded store's schema version (graph_schema/version.py). {dim} is the embedding dimension (validated int).
CREATE NODE TABLE IF NOT EXISTS Meta(key STRING PRIMARY KEY, value STRING);
CREATE NODE TABLE IF NOT EXISTS Document(id STRING PRIMARY KEY, uri STRING, title STRING, content_hash STRING, extractor_version STRING, ingested_at STRING, source STRING, doc_type STRING, date STRING, authority DOUBLE);
CREATE NODE TABLE IF NOT EXISTS Chunk(id STRING PRIMARY KEY, doc_id STRING, idx INT64, text STRING, tokens INT64, content_hash STRING, embedding FLOAT[{dim}]);
CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, type STRING, description STRING, embedding FLOAT[{dim}], mentions INT64, pagerank DOUBLE);
CREATE NODE TABLE IF NOT EXISTS Alias(normalized STRING PRIMARY KEY, name STRING);
// Numbers chunks state (graph_schema.NumericFact); a node table with its document and chunk as
// properties, so a document write touches no further relationship table (see store.py).
CREATE NODE TABLE IF NOT EXISTS NumericFact(id STRING PRIMARY KEY, doc_id STRING, chunk_id STRING, value DOUBLE, unit STRING, measure STRING, kind STRING, entity_id STRING, entity_name STRING, text STRING);
CREATE REL TABLE IF NOT EXISTS HAS_CHUNK(FROM Document TO Chunk);
CREATE REL TABLE IF NOT EXISTS MENTIONS(FROM Chunk TO Entity, count INT64);
// A relationship's id lists (ALIAS_OF's document ids, RELATED's evidence chunk ids) are one
// string, the ids joined by single spaces (ids hold none; queries read them back with
// string_split). As STRING[] columns, a commit that added even one edge rewrote the table's
// lists: one RELATED edge into a 6,400-document store committed in 2.4 s (0.04 s for a
// MENTIONS edge, which has no list), and the cost grew with the store; a 90,000-edge table
// with one STRING[] column took 86-124 s, the same table with a STRING 0.05-0.09 s.
CREATE REL TABLE IF NOT EXISTS ALIAS_OF(FROM Alias TO Entity, method STRING, confidence DOUBLE, doc_ids STRING);
CREATE REL TABLE IF NOT EXISTS RELATED(FROM Entity TO Entity, type STRING, weight DOUBLE, evidence STRING, extractor STRING);
CREATE REL TABLE IF NOT EXISTS SAME_AS(FROM Entity TO Entity, score DOUBLE, method STRING);
// Migration within version 1: stores made before it have an empty REFERS_TO table (declared,
// never written); dropping it leaves them the same layout as a new store, so no version bump.
DROP TABLE IF EXISTS REFERS_TO;
