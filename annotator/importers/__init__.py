"""Readers of public GUI-agent datasets: AITZ, GUI-Odyssey and AndroidControl.

Each reader turns the files of one dataset, as it is published, into :class:`SourceEpisode` values:
the instruction, and per step the screenshot, the action in our one action space (device pixels of
that screenshot) and the dataset's labels. Nothing here touches the database; the use case in
``annotator.services.importing`` writes the episodes, one transaction each.

A reader never stops at a bad episode: it yields an :class:`EpisodeError` that names the file (and the
episode and step where known) and says what is wrong, and goes on with the next one.
"""

from annotator.importers.episode import EpisodeError, SourceEpisode, SourceStep

__all__ = ["EpisodeError", "SourceEpisode", "SourceStep"]
