"""Charts and reports drawn for people to read (matplotlib; no Qt): the dataset's statistics, the judge agreement report."""
