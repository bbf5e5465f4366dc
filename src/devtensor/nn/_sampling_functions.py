"""nn.functional's spatial sampling: affine_grid and grid_sample, with
PyTorch's arguments, coordinate conventions, padding modes, results and
errors, computed with devtensor's operations on the input's device.

Note [Sampling grids]
A grid holds, per output location, a point of the input in normalised
coordinates: -1 and 1 are the centres of the edge pixels when
align_corners, their outer edges otherwise; the last grid dim is (x, y)
or (x, y, z), x indexing the input's last dim.  grid_sample unnormalises
each coordinate, applies the padding mode (border: clamped to the
input; reflection: reflected about the edges, then clamped; zeros: taps
outside read 0) and interpolates: nearest (PyTorch's round half to even),
bilinear or trilinear (2 taps a dim) or bicubic (4 taps a dim, Keys' a =
-0.75, the padding mode applied to each tap's coordinate).  A coordinate
that is not finite (or not an int32) after padding samples nothing
(PyTorch's -100), and so does NaN in every padding mode (border clamps
it to the last pixel in PyTorch's scalar CPU code, to the first in its
CUDA code).  Every tap of every point is read by one take_along_axis of
the input (N, C, flat position) with positions (N, 1, taps * P), so the
weights (N, 1, taps, P) broadcast over the channels with the points
innermost (the channels-last layout's inner dim of C made each product 10
times slower; a gather per tap cost twice the time); the arithmetic is
in the input's dtype, float32 for float16 and bfloat16, as PyTorch's.
"""
import operator

from .. import _C
from .functional import _same_device, _tensor


def _dt():
    import devtensor
    return devtensor


