"""The `pagelens` command line."""
