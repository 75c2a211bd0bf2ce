"""The virtual phone's apps: launcher, shopping, video and settings."""
