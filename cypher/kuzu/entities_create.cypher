UNWIND $rows AS r
CREATE (:Entity {id: r.id, name: r.name, type: r.type, description: r.description,
                 embedding: r.embedding, mentions: 0, pagerank: 0.0})
