"""The broad corpus's sources: repository -> the module here that extracts and edits its files.

Each source module defines REPO, COMMIT, PREFIX, files(git_dir), EDITS, DROP_LINES, SKIPS and
optionally CELL_SKIPS (see tools/build_corpus.py); synthetic.py holds the inserted cells writing synthetic
stand-ins for downloaded tables; failure_classes.py classifies failing cells.
"""

SOURCES = {
    "tensorflow/docs": "tf_docs",
    "keras-team/keras": "keras_repo",
}
