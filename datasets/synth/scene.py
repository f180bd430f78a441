"""One photo of a laid-out hand: tiles as 3-D boxes seen by a pinhole camera over a textured table, with
light, shadows, blur and noise. Returns the image and, per tile, its class, its 8 projected corners and the
projected quad of the side that shows on top (the face, or the back of a face-down tile), from which the label
box is taken: the real photos' labels box the face alone, not the tile's body.

Table units are tile widths (layout.py); a tile is 1 wide, LENGTH long, `thick` high, its face layer ivory
and its back layer the set's body colour.

A `Look` (`fanshot synth --randomise`) fixes what the plain renderer draws at random: the camera's quarter-turn
roll and tilt, the tiles' width in the frame, the body colour, the background (procedural or a photograph) and
the distractors, and adds harsher photo effects. Plain renders (no look) draw exactly as they always did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from fanshot.datasets.synth.backgrounds import photo_texture
from fanshot.datasets.synth.distractors import scatter
from fanshot.datasets.synth.faces import BACK_COLOURS, FACE_H, FACE_W, IVORY, back_face
from fanshot.datasets.synth.layout import DOWN, STANDING, Placed
from fanshot.datasets.synth.textures import table_texture

LENGTH = 1.33
SIZES = ((1024, 768), (960, 960), (1024, 640), (768, 1024))
FULL = 0.96  # the most of the frame a randomised photo's tiles span (a close-up's tile nearly fills it)
# Corner i of a box is (x, y, z) = bits (i & 1, i >> 1 & 1, i >> 2) of (width, length, thickness).
TOP, BOTTOM = (6, 7, 5, 4), (0, 1, 3, 2)  # TOP in face-image order: top-left, top-right, bottom-right, bottom-left
SIDES = ((0, 1), (1, 3), (3, 2), (2, 0))  # bottom edges of the four sides, going round
FACE_SRC = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])


def _rounded(radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Coverage of a face with rounded corners, and a rim shading that darkens its last few pixels."""
    yy, xx = np.mgrid[:FACE_H, :FACE_W].astype(np.float32) + 0.5
    dx = np.maximum(np.abs(xx - FACE_W / 2) - (FACE_W / 2 - radius), 0)
    dy = np.maximum(np.abs(yy - FACE_H / 2) - (FACE_H / 2 - radius), 0)
    inside = radius - np.hypot(dx, dy)  # distance to the rounded outline
    return np.clip(inside, 0, 1), (0.78 + 0.22 * np.clip(inside / 4, 0, 1))[..., None]


FACE_ALPHA, FACE_RIM = _rounded(0.09 * FACE_W)


@dataclass(frozen=True)
class Camera:
    rotation: np.ndarray  # rows: camera x (right), y (down), z (forward) in world coordinates
    centre: np.ndarray
    focal: float
    principal: tuple[float, float]

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (points - self.centre) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = self.to_camera(points)
        return self.focal * cam[:, :2] / cam[:, 2:3] + np.float64(self.principal)


@dataclass(frozen=True)
class RenderedTile:
    code: str
    corners: np.ndarray  # (8, 2) image points of the tile's box
    top: np.ndarray  # (4, 2) image points of the side facing the camera: the face, or a face-down tile's back

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The label box: the bounding box of the side on top."""
        (x1, y1), (x2, y2) = self.top.min(axis=0), self.top.max(axis=0)
        return float(x1), float(y1), float(x2), float(y2)


@dataclass(frozen=True)
class Scene:
    image: np.ndarray  # RGB uint8
    tiles: list[RenderedTile]
    jpeg_quality: int
    distractors: tuple[str, ...] = ()  # the kinds drawn on the table


@dataclass(frozen=True)
class Effects:
    """A randomised photo's harsher light and camera, on top of the plain ones."""

    exposure: float  # overall brightness factor
    white_balance: tuple[float, float, float]  # per-channel gain
    glare: float  # strength (0: none) of a hard specular spot on the tile tops
    cast_shadow: float  # depth (0: none) of a soft shadow across part of the frame (a hand, a phone)
    blur: float  # extra Gaussian blur sigma in px (0: none): focus missed
    noise: float  # extra sensor noise sigma (grey levels)
    jpeg_quality: int


