// Neo4j 5 schema for graph schema version 1; run statement by statement by init_schema().
// Every statement is IF NOT EXISTS, so running the file again is a no-op.
// The vector dimension travels as $dim: Neo4j 5 accepts parameters inside OPTIONS.
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT alias_normalized IF NOT EXISTS FOR (a:Alias) REQUIRE a.normalized IS UNIQUE;
CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (m:Meta) REQUIRE m.key IS UNIQUE;
// numeric_facts_merge MERGEs by id: without this, each row scans every NumericFact node.
CREATE CONSTRAINT numeric_fact_id IF NOT EXISTS FOR (f:NumericFact) REQUIRE f.id IS UNIQUE;
CREATE INDEX numeric_fact_doc IF NOT EXISTS FOR (f:NumericFact) ON (f.doc_id);
CREATE INDEX document_uri IF NOT EXISTS FOR (d:Document) ON (d.uri);
CREATE INDEX document_title IF NOT EXISTS FOR (d:Document) ON (d.title);
CREATE INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON (e.name);
CREATE INDEX entity_pagerank IF NOT EXISTS FOR (e:Entity) ON (e.pagerank);
// The most central document's authority, read by every chunk-details query, from the index.
CREATE INDEX document_authority IF NOT EXISTS FOR (d:Document) ON (d.authority);
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON c.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine'}};
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text];
CREATE FULLTEXT INDEX alias_name IF NOT EXISTS FOR (a:Alias) ON EACH [a.name];
