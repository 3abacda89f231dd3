"""The LLM seam: settings, port and the OpenAI-compatible adapter. Imports only ``core``."""