@dataclass(frozen=True)
class Look:
    """What a domain-randomised photo fixes instead of the plain renderer's draws."""

    quarter_turns: int  # the camera rolled by this many quarter turns (and a little): tiles show turned 0-270°
    tilt: float  # degrees between the camera's axis and straight down (perspective), 0-60
    tile_width: float  # wanted tile width as a share of the frame's shorter side (less if the tiles must fit)
    body: str  # a key of BACK_COLOURS: the back and body colour
    background: str  # a textures.KINDS kind, or "photo"
    photo: np.ndarray | None  # the photograph of background "photo"
    distractors: np.random.Generator  # the stream the distractors are drawn from
    effects: Effects
    rail: bool = False  # the table's rail across the far side, where the frame reaches past the tiles
    cut_edges: bool = False  # the frame cropped so that its edges cut tiles (see cut_edges)


def tile_corners(tile: Placed, thick: float) -> np.ndarray:
    """The 8 world corners of a placed tile (face on the local +z side)."""
    bits = np.array([[i & 1, i >> 1 & 1, i >> 2] for i in range(8)], np.float64)
    local = (bits - [0.5, 0.5, 0]) * [1.0, LENGTH, thick]
    if tile.pose == STANDING:  # stood on its lower edge, face toward the camera, leaning back a little
        lean = 0.25
        local = local @ np.array([[1, 0, 0], [0, np.sin(lean), np.cos(lean)], [0, -np.cos(lean), np.sin(lean)]])
        local += [0, 0, LENGTH / 2]
    elif tile.pose == DOWN:  # turned over about its long axis: the face is underneath
        local = local * [-1, 1, -1] + [0, 0, thick]
    c, s = np.cos(tile.turn), np.sin(tile.turn)
    return local @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]) + [tile.x, tile.y, 0]


def look_at(rng: np.random.Generator, points: np.ndarray, size: tuple[int, int], high: bool = True,
            fill: tuple[float, float] = (0.7, 0.95), look: Look | None = None,
            widths: np.ndarray | None = None) -> Camera:
    """A camera seeing every point, from a random height (only low when not `high`: standing tiles face it),
    direction and roll, the points spanning a share of the frame drawn from `fill`, off centre. With a `look`:
    its tilt and quarter-turn roll, at the distance where the tiles (`widths`: per tile the two world points
    across the width of its side on top) are `look.tile_width` of the frame's shorter side, the points
    spanning at most FULL of it."""
    w, h = size
    fov = np.radians(rng.uniform(50, 70))
    if look is not None:  # steep views take a narrower lens: the far edge of the frame stays below the horizon
        fov = min(fov, np.radians(2 * (78 - look.tilt)))
    focal = 0.5 * max(w, h) / np.tan(fov / 2)
    lowest = np.degrees(fov) / 2 + 12  # the far edge of the frame stays well below the horizon
    if look is None:
        elevation = np.radians(rng.uniform(lowest, 88 if high else lowest + 10))
    else:
        elevation = np.radians(90 - look.tilt)
    azimuth, roll = np.radians(rng.uniform(-20, 20)), np.radians(rng.normal(0, 6))
    if look is not None:  # a close-up frames its tile squarely, or the tile could not fill the frame
        azimuth, roll = azimuth * (1 - look.tile_width), roll * (1 - look.tile_width) + look.quarter_turns * np.pi / 2
    away = np.array([-np.sin(azimuth), np.cos(azimuth), 0])  # horizontal direction the camera faces
    forward = np.cos(elevation) * away - np.sin(elevation) * np.array([0, 0, 1])
    up = np.sin(elevation) * away + np.cos(elevation) * np.array([0, 0, 1])
    right = np.cross(-up, forward)
    c, s = np.cos(roll), np.sin(roll)
    rotation = np.stack([c * right - s * up, -(s * right + c * up), forward])
    target = points.mean(axis=0)

    def centred(distance: float) -> Camera:
        return Camera(rotation, target - distance * forward, focal, (w / 2, h / 2))

    def span(camera: Camera) -> float:  # the share of the frame the points span
        extent = np.ptp(camera.project(points), axis=0)
        return max(extent[0] / w, extent[1] / h)

    def tile_width(camera: Camera) -> float:  # the median tile's width, as a share of the shorter side
        ends = camera.project(widths.reshape(-1, 3)).reshape(-1, 2, 2)
        return float(np.median(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1))) / min(w, h)

    def fit(distance: float, share: Callable[[Camera], float], wanted: float, steps: int = 4) -> float:
        for _ in range(steps):  # move closer or farther until the share is as wanted
            distance *= share(centred(distance)) / wanted
        return distance

    distance = 1.0 + np.ptp(points[:, :2], axis=0).max() * focal / max(w, h)
    if look is None:
        distance = fit(distance, span, rng.uniform(*fill))
    else:
        distance = fit(distance, tile_width, look.tile_width, 6)
        if span(centred(distance)) > FULL:  # too many tiles for that width: as large as they fit
            distance = fit(distance, span, FULL, 6)
    camera = centred(distance)
    projected = camera.project(points)
    low, high = projected.min(axis=0), projected.max(axis=0)
    margin = 0.03 * np.float64([w, h])
    room = np.float64(size) - 2 * margin - (high - low)
    shift = [margin[k] - low[k] + rng.uniform(0, room[k]) if room[k] > 0 else (size[k] - low[k] - high[k]) / 2
             for k in range(2)]
    return Camera(rotation, camera.centre, focal, (w / 2 + shift[0], h / 2 + shift[1]))


