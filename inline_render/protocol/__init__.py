"""The runtime protocol (documentation written at the end)."""
