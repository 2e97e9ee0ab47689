"""`pagelens serve`: the HTTP daemon, its sessions, its store and its push (docs/server.md)."""
