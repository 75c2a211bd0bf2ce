"""Datasets for training: one canonical per-step record, the stages built from it and the writers."""
