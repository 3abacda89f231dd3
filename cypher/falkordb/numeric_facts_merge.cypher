// A document's numeric facts (graph_schema.NumericFact), after numeric_facts_delete in the
// same block. Ids carry the write's nonce (graph_store.rows.numeric_fact_rows).
UNWIND $rows AS r
MERGE (f:NumericFact {id: r.id})
SET f.doc_id = r.doc_id, f.chunk_id = r.chunk_id, f.value = r.value, f.unit = r.unit,
    f.measure = r.measure, f.kind = r.kind, f.entity_id = r.entity_id,
    f.entity_name = r.entity_name, f.text = r.text
