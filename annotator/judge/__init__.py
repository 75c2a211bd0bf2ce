"""LLM judge runs, scoring studies, agreement statistics and reports."""

REPORT_FORMATS = ("text", "json", "md", "html")  # of an agreement report (annotator.reports.agreement.render)
