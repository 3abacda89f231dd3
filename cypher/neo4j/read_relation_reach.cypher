// Hop-bounded cheapest relation paths from the sources, in the rounds of the in-memory search
// (retrieval/expansion.py), computed here so that only what the caller reads comes back
// (fetching every edge of a three-hop reach was about 14,000 rows a question on a 6,000-
// passage graph, most of the graph preset's time).
// A round offers each entity at a relation of the frontier the frontier entry's cost plus
// 2 - weight (weight clipped to [0, 1]); the entity takes its cheapest offer (equal costs: the
// stronger, then the lower via id, relation type, forward first) when that is cheaper than its
// entry before the round. The next frontier is what improved: its $limit cheapest.
// Returned: the sources, the entries over a hop with at least $min_strength (every entry when
// it is null) and the $targets, each with the entries on its path.
// An entry is a list [id, cost, strength, via, relation, forward, hops] in a map by
// id, and a round's argmin is min() over lists (the first element that differs decides):
// sorting rows kept each row's imported lists (memory grew as the frontier times the entries,
// past the transaction limit), and maps per entry cost twice the time of lists.
UNWIND $sources AS src
MATCH (s:Entity {id: src.id})
WITH collect([s.id, 0.0, toFloat(src.strength), null, '', true, 0]) AS sources
WITH apoc.map.fromPairs([e IN sources | [e[0], e]]) AS entries, sources AS frontier,
     $min_strength IS NOT NULL AS pruned, [] AS strongs
// Round 1, pushed from every frontier entry: when a later round follows, or the caller
// reads every entry.
WITH entries, frontier, pruned, strongs, $max_hops > 1 OR ($max_hops = 1 AND NOT pruned) AS run
CALL (frontier, run) {
  UNWIND CASE WHEN run THEN frontier ELSE [] END AS h
  MATCH (a:Entity {id: h[0]})-[r:RELATED]-(b:Entity)
  WHERE a <> b
  WITH h, r, b, startNode(r) = a AS fwd,
       CASE WHEN r.weight IS NULL OR r.weight < 0 THEN 0.0 WHEN r.weight > 1 THEN 1.0
            ELSE toFloat(r.weight) END AS unit
  WITH b.id AS b, min([h[1] + 2.0 - unit, -h[2] * unit
       * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
       * (CASE WHEN fwd THEN 1.0 ELSE $backward END), h[0], coalesce(r.type, ''), NOT fwd]) AS m
  RETURN collect([b] + m) AS offers
}
WITH frontier, pruned, run, strongs, entries, [o IN offers WHERE o[1] < coalesce(entries[o[0]][1], 1.0e300)
  | [o[0], o[1], -o[2], o[3], o[4], NOT o[5], entries[o[3]][6] + 1]]
  AS improved
WITH frontier, pruned, run, strongs, improved, apoc.map.merge(entries, apoc.map.fromPairs([o IN improved | [o[0], o]]))
  AS entries
WITH entries, pruned, run, frontier, improved,
     strongs + [o IN improved WHERE o[2] >= coalesce($min_strength, 2.0) | o[0]] AS strongs,
     CASE WHEN size(improved) > $limit
       THEN apoc.coll.sort([o IN improved | o[1]])[$limit - 1] END AS bar
WITH entries, pruned, strongs, CASE WHEN NOT run THEN frontier WHEN bar IS NULL THEN improved
       ELSE [o IN improved WHERE o[1] <= bar][..$limit] END AS frontier
// Round 2, pushed from every frontier entry: when a later round follows, or the caller
// reads every entry.
WITH entries, frontier, pruned, strongs, $max_hops > 2 OR ($max_hops = 2 AND NOT pruned) AS run
CALL (frontier, run) {
  UNWIND CASE WHEN run THEN frontier ELSE [] END AS h
  MATCH (a:Entity {id: h[0]})-[r:RELATED]-(b:Entity)
  WHERE a <> b
  WITH h, r, b, startNode(r) = a AS fwd,
       CASE WHEN r.weight IS NULL OR r.weight < 0 THEN 0.0 WHEN r.weight > 1 THEN 1.0
            ELSE toFloat(r.weight) END AS unit
  WITH b.id AS b, min([h[1] + 2.0 - unit, -h[2] * unit
       * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
       * (CASE WHEN fwd THEN 1.0 ELSE $backward END), h[0], coalesce(r.type, ''), NOT fwd]) AS m
  RETURN collect([b] + m) AS offers
}
WITH frontier, pruned, run, strongs, entries, [o IN offers WHERE o[1] < coalesce(entries[o[0]][1], 1.0e300)
  | [o[0], o[1], -o[2], o[3], o[4], NOT o[5], entries[o[3]][6] + 1]]
  AS improved
