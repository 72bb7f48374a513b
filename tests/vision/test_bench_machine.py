"""The benchmarks say what they ran on: the processor's vector units set the network's speed."""

from __future__ import annotations

import cv2
import onnxruntime

from vision.bench import machine

X86 = "processor\t: 0\nmodel name\t: Test CPU 9000\nflags\t\t: fpu sse2 avx avx2 fma{}\n"


def test_the_widest_vector_unit_is_named():
    assert ", AVX2;" in machine(X86.format(""))
    assert ", AVX-512;" in machine(X86.format(" avx512f avx512bw"))
    assert ", AVX-512 VNNI;" in machine(X86.format(" avx512f avx512_vnni"))
    arm = "processor\t: 0\nFeatures\t: fp asimd evtstrm\nCPU part\t: 0xd0c\n"
    assert ", NEON;" in machine(arm)


def test_the_line_names_the_processor_cores_and_libraries():
    line = machine(X86.format(""))
    assert line.startswith("machine: Test CPU 9000, ")
    assert f"onnxruntime {onnxruntime.__version__}" in line and f"OpenCV {cv2.__version__}" in line
    cores = int(line.split(", ")[1].split()[0])
    assert cores >= 1


def test_without_cpuinfo_the_line_still_comes():
    line = machine("")
    assert line.startswith("machine: ") and "vector units unknown" in line
