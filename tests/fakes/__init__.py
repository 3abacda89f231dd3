"""Fakes of the network edge only (the LLM server); never of our own parts."""
