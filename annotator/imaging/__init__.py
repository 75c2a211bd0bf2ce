"""Screenshots as pixels: decode, resize, encode, mask privacy regions, and keep the copies made.

Pillow only: no Qt, no database, nothing of the app above the domain (contracts in pyproject.toml), so the
judge, the collecting agent, the export and the storage's checks share one way of doing each. The sizes are
the domain's arithmetic (`annotator.domain.coords.fit_within`, `annotator.domain.model_space`); the pixel work
is here.

- `decode`: the size from an image's header, a verified decode (every chunk's CRC), the pixels.
- `resize`: the one resize (a judge's copy, the agent's image, the export's image), a PNG of a given size, a cut.
- `compare`: how alike two screenshots look, and whether one is all black.
- `encode`: PNG bytes and data URLs.
- `mask`: privacy regions blurred or blacked out.
- `kept_copies`: copies made once and kept in a cache folder.
"""