def oriented(size: tuple[int, int], corners: Sequence[np.ndarray], look: Look) -> tuple[int, int]:
    """The frame turned (portrait or landscape) to the way the tiles' extent lies in it after the look's roll
    and tilt, so that a close-up can fill it."""
    extent = np.ptp(np.concatenate(corners)[:, :2], axis=0) * [1, np.cos(np.radians(look.tilt))]
    across, down = extent[::-1] if look.quarter_turns % 2 else extent
    w, h = size
    return (h, w) if (w > h and down > across) or (h > w and across > down) else (w, h)


def render(tiles: Sequence[Placed], faces: Mapping[str, np.ndarray], rng: np.random.Generator,
           look: Look | None = None) -> Scene:
    """Render placed tiles with one face set; every tile lies wholly inside the image. A `look` fixes the
    camera, tile width, body colour, background, distractors and harsher effects (see Look)."""
    w, h = SIZES[rng.choice(len(SIZES), p=[0.45, 0.25, 0.2, 0.1])]
    thick = rng.uniform(0.6, 0.8)
    corners = [tile_corners(tile, thick) for tile in tiles]
    if look is not None:
        w, h = oriented((w, h), corners, look)
    widths = np.stack([c[list((BOTTOM if t.pose == DOWN else TOP)[:2])] for t, c in zip(tiles, corners, strict=True)])
    camera = look_at(rng, np.concatenate(corners), (w, h), all(tile.pose != STANDING for tile in tiles),
                     look=look, widths=widths)
    light = _unit([*rng.uniform(-1, 1, 2), rng.uniform(0.8, 2.5)])
    image, distractors = _table(rng, camera, (w, h), np.concatenate(corners)[:, :2], look)
    if look is not None and look.rail:
        _rail(image, camera, np.concatenate(corners), rng)
    image = _shadows(image, camera, corners, light, rng)
    body = np.float32(BACK_COLOURS[look.body] if look else list(BACK_COLOURS.values())[rng.integers(len(BACK_COLOURS))])
    face_tint = np.float32([rng.uniform(0.95, 1.03), rng.uniform(0.95, 1.02), rng.uniform(0.9, 1.04)])
    style = _Style(body, np.float32(IVORY) * face_tint, rng.uniform(0.45, 0.65), light, face_tint, back_face(body),
                   cv2.INTER_AREA if look is None else cv2.INTER_CUBIC)
    tops = np.zeros((h, w), np.float32)  # where tile tops show: glossy
    order = np.argsort([-camera.to_camera(c.mean(axis=0, keepdims=True))[0, 2] for c in corners])
    for i in order:  # far to near
        _draw_tile(image, tops, camera, corners[i], faces.get(tiles[i].code, style.back), style)
    image = _photo(_gloss(image, tops, rng), rng)
    if look is not None:
        image = camera_effects(image, tops, look.effects, rng)
    rendered = [RenderedTile(t.code, camera.project(c), camera.project(c[list(_top_side(camera, c)[0])]))
                for t, c in zip(tiles, corners, strict=True)]
    quality = look.effects.jpeg_quality if look else int(rng.integers(55, 96))
    scene = Scene(image, rendered, quality, distractors)
    return cut_edges(scene, rng) if look is not None and look.cut_edges else scene


