"""The PySide6 desktop app: the only package that imports Qt (checked by import-linter).

Start it with ``annotator.ui.app.run_gui``; views are rows of ``annotator.ui.view_table.VIEW_ROWS``, made
when first shown; user commands are rows of ``annotator.ui.actions.ACTIONS``, and work that touches the database
or a phone goes through ``annotator.ui.workers.Jobs``.
"""

from importlib import import_module

# The layers under the views load before PySide6 does: from then on, PySide6 reads the source of every module
# imported to look for `from __feature__` (PYSIDE-2029), ~0.25 ms a module. The phone layer (adbutils) loads
# with the Collect view, when it is first shown (annotator.ui.view_table).
for _layer in ("annotator.imaging.decode", "annotator.storage.models", "annotator.storage.workspace"):
    import_module(_layer)  # SQLAlchemy's ORM and Pillow (Alembic loads only to upgrade a database)
