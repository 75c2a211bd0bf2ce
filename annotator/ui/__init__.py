"""The PySide6 desktop app: the only package that imports Qt (checked by import-linter).

Start it with ``annotator.ui.app.run_gui``; views register with ``MainWindow.add_view``, user commands are
rows of ``annotator.ui.actions.ACTIONS``, and work that touches the database or a phone goes through
``annotator.ui.workers.Jobs``.
"""

from importlib import import_module

# The layers under the views load before PySide6 does: from then on, PySide6 reads the source of every module
# imported to look for `from __feature__` (PYSIDE-2029), ~0.25 ms a module, ~110 ms at start for these ~420.
for _layer in ("annotator.device.android", "annotator.storage.models", "annotator.storage.workspace"):
    import_module(_layer)  # adbutils and Pillow, SQLAlchemy's ORM (Alembic loads only to upgrade a database)
