// Each entity's stored PageRank as a rank share: how many entities rank lower, over all but
// one (ties share their best rank). The range index on Entity.pagerank serves the count.
CALL () {
  MATCH (e:Entity)
  RETURN count(e) AS total
}
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WITH e, total, coalesce(e.pagerank, 0.0) AS rank
RETURN e.id, COUNT { MATCH (o:Entity) WHERE o.pagerank < rank }, total
