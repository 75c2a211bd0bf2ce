"""Training bridge: export datasets, rewards, SFT/GRPO scripts, launch and evaluation. Never imports Qt."""
