// Which labels each relationship type joins.
CALL db.schema.visualization()
YIELD relationships
UNWIND relationships AS r
RETURN DISTINCT type(r), labels(startNode(r)), labels(endNode(r))
