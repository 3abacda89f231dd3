"""Reliability and security checks: crash recovery, load, fuzzing, injection (issue 10)."""
