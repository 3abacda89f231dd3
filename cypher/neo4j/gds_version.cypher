// Fails to compile when the Graph Data Science plugin is absent; the adapter treats that as "no GDS".
RETURN gds.version() AS version
