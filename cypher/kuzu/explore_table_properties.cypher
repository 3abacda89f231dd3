// Kùzu's TABLE_INFO takes a literal table name, never a $param: {table} is replaced with a name
// read from SHOW_TABLES and checked to be a plain identifier (graph_store/kuzu/explore.py).
CALL TABLE_INFO('{table}') RETURN name, type
