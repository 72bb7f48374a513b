"""Speed of the recognition against its targets, each run with ``python -m``:
:mod:`vision.bench.scan` (a scan beside decoding the photo), :mod:`vision.bench.classifier`
(a batch of crops, a rendered frame) and :mod:`vision.bench.live` (the live loop's CPU share).
Speed targets are checked here, not by timed tests.

Each prints :func:`machine` first: the figures move with the processor more than with
anything in the code. The classifier's network is the part that moves most (its convolutions
use the widest vector unit there is); decoding a JPEG moves far less, so even the scan's
ratio to decoding differs from one machine to the next (README, "Figures").
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

import cv2
import onnxruntime

VECTOR_UNITS = (("avx512_vnni", "AVX-512 VNNI"), ("avx512f", "AVX-512"), ("avx2", "AVX2"),
                ("asimd", "NEON"))
"""(cpuinfo flag, name) of the vector units that set the network's speed, widest first."""


def machine(cpuinfo: str | None = None) -> str:
    """One line saying what the figures were measured on: processor, cores this process may
    use, its widest vector unit, and the onnxruntime and OpenCV versions.

    ``cpuinfo`` is the text of Linux's /proc/cpuinfo (read when None; elsewhere the
    processor's name comes from :mod:`platform` and its vector units go unnamed).

    >>> line = machine("model name\\t: Some CPU\\nflags\\t\\t: fpu sse2 avx avx2 fma\\n")
    >>> line.startswith("machine: Some CPU, ") and "AVX2" in line
    True
    """
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text(errors="replace") if path.is_file() else ""
    fields = {}
    for line in cpuinfo.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields[key.strip()] = value.strip()
    name = fields.get("model name") or platform.processor() or platform.machine() or "unknown"
    flags = set((fields.get("flags") or fields.get("Features") or "").split())
    widest = next((label for flag, label in VECTOR_UNITS if flag in flags), "vector units unknown")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"machine: {name}, {cores} cores, {widest}; onnxruntime {onnxruntime.__version__},"
            f" OpenCV {cv2.__version__}")
