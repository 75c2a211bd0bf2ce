"""Screenshots as thumbnails, decoded off the GUI thread at the size they are shown and cached by path (the step
strip asks for them when a tile is first painted)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageReader, QPixmap

log = logging.getLogger(__name__)
CACHED_THUMBNAILS = 300  # about 100 KB each (decoded at twice the tile height, for high-DPI screens)


class _Relay(QObject):
    """Carries a decoded image from a worker to the GUI thread; no parent, so a late worker never finds it gone."""

    decoded = Signal(str, object)  # path, QImage (null when it cannot be read)


class _Decode(QRunnable):
    def __init__(self, path: str, height: int, relay: _Relay) -> None:
        super().__init__()
        self.path, self.height, self.relay = path, height, relay
        self.setAutoDelete(True)

    def run(self) -> None:
        reader = QImageReader(self.path)
        size = reader.size()
        if size.isValid() and size.height() > 0:  # decoders that can skip pixels (JPEG) do so at this size
            reader.setScaledSize(size.scaled(QSize(10_000, self.height), Qt.AspectRatioMode.KeepAspectRatio))
        image = reader.read()
        if image.isNull():
            log.warning("cannot read the thumbnail of %s: %s", self.path, reader.errorString())
        self.relay.decoded.emit(self.path, image)


class ThumbnailLoader(QObject):
    """Thumbnails by path: the cached one, or None while it is decoded in the background (`ready` follows)."""

    ready = Signal(str)  # path

    def __init__(self, height: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.height = height
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)  # leaves cores to the jobs that load the trajectory
        self._relay = _Relay()
        self._relay.decoded.connect(self._decoded, Qt.ConnectionType.QueuedConnection)
        self._cache: OrderedDict[str, QPixmap] = OrderedDict()
        self._pending: set[str] = set()
        self._unreadable: set[str] = set()  # asked once: an unreadable file stays a grey tile, logged

    def thumbnail(self, path: Path | str) -> QPixmap | None:
        key = str(path)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        if key not in self._pending and key not in self._unreadable:
            self._pending.add(key)
            self._pool.start(_Decode(key, self.height, self._relay))
        return None

    def wait(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)

    def _decoded(self, path: str, image: QImage) -> None:
        self._pending.discard(path)
        if image.isNull():
            self._unreadable.add(path)
        else:
            self._cache[path] = QPixmap.fromImage(image)
            while len(self._cache) > CACHED_THUMBNAILS:
                self._cache.popitem(last=False)
        self.ready.emit(path)
