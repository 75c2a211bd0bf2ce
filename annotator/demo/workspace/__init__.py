"""The demo workspace (`annotator demo`): `build` fills a folder, `runs` collects on the virtual phone,
`careful_labels` decides what a careful annotator makes of each step, `labels` writes it as a team would."""
