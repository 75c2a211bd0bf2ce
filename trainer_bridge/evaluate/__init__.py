"""Offline and online evaluation of a policy, and model-based data selection (`trainer-bridge eval`, `select`)."""
