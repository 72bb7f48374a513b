"""The trained tile classifier, installed as the package data of ``vision.models``.

This folder stays at the top of the repository with its card (MODEL.md); pyproject.toml maps
it into the ``vision`` package so that an installed wheel carries the model too.
"""
