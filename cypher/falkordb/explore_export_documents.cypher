// Every document with the metadata an exported graph carries (title, date, type, source).
MATCH (d:Document)
RETURN d.id, d.uri, d.title, d.date, d.doc_type, d.source
ORDER BY d.id
