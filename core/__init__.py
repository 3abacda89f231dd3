"""The bottom of the stack: what every package shares. Imports nothing of ours."""
