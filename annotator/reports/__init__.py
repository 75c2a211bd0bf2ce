"""Charts and reports drawn for people to read (matplotlib; no Qt): the dataset's statistics charts and the judge
agreement report. Storage and the judge compute; this package draws (a contract keeps matplotlib out of them)."""
