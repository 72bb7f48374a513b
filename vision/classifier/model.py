"""The tile classifier's network, ``TileNet``: one crop in, shape, colour and "is a tile" out.

Only the training stages import this module (torch is the ``[train]`` extra); the runtime
reads the ONNX export with onnxruntime (:mod:`vision.classifier.infer`).

Colour also sees a *frame context*: the mean of a small embedding over all crops given
together (one frame's tiles), plus the log of their count. Through it the network compares
each symbol with the other tiles and bodies under the same light, which is what tells orange
under a warm lamp from red in daylight.
"""

from __future__ import annotations

import torch
from torch import nn

N_SHAPES, N_COLOURS, CONTEXT = 6, 7, 32
"""Six shapes; seven colours (purple and white both, the runtime keeps a set's six)."""


def _block(cin: int, cout: int, k: int = 3, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileNet(nn.Module):
    """~0.2 M parameters, ~9 M multiply-adds per crop: 60 crops in a few ms on a laptop CPU."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 16, 5, 2), _block(16, 32, 3, 2), _block(32, 32),
            _block(32, 64, 3, 2), _block(64, 64), _block(64, 128, 3, 2),
        )
        self.context = nn.Sequential(nn.Linear(128, CONTEXT), nn.ReLU())
        self.shape_head = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, N_SHAPES))
        self.colour_head = nn.Sequential(nn.Linear(128 + CONTEXT + 1, 64), nn.ReLU(),
                                         nn.Linear(64, N_COLOURS))
        self.tile_head = nn.Linear(128, 1)

    def forward(self, crops: torch.Tensor, groups: torch.Tensor | None = None,
                n_groups: int = 1) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Crops (N, 64, 64, 3) BGR in 0..255 -> shape logits, colour logits, tile logit.

        `groups` (N,) assigns crops to frames for training; without it all crops are one frame.
        """
        x = crops.permute(0, 3, 1, 2) / 128.0 - 1.0
        emb = self.features(x).mean(dim=(2, 3))
        ctx = self.context(emb)
        if groups is None:
            frame = ctx.mean(dim=0, keepdim=True).expand(ctx.shape[0], -1)
            count = torch.ones_like(ctx[:, :1]) * ctx.shape[0]
        else:
            sums = torch.zeros(n_groups, CONTEXT).index_add(0, groups, ctx)
            counts = torch.zeros(n_groups).index_add(0, groups, torch.ones(len(groups)))
            frame = (sums / counts[:, None])[groups]
            count = counts[groups][:, None]
        colour_in = torch.cat([emb, frame, torch.log(count) / 4], dim=1)
        return self.shape_head(emb), self.colour_head(colour_in), self.tile_head(emb)[:, 0]
