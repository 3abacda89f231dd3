// Every write that changes the graph's shape bumps this counter; GDS projections are named
// after it, so a projection built from an older graph is never reused.
MERGE (m:Meta {key: 'graph_version'})
SET m.value = toString(coalesce(toInteger(m.value), 0) + 1)
RETURN m.value
