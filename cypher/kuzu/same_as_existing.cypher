// The SAME_AS edges a batch names that the store already has, with their scores.
UNWIND $rows AS r
MATCH (:Entity {id: r.source_id})-[s:SAME_AS]->(:Entity {id: r.target_id})
RETURN r.source_id, r.target_id, s.score
