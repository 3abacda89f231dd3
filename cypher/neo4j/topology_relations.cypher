// Every relation with its type and weight: the entity-entity edges of the topology, as
// columns in batches of $batch (see topology_nodes.cypher).
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WITH a.id AS source, b.id AS target, coalesce(r.type, '') AS kind,
     coalesce(r.weight, 0.0) AS weight
WITH collect(source) AS sources, collect(target) AS targets, collect(kind) AS kinds,
     collect(weight) AS weights
UNWIND range(0, size(sources) - 1, $batch) AS i
RETURN sources[i..i + $batch], targets[i..i + $batch], kinds[i..i + $batch],
       weights[i..i + $batch]
