"""Training scripts on TRL's Python API (SFT, action-level GRPO, Mobile-R1's task-level GRPO), their YAML recipes,
the event stream they write, and the offline tiny model. Each script is `make_parser()` + `main()`, so
`accelerate launch -m trainer_bridge.train.sft --config RECIPE.yaml` runs it on one or many GPUs."""