# A tile the frame cuts is labelled when this much of its face shows, and left out when at most SLIVER shows. A crop
# that leaves a tile between the two is not taken: a half tile labelled taught the GPU localiser of 2026-12-04 to
# box the halves of a tile that fills the frame (models/EXPERIMENTS.md).
CUT_KEEP, SLIVER = 0.8, 0.25
CUT_TRIES = 20


def cut_edges(scene: Scene, rng: np.random.Generator) -> Scene:
    """The photo cropped to 70-90 % of each side at a random place, so that its edges cut tiles: each tile cut
    shows at least CUT_KEEP of its face, labelled and boxed to what shows, or at most SLIVER, unlabelled (as a
    person labelling the photo would leave it). Up to CUT_TRIES crops are drawn for one that does; when none does,
    or it would keep no tile, the photo stays whole."""
    h, w = scene.image.shape[:2]
    boxes = np.float64([tile.box for tile in scene.tiles]).reshape(-1, 4)
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    for _ in range(CUT_TRIES):
        size = np.int64([w * rng.uniform(0.7, 0.9), h * rng.uniform(0.7, 0.9)])
        origin = np.int64([rng.integers(0, w - size[0] + 1), rng.integers(0, h - size[1] + 1)])
        inside = np.clip(np.minimum(boxes[:, 2:], origin + size) - np.maximum(boxes[:, :2], origin), 0, None)
        shown = np.prod(inside, axis=1) / areas
        if np.any((shown > SLIVER) & (shown < CUT_KEEP)) or not np.any(shown >= CUT_KEEP):
            continue
        kept = [RenderedTile(tile.code, tile.corners - origin, np.clip(tile.top - origin, 0, size))
                for tile, part in zip(scene.tiles, shown, strict=True) if part >= CUT_KEEP]
        image = scene.image[origin[1]:origin[1] + size[1], origin[0]:origin[0] + size[0]].copy()
        return Scene(image, kept, scene.jpeg_quality, scene.distractors)
    return scene


@dataclass(frozen=True)
class _Style:
    body: np.ndarray  # back-layer colour
    ivory: np.ndarray  # face-layer colour
    face_layer: float  # share of the thickness that is face layer
    light: np.ndarray  # unit vector toward the light
    face_tint: np.ndarray
    back: np.ndarray  # a face-down tile's top
    enlarge: int = cv2.INTER_AREA  # interpolation of a face drawn larger than its image (a close-up's)


def _unit(v: Sequence[float]) -> np.ndarray:
    v = np.asarray(v, np.float64)
    return v / np.linalg.norm(v)


def _shade(normal: np.ndarray, light: np.ndarray) -> float:
    return 0.55 + 0.5 * max(0.0, float(normal @ light))


def _top_side(camera: Camera, corners: np.ndarray) -> tuple[tuple[int, ...], np.ndarray]:
    """The corners (face-image order) of the side the camera sees on top, TOP (the face) or BOTTOM (the back),
    and that side's outward normal."""
    normal = _unit(np.cross(corners[TOP[3]] - corners[TOP[0]], corners[TOP[1]] - corners[TOP[0]]))
    if normal @ (camera.centre - corners.mean(axis=0)) > 0:
        return TOP, normal
    return BOTTOM, -normal


