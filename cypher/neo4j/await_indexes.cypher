// New indexes populate in the background; querying one before it is ONLINE fails.
CALL db.awaitIndexes($timeout_s)
