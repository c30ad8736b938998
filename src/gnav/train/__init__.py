"""``gnav train``: policies for large tables over the abstraction of ``gnav.abstraction``
(numpy, the ``[analysis]`` extra), and their check against the exact solver."""
