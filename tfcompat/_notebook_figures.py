"""The matplotlib backend of `tfcompat run`'s cell mode: Agg drawing, and `plt.show()` hands the open figures to
the running notebook (which saves them as PNG files and outputs), as Jupyter's inline backend shows them.

Selected with `MPLBACKEND=module://tfcompat._notebook_figures` before the notebook imports pyplot; only
matplotlib imports this module.
"""
from matplotlib.backends.backend_agg import FigureCanvasAgg as FigureCanvas  # noqa: F401 - the backend's canvas


def show(*args, **kwargs):
    """`plt.show()`: every open figure becomes an output of the running cell, then closes."""
    from tfcompat import notebook
    notebook.show_open_figures()