def _draw_tile(image: np.ndarray, tops: np.ndarray, camera: Camera, corners: np.ndarray, art: np.ndarray,
               style: _Style) -> None:
    centre = corners.mean(axis=0)
    side, side_normal = _top_side(camera, corners)
    for a, b in SIDES:
        mid = (corners[a] + corners[b] + corners[a + 4] + corners[b + 4]) / 4
        normal = _unit(mid - centre - ((mid - centre) @ side_normal) * side_normal)
        if normal @ (camera.centre - mid) <= 0:
            continue
        shade = _shade(normal, style.light)
        split = [corners[k] + style.face_layer * (corners[k - 4] - corners[k]) for k in (a + 4, b + 4)]
        layers = ((corners[a], corners[b], split[1], split[0], style.body),
                  (split[0], split[1], corners[b + 4], corners[a + 4], style.ivory))
        for *points, colour in layers:
            _fill(image, camera.project(np.array(points)), colour * shade)
    shade = _shade(side_normal, style.light)
    if side == TOP:
        shade = shade * style.face_tint
    else:  # the face is turned away: the back shows
        art = style.back
    _warp_face(image, tops, art, camera.project(corners[list(side)]), shade, style.enlarge)


def _fill(image: np.ndarray, quad: np.ndarray, colour: np.ndarray) -> None:
    cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), np.clip(colour, 0, 255).tolist(),
                       cv2.LINE_AA, shift=4)


def _warp_face(image: np.ndarray, tops: np.ndarray, art: np.ndarray, quad: np.ndarray,
               shade: np.ndarray | float, enlarge: int = cv2.INTER_AREA) -> None:
    """Map a face image onto a quad of the image (corners in face-image order), lit by `shade`, interpolated
    by `enlarge` where the quad is larger than the face (INTER_AREA enlarges in blocks); mark it in `tops`."""
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, [w, h])
    matrix = cv2.getPerspectiveTransform(FACE_SRC, np.float32(quad - [x0, y0]))
    roi = image[y0:y1, x0:x1]
    flags = enlarge if np.linalg.norm(quad[1] - quad[0]) > FACE_W else cv2.INTER_AREA
    face = cv2.warpPerspective(art * FACE_RIM * np.float32(shade), matrix, (x1 - x0, y1 - y0), flags=flags)
    alpha = cv2.warpPerspective(FACE_ALPHA, matrix, (x1 - x0, y1 - y0))[..., None]
    roi[:] = np.clip(roi * (1 - alpha) + face * alpha, 0, 255).astype(np.uint8)
    np.maximum(tops[y0:y1, x0:x1], alpha[..., 0], out=tops[y0:y1, x0:x1])