def _base_coordinates(length, align_corners, dtype, device):
    """-1 .. 1 over length points (scaled by (length - 1) / length unless
    align_corners): PyTorch's base grid along one dim."""
    dt = _dt()
    if length <= 1:
        return dt.zeros(length, dtype=dtype, device=device)
    steps = dt.linspace(-1.0, 1.0, length, dtype=dtype, device=device)
    return steps if align_corners else steps * ((length - 1) / length)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine
    maps theta (N, 2, 3) (or (N, 3, 4)) for an output of size (N, C, H, W)
    (or (N, C, D, H, W)), for grid_sample (Note [Sampling grids])."""
    dt = _dt()
    _tensor(theta, "theta")
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = tuple(operator.index(s) for s in size)
    if len(size) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {list(size)}.")
    n = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (n, n + 1):
        raise ValueError(f"Expected a batch of {n}D affine matrices of shape Nx{n}x{n + 1} for size "
                         f"{list(size)}. Got {list(theta.shape)}.")
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {list(size)}")
    if theta.shape[0] != size[0]:
        raise ValueError(f"affine_grid: theta holds {theta.shape[0]} matrices but size asks for a batch of "
                         f"{size[0]}")
    work = _C.float32 if theta.dtype in (_C.float16, _C.bfloat16) else theta.dtype
    spatial = size[2:]
    columns = [_base_coordinates(spatial[n - 1 - k], align_corners, work, theta.device) for k in range(n)]
    base = dt.ones(spatial + (n + 1,), dtype=work, device=theta.device)
    for k in range(n):  # column k (x, y, z) varies along spatial dim n - 1 - k
        shape = [1] * n
        shape[n - 1 - k] = spatial[n - 1 - k]
        base[..., k] = columns[k].reshape(tuple(shape))
    points = base.reshape((1, -1, n + 1))
    grid = dt.matmul(points, dt.swapaxes(theta.astype(work, copy=False), 1, 2))
    return grid.reshape((size[0],) + spatial + (n,)).astype(theta.dtype, copy=False)


_MODES = ("bilinear", "nearest", "bicubic")
_PADDING = ("zeros", "border", "reflection")
_CUBIC_A = -0.75  # as interpolate's bicubic mode


def _reflect(x, twice_low, twice_high):
    """x reflected into [twice_low / 2, twice_high / 2] about its ends."""
    dt = _dt()
    if twice_low == twice_high:
        return x * 0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    x = dt.abs(x - low)
    extra = dt.fmod(x, span)
    flips = dt.floor(x / span)
    return dt.where(dt.fmod(flips, 2) == 0, extra + low, span - extra + low)


def _source(x, length, padding_mode, align_corners):
    """An unnormalised coordinate after the padding mode (zeros: as it is),
    and -100 (outside) where it is not finite or not an int32."""
    dt = _dt()
    if padding_mode == "reflection":
        x = _reflect(x, 0, 2 * (length - 1)) if align_corners else _reflect(x, -1, 2 * length - 1)
    if padding_mode != "zeros":
        x = dt.clip(x, 0, length - 1)
    return dt.where(dt.isfinite(x) & (x > -2.0 ** 31) & (x < 2.0 ** 31 - 1), x, -100.0)


def _unnormalised(coordinate, length, align_corners):
    return (coordinate + 1) / 2 * (length - 1) if align_corners else ((coordinate + 1) * length - 1) / 2


def _cubic_weights(t):
    """The weights of the taps at floor(x) - 1 .. floor(x) + 2 for the fraction t."""
    a = _CUBIC_A

    def near(v):
        return ((a + 2) * v - (a + 3)) * v * v + 1

    def far(v):
        return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
    return far(t + 1), near(t), near(1 - t), far(2 - t)


def _check(input, grid, mode, padding_mode):
    _tensor(input)
    _tensor(grid, "grid")
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in _PADDING:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    _same_device(input, grid)
    sizes = f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
    if input.ndim not in (4, 5) or grid.ndim != input.ndim:
        raise RuntimeError(f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, "
                           f"but got {sizes}")
    if mode == "bicubic" and input.ndim != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if grid.shape[0] != input.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}")
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but "
                           f"got grid with sizes {list(grid.shape)}")
    for d in range(2, input.ndim):
        if input.shape[d] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {d} being empty")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but input has "
                           f"{input.dtype} and grid has {grid.dtype}")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"grid_sampler(): expected floating point input and grid, but got {input.dtype}")


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """input (N, C, H, W) (or (N, C, D, H, W)) sampled at the points of grid
    (N, H_out, W_out, 2) (or (N, D_out, H_out, W_out, 3)), giving (N, C,
    H_out, W_out) (or (N, C, D_out, H_out, W_out)): Note [Sampling grids]."""
    dt = _dt()
    _check(input, grid, mode, padding_mode)
    align_corners = bool(align_corners)
    n, batch, channels = input.ndim - 2, input.shape[0], input.shape[1]
    spatial, out = input.shape[2:], grid.shape[1:-1]
    work = _C.float32 if input.dtype in (_C.float16, _C.bfloat16) else input.dtype
    points, area = 1, 1
    for o in out:
        points *= o
    for length in spatial:
        area *= length
    flat_input = input.astype(work, copy=False).reshape((batch, channels, area))
    g = grid.astype(work, copy=False).reshape((batch, 1, points, n))
    coords = []  # per spatial dim d, the unnormalised coordinate (N, 1, P)
    for d in range(n):
        length = spatial[d]
        x = _unnormalised(g[..., n - 1 - d], length, align_corners)
        coords.append(x if mode == "bicubic" else _source(x, length, padding_mode, align_corners))

    def bounded(i, length):
        """The integer positions i clamped to the input, and whether they lie inside it."""
        return dt.clip(i, 0, length - 1), (i >= 0) & (i < length)

    def position(indices):
        """The flat position of the integer positions indices (one (N, 1, P)
        per dim), clamped, and whether it lies inside the input."""
        flat, inside = None, None
        for d, i in enumerate(indices):
            i, ok = bounded(i, spatial[d])
            inside = ok if inside is None else inside & ok
            flat = i if flat is None else flat * spatial[d] + i
        return flat, inside

    where, weights = [], []  # each tap's (flat position, inside) and weight: all read by one gather
    if mode == "nearest":
        where.append(position([dt.rint(x).astype(_C.int64) for x in coords]))
    elif mode == "bilinear":
        lows = [dt.floor(x) for x in coords]
        for corner in range(2 ** n):
            indices, weight = [], None
            for d in range(n):
                high = (corner >> d) & 1
                w = coords[d] - lows[d] if high else lows[d] + 1 - coords[d]
                weight = w if weight is None else weight * w
                indices.append(lows[d].astype(_C.int64) + high)
            where.append(position(indices))
            weights.append(weight)
    else:  # bicubic: the padding mode applies to each tap's coordinate (4 a dim, then paired)
        lows = [dt.floor(x) for x in coords]
        cubic = [_cubic_weights(x - low) for x, low in zip(coords, lows)]
        along = [[bounded(_source(lows[d] + (k - 1), spatial[d], padding_mode, align_corners).astype(_C.int64),
                          spatial[d]) for k in range(4)] for d in range(2)]
        for j in range(4):
            for i in range(4):
                (row, row_ok), (col, col_ok) = along[0][j], along[1][i]
                where.append((row * spatial[1] + col, row_ok & col_ok))
                weights.append(cubic[0][j] * cubic[1][i])
    flat = dt.concatenate([f for f, _ in where], axis=2)  # (N, 1, taps * P)
    inside = dt.concatenate([i for _, i in where], axis=2)
    values = dt.where(inside, dt.take_along_axis(flat_input, flat, axis=2), 0)  # outside: never read
    result = values if mode == "nearest" else None
    if mode != "nearest":
        values = values.reshape((batch, channels, len(weights), points))
        for k, weight in enumerate(weights):  # added in turn: a sum over the taps' axis took 3 times as long
            term = values[:, :, k] * weight
            result = term if result is None else result + term
    return result.reshape((batch, channels) + tuple(out)).astype(input.dtype, copy=False)


__all__ = ["affine_grid", "grid_sample"]
