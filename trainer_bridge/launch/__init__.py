"""The accelerate launcher (one GPU, several, several nodes, DeepSpeed ZeRO) and the runs it records."""
