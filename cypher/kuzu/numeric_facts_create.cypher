// A document's numeric facts; ids carry the write's timestamp, so a re-ingest never re-inserts
// a key its own transaction deleted (Kùzu rejects that).
UNWIND $rows AS r
CREATE (:NumericFact {id: r.id, doc_id: r.doc_id, chunk_id: r.chunk_id, value: r.value, unit: r.unit, measure: r.measure, kind: r.kind, entity_id: r.entity_id, entity_name: r.entity_name, text: r.text})
