// Every table of the catalogue with its kind (NODE / REL), for the explorer's schema.
CALL SHOW_TABLES() RETURN name, type ORDER BY name
