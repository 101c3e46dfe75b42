"""Why each failing corpus cell fails: {(file stem, cell index): (failure class, reason)}, read by tools/corpus_report.py.

The stem is the corpus file name without `.py` (e.g. "tfdocs__guide__data"); the class names a general
TF behaviour tfcompat lacks (one class covers many cells), the reason says what this cell hits.
"""

CLASSES = {
}
