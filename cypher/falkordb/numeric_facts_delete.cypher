// The numeric facts of documents being replaced or deleted.
MATCH (f:NumericFact)
WHERE f.doc_id IN $ids
DELETE f
