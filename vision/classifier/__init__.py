"""The tile classifier: its runtime, and the stages that make its model.

Like chesscog's recognition stages, everything about the one network lives here:

- :mod:`vision.classifier.infer`: the runtime (crops in, :class:`TileGuess` out through
  onnxruntime); its API is re-exported here, so ``from vision.classifier import
  classify_crops`` is all the rest of the project needs. It never imports torch.
- :mod:`vision.classifier.model`: the network, ``TileNet`` (torch).
- :mod:`vision.classifier.create_dataset`, :mod:`vision.classifier.train`,
  :mod:`vision.classifier.evaluate`: ``python -m`` stages that render the training data,
  train and export the model, and measure it; ``configs/tile_classifier.toml`` holds the
  recipe (models/MODEL.md).

Training needs the ``[train]`` extra (torch, onnx); nothing else does.
"""

from vision.classifier.infer import (
    ALTERNATIVES,
    BODY_SHARE,
    MODEL_PATH,
    NEUTRALISE,
    ModelError,
    ModelMissingError,
    TileGuess,
    classify_crops,
    frame_gain,
    resolve_colours,
    tile_probs,
)

__all__ = [
    "ALTERNATIVES", "BODY_SHARE", "MODEL_PATH", "NEUTRALISE", "ModelError", "ModelMissingError",
    "TileGuess", "classify_crops", "frame_gain", "resolve_colours", "tile_probs",
]
