"""Shared test setup: tests run on the CPU build of torch, offline."""
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
