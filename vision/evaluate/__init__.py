"""How well the recognition works, measured: one module per evaluation, each run with
``python -m`` and each holding the scoring its tests share.

- :mod:`vision.evaluate.real`: `scan_image` on the annotated real photos (and rendered
  boards), in lighting and set variants; the photo loading, aligning and degrading.
- :mod:`vision.evaluate.replay`: move inference on photo sequences and videos with hands.
- :mod:`vision.evaluate.sets`: an odd set read alone, after learning from play, calibrated.

The classifier's own figures are :mod:`vision.classifier.evaluate`; speed is
:mod:`vision.bench`.
"""
