"""Training scripts on TRL's Python API (SFT, action-level GRPO, Mobile-R1's task-level GRPO), the event stream
they write, and the offline tiny model; their YAML recipes are in annotator/resources/recipes. Each script is
`make_parser()` + `main()`, so `accelerate launch -m trainer_bridge.train.sft --config RECIPE.yaml` runs it on
one or many GPUs."""
