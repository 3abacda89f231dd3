// Which labels each relationship type joins. The visualization's nodes and relationships are
// virtual: labels(startNode(r)) comes back empty (seen on Neo4j 5.26), so each relationship's
// ends are looked up by element id among the returned nodes, whose labels are intact.
CALL db.schema.visualization()
YIELD nodes, relationships
WITH [n IN nodes | {id: elementId(n), labels: labels(n)}] AS known, relationships
UNWIND relationships AS r
WITH known, type(r) AS rel_type, elementId(startNode(r)) AS src, elementId(endNode(r)) AS dst
RETURN DISTINCT
  rel_type,
  [n IN known WHERE n.id = src | n.labels][0] AS sources,
  [n IN known WHERE n.id = dst | n.labels][0] AS targets
