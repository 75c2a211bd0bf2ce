"""SQLAlchemy models, database opening and migrations, the blob store and the write paths."""
