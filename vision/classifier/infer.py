"""The tile classifier at runtime: crops in, shape and colour with probabilities out.

The network (:mod:`vision.classifier.model`, models/MODEL.md) gives every crop shape, colour and
"is a tile" scores. Its colour head already looks at the whole batch through a frame context,
so a batch must be *one frame's* tiles: that is how orange under a warm lamp is told from red
in daylight. The frame is resolved jointly here too: before the network, half the light's
colour cast is divided out, measured on the tile bodies of all crops (they are painted neutral
near-black, so they show the light's colour); after it, each tile's colour is nudged towards
those of the frame's tiles whose symbols look alike (:func:`vision.adapt.frame_consensus`),
only the set's six colours are allowed, and no colour may hold more tiles than a set has (18);
when the best labels break that, the tiles that lose least by moving go to their next colour.

The ONNX model is loaded once, on first use, with onnxruntime.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from engine.tiles import ALL_COLOURS, COLOURS, COPIES, SHAPES, Tile, tile_kinds
from vision.adapt import SetAdapter, crop_features, frame_consensus
from vision.crops import CROP

MODEL_PATH = Path(str(files("vision.models") / "tile_classifier.onnx"))
"""Package data: the repository's models/ folder is installed as vision.models (pyproject.toml),
so a wheel finds the model just as a checkout does."""
TILES_PER_COLOUR = COPIES * len(SHAPES)
ALTERNATIVES = 8
"""Runner-up labels kept per tile; move decoding tries only the first few."""

BODY_SHARE = 0.3
"""Darkest share of each crop's centre taken as tile body when estimating the light's colour."""

BODY_MAX = 110
"""Brightest channel value a body pixel may have; crops without such pixels show no tile."""

BODY_MIN_PIXELS = 200
"""Fewer body pixels than this in a frame (no tiles in it): the cast is left alone."""

NEUTRALISE = 0.5
"""Share of the light's colour cast (in log terms), as the tile bodies show it, divided out.