def _table(rng: np.random.Generator, camera: Camera, size: tuple[int, int], tiles_xy: np.ndarray,
           look: Look | None = None) -> tuple[np.ndarray, tuple[str, ...]]:
    """The table (a plain render's texture, or the look's background) with a few flat objects (coins, chips,
    paper; with a look, also its distractors: keyboards, dominoes, dice, cards, fingers) clear of the tiles,
    seen through the camera: drawn on the table plane, warped into the image; and the distractors drawn."""
    w, h = size
    corners = _table_points(camera, np.float64([[0, 0], [w, 0], [w, h], [0, h]]))
    low, high = corners.min(axis=0), corners.max(axis=0)
    scale = min(1024 / max(high - low), 60.0)  # texture pixels per tile width
    shape = tuple(int(v) for v in np.maximum(np.ceil((high - low) * scale).astype(int), 8)[::-1])
    if look is not None and look.background == "photo":
        texture = photo_texture(look.photo, rng, shape)
    else:
        texture = table_texture(rng, shape, look.background if look else None)
    _objects(texture, rng, (tiles_xy - low) * scale, scale)
    kinds: list[str] = []
    if look is not None:
        tiles_px = (tiles_xy - low) * scale
        kinds = scatter(texture, look.distractors, int(look.distractors.integers(1, 7)), scale,
                        (*tiles_px.min(axis=0), *tiles_px.max(axis=0)))
    table_px = (corners - low) * scale
    matrix = cv2.getPerspectiveTransform(np.float32(table_px), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    warped = cv2.warpPerspective(np.clip(texture, 0, 255).astype(np.uint8), matrix, (w, h),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return warped, tuple(kinds)


def _objects(texture: np.ndarray, rng: np.random.Generator, tiles_px: np.ndarray, scale: float) -> None:
    """Draw 0-3 coins, chips or paper slips on the texture, away from the tiles' box (pixel coordinates)."""
    h, w = texture.shape[:2]
    keep_out = np.concatenate([tiles_px.min(axis=0) - scale, tiles_px.max(axis=0) + scale])
    for _ in range(rng.choice(4, p=[0.5, 0.25, 0.15, 0.1])):
        centre = rng.uniform([0, 0], [w, h])
        size = scale * rng.uniform(0.4, 1.2)
        reach = 1.8 * size  # covers a turned slip too
        if np.all(centre + reach > keep_out[:2]) and np.all(centre - reach < keep_out[2:]):
            continue
        colour = rng.uniform(30, 255, 3)
        at, radius = tuple(np.round(centre).astype(int)), int(size)
        if rng.random() < 0.6:  # a coin or chip: a disc with a ring
            cv2.circle(texture, at, radius, colour.tolist(), -1, cv2.LINE_AA)
            cv2.circle(texture, at, int(radius * 0.75), (colour * 0.8).tolist(), max(1, radius // 8), cv2.LINE_AA)
        else:  # a slip of paper, turned
            box = cv2.boxPoints((centre, (size * 3, size * 2), rng.uniform(0, 180)))
            cv2.fillConvexPoly(texture, np.round(box).astype(np.int32), (rng.uniform(215, 250, 3)).tolist(),
                               cv2.LINE_AA)


def _gloss(image: np.ndarray, tops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Half the time, a lamp's soft reflection across the tile tops it falls on."""
    if rng.random() < 0.5:
        return image
    h, w = tops.shape
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    rx, ry = rng.uniform(0.05, 0.3, 2) * w
    blob = np.exp(-((xx - cx) / rx) ** 2 - ((yy - cy) / ry) ** 2) * tops * rng.uniform(0.3, 0.8)
    return (image + (255 - image.astype(np.float32)) * blob[..., None]).astype(np.uint8)


RAIL_COLOURS = ((70, 42, 24), (28, 28, 30), (120, 80, 48), (30, 62, 42), (90, 20, 24))  # wood, lacquer, leather


def _rail(image: np.ndarray, camera: Camera, points: np.ndarray, rng: np.random.Generator) -> None:
    """The table's rail, drawn across the far side where the frame reaches past the tiles (`points`): its inner
    side, its top, and the room beyond it, dark."""
    h, w = image.shape[:2]
    away = _unit([*camera.rotation[2, :2], 0.0])  # the camera's view, level
    across = np.array([-away[1], away[0], 0.0])
    frame = _table_points(camera, np.float64([[0, 0], [w, 0], [w, h], [0, h]]))
    far, tiles_far = float(np.max(frame @ away[:2])), float(np.max(points[:, :2] @ away[:2]))
    if far - tiles_far < 1.0:
        return  # no room past the tiles
    inner = rng.uniform(tiles_far + 0.6, far - 0.3)
    lateral = frame @ across[:2]
    left, right = lateral.min() - 5, lateral.max() + 5
    height, width = rng.uniform(0.4, 0.9), rng.uniform(1.0, 2.5)
    colour = np.float32(RAIL_COLOURS[rng.integers(len(RAIL_COLOURS))]) * rng.uniform(0.8, 1.2)

    def quad(along: tuple[float, float, float, float], z: tuple[float, float, float, float]) -> np.ndarray:
        ends = (left, right, right, left)
        return np.array([a * away + e * across + [0, 0, zz] for a, e, zz in zip(along, ends, z, strict=True)])

    top = inner + width
    _fill(image, camera.project(quad((inner,) * 4, (0, 0, height, height))), colour * 0.55)  # inner side
    _fill(image, camera.project(quad((inner, inner, top, top), (height,) * 4)), colour * 0.9)  # top
    room = np.float32(rng.uniform(15, 70, 3))
    _fill(image, camera.project(quad((top, top, far + 10, far + 10), (height,) * 4)), room)


def _table_points(camera: Camera, pixels: np.ndarray) -> np.ndarray:
    """Where the rays through image pixels meet the table (z = 0), in table x, y."""
    rays = np.column_stack([(pixels - np.float64(camera.principal)) / camera.focal, np.ones(len(pixels))])
    world = rays @ camera.rotation
    t = -camera.centre[2] / np.minimum(world[:, 2], -1e-3)
    return camera.centre[:2] + t[:, None] * world[:, :2]


def _shadows(image: np.ndarray, camera: Camera, corners: Sequence[np.ndarray], light: np.ndarray,
             rng: np.random.Generator) -> np.ndarray:
    """Darken the table under and beside each tile, away from the light, softly."""
    mask = np.zeros(image.shape[:2], np.float32)
    for box in corners:
        on_table = box - np.outer(box[:, 2] / light[2], light)
        hull = cv2.convexHull(np.float32(camera.project(np.vstack([on_table, box * [1, 1, 0]]))))
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    tile_px = np.linalg.norm(np.subtract(*camera.project(corners[0][[0, 1]])))
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, tile_px * rng.uniform(0.05, 0.25)))
    return (image * (1 - rng.uniform(0.3, 0.6) * mask[..., None])).astype(np.uint8)


def _photo(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light and colour cast, lens blur or a little motion, sensor noise."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / max(w, h)
    vignette = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w + h * h) * 4
    light = rng.uniform(0.85, 1.1) + rng.uniform(0, 0.35) * ramp - rng.uniform(0, 0.25) * vignette
    cast = np.float32(rng.uniform(0.9, 1.08, 3))
    out = image.astype(np.float32) * light[..., None] * cast
    if rng.random() < 0.2:
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, rotation, (length, length)))
    else:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    out += rng.normal(0, rng.uniform(0, 6), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def camera_effects(image: np.ndarray, tops: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    """A randomised photo's harsher light and camera (`effects`), on top of the plain ones: exposure and white
    balance, a hard glare spot on a tile top (`tops`: where tile tops show), a soft shadow cast across part of
    the frame, missed focus, sensor noise."""
    h, w = tops.shape
    out = image.astype(np.float32) * (effects.exposure * np.float32(effects.white_balance))
    ys, xs = np.nonzero(tops > 0.5)
    if effects.glare > 0 and len(ys):
        k = int(rng.integers(len(ys)))
        radius, squash = rng.uniform(0.02, 0.08) * max(w, h), rng.uniform(1, 3)
        x0, x1 = max(0, int(xs[k] - radius)), min(w, int(xs[k] + radius) + 1)
        y0, y1 = max(0, int(ys[k] - radius / squash)), min(h, int(ys[k] + radius / squash) + 1)
        yy, xx = np.ogrid[y0:y1, x0:x1]
        spot = np.clip(2 - 2 * np.hypot(xx - xs[k], (yy - ys[k]) * squash) / radius, 0, 1)  # a hard-edged disc
        region = out[y0:y1, x0:x1]
        region += (255 - region) * (effects.glare * spot * tops[y0:y1, x0:x1])[..., None]
    if effects.cast_shadow > 0:
        angle = rng.uniform(0, 2 * np.pi)
        yy, xx = np.ogrid[:h, :w]
        along = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / max(w, h)
        edge = rng.uniform(-0.3, 0.2)
        shade = 1 - effects.cast_shadow * np.clip((along - edge) / rng.uniform(0.02, 0.1), 0, 1)
        out *= shade.astype(np.float32)[..., None]
    if effects.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), effects.blur)
    if effects.noise > 0:
        out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(effects.noise)
    return np.clip(out, 0, 255).astype(np.uint8)
