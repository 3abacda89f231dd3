MATCH (d:Document {id: $id})
DETACH DELETE d
