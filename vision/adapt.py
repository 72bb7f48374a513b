"""Learning the set in play: what this set's colours and shapes look like, from known tiles.

The classifier was trained on rendered standard sets. An older printing (lime-ish yellow,
teal green, sky blue, lavender purple) or a home-made set (a 6-point star, its own colours)
is read less well, and the same tiles are misread photo after photo. But every tile the
players confirm is a labelled example of *this* set under *this* light. :class:`SetAdapter`
keeps, per colour and per shape, the mean of two simple measurements of the confirmed tiles'
crops (:func:`crop_features`): the symbol's colour in CIELAB, and its outline as a coarse
mask. A new crop's distance to each prototype, in units of how far the confirmed examples lie
from their own prototype, is blended into the network's probabilities; the more examples a
class has, the more its prototype counts. A class without examples keeps the network's word.

One adapter belongs to one game (a new game starts a new one), or to a set profile made by
``qwirkle calibrate`` from one photo of all 36 kinds. It is plain numbers: :meth:`to_json`
and :meth:`SetAdapter.from_json` persist it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.tiles import ALL_COLOURS, SHAPES, Tile
from vision.crops import CROP

MASK = 10
"""Side of the coarse symbol mask (the crop's middle shrunk to MASK x MASK)."""

MIDDLE = slice(CROP // 2 - 2 * MASK, CROP // 2 + 2 * MASK, 2)
"""The crop's middle, every other pixel: 0.75 of the cell. Only the tile's face lies there: at
0.9, the gaps between tiles showed, and beside a tile at the board's edge a bright table was
taken for the symbol (a purple diamond on a wood table learned and read as an orange cross)."""

VERSION = 2
"""Of the saved prototypes; version 1 measured a wider middle (see MIDDLE)."""

COLOUR_DIMS = 3
FEATURES = COLOUR_DIMS + MASK * MASK

STRENGTH = 2.0
"""Log-probability per unit of normalised squared distance to a prototype: a crop twice as far
(in squared distance) from a prototype as its confirmed examples typically are loses e^-2."""

UNKNOWN = 4.0
"""Normalised squared distance assumed to a class without examples (farther than a typical
example from its prototype, nearer than another class's examples)."""

STRANGER = 3.0 * UNKNOWN
"""A crop farther than this from every prototype is like none of the confirmed tiles (a hand's
shadow, glare, a crop off the tile): the prototypes have nothing to say about it, and the
network's word stands."""

MOST = 3.0 * STRENGTH
"""The most log-probability the prototypes may take from a class against the best: they
nudge the network, they cannot overturn a sure reading on their own."""

PRIOR_EXAMPLES = 2.0
"""How many examples a class needs before its prototype weighs as much as the default."""

DEFAULT_SPREAD = {"colour": 36.0, "shape": 4.0}
"""Typical squared distance of an example to its prototype before enough examples show it:
6 CIELAB units for colour; a mask differing by a fifth in 100 cells for shape."""

FRAME_STRENGTH = 1.0
"""Log-probability per unit of normalised squared distance to a colour's prototype in the
frame's own consensus (:func:`frame_consensus`)."""

FRAME_MOST = 2.0
"""The most log-probability the frame's consensus may take from a colour against the best:
enough to settle a reading the network splits between two colours, not to overturn one it
is sure of (a frame's colours spread with uneven light and glare; models/MODEL.md)."""


def crop_features(crops: np.ndarray) -> np.ndarray:
    """(N, FEATURES) float32: each crop's symbol colour (CIELAB, lightness halved) and mask.

    The symbol is what is brighter than halfway between the body (the crop middle's darkest
    fifth) and its brightest pixels; its colour is their mean, in CIELAB. ``crops`` are BGR,
    colour-corrected as the network sees them (see :func:`vision.classifier.classify_crops`).
    """
    if not len(crops):
        return np.zeros((0, FEATURES), np.float32)
    middle = crops[:, MIDDLE, MIDDLE]
    n, side = len(middle), middle.shape[1]
    pixels = middle.reshape(n, -1, 3)
    value = np.maximum(np.maximum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])
    k = value.shape[1]
    low, high = np.partition(value, [k // 5, k * 97 // 100], axis=1)[:, [k // 5, k * 97 // 100]].T
    symbol = value > (0.5 * (low + high))[:, None]
    count = np.maximum(symbol.sum(axis=1, keepdims=True), 1)
    mean = np.stack([(pixels[..., c] * symbol).sum(axis=1) for c in range(3)], axis=1) / count
    colour = cv2.cvtColor(mean[:, None].astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)[:, 0]
    colour[:, 0] *= 0.5  # shading changes lightness most
    block = side // MASK
    mask = symbol.reshape(n, MASK, block, MASK, block).mean(axis=(2, 4)).reshape(n, -1)
    return np.concatenate([colour, mask], axis=1).astype(np.float32)


def _same(values: np.ndarray) -> np.ndarray:
    """A measurement as the only way it can look: (1, D) for (D,), (1, N, D) for (N, D)."""
    return values[None]


def quarter_turns(masks: np.ndarray) -> np.ndarray:
    """The four ways a symbol's mask can look on a tile laid on the grid, turned by 0, 90,
    180 and 270 degrees: (4, D) for one mask of D = MASK * MASK, (4, N, D) for (N, D).

    A 6-point star turned a quarter is another picture (a point up, then a side), where
    every standard symbol looks the same. Compared as laid, a home-made set's stars read as
    diamonds on a set profile made from one upright calibration block (89.9 % of tiles right
    where the network alone read 100 %), and confirmed stars taught the game the same."""
    grids = masks.reshape(*masks.shape[:-1], MASK, MASK)
    return np.stack([np.rot90(grids, k, axes=(-2, -1)).reshape(masks.shape)
                     for k in range(4)])


@dataclass
class Prototypes:
    """Running sums per class of one measurement: enough for means and spreads.

    ``views`` gives the ways one thing's measurement can look (:func:`quarter_turns` for a
    symbol's mask): an example joins its class as the view nearest the class's mean, and a
    crop is as near a class as its nearest view."""

    dims: slice
    default_spread: float
    views: Callable[[np.ndarray], np.ndarray] = _same
    count: dict[str, int] = field(default_factory=dict)
    total: dict[str, np.ndarray] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, values: np.ndarray) -> None:
        values = values[self.dims].astype(np.float64)
        if name in self.count:
            turned = self.views(values)
            mean = self.total[name] / self.count[name]
            values = turned[int(((turned - mean) ** 2).sum(axis=1).argmin())]
        self.count[name] = self.count.get(name, 0) + 1
        self.total[name] = self.total.get(name, 0.0) + values
        self.squares[name] = self.squares.get(name, 0.0) + float(values @ values)

    def spread(self) -> float:
        """Mean squared distance of an example to its class's mean, pooled over classes and
        blended with the default while examples are few."""
        scatter = sum(self.squares[c] - float(self.total[c] @ self.total[c]) / self.count[c]
                      for c in self.count)
        freedom = sum(n - 1 for n in self.count.values())
        return _pooled_spread(scatter, freedom, self.default_spread)

    def log_terms(self, features: np.ndarray, names: Sequence[str]) -> np.ndarray:
        """(N, len(names)) additive log-probability terms; 0 everywhere without examples."""
        terms = np.zeros((len(features), len(names)))
        if not self.count:
            return terms
        views = self.views(features[:, self.dims].astype(np.float64))  # (V, N, D)
        spread = self.spread()
        nearest = np.full(len(features), np.inf)
        for k, name in enumerate(names):
            n = self.count.get(name, 0)
            if not n:
                terms[:, k] = -STRENGTH * UNKNOWN
                continue
            distance = ((views - self.total[name] / n) ** 2).sum(axis=2).min(axis=0) / spread
            nearest = np.minimum(nearest, distance)
            weight = n / (n + PRIOR_EXAMPLES)
            terms[:, k] = -STRENGTH * (weight * distance + (1 - weight) * UNKNOWN)
        terms = np.maximum(terms - terms.max(axis=1, keepdims=True), -MOST)
        terms[nearest > STRANGER] = 0.0
        return terms

    def to_json(self) -> dict:
        return {c: {"n": self.count[c], "sum": self.total[c].round(4).tolist(),
                    "squares": round(self.squares[c], 4)} for c in sorted(self.count)}

    def load(self, data: dict, known: Sequence[str]) -> None:
        for name, entry in data.items():
            total = np.asarray(entry["sum"], dtype=np.float64)
            if name not in known or total.shape != (self.dims.stop - self.dims.start,):
                raise ValueError(f"set profile: unexpected entry {name!r}")
            self.count[name] = int(entry["n"])
            self.total[name] = total
            self.squares[name] = float(entry["squares"])


@dataclass
class SetAdapter:
    """Per-colour and per-shape prototypes of one set, learned from confirmed tiles."""

    colour: Prototypes = field(default_factory=lambda: Prototypes(
        slice(0, COLOUR_DIMS), DEFAULT_SPREAD["colour"]))
    shape: Prototypes = field(default_factory=lambda: Prototypes(
        slice(COLOUR_DIMS, FEATURES), DEFAULT_SPREAD["shape"], quarter_turns))

    @property
    def examples(self) -> int:
        """How many confirmed tiles it has learned from."""
        return sum(self.colour.count.values())

    def learn(self, examples, tiles: Sequence[Tile]) -> None:
        """Add confirmed tiles: ``examples`` are their readings (``TileGuess`` with features,
        as :func:`vision.classifier.classify_crops` gives them) or an (N, FEATURES) array, in
        the order of ``tiles``, the labels the players confirmed."""
        features = _features_of(examples)
        if len(features) != len(tiles):
            raise ValueError(f"{len(features)} examples but {len(tiles)} labels")
        for values, tile in zip(features, tiles, strict=True):
            self.colour.add(tile.colour, values)
            self.shape.add(tile.shape, values)

    def adjust(self, features: np.ndarray, shape_p: np.ndarray, colour_p: np.ndarray,
               colours: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The network's shape (N, 6) and colour (N, len(colours)) probabilities, blended with
        the prototypes' verdict on ``features``."""
        return (_blend(shape_p, self.shape.log_terms(features, SHAPES)),
                _blend(colour_p, self.colour.log_terms(features, colours)))

    def to_json(self) -> dict:
        return {"version": VERSION, "colour": self.colour.to_json(),
                "shape": self.shape.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> SetAdapter:
        """The adapter :meth:`to_json` wrote; ValueError for anything else."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(f"set profile: not a version {VERSION} set adapter (one made "
                             "before the measurements changed: calibrate again)")
        adapter = cls()
        try:
            adapter.colour.load(data.get("colour", {}), ALL_COLOURS)
            adapter.shape.load(data.get("shape", {}), SHAPES)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"set profile: malformed entry ({error})") from error
        return adapter


def _pooled_spread(scatter: float, freedom: float, default: float) -> float:
    """Mean squared distance of examples to their class's mean: the pooled ``scatter`` over
    its degrees of ``freedom``, blended with ``default`` as if from PRIOR_EXAMPLES more, so
    that a few examples cannot make it tiny."""
    return (scatter + PRIOR_EXAMPLES * default) / (freedom + PRIOR_EXAMPLES)


def frame_consensus(features: np.ndarray, colour_p: np.ndarray, tile_p: np.ndarray,
                    names: Sequence[str]) -> np.ndarray:
    """The colour probabilities (N, K) of one frame's crops, nudged towards their frame-mates.

    Tiles of one colour in one photo share a printing and a light, so their symbols' colours
    lie close together, while the network reads each crop nearly alone. On a set it was not
    trained on it then splits one colour between two names: of an older printing's teal green
    tiles, some read green and some blue in the same photo. Here every colour that is some
    tile's best reading gets a prototype, the mean symbol hue (:func:`crop_features`) of the
    tiles read as it, weighted by their probabilities (``tile_p``: that the crop is a tile at
    all); each crop is pulled towards the prototypes it lies near, in hue (:func:`_hue`), in
    units of the frame's spread round them. A colour no tile reads best has no prototype and
    is left to the network: a frame-mate's doubt is no evidence of a colour (three oranges
    with a little red in each are not two colours). But first, a colour read for two groups
    that stand clearly apart is split (:func:`split_shared`), so that each gets its prototype.
    ``names`` are the colours of ``colour_p``'s columns.
    """
    tiles = tile_p >= 0.5
    if not tiles.any():
        return colour_p
    colour_p = split_shared(features, colour_p, tiles, names)
    colour = _hue(features)
    best = colour_p.argmax(axis=1)
    weight = np.zeros_like(colour_p)
    weight[np.arange(len(best)), best] = colour_p.max(axis=1) * tile_p
    count = weight.sum(axis=0)
    means = (weight.T @ colour) / np.maximum(count, 1e-9)[:, None]
    distance = ((colour[:, None, :] - means[None]) ** 2).sum(axis=2)
    spread = _pooled_spread(float((weight * distance).sum()),
                            float(np.maximum(count - 1, 0).sum()), DEFAULT_SPREAD["colour"])
    present = np.zeros(colour_p.shape[1], bool)
    present[best[tiles]] = True
    terms = np.where(present, -FRAME_STRENGTH * distance / spread, -np.inf)
    terms = np.where(present, terms, terms.max(axis=1, keepdims=True))
    for kept, dropped in _coinciding(features, present, colour_p, best, tiles, names):
        terms[:, dropped] = terms[:, kept] - FRAME_MOST
    return _blend(colour_p, np.maximum(terms - terms.max(axis=1, keepdims=True), -FRAME_MOST))


MERGE_GAP = 4.0
"""Greatest distance in CIELAB (:func:`crop_features`) between the mean symbol colours of
two colours' tiles for them to be one colour of this frame. Game 121's second photo: an
orange square read orange and an orange clover read yellow lie 2.2 apart. Red and orange
under a light that gives both one hue still differ in chroma and lightness: 20 apart on
rendered board 40 of ``--synthetic``, whose oranges a hue-only test merged into red."""


def _coinciding(features: np.ndarray, present: np.ndarray, colour_p: np.ndarray,
                best: np.ndarray, tiles: np.ndarray,
                names: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs (kept, dropped) of colours read in this frame whose tiles' colours coincide.

    One printing under one light gives one colour one look, so two names whose tiles share
    it are one colour misnamed for some of them. The frame's prototype then stands for both
    names and cannot tell them apart: of a small tile's orange square and orange clover, the
    network read the clover yellow, and the consensus left it so. The name the network
    gives those tiles more weight, over all of them (summed log-probabilities), is kept; the
    other is taken as absent from the frame (its probability falls by FRAME_MOST against the
    kept one, as far as the consensus may take it, so that a tile the network is sure of
    stays as it is). White, a grey, is left out: a white tile's colour is the light's.
    """
    coloured = [int(k) for k in np.flatnonzero(present) if names[int(k)] in HUE_ANGLES]
    lab = features[:, :COLOUR_DIMS].astype(np.float64)
    lean = np.log(np.maximum(colour_p, 1e-12))
    pairs = []
    for i, a in enumerate(coloured):
        for b in coloured[i + 1:]:
            of_a, of_b = tiles & (best == a), tiles & (best == b)
            if np.linalg.norm(lab[of_a].mean(axis=0) - lab[of_b].mean(axis=0)) >= MERGE_GAP:
                continue
            group = of_a | of_b
            if lean[group, a].sum() >= lean[group, b].sum():
                pairs.append((a, b))
            else:
                pairs.append((b, a))
    return pairs


LONE_SPLIT = 3
"""Fewest tiles read as one colour that may be two: a group of two or more, and one tile that
stays (an older printing's teal greens read blue with the photo's one sky blue tile)."""

SPLIT_GAP = 8.0
"""Least distance (in :func:`_hue` units, a coloured symbol's hue being 30 long) between two
groups of tiles read as one colour for them to be taken as two colours."""

SPLIT_SHARPNESS = 5.0
"""... and that distance in units of the groups' own spread round their means (at least
SPLIT_FLOOR): one printing under one light gives tight groups, a light falling off across the
table a smear."""

SPLIT_FLOOR = 1.0

SPLIT_LEAN = 1.0
"""Log-probability by which the network must lean further to the other colour for the group
that moves than for the tiles that stay ..."""

SPLIT_LEAST = 0.01
"""... and the least mean probability it gives that colour over the group. Under a dim warm
lamp (2,500 K, half the light) two greens lay nearer the photo's one blue in hue than the one
green beside them, and the network gave them blue at 0.005: they stay. An older printing's
teal greens read blue were given green at 0.02-0.10 (rehearsal scenes of older printings, some
seen at 50 degrees). Was 0.1, when at webcam size two reds whose JPEG colour looked purple were
given purple at 0.07; the other tests here (:func:`_turns_towards`, :func:`_nearer`) now keep
them, and the real photos split nothing in any variant (`--variant all`) at any value."""

HUE_ANGLES = {"red": 23.0, "orange": 43.0, "yellow": 97.0, "green": 142.0, "blue": -88.0,
              "purple": -43.0}
"""Where each colour's symbols lie round the circle of hues (degrees in CIELAB's a*, b*
plane, as :func:`_hue` measures them): red to blue measured on the real set's 36 tight crops
(within 3 degrees of these), purple on the rendered standard set. Only the order round the
circle is used. White, a grey, has no place on it."""


def split_shared(features: np.ndarray, colour_p: np.ndarray, tiles: np.ndarray,
                 names: Sequence[str]) -> np.ndarray:
    """The colour probabilities (N, K) with a colour read for two distinct groups split.

    An older printing's teal green is read blue with its sky blue tiles, often every one of
    them in a photo: the frame's consensus then has no green to pull towards, and its blue
    prototype lies between the two. But the two groups' hues (:func:`_hue` of the crops'
    ``features``) stand clearly apart, each tight, and the network leans to green for the
    teal ones more than for the others. Such a group takes the colour it leans to: its
    probabilities of the two are exchanged. It must lie from the others the way round the
    circle of hues that the colour it takes lies from theirs (:data:`HUE_ANGLES`; white,
    a grey, takes no part), and where that colour has tiles in the frame, look more like
    them than like the tiles it leaves. A lone tile apart from its colour-mates (a glint, a
    shadow) is not a group that moves; it may be the one that stays, as the one sky blue
    tile of a photo whose teal greens were all read blue with it. ``tiles`` marks the crops
    that are tiles; ``names`` are the colours of the columns.
    """
    colour = _hue(features)
    best = colour_p.argmax(axis=1)
    lean_all = np.log(np.maximum(colour_p, 1e-12))
    greys = [k for k, name in enumerate(names) if name not in HUE_ANGLES]
    out = colour_p.copy()
    for c in np.unique(best[tiles]):
        members = np.flatnonzero(tiles & (best == c))
        halves = None if c in greys else _two_groups(colour[members])
        if halves is None:
            continue
        lean = lean_all[members] - lean_all[members, c][:, None]
        for group, rest in (halves, halves[::-1]):
            if len(group) < 2:
                continue  # a glint, a shadow: no group
            gain = lean[group].mean(axis=0) - lean[rest].mean(axis=0)
            gain[[c, *greys]] = -np.inf
            n = int(gain.argmax())
            owners = np.flatnonzero(tiles & (best == n))
            moving, staying = colour[members[group]], colour[members[rest]]
            if (gain[n] < SPLIT_LEAN or colour_p[members[group], n].mean() < SPLIT_LEAST
                    or not _turns_towards(moving, staying, names[c], names[n])
                    or (len(owners) and not _nearer(moving, colour[owners], staying))):
                continue
            moved = members[group]
            out[moved, c], out[moved, n] = colour_p[moved, n], colour_p[moved, c]
            break
    return out


def _two_groups(hues: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The best split of hues (M, 2) into two groups along their widest direction, as index
    arrays, when each group is tight and they stand apart (SPLIT_GAP, SPLIT_SHARPNESS); None
    otherwise. One group may be a single tile (:data:`LONE_SPLIT`)."""
    m = len(hues)
    if m < LONE_SPLIT:
        return None
    centred = hues - hues.mean(axis=0)
    order = np.argsort(centred @ np.linalg.svd(centred, full_matrices=False)[2][0],
                       kind="stable")
    ranked = hues[order]
    sums, squares = np.cumsum(ranked, axis=0), np.cumsum((ranked ** 2).sum(axis=1))
    left = np.arange(1, m)
    scatter = (squares[:-1] - (sums[:-1] ** 2).sum(axis=1) / left
               + (squares[-1] - squares[:-1])
               - ((sums[-1] - sums[:-1]) ** 2).sum(axis=1) / (m - left))
    k = int(scatter.argmin()) + 1
    groups = ranked[:k], ranked[k:]
    gap = float(np.linalg.norm(groups[0].mean(axis=0) - groups[1].mean(axis=0)))
    spread = max(SPLIT_FLOOR, *(float(np.sqrt(((g - g.mean(axis=0)) ** 2).sum()
                                                / (2 * (len(g) - 1)))) for g in groups
                                if len(g) > 1))
    if gap < SPLIT_GAP or gap < SPLIT_SHARPNESS * spread:
        return None
    return order[:k], order[k:]


def _turns_towards(moving: np.ndarray, staying: np.ndarray, was: str, becomes: str) -> bool:
    """Whether the moving hues lie from the staying ones the way round that ``becomes`` lies
    from ``was`` (:data:`HUE_ANGLES`)."""
    def angle(hues: np.ndarray) -> float:
        x, y = hues.mean(axis=0)
        return float(np.degrees(np.arctan2(y, x)))

    def turn(degrees: float) -> float:
        return (degrees + 180.0) % 360.0 - 180.0

    return turn(angle(moving) - angle(staying)) * turn(HUE_ANGLES[becomes] - HUE_ANGLES[was]) > 0


def _nearer(group: np.ndarray, owners: np.ndarray, rest: np.ndarray) -> bool:
    """Whether the group's mean hue lies clearly nearer the owners' than the rest's (within
    half the distance: a tile that stands apart from its colour-mates, under a shadow or a
    glint, may lie about as far from another colour)."""
    middle = group.mean(axis=0)
    return bool(np.linalg.norm(middle - owners.mean(axis=0))
                < 0.5 * np.linalg.norm(middle - rest.mean(axis=0)))


HUE_RADIUS = 30.0
"""Length (in CIELAB units) of a coloured symbol's hue vector in :func:`_hue`."""

GREY_CHROMA = 10.0
"""CIELAB chroma below which a symbol is taken as partly grey (a white tile's)."""


def _hue(features: np.ndarray) -> np.ndarray:
    """(N, 2) each symbol's hue as a vector of length HUE_RADIUS, shorter for greys.

    A thin symbol (a star, a cross) is measured with some of the black body round it, which
    darkens and greys its mean colour but keeps its hue: an orange star in dim warm light
    measured nearer the frame's reds than its oranges in CIELAB, but not in hue.
    """
    ab = features[:, 1:COLOUR_DIMS].astype(np.float64)
    chroma = np.linalg.norm(ab, axis=1, keepdims=True)
    return HUE_RADIUS * ab / np.maximum(chroma, GREY_CHROMA)


def _features_of(examples) -> np.ndarray:
    if isinstance(examples, np.ndarray):
        features = examples
    else:
        missing = [g for g in examples if getattr(g, "features", None) is None]
        if missing:
            raise ValueError("readings without features cannot be learned from")
        features = np.array([g.features for g in examples]).reshape(-1, FEATURES)
    if features.ndim != 2 or features.shape[1] != FEATURES:
        raise ValueError(f"features must be an array of shape (N, {FEATURES})")
    return features


def _blend(probs: np.ndarray, terms: np.ndarray) -> np.ndarray:
    logits = np.log(np.maximum(probs, 1e-12)) + terms
    logits -= logits.max(axis=1, keepdims=True)
    out = np.exp(logits)
    return out / out.sum(axis=1, keepdims=True)
