"""Use cases shared by the GUI and the CLI: one place for each rule."""
