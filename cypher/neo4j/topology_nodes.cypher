// Every chunk and entity id, whether it is an entity and its name: the nodes of the walk's and the
// path search's topology. In batches of $batch ids a row: the driver spends about 17 us on a
// row, so a row an id took 3.7 s for the 226,000 nodes of the 5x 2Wiki graph, batches of
// 20,000 0.2 s.
MATCH (n)
WHERE n:Chunk OR n:Entity
WITH collect(n.id) AS ids, collect(n:Entity) AS entities,
     collect(CASE WHEN n:Entity THEN coalesce(n.name, '') ELSE '' END) AS names
UNWIND range(0, size(ids) - 1, $batch) AS i
RETURN ids[i..i + $batch], entities[i..i + $batch], names[i..i + $batch]
