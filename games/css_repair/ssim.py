"""Structural similarity (SSIM) of two screenshots, the score VAB-CSS judges a repair by.

VAB-CSS counts a repair as a success when the final rendering's SSIM to the target is above
0.9, and builds its tasks from corruptions that bring it below 0.8 (docs/reference/web.md,
"VAB CSS"). This is the index of Wang, Bovik, Sheikh and Simoncelli (2004) with the constants
and window of that paper and of scikit-image's ``structural_similarity`` with
``gaussian_weights=True``: an 11x11 Gaussian window of sigma 1.5, ``K1 = 0.01``,
``K2 = 0.03``, dynamic range 255, on the luminance of the two images, averaged over the
positions where the window fits inside the image.

Written with NumPy instead of depending on scikit-image: the index is a handful of filtered
moments, scikit-image would add a large dependency tree for one function, and the unit tests
(``tests/css_repair/test_ssim.py``) pin this implementation against closed-form values and a
direct window-by-window computation.
"""

from __future__ import annotations

import numpy as np

K1 = 0.01
K2 = 0.03
SIGMA = 1.5
WINDOW = 11
DATA_RANGE = 255.0


def luminance(image: np.ndarray) -> np.ndarray:
    """An RGB(A) or grey image as float64 luminance (ITU-R BT.601 weights, as PIL's "L")."""
    a = np.asarray(image, dtype=np.float64)
    if a.ndim == 2:
        return a
    if a.ndim == 3 and a.shape[2] in (3, 4):
        return a[..., 0] * 0.299 + a[..., 1] * 0.587 + a[..., 2] * 0.114
    raise ValueError(f"not an image: shape {a.shape}")


def gaussian_taps(size: int = WINDOW, sigma: float = SIGMA) -> np.ndarray:
    """The normalised one-dimensional Gaussian window (the 2-D window is its outer product)."""
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2
    taps: np.ndarray = np.exp(-(x * x) / (2 * sigma * sigma))
    out: np.ndarray = taps / taps.sum()  # typed: numpy 2.4's stubs make this Any
    return out


def _filter_valid(stack: np.ndarray, taps: np.ndarray) -> np.ndarray:
    """Each image of ``stack`` (n x H x W) correlated with the separable window, only where
    the window fits entirely."""
    n = len(taps)
    _, h, w = stack.shape
    rows = np.zeros((stack.shape[0], h - n + 1, w), dtype=stack.dtype)
    for i, t in enumerate(taps):
        rows += t * stack[:, i:i + h - n + 1, :]
    out = np.zeros((stack.shape[0], h - n + 1, w - n + 1), dtype=stack.dtype)
    for j, t in enumerate(taps):
        out += t * rows[:, :, j:j + w - n + 1]
    return out


def ssim_map(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The local SSIM at every window position of two equally sized images."""
    x, y = luminance(a), luminance(b)
    if x.shape != y.shape:
        raise ValueError(f"images differ in size: {x.shape} and {y.shape}")
    if min(x.shape) < WINDOW:
        raise ValueError(f"images must be at least {WINDOW} pixels on each side")
    # The five local moments are filtered together in float32 (three times faster than
    # float64 on a screenshot); centring the values on 0 first keeps the squares small, so
    # the variances lose no precision that matters next to C2 (the index agrees with a float64
    # computation to 1e-4; tests/css_repair/test_ssim.py). The means are shifted back.
    mid = DATA_RANGE / 2
    xc, yc = (x - mid).astype(np.float32), (y - mid).astype(np.float32)
    moments = _filter_valid(np.stack([xc, yc, xc * xc, yc * yc, xc * yc]),
                            gaussian_taps().astype(np.float32)).astype(np.float64)
    cx, cy, exx, eyy, exy = moments
    sxx = exx - cx * cx
    syy = eyy - cy * cy
    sxy = exy - cx * cy
    mx, my = cx + mid, cy + mid
    # scikit-image scales the (biased) window variances to unbiased ones; so do we, so that a
    # figure here means what it means there.
    n = WINDOW * WINDOW
    scale = n / (n - 1)
    sxx, syy, sxy = sxx * scale, syy * scale, sxy * scale
    c1 = (K1 * DATA_RANGE) ** 2
    c2 = (K2 * DATA_RANGE) ** 2
    top = (2 * mx * my + c1) * (2 * sxy + c2)
    bottom = (mx * mx + my * my + c1) * (sxx + syy + c2)
    result: np.ndarray = top / bottom
    return result


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM of two equally sized images (1.0 for identical ones)."""
    return float(ssim_map(a, b).mean())


__all__ = ["ssim", "ssim_map", "luminance", "gaussian_taps", "K1", "K2", "SIGMA", "WINDOW"]
