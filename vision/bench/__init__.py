"""Speed of the recognition against its targets, each run with ``python -m``:
:mod:`vision.bench.scan` (a scan beside decoding the photo), :mod:`vision.bench.classifier`
(a batch of crops, a rendered frame) and :mod:`vision.bench.live` (the live loop's CPU share).
Speed targets are checked here, not by timed tests."""
