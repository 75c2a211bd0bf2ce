"""Model-based data selection (`trainer-bridge select`, `trainer-bridge export --select RUN --keep RULE`).

`run` samples a policy N times per step and stores each answer's reward; `rates` reads a run's pass rates back;
`filters` are the papers' keep rules over them (UI-R1, GUI-R1, InfiGUI-R1); `keep` gives an export the steps a
rule keeps; `summary` is what the command prints. Nothing is imported here, so that the export (which must not
load the LLM client: pyproject's import contracts) can import `keep` without `run`.
"""
