"""Computer vision for the table: find tiles and their grid cells in a photo, read each tile's
shape and colour, and turn a stream of camera frames into moves.

Entry points: :func:`vision.scan.scan_image` (one photo), :mod:`vision.tracker` (a live stream).
"""

import cv2

# OpenCV's own worker threads cost more than they gain on pictures of this size (a working
# copy of 800 px, 64-px crops): on the 2-core machine a phone photo's scan took as long
# with them, in a quarter more processor time (`python -m vision.bench.scan`), and the other
# core stays free for the web server and the classifier's second thread.
cv2.setNumThreads(1)
