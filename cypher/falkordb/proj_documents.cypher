MATCH (d:Document)
RETURN d.id, d.title, d.source, d.doc_type, d.date, d.authority
ORDER BY d.id
