// Undo schema.cypher for `kg init --reset` (a reset may be for another embedding dimension,
// and a vector index keeps the dimension it was created with). Run statement by statement.
DROP CONSTRAINT document_id IF EXISTS;
DROP CONSTRAINT chunk_id IF EXISTS;
DROP CONSTRAINT entity_id IF EXISTS;
DROP CONSTRAINT alias_normalized IF EXISTS;
DROP CONSTRAINT meta_key IF EXISTS;
DROP CONSTRAINT numeric_fact_id IF EXISTS;
DROP INDEX numeric_fact_doc IF EXISTS;
DROP INDEX document_uri IF EXISTS;
DROP INDEX document_title IF EXISTS;
DROP INDEX entity_name IF EXISTS;
DROP INDEX entity_pagerank IF EXISTS;
DROP INDEX document_authority IF EXISTS;
DROP INDEX chunk_embedding IF EXISTS;
DROP INDEX entity_embedding IF EXISTS;
DROP INDEX chunk_text IF EXISTS;
DROP INDEX alias_name IF EXISTS;
