"""LLM judge runs, scoring studies, agreement statistics and reports."""
