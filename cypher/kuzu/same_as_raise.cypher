// A stronger score for SAME_AS edges the store has (same_as_existing found them).
UNWIND $rows AS r
MATCH (:Entity {id: r.source_id})-[s:SAME_AS]->(:Entity {id: r.target_id})
SET s.score = r.score
