"""The `trainer-bridge` command, one module per command group; `root` is the entry point (its `main`)."""
