// Source and target node tables of a relationship table; {table} as in explore_table_properties.
CALL SHOW_CONNECTION('{table}') RETURN `source table name`, `destination table name`
