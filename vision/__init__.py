"""Computer vision for the table: find tiles and their grid cells in a photo, read each tile's
shape and colour, and turn a stream of camera frames into moves.

Entry points: :func:`vision.scan.scan_image` (one photo), :mod:`vision.tracker` (a live stream).
"""
