"""The agent: models, the loop with a plan, and the automation tools."""
