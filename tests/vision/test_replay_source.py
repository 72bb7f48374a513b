"""Frame sources: folder, video file, camera (fakes that vanish or run at 30 fps), demo, and bad
input."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest
from live_support import FakeCapture

from vision.source import CAMERA_SIZE, LIVE_FPS, CaptureSource, SourceError, open_source


def picture(value: int, size=(48, 64)) -> np.ndarray:
    image = np.full((*size, 3), value, np.uint8)
    cv2.circle(image, (20, 20), 8, (0, 0, 255), -1)
    return image


def test_folder_gives_photos_in_name_order_as_still_positions(tmp_path):
    for name, value in [("02.jpg", 20), ("01.png", 10), ("10.jpg", 30), ("notes.txt", 0)]:
        path = tmp_path / name
        if name.endswith(".txt"):
            path.write_text("not a photo")
        else:
            cv2.imwrite(str(path), picture(value))
    frames = list(open_source(str(tmp_path)))
    assert [f.name for f in frames] == ["01.png", "02.jpg", "10.jpg"]
    assert all(f.still for f in frames)
    assert [f.t for f in frames] == [0.0, 1.0, 2.0]
    assert abs(int(frames[1].image[40, 50, 0]) - 20) <= 3


def test_corrupt_photo_stops_with_its_name_after_the_good_ones(tmp_path):
    cv2.imwrite(str(tmp_path / "01.jpg"), picture(10))
    (tmp_path / "02.jpg").write_bytes(b"\xff\xd8 truncated")
    seen = []
    with pytest.raises(SourceError, match="02.jpg"):
        for frame in open_source(tmp_path):
            seen.append(frame.name)
    assert seen == ["01.jpg"]


def test_empty_folder_and_missing_path_are_clear_errors(tmp_path):
    with pytest.raises(SourceError, match="no photos"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError, match="no such camera, file or folder"):
        open_source(str(tmp_path / "absent.mp4"))


def test_video_file_frames_carry_seconds(tmp_path):
    path = tmp_path / "clip.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (64, 48))
    for i in range(15):
        writer.write(picture(10 * i))
    writer.release()
    frames = list(open_source(str(path)))
    assert len(frames) == 15
    assert frames[0].t == 0.0 and frames[-1].t == pytest.approx(1.4)
    assert not frames[0].still and frames[0].image.shape == (48, 64, 3)


def test_corrupt_video_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.mp4"
    path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 20)
    with pytest.raises(SourceError, match="broken.mp4"):
        list(open_source(str(path)))


def test_camera_that_stops_delivering_raises_after_the_frames_it_gave():
    camera = FakeCapture(3, interval=0.15)  # slower than LIVE_FPS: every frame goes through
    source = CaptureSource(0, live=True, realtime=True, open_capture=lambda _: camera,
                           stall_seconds=0.3)
    got = []
    with pytest.raises(SourceError, match="camera 0 stopped delivering"), source:
        for frame in source:
            got.append(frame)
    assert len(got) == 3 and camera.released
    assert got[0].t <= got[-1].t


def frames_until_unplugged(source: CaptureSource, pause: float = 0.0) -> list:
    """Every frame a live source gives until its camera is gone, with ``pause`` seconds of
    work on each (a scan holding the tracker)."""
    got = []
    with pytest.raises(SourceError, match="stopped delivering"), source:
        for frame in source:
            got.append(frame)
            time.sleep(pause)
    return got


def test_a_webcam_at_30_fps_is_read_at_10_and_only_those_frames_are_decoded():
    """The gate and the cost target are set for 10 fps; a webcam gives 30. The other frames
    are taken from the driver but never decoded."""
    camera = FakeCapture(45, interval=1 / 30)
    got = frames_until_unplugged(CaptureSource(0, live=True, realtime=True, stall_seconds=0.5,
                                               open_capture=lambda _: camera))
    assert camera.grabbed == 45
    assert 10 <= len(got) <= 1.5 * LIVE_FPS + 1
    assert camera.decoded == len(got)
    assert all(b.t - a.t >= 0.99 / LIVE_FPS for a, b in zip(got, got[1:], strict=False))


def test_after_a_slow_scan_the_next_frame_shows_the_table_as_it_is_now():
    """A frame that waited while the tracker was busy is replaced by a newer one: after half a
    second of work the tracker sees the table of now, not the frames it missed, one by one."""
    camera = FakeCapture(60, interval=1 / 30)
    got = frames_until_unplugged(CaptureSource(0, live=True, realtime=True, stall_seconds=0.5,
                                               open_capture=lambda _: camera), pause=0.5)
    numbers = [int(frame.image[0, 0, 0]) for frame in got]
    assert 3 <= len(got) <= 5
    assert all(later - earlier >= 12 for earlier, later in zip(numbers, numbers[1:], strict=False))
    assert all(b.t - a.t >= 0.4 for a, b in zip(got, got[1:], strict=False))


class RecordingCapture:
    """cv2.VideoCapture's stand-in that opens anything and notes what it was asked to set."""

    def __init__(self, *args) -> None:
        self.args, self.settings = args, {}

    def isOpened(self) -> bool:  # noqa: N802  # OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def get(self, _prop: int) -> float:
        return 0.0

    def release(self) -> None:
        pass


def test_a_webcam_is_asked_for_a_full_hd_picture_a_network_camera_is_not(monkeypatch):
    """OpenCV opens a webcam at its driver's default, 640 x 480 for most: too small for the
    tiles. A network camera's picture is set in its own app."""
    opened = []
    monkeypatch.setattr(cv2, "VideoCapture",
                        lambda *args: opened.append(RecordingCapture(*args)) or opened[-1])
    open_source("0").close()
    open_source("http://127.0.0.1:9/video").close()
    webcam, network = opened
    assert webcam.settings == {cv2.CAP_PROP_FOURCC: cv2.VideoWriter.fourcc(*"MJPG"),
                               cv2.CAP_PROP_FRAME_WIDTH: CAMERA_SIZE[0],
                               cv2.CAP_PROP_FRAME_HEIGHT: CAMERA_SIZE[1]}
    assert CAMERA_SIZE == (1920, 1080)
    assert network.settings == {}


def test_camera_that_does_not_open_is_a_clear_error():
    with pytest.raises(SourceError, match="cannot open camera 3"):
        CaptureSource(3, live=True, realtime=True,
                      open_capture=lambda _: FakeCapture(0, opens=False))


def test_demo_delivers_rendered_frames_at_ten_per_second():
    source = open_source("demo", realtime=False)
    frames = []
    for frame in source:
        frames.append(frame)
        if len(frames) == 3:
            break
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert frames[0].image.ndim == 3 and frames[0].image.shape[1] >= 640


def test_the_live_camera_does_not_load_the_synthetic_renderer():
    """Only the demo (vision/demo.py) renders tables; a camera at a real table never loads it."""
    import subprocess
    import sys

    code = ("import sys, vision.source, vision.tracker, webui.live; "
            "print(sorted(m for m in sys.modules if m.startswith('vision.synth')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
