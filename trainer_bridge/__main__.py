"""`python -m trainer_bridge ...`: the `trainer-bridge` command with this interpreter (the demo's loop runs its
steps this way, so that they use the app's own environment whatever PATH says)."""

from trainer_bridge.cli.root import main

main()
