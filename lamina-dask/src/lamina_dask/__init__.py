"""Render one Lamina video across many machines on Dask distributed.

``render(client, scene, out, **options)`` plans, renders every segment as a Dask task, checks the
parts and joins them; ``lamina-dask render`` is its command line.
"""

from .driver import LaminaDaskError, plan, render, render_segment

__all__ = ["LaminaDaskError", "plan", "render", "render_segment"]
__version__ = "0.7.0"
