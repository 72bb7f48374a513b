"""Train the tile classifier on rendered crops and export models/tile_classifier.onnx.

    .venv/bin/pip install -e .[train]
    .venv/bin/python -m vision.classifier.create_dataset    # data/synth-train.npz, -val.npz
    .venv/bin/python -m vision.classifier.train             # the config's recipe
    .venv/bin/python -m vision.classifier.train --epochs 4 --out /tmp/try.onnx

Data, hyper-parameters and outputs come from vision/classifier/configs/tile_classifier.toml
([train]); options override them. The network (:class:`vision.classifier.model.TileNet`)
sees one 64x64 crop per tile and has three heads: shape, colour and "is a tile"; its colour
head also sees the frame's other crops. Training batches are therefore made of whole scenes
(random subsets of each, 1 crop to all), and every scene gets one extra random colour gain
on top of the renderer's light so that the frame context has to be used.

CPU only, 2 threads; seeded, so the same data and seed give the same model (up to the
nondeterminism of multi-threaded float sums).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from vision.classifier import recipe
from vision.classifier.model import TileNet


def _load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as d:
        return {k: d[k] for k in d.files}


def _scene_index(scene: np.ndarray) -> list[np.ndarray]:
    order = np.argsort(scene, kind="stable")
    bounds = np.flatnonzero(np.diff(scene[order])) + 1
    return np.split(order, bounds)


def _augment(x: torch.Tensor, groups: torch.Tensor, n_groups: int, gen: torch.Generator):
    """Dihedral turns per crop (all six shapes are 4-fold symmetric), gain per scene."""
    k = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, k, dims=(1, 2))
    if torch.rand(1, generator=gen) < 0.5:
        x = x.flip(2)
    gain = torch.exp(torch.randn(n_groups, 3, generator=gen) * 0.12)
    level = torch.exp(torch.randn(n_groups, 1, generator=gen) * 0.2)
    x = x * (gain * level)[groups][:, None, None, :]
    x = x + torch.randn(x.shape, generator=gen) * torch.rand(1, generator=gen) * 4
    return x.clamp(0, 255)


def _batches(scenes: list[np.ndarray], rng: np.random.Generator, per_batch: int):
    """Batches of whole-scene subsets, every scene once per epoch."""
    order = rng.permutation(len(scenes))
    batch: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    for g in order:
        idx = scenes[g]
        if rng.random() < 0.5:
            idx = rng.permutation(idx)[: int(rng.integers(1, len(idx) + 1))]
        take = idx
        batch.append(take)
        groups.append(np.full(len(take), len(groups)))
        if sum(len(b) for b in batch) >= per_batch:
            yield np.concatenate(batch), np.concatenate(groups), len(batch)
            batch, groups = [], []
    if batch:
        yield np.concatenate(batch), np.concatenate(groups), len(batch)


def _loss(model: TileNet, x, shape, colour, groups, n_groups) -> torch.Tensor:
    """Shape and colour cross-entropy on the tiles, "is a tile" on every crop."""
    s_logit, c_logit, t_logit = model(x, groups, n_groups)
    is_tile = shape >= 0
    loss_t = F.binary_cross_entropy_with_logits(t_logit, is_tile.float())
    loss_s = F.cross_entropy(s_logit[is_tile], shape[is_tile], label_smoothing=0.02)
    loss_c = F.cross_entropy(c_logit[is_tile], colour[is_tile], label_smoothing=0.02)
    return loss_s + loss_c + 0.5 * loss_t


def evaluate(model: TileNet, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Per-crop accuracies with each scene classified as one frame."""
    model.eval()
    hits = {"shape": 0, "colour": 0, "both": 0, "tiles": 0, "tile_ok": 0, "all": 0}
    with torch.no_grad():
        for idx in _scene_index(data["scene"]):
            x = torch.from_numpy(data["crops"][idx]).float()
            s, c, t = model(x)
            shape, colour = data["shape"][idx], data["colour"][idx]
            tile = shape >= 0
            ps, pc = s.argmax(1).numpy(), c.argmax(1).numpy()
            hits["shape"] += int((ps == shape)[tile].sum())
            hits["colour"] += int((pc == colour)[tile].sum())
            hits["both"] += int(((ps == shape) & (pc == colour))[tile].sum())
            hits["tiles"] += int(tile.sum())
            hits["tile_ok"] += int(((t.numpy() > 0) == tile).sum())
            hits["all"] += len(idx)
    model.train()
    n = max(1, hits["tiles"])
    return {"shape": hits["shape"] / n, "colour": hits["colour"] / n, "both": hits["both"] / n,
            "is_tile": hits["tile_ok"] / max(1, hits["all"])}


def export(model: TileNet, path: Path) -> None:
    """ONNX with a free batch size; input `crops` float32 (N, 64, 64, 3) BGR 0..255."""
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (torch.zeros(4, 64, 64, 3),), str(path), dynamo=False,
                      input_names=["crops"], output_names=["shape", "colour", "tile"],
                      dynamic_axes={"crops": {0: "n"}, "shape": {0: "n"}, "colour": {0: "n"},
                                    "tile": {0: "n"}},
                      opset_version=17)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, default=recipe.TILE_CLASSIFIER)
    parser.add_argument("--train", type=Path, help="training crops (.npz)")
    parser.add_argument("--val", type=Path, help="held-out crops (.npz)")
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--batch", type=int, help="crops per step")
    parser.add_argument("--lr", type=float, help="peak learning rate")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--init", type=Path, help="start from this state dict (fine-tuning)")
    parser.add_argument("--out", type=Path, help="the ONNX file to write")
    parser.add_argument("--state", type=Path,
                        help="where to keep the PyTorch weights (for --init)")
    args = parser.parse_args(argv)
    recipe.fill(args, recipe.load(args.config)["train"], paths=("train", "val", "out", "state"))

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    train, val = _load(args.train), _load(args.val)
    scenes = _scene_index(train["scene"])
    model = TileNet()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    params = sum(p.numel() for p in model.parameters())
    print(f"{len(train['shape'])} train crops in {len(scenes)} scenes; {params} parameters")
    crops = torch.from_numpy(train["crops"])
    shape, colour = torch.from_numpy(train["shape"]), torch.from_numpy(train["colour"])
    steps = args.epochs * math.ceil(len(train["shape"]) / args.batch) + args.epochs
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps,
                                                pct_start=0.15)
    start = time.perf_counter()
    for epoch in range(args.epochs):
        total, n = 0.0, 0
        for idx, groups, n_groups in _batches(scenes, rng, args.batch):
            g = torch.from_numpy(groups)
            x = _augment(crops[idx].float(), g, n_groups, gen)
            loss = _loss(model, x, shape[idx], colour[idx], g, n_groups)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total, n = total + loss.item() * len(idx), n + len(idx)
        acc = evaluate(model, val)
        print(f"epoch {epoch + 1}: loss {total / n:.4f} val "
              + " ".join(f"{k} {v:.4f}" for k, v in acc.items())
              + f" ({time.perf_counter() - start:.0f} s)", flush=True)
    args.state.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.state)
    export(model, args.out)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
