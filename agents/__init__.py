"""The agent loop: plan, evidence, critique, synthesis with citations, verify."""
