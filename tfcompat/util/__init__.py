"""Helpers with no TF namespace of their own."""