WITH frontier, pruned, run, strongs, improved, apoc.map.merge(entries, apoc.map.fromPairs([o IN improved | [o[0], o]]))
  AS entries
WITH entries, pruned, run, frontier, improved,
     strongs + [o IN improved WHERE o[2] >= coalesce($min_strength, 2.0) | o[0]] AS strongs,
     CASE WHEN size(improved) > $limit
       THEN apoc.coll.sort([o IN improved | o[1]])[$limit - 1] END AS bar
WITH entries, pruned, strongs, CASE WHEN NOT run THEN frontier WHEN bar IS NULL THEN improved
       ELSE [o IN improved WHERE o[1] <= bar][..$limit] END AS frontier
// Round 3, pushed from every frontier entry: when a later round follows, or the caller
// reads every entry.
WITH entries, frontier, pruned, strongs, $max_hops > 3 OR ($max_hops = 3 AND NOT pruned) AS run
CALL (frontier, run) {
  UNWIND CASE WHEN run THEN frontier ELSE [] END AS h
  MATCH (a:Entity {id: h[0]})-[r:RELATED]-(b:Entity)
  WHERE a <> b
  WITH h, r, b, startNode(r) = a AS fwd,
       CASE WHEN r.weight IS NULL OR r.weight < 0 THEN 0.0 WHEN r.weight > 1 THEN 1.0
            ELSE toFloat(r.weight) END AS unit
  WITH b.id AS b, min([h[1] + 2.0 - unit, -h[2] * unit
       * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
       * (CASE WHEN fwd THEN 1.0 ELSE $backward END), h[0], coalesce(r.type, ''), NOT fwd]) AS m
  RETURN collect([b] + m) AS offers
}
WITH frontier, pruned, run, strongs, entries, [o IN offers WHERE o[1] < coalesce(entries[o[0]][1], 1.0e300)
  | [o[0], o[1], -o[2], o[3], o[4], NOT o[5], entries[o[3]][6] + 1]]
  AS improved
WITH frontier, pruned, run, strongs, improved, apoc.map.merge(entries, apoc.map.fromPairs([o IN improved | [o[0], o]]))
  AS entries
WITH entries, pruned, run, frontier, improved,
     strongs + [o IN improved WHERE o[2] >= coalesce($min_strength, 2.0) | o[0]] AS strongs,
     CASE WHEN size(improved) > $limit
       THEN apoc.coll.sort([o IN improved | o[1]])[$limit - 1] END AS bar
WITH entries, pruned, strongs, CASE WHEN NOT run THEN frontier WHEN bar IS NULL THEN improved
       ELSE [o IN improved WHERE o[1] <= bar][..$limit] END AS frontier
// The last round when the caller reads only some entries, pulled from the side of the
// entities that can be read: the targets, the strong entries, those with one offer strong
// enough (found from the frontier's strong entries alone; their cheapest offer may still be
// weaker), and then the entries on the paths to those (a cheaper path found in this round
// replaces one).
WITH entries, strongs, apoc.map.fromPairs([f IN frontier | [f[0], f]]) AS near,
     pruned AND $max_hops >= 1 AS run, [f IN frontier
       WHERE f[2] * (CASE WHEN f[6] > 0 THEN $decay ELSE 1.0 END) >= $min_strength] AS strong
