"""The PySide6 desktop app: the only package that imports Qt (checked by import-linter).

Start it with ``annotator.ui.app.run_gui``; views register with ``MainWindow.add_view``, user commands are
rows of ``annotator.ui.actions.ACTIONS``, and work that touches the database or a phone goes through
``annotator.ui.workers.Jobs``.
"""