Without it white tiles read yellow under a 2700 K lamp; dividing out half or all of the cast
does equally well on the real photos (models/MODEL.md has the figures for 0, 0.5 and 1), and
half leaves the crops closer to the cast light the network was trained on.
"""

SYMMETRY_BELOW = 0.9
"""A crop whose likeliest shape is below this probability is read in all eight orientations
(:func:`_symmetric_shapes`). 0.7 gains less; from 0.9 up to reading every crop, the same
(`python -m vision.evaluate.real --games none --oblique 10`: labels at 50-60 degrees 93.3 ->
96.2 %, 94.8 % at 0.7)."""

SYMMETRY_MOST = 48
"""Most crops of one call read again in their other orientations, the least sure first. A
board seen 50-60 degrees from vertical has up to 29 unsure tiles (40 rendered boards); a
picture of black-and-white specks offers a hundred unsure "tiles", and reading them all eight
times cost a quarter of a second."""


class ModelError(RuntimeError):
    """The ONNX model cannot be used: absent or unreadable."""


class ModelMissingError(ModelError, FileNotFoundError):
    """The ONNX model file is not where the classifier looks for it."""


@dataclass(frozen=True)
class TileGuess:
    """The classifier's reading of one crop."""

    tile: Tile
    confidence: float
    """Probability of `tile` (shape and colour both right) given that the crop is a tile."""
    shape_probs: dict[str, float]
    colour_probs: dict[str, float]
    """Over the frame's colours only."""
    alternatives: list[tuple[Tile, float]] = field(default_factory=list)
    """Runner-up labels with their probabilities, best first (`tile` not included)."""
    tile_prob: float = 1.0
    """Probability that the crop shows a tile at all (an empty cell, a bonus square: low)."""
    features: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The crop's measurements that a :class:`vision.adapt.SetAdapter` learns from once the
    tile is confirmed (``adapter.learn([guess, ...], [tile, ...])``)."""


_session = None
_lock = threading.Lock()


def _get_session():
    """The onnxruntime session, created on first use (a few tens of ms) and then shared."""
    global _session
    with _lock:
        if _session is None:
            if not MODEL_PATH.is_file():
                raise ModelMissingError(
                    f"tile classifier model not found at {MODEL_PATH}; it ships with the "
                    "repository (models/), or rebuild it with python -m "
                    "vision.classifier.train (see models/MODEL.md)")
            import onnxruntime as ort

            opts = ort.SessionOptions()
            # Two threads that sleep when idle rather than spin: a phone photo's 60 crops take
            # 6 ms instead of 12 on the 2-core machine, for the same processor time; a
            # spinning second thread would burn a core the web server and detection need.
            opts.intra_op_num_threads = 2
            opts.inter_op_num_threads = 1
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            try:
                _session = ort.InferenceSession(str(MODEL_PATH), opts,
                                                providers=["CPUExecutionProvider"])
            except Exception as exc:  # onnxruntime raises its own, opaque, exception types
                raise ModelError(f"tile classifier model {MODEL_PATH} is unreadable ({exc}); "
                                 "restore it from the repository or retrain it "
                                 "(see models/MODEL.md)") from exc
        return _session


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _check(crops: np.ndarray, colours: Sequence[str]) -> tuple[str, ...]:
    if not isinstance(crops, np.ndarray) or crops.ndim != 4 or crops.shape[1:] != (CROP, CROP, 3):
        got = getattr(crops, "shape", type(crops).__name__)
        raise ValueError(f"crops must be an array of shape (N, {CROP}, {CROP}, 3), got {got}")
    names = tuple(colours)
    unknown = [c for c in names if c not in ALL_COLOURS]
    if unknown or not names or len(set(names)) != len(names):
        raise ValueError(f"colours must be distinct names from {ALL_COLOURS}, got {list(names)}")
    return names


def frame_gain(crops: np.ndarray) -> np.ndarray:
    """BGR gain that turns the frame's tile bodies grey: the inverse of the light's colour.

    Tile bodies are painted a neutral near-black, so their colour in the picture is the colour
    of the light (and of the camera's white balance). The darkest pixels round each crop's
    centre are body; their median over the whole frame is robust to glare and JPEG noise.
    """
    # Every other pixel of the central two thirds is plenty and keeps this under a millisecond;
    # the channels are combined one plane at a time (numpy is slow along an axis of three).
    centre = crops[:, CROP // 6: -CROP // 6: 2, CROP // 6: -CROP // 6: 2]
    blue, green, red = centre[..., 0], centre[..., 1], centre[..., 2]
    level = (blue.astype(np.int32) + green + red).reshape(len(crops), -1)
    k = int(BODY_SHARE * (level.shape[1] - 1))
    cut = np.partition(level, k, axis=1)[:, k: k + 1]
    body_max = (np.maximum(np.maximum(blue, green), red) < BODY_MAX).reshape(len(crops), -1)
    dark = centre[((level <= cut) & body_max).reshape(blue.shape)].astype(np.float32)
    if len(dark) < BODY_MIN_PIXELS:
        return np.ones(3)
    body = np.median(dark, axis=0) + 2.0
    return np.clip(body.mean() / body, 0.5, 2.0) ** NEUTRALISE


def _lit(crops: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The crops as float32 with the BGR ``gain`` applied, clipped at 255: what the network
    reads. Rows of whole pixels are scaled at once (numpy is slow along an axis of three)."""
    lit = crops.astype(np.float32)
    rows = lit.reshape(-1, CROP * 3)  # a view of the same pixels
    rows *= np.tile(gain.astype(np.float32), CROP)
    return np.minimum(lit, 255.0, out=lit)


def resolve_colours(probs: np.ndarray, limit: int = TILES_PER_COLOUR) -> np.ndarray:
    """Each tile's colour index under "no colour holds more than `limit` tiles".

    Greedy: while a colour is over its limit, move the tile of that colour whose probability
    drops least to its best colour that still has room. Exact enough: it only ever acts on
    frames with more than 18 tiles of one apparent colour, which a real set cannot show.
    """
    choice = probs.argmax(axis=1)
    n_colours = probs.shape[1]
    if n_colours * limit < len(probs):
        return choice
    while True:
        counts = np.bincount(choice, minlength=n_colours)
        over = np.flatnonzero(counts > limit)
        if not len(over):
            return choice
        c = over[0]
        room = counts < limit
        members = np.flatnonzero(choice == c)
        alt = np.where(room[None, :], probs[members], -1.0)
        best_alt = alt.argmax(axis=1)
        loss = probs[members, c] - alt[np.arange(len(members)), best_alt]
        k = int(loss.argmin())
        choice[members[k]] = best_alt[k]


def tile_probs(crops: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """Only the probability that each crop shows a tile at all, as :func:`classify_crops`
    gives it (``gain`` likewise): for candidates that must pass that test before they join a
    frame's tiles. The "is a tile" head sees each crop alone, so this needs no frame; and it
    skips the labels' bookkeeping, which costs about as much as the network on a few crops.
    """
    _check(crops, COLOURS)
    if not len(crops):
        return np.zeros(0)
    lit = _lit(crops, frame_gain(crops) if gain is None else gain)
    _, _, tile_logit = _get_session().run(None, {"crops": lit})
    return _sigmoid(tile_logit)


def _symmetric_shapes(session: Any, lit: np.ndarray, shape_p: np.ndarray,
                      reread: np.ndarray | None) -> np.ndarray:
    """Shape probabilities with each unsure crop read again in its seven other orientations
    (only those ``reread`` marks, where given).

    Every symbol looks the same turned by quarter turns or mirrored, so where the network's
    reading changes with the orientation, it is unsure of the symbol itself (a small far
    tile seen steeply, a blurred one), and the mean of the eight readings is steadier than
    any one. Sure crops (most of them) are not read again.
    """
    sureness = shape_p.max(axis=1)
    unsure = np.flatnonzero((sureness < SYMMETRY_BELOW) & (True if reread is None else reread))
    unsure = np.sort(unsure[np.argsort(sureness[unsure], kind="stable")[:SYMMETRY_MOST]])
    if not len(unsure):
        return shape_p
    crops = lit[unsure]
    mirrored = crops[:, :, ::-1]
    views = [np.rot90(crops, k, axes=(1, 2)) for k in (1, 2, 3)]
    views += [np.rot90(mirrored, k, axes=(1, 2)) for k in (0, 1, 2, 3)]
    logits = session.run(None, {"crops": np.ascontiguousarray(np.concatenate(views))})[0]
    readings = _softmax(logits).reshape(len(views), len(unsure), -1)
    shape_p = shape_p.copy()
    shape_p[unsure] = (readings.sum(axis=0) + shape_p[unsure]) / (len(views) + 1)
    return shape_p


def _sigmoid(logits: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-logits))


def classify_crops(crops: np.ndarray, colours: Sequence[str] = COLOURS,
                   adapter: SetAdapter | None = None, gain: np.ndarray | None = None,
                   reread: np.ndarray | None = None) -> list[TileGuess]:
    """Read every crop of one frame (N, 64, 64, 3 BGR uint8, per the crop contract).

    `colours` is the set in play (default red, orange, yellow, green, blue, purple); labels are
    restricted to it. Pass all of a frame's tiles in one call: colours are resolved jointly.
    `adapter` (the set learned from confirmed tiles or a calibration photo) adjusts the
    shape and colour probabilities before that; every guess carries the features to learn from.
    `gain` overrides the light's correction measured on the crops (:func:`frame_gain`): crops
    of a few free cells are better judged under the light their frame's tiles show.
    ``reread`` (N bools; None: all) marks the crops that may be read again in their other
    orientations where unsure (:func:`_symmetric_shapes`).
    Raises ModelMissingError when the model file is absent, ModelError when it is unreadable,
    and ValueError for a wrong input.
    """
    names = _check(crops, colours)
    if not len(crops):
        return []
    session = _get_session()
    lit = _lit(crops, frame_gain(crops) if gain is None else gain)
    shape_logits, colour_logits, tile_logit = session.run(None, {"crops": lit})
    shape_p = _symmetric_shapes(session, lit, _softmax(shape_logits), reread)
    keep = [ALL_COLOURS.index(c) for c in names]
    colour_p = _softmax(colour_logits[:, keep])
    features = crop_features(lit)
    if adapter is not None:
        shape_p, colour_p = adapter.adjust(features, shape_p, colour_p, names)
    tile_p = _sigmoid(tile_logit)
    colour_p = frame_consensus(features, colour_p, tile_p, names)
    colour_idx = resolve_colours(colour_p)
    kinds = tile_kinds(tuple(names))  # index: colour * 6 + shape
    joint = (colour_p[:, :, None] * shape_p[:, None, :]).reshape(len(crops), -1)
    ranked = np.argsort(-joint, axis=1, kind="stable")[:, : ALTERNATIVES + 1]
    best = colour_idx * len(SHAPES) + shape_p.argmax(axis=1)
    # taken out as Python numbers whole arrays at a time: one numpy scalar at a time cost
    # as much as the light's correction and the features together
    ranks, ranked_p = ranked.tolist(), np.take_along_axis(joint, ranked, axis=1).tolist()
    best_p = joint[np.arange(len(crops)), best].tolist()
    rows = zip(best.tolist(), best_p, ranks, ranked_p, shape_p.tolist(), colour_p.tolist(),
               tile_p.tolist(), features, strict=True)
    guesses = []
    for b, p, rank, rank_p, shapes, colours_p, tile, measured in rows:
        alternatives = [(kinds[k], q) for k, q in zip(rank, rank_p, strict=True) if k != b]
        guesses.append(TileGuess(
            tile=kinds[b],
            confidence=p,
            shape_probs=dict(zip(SHAPES, shapes, strict=True)),
            colour_probs=dict(zip(names, colours_p, strict=True)),
            alternatives=alternatives[:ALTERNATIVES],
            tile_prob=tile,
            features=measured,
        ))
    return guesses