CALL (strong) {
  UNWIND strong AS h
  MATCH (a:Entity {id: h[0]})-[r:RELATED]-(b:Entity)
  WHERE a <> b AND h[2] * coalesce(r.weight, 0.0)
        * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
        * (CASE WHEN startNode(r) = a THEN 1.0 ELSE $backward END) >= $min_strength
  RETURN collect(DISTINCT b.id) AS candidates
}
WITH entries, near, run, apoc.coll.toSet($targets + candidates + strongs) AS asked
CALL (near, run, asked) {
  UNWIND CASE WHEN run THEN asked ELSE [] END AS id
  MATCH (b:Entity {id: id})-[r:RELATED]-(a:Entity)
  WHERE a <> b AND near[a.id] IS NOT NULL
  WITH near[a.id] AS h, r, b, startNode(r) = a AS fwd,
       CASE WHEN r.weight IS NULL OR r.weight < 0 THEN 0.0 WHEN r.weight > 1 THEN 1.0
            ELSE toFloat(r.weight) END AS unit
  WITH b.id AS b, min([h[1] + 2.0 - unit, -h[2] * unit
       * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
       * (CASE WHEN fwd THEN 1.0 ELSE $backward END), h[0], coalesce(r.type, ''), NOT fwd]) AS m
  RETURN collect([b] + m) AS offers
}
WITH near, run, asked, entries, [o IN offers WHERE o[1] < coalesce(entries[o[0]][1], 1.0e300)
  | [o[0], o[1], -o[2], o[3], o[4], NOT o[5], entries[o[3]][6] + 1]]
  AS improved
WITH near, run, asked, improved, apoc.map.merge(entries, apoc.map.fromPairs([o IN improved | [o[0], o]]))
  AS entries
WITH entries, near, run, asked, [id IN asked WHERE entries[id] IS NOT NULL | entries[id][3]] AS p1
WITH entries, near, run, asked, p1, [id IN p1 WHERE id IS NOT NULL | entries[id][3]] AS p2
WITH entries, near, run, asked, apoc.coll.toSet(p1 + p2) AS on_paths
WITH entries, near, run, asked, [id IN on_paths WHERE id IS NOT NULL AND entries[id][6] > 0
  AND NOT id IN asked] AS more
CALL (near, run, more) {
  UNWIND CASE WHEN run THEN more ELSE [] END AS id
  MATCH (b:Entity {id: id})-[r:RELATED]-(a:Entity)
  WHERE a <> b AND near[a.id] IS NOT NULL
  WITH near[a.id] AS h, r, b, startNode(r) = a AS fwd,
       CASE WHEN r.weight IS NULL OR r.weight < 0 THEN 0.0 WHEN r.weight > 1 THEN 1.0
            ELSE toFloat(r.weight) END AS unit
  WITH b.id AS b, min([h[1] + 2.0 - unit, -h[2] * unit
       * (CASE WHEN h[6] > 0 THEN $decay ELSE 1.0 END)
       * (CASE WHEN fwd THEN 1.0 ELSE $backward END), h[0], coalesce(r.type, ''), NOT fwd]) AS m
  RETURN collect([b] + m) AS offers
}
WITH run, asked, more, entries, [o IN offers WHERE o[1] < coalesce(entries[o[0]][1], 1.0e300)
  | [o[0], o[1], -o[2], o[3], o[4], NOT o[5], entries[o[3]][6] + 1]]
  AS improved
WITH run, asked, more, improved, apoc.map.merge(entries, apoc.map.fromPairs([o IN improved | [o[0], o]]))
  AS entries
WITH entries, CASE WHEN run THEN asked + more END AS checked, asked
// What the caller reads, with the entries on each one's path (three steps back along `via`:
// the caller asks for a longer path's rest); `checked` says whether this query vouches for an
// entry (when pruned, an entry on a path that the last round did not ask about may have had a
// cheaper path than the one returned: the caller asks about it).
WITH entries, checked, [id IN CASE WHEN checked IS NULL THEN keys(entries) ELSE asked END
  WHERE entries[id] IS NOT NULL AND (entries[id][6] = 0 OR $min_strength IS NULL
     OR entries[id][2] >= $min_strength OR id IN $targets)] AS w0
WITH entries, checked, w0, [id IN w0 WHERE entries[id][3] IS NOT NULL | entries[id][3]] AS w1
WITH entries, checked, w0, w1, [id IN w1 WHERE entries[id][3] IS NOT NULL | entries[id][3]] AS w2
WITH entries, checked, w0 + w1 + w2 + [id IN w2 WHERE entries[id][3] IS NOT NULL
  | entries[id][3]] + [s IN $sources WHERE entries[s.id] IS NOT NULL | s.id] AS wanted
UNWIND apoc.coll.toSet(wanted) AS id
WITH entries[id] AS e, checked
MATCH (n:Entity {id: e[0]})
RETURN e[0], n.name, e[6], e[3], e[4], e[5], e[2], e[1],
       checked IS NULL OR e[6] = 0 OR e[0] IN checked AS checked
